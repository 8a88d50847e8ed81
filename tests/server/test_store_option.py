"""The club's PostgreSQL URL can come from ``$ECARTE_STORE`` rather than the command line,
where ``ps`` shows it, password and all, to every user of the machine; a password given
on the command line is warned about, once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from server_harness import Seat
from server_process import ServerProcess, free_port

from ecarte_tui.cli import main
from net.commands import status as status_command
from net.commands.store_option import STORE_ENV


def _command_lines(pid: int) -> list[str]:
    """The command lines of ``pid`` and its children, as ``ps`` shows them."""
    lines = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(proc.name) == pid or int(stat[1]) == pid:  # (stat's 4th field: the parent)
            lines.append(cmdline)
    return lines


async def test_a_club_served_from_the_environment_shows_no_url_to_ps(
        postgres_url, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(STORE_ENV, postgres_url)
    server = ServerProcess(tmp_path / "data", free_port(), "--workers", "2")
    banner = await server.start()
    try:
        assert "with every other machine's" in banner, banner  # (a PostgreSQL club's note)
        assert "warning" not in banner
        assert server.proc is not None
        lines = _command_lines(server.proc.pid)
        assert len(lines) == 3, lines  # the supervisor and its two workers
        assert not any("postgresql" in line for line in lines), lines
        gus = await Seat.connect(server.port, "gus")
        await gus.wait_for("C L U B")
        for _ in range(100):  # (each worker says it within a few seconds)
            status = status_command.read_status(postgres_url, time.time())
            if len(status.serving) == 2 and sum(r.sessions for r in status.serving) == 1:
                break
            await asyncio.sleep(0.1)
        assert main(["status"]) == 0  # the same club, from the same variable
        out = capsys.readouterr().out
        assert "Club: PostgreSQL database" in out and "In all: 1 session" in out, out
        await gus.close()
    finally:
        assert await server.stop() == 0


async def test_a_password_on_the_command_line_is_warned_about_once(postgres_url, tmp_path):
    """(The test cluster trusts local connections: the password is never checked.)"""
    url = postgres_url.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    assert "hunter2" in url
    server = ServerProcess(tmp_path / "data", free_port(), "--workers", "2", "--store", url)
    banner = await server.start()
    try:
        assert banner.count("is shown by ps to every user of this machine") == 1, banner
        assert f"${STORE_ENV}" in banner
    finally:
        assert await server.stop() == 0
