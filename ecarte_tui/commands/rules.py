"""``ecarte rules [PRESET]``: the rule book in the terminal, the page F2 shows at the table.

The game ships no rule-book file, so this is where a player reads the rules before sitting
down: every rule with the source documents (000-004) it comes from. Only Rich is imported
(Textual's own renderer), so the command starts fast and its output can be piped.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap

from ..engine import PRESET_DESCRIPTIONS, PRESETS

MAX_WIDTH = 100  # paragraphs wider than this are hard to read, however wide the terminal
UNKNOWN = 2  # the exit status of a preset that does not exist, as for a bad argument


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("preset", nargs="?", metavar="PRESET",
                   help=f"a rules preset: {', '.join(PRESETS)} (without one: the list)")
    p.add_argument("--list", action="store_true", help="list the presets and their sources")
    p.add_argument("--markdown", action="store_true",
                   help="print the page as Markdown source instead of formatted text")


def _width() -> int:
    return max(40, min(MAX_WIDTH, shutil.get_terminal_size((80, 24)).columns))


def preset_list(width: int = 80) -> str:
    """Every preset with its source and what sets it apart; the default is marked."""
    lines = ["Rules presets ('ecarte rules PRESET' prints one, every rule with its source):", ""]
    for name, description in PRESET_DESCRIPTIONS.items():
        default = "  (the default)" if name == "classic" else ""
        lines.append(f"  {name}{default}")
        lines += textwrap.wrap(description, width - 6, initial_indent="      ",
                               subsequent_indent="      ")
    lines += [""] + textwrap.wrap(
        "Each preset is one source document, numbered as in brackets; the rules of a preset "
        "end with the titles of all five.", width)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    width = _width()
    if args.list or args.preset is None:
        print(preset_list(width))
        return 0
    preset = args.preset.lower()  # "Classic" is no other preset than "classic"
    if preset not in PRESETS:
        print(f"ecarte rules: there is no preset {args.preset!r}; the presets are "
              f"{', '.join(PRESETS)} (see `ecarte rules --list`).", file=sys.stderr)
        return UNKNOWN
    from ..ui.rules_text import rules_markdown

    text = rules_markdown(PRESETS[preset])
    if args.markdown:
        sys.stdout.write(text)
        return 0
    from rich.console import Console
    from rich.markdown import Markdown

    console = Console(width=width, highlight=False)
    with console.capture() as captured:
        console.print(Markdown(text))
    # Rich pads every line to the width: trailing spaces are noise in a pipe or a file
    sys.stdout.write("\n".join(line.rstrip(" ") for line in captured.get().split("\n")))
    return 0
