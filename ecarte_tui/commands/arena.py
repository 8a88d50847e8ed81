"""``ecarte arena BOT1 BOT2``: play bots against each other with duplicate deals."""

from __future__ import annotations

import argparse
import json
import sys

from ..bots.arena import ARENA_LEVELS, format_table, run_pairs, summarize
from ..engine.rules import PRESETS, Rules


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("bot1", choices=ARENA_LEVELS, metavar="BOT1", help="random, easy, classic, "
                   "expert (or oracle, which sees all cards)")
    p.add_argument("bot2", choices=ARENA_LEVELS, metavar="BOT2", help="the other bot")
    p.add_argument("--games", type=int, default=200,
                   help="matches to play, rounded up to an even number (default 200)")
    p.add_argument("--seed", type=int, default=1, help="seed for the deals and the bots")
    p.add_argument("--rules", choices=list(PRESETS), default="classic", help="rules preset")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (results do not "
                   "depend on it)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("ecarte arena: --games must be at least 1", file=sys.stderr)
        return 2
    pairs = (args.games + 1) // 2
    levels = (args.bot1, args.bot2)
    rules = Rules.named(args.rules)
    show = not args.json and sys.stderr.isatty()

    def progress(done: int) -> None:
        if show and (done % 10 == 0 or done == pairs):
            print(f"\r{2 * done}/{2 * pairs} matches", end="", file=sys.stderr, flush=True)

    results = run_pairs(levels, rules, pairs, args.seed, max(1, args.jobs), progress)
    if show:
        print(file=sys.stderr)
    summary = summarize(levels, results, rules, args.seed)
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"ecarte arena {args.bot1} {args.bot2}")
        print(format_table(summary))
    return 0
