"""``ecarte host``: play in this terminal and let a friend join your table over SSH.

One process, one table: your seat is this terminal, your friend's is the first SSH session
(``ssh -p 2222 YOUR-HOST``); anyone else who connects watches.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from ecarte_tui.commands.arg_types import port_number, seconds
from ecarte_tui.engine import PRESETS


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0)")
    p.add_argument("--port", type=port_number, default=2222, help="port to listen on (2222)")
    p.add_argument("--public-host", metavar="NAME",
                   help="the name your friend types (default: this machine's)")
    p.add_argument("--name", help="your name at the table (default: your login name)")
    p.add_argument("--rules", choices=list(PRESETS), default="classic", help="rule preset")
    p.add_argument("--target", type=int, metavar="N", help="points to win a game")
    p.add_argument("--games", type=int, metavar="N", help="games to win the match")
    p.add_argument("--ace-high", action="store_true", help="aces rank above kings")
    p.add_argument("--data-dir", type=Path, default=None,
                   help="host key and archive (default: the user data folder, host/)")
    p.add_argument("--reconnect-timeout", type=seconds, default=300.0, metavar="SECONDS",
                   help="how long your friend keeps the seat after dropping (300)")


def _options(args: argparse.Namespace) -> object:
    from net.club import TableOptions

    overrides: list[tuple[str, str]] = []
    if args.target is not None:
        overrides.append(("target", str(args.target)))
    if args.games is not None:
        overrides.append(("games_to_win", str(args.games)))
    if args.ace_high:
        overrides.append(("ace_high", "yes"))
    return TableOptions(args.rules, tuple(overrides), "human")


async def host(args: argparse.Namespace) -> int:
    from platformdirs import user_data_dir

    from ecarte_tui.engine import RulesError
    from net.club import TableOptions
    from net.game_server import ServerConfig
    from net.screens.host_game import HostApp, HostTable, local_name, stop_hosting
    from net.ssh.server import start_server

    options = _options(args)
    assert isinstance(options, TableOptions)
    try:
        options.check()
    except RulesError as e:
        print(f"ecarte host: {e}", file=sys.stderr)
        return 2
    data_dir = (args.data_dir or Path(user_data_dir("ecarte", appauthor=False)) / "host")
    table = HostTable(options, local_name(args.name), data_dir / "archive",
                      reconnect_timeout=args.reconnect_timeout)
    try:
        server = await start_server(table.make_app, host=args.host, port=args.port,
                                    data_dir=data_dir)
    except OSError as e:
        print(f"ecarte host: cannot listen on {args.host}:{args.port}: {e.strerror or e}",
              file=sys.stderr)
        return 1
    reach = ServerConfig(data_dir, host=args.host, public_host=args.public_host).reach_host()
    table.join_command = server.join_command(reach)
    table.fingerprint = server.host_key_fingerprint
    print(f"Hosting table {table.lt.code}; a friend joins with: {table.join_command}\n"
          f"host key fingerprint: {server.host_key_fingerprint}", flush=True)
    app = HostApp(table)
    try:
        result = await app.run_async()
    finally:
        await stop_hosting(server)
        table.store.close()
    print(f"A friend could join with: {table.join_command}")
    return int(result or 0)


def run(args: argparse.Namespace) -> int:
    return asyncio.run(host(args))
