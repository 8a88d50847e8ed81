"""The ``ecarte`` command: each subcommand lives in its own module under ``commands/``.

Modules are imported only when their subcommand runs, so ``ecarte replay`` never pays for
Textual or asyncssh.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# subcommand -> (module, one-line help); each module has add_arguments(parser) and run(args)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "play": ("ecarte_tui.commands.play", "sit down at the table against the bot"),
    "rules": ("ecarte_tui.commands.rules", "the rules of a preset, every rule with its source"),
    "replay": ("ecarte_tui.commands.replay", "check an ECN record and show it move by move"),
    "arena": ("ecarte_tui.commands.arena", "play bots against each other and measure them"),
    "bench": ("ecarte_tui.commands.bench", "print speed figures (engine, ui, ssh)"),
    "regret": ("ecarte_tui.commands.regret",
               "how much the expert's choices before the play could still gain"),
    "serve": ("net.commands.serve", "run the SSH game server"),
    "host": ("net.commands.host", "play here and let a friend join over SSH"),
    "join": ("net.commands.join", "join a table on an Écarté server with ssh"),
    "backup": ("net.commands.backup",
               "the server's club, host key and archive in one file, while it runs"),
    "restore": ("net.commands.restore", "put a backup back into a stopped server's data"),
    "status": ("net.commands.status",
               "how busy the server is: its processes, sessions and tables, summed"),
    "players": ("net.commands.players",
                "the club's players: find one (his key, for the block list), rename one"),
    "tables": ("net.commands.tables",
               "the club's unfinished tables: who, since when, chips in escrow; close one"),
}


def build_parser(available: dict[str, object]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ecarte",
        description="Écarté, the 19th-century French card game, in the terminal.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in SUBCOMMANDS.items():
        module = available.get(name)
        if module is None:
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)  # type: ignore[attr-defined]
        p.set_defaults(_module=module)
    return parser


def version_text() -> str:
    """"ecarte 0.1.0": the installed distribution's version (what a bug report needs)."""
    return f"ecarte {package_version()}"


def package_version() -> str:
    """"0.1.0", or "(not installed)" when run from a checkout that was never installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ecarte-tui")
    except PackageNotFoundError:
        return "(not installed)"


def _load(name: str) -> object | None:
    try:
        return importlib.import_module(SUBCOMMANDS[name][0])
    except ModuleNotFoundError as e:
        if e.name and SUBCOMMANDS[name][0].startswith(e.name):
            return None  # not built yet
        raise


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list == ["--version"]:  # without importing every command's module
        print(version_text())
        return 0
    wanted = next((a for a in args_list if not a.startswith("-")), None)
    if wanted in SUBCOMMANDS:
        available = {wanted: _load(wanted)}
    elif not args_list:
        available = {"play": _load("play")}
        if available["play"] is not None:
            args_list = ["play", "--home"]
    else:
        available = {n: _load(n) for n in SUBCOMMANDS}
    parser = build_parser(available)
    args = parser.parse_args(args_list)
    module = getattr(args, "_module", None)
    if module is None:
        parser.print_help()
        return 2
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `ecarte replay x.ecn | head`: not an error of ours
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
