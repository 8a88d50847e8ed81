"""``ecarte bench ssh``: scripted SSH players against a real server, and what they need (a
light terminal reader and a player that reads its screen)."""

from net.bench.ssh_bench import run_ssh_bench

__all__ = ["run_ssh_bench"]
