"""``ecarte join HOST [-p PORT] [TABLE]``: the system ``ssh`` with the right options.

Joining needs nothing but OpenSSH; this only saves typing the options.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys

from ecarte_tui.commands.arg_types import port_number

CODE = re.compile(r"^[A-Za-z]{4}$")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("host", help="the server, e.g. club.example.org or user@club.example.org")
    p.add_argument("table", nargs="?", help="a table code to sit at directly, e.g. KXRT")
    p.add_argument("-p", "--port", type=port_number, default=2222, help="the server's port (2222)")
    p.add_argument("--watch", action="store_true", help="watch the table instead of sitting")


def ssh_command(args: argparse.Namespace, ssh: str = "ssh") -> list[str]:
    cmd = [ssh, "-t", "-p", str(args.port), args.host]
    if args.table:
        cmd += ["watch" if args.watch else "join", args.table.upper()]
    return cmd


def run(args: argparse.Namespace) -> int:
    if args.table and not CODE.match(args.table):
        print(f"ecarte join: {args.table!r} is not a table code (four letters)", file=sys.stderr)
        return 2
    ssh = shutil.which("ssh")
    if ssh is None:
        print("ecarte join: the OpenSSH client 'ssh' is not installed", file=sys.stderr)
        return 127
    cmd = ssh_command(args, ssh)
    os.execv(ssh, cmd)
    return 0  # pragma: no cover - execv does not return
