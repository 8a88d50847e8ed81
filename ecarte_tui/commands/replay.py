"""``ecarte replay FILE [--json]``: check a record and show it (ECN, described in the README's
"Game records", the section this command's help points to)."""

from __future__ import annotations

import argparse
import json
import sys

from ..engine import EcnError, read_ecn, summary
from ..engine.ecn import SYNTAX, Record
from ..engine.replay_text import replay_lines

FORFEIT_HELP = """\
ECN, the record format (tags, the hand's lines, one action per line, cards
such as KS or TH, the exit statuses), is described in the README, section
"Game records"; the rules its tags name are printed by `ecarte rules PRESET`.

A match ended by forfeit: the tag [Forfeit "B"] says that B did not come back in
time (A for A). It changes no card: read at the end of the record, it gives the
game in progress (if any) and the match to the other seat, so --json shows that
seat as games[-1].winner and match_winner, and the text replay says so. A value
other than A or B is not ECN (exit 2); a Forfeit tag on a match already won is a
rule break (exit 1)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.formatter_class = argparse.RawDescriptionHelpFormatter  # the epilog's lines as written
    p.epilog = FORFEIT_HELP
    p.add_argument("file", metavar="FILE", help="an ECN record (- for standard input)")
    p.add_argument("--json", action="store_true",
                   help="print the record's summary as one JSON object (README: Game records)")
    p.add_argument(
        "--table",
        action="store_true",
        help="show the game on the Textual table, stepping with the arrow keys",
    )


def load(path: str) -> tuple[Record | None, str | None, int]:
    """Read and check a record: (record, error line, exit status)."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
        text = data.decode("utf-8-sig")  # a BOM from a Windows editor is not an error
    except OSError as e:
        return None, f"{name}:0: cannot read the file: {e.strerror or e}", SYNTAX
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        return None, f"{name}:{line}: this is not UTF-8 text", SYNTAX
    try:
        return read_ecn(text), None, 0
    except EcnError as e:
        return None, e.located(name), e.status


def run(args: argparse.Namespace) -> int:
    record, error, status = load(args.file)
    if record is None:
        print(error, file=sys.stderr)
        return status
    if args.json:
        json.dump(summary(record), sys.stdout)
        sys.stdout.write("\n")
        return 0
    if args.table:
        from ..ui.replay_app import run_replay_app  # type: ignore[import-not-found]

        return int(run_replay_app(record) or 0)
    for line in replay_lines(record):
        print(line)
    return 0
