"""``ecarte arena BOT1 BOT2``: play bots against each other with duplicate deals."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from ..bots.arena import (
    PRESET_GROUPS,
    check_level,
    format_table,
    parse_presets,
    run_presets,
    summarize_presets,
)
from ..bots.paired import BaselineError, compare, format_paired, load_baseline
from ..bots.spec import EXPERT_OPTIONS
from ..engine.rules import PRESETS
from .arg_types import count


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("bot1", type=_level, metavar="BOT1", help="random, easy, classic, "
                   "expert (or oracle, which sees all cards, the stock's order included, "
                   "and takes the best action: a ceiling; oracle-hand, oracle-preplay, "
                   "oracle-cards: the same given one part of the truth, to measure where it "
                   "pays); the expert takes options to try a change: "
                   f"expert:KEY=VALUE,... with KEY among {', '.join(EXPERT_OPTIONS)}")
    p.add_argument("bot2", type=_level, metavar="BOT2", help="the other bot")
    p.add_argument("--games", type=int, default=200,
                   help="matches to play per preset, rounded up to an even number "
                   "(default 200)")
    p.add_argument("--seed", type=int, default=1, help="seed for the deals and the bots")
    groups = ", ".join(f"{k} = {','.join(v)}" for k, v in PRESET_GROUPS.items())
    p.add_argument("--rules", default="classic", metavar="PRESETS",
                   help=f"rules presets separated by commas ({', '.join(PRESETS)}) or a "
                   f"group ({groups}); each is played on the same deals and reported on "
                   "its own (default classic)")
    p.add_argument("--jobs", type=count(), default=1, help="worker processes (results do not "
                   "depend on it)")
    p.add_argument("--record", metavar="DIR", type=Path, default=None,
                   help="write every match to DIR as ECN (PRESET-pairNNNN-[un]swapped.ecn), "
                   "for `ecarte replay`")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--baseline", metavar="FILE", type=Path, default=None,
                   help="the --json output of an earlier run with the same seed: say, "
                   "match by match on the same deals, how much better or worse BOT1 does "
                   "now")


def _level(spec: str) -> str:
    try:
        return check_level(spec)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _fail(message: str) -> int:
    print(f"ecarte arena: {message}", file=sys.stderr)
    return 2


def _check_record_dir(folder: Path) -> str | None:
    """Why records cannot be written to ``folder`` (created if missing), or None."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
    except OSError as e:
        return f"cannot write records to {str(folder)!r}: {e.strerror or e}"
    return None


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        return _fail("--games must be at least 1")
    try:
        presets = parse_presets(args.rules)
    except ValueError as e:
        return _fail(f"--rules: {e}")
    if args.record is not None:
        problem = _check_record_dir(args.record)
        if problem:
            return _fail(problem)
    baseline = None
    if args.baseline is not None:
        try:
            baseline = load_baseline(args.baseline, args.seed, [r.preset for r in presets])
        except BaselineError as e:
            return _fail(f"--baseline: {e}")
    pairs = (args.games + 1) // 2
    total = pairs * len(presets)
    levels = (args.bot1, args.bot2)
    show = not args.json and sys.stderr.isatty()

    def progress(done: int) -> None:
        if show and (done % 10 == 0 or done == total):
            print(f"\r{2 * done}/{2 * total} matches", end="", file=sys.stderr, flush=True)

    try:
        results = run_presets(
            levels, presets, pairs, args.seed, max(1, args.jobs), progress, args.record
        )
    except OSError as e:  # a record that could not be written after all (disk full...)
        return _fail(f"cannot write a record: {e.strerror or e}")
    if show:
        print(file=sys.stderr)
    summary = summarize_presets(levels, results, args.seed, args.record)
    paired = None
    if baseline is not None:
        try:
            paired = compare(summary, baseline)
        except BaselineError as e:
            return _fail(f"--baseline: {e}")
        summary["baseline"] = {
            "file": str(args.baseline),
            "presets": {r.preset: {"matches": r.matches, "win_rate": round(r.rate, 4),
                                   "baseline_win_rate": round(r.base_rate, 4),
                                   "difference": round(r.diff, 4),
                                   "ci95_half_width": round(r.half_width, 4),
                                   "differ": r.differ} for r in paired},
        }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"ecarte arena {args.bot1} {args.bot2}")
        print(format_table(summary))
        if paired is not None:
            print()
            print(format_paired(paired, args.bot1, args.baseline, baseline))
        if args.record is not None:
            print(f"\n{2 * total} records written to {args.record}/ (ecarte replay FILE)")
    return 0
