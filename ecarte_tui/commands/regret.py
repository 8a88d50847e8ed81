"""``ecarte regret DECISION``: how much the expert's choices before the play could still gain."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys

from ..bots.arena import POOL_START, derive_seed, parse_presets
from ..bots.regret import DECISIONS, Check, check, positions, summarize
from ..engine.match import Match
from .arg_types import count

HELP = {
    "first": "the elder's first play or propose",
    "decide": "play or propose after an exchange",
    "answer": "the dealer's accept or refuse",
    "discard": "the discards",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("decision", choices=list(DECISIONS),
                   help="; ".join(f"{k}: {v}" for k, v in HELP.items()))
    p.add_argument("--positions", type=int, default=40,
                   help="positions from expert-vs-classic matches (default 40)")
    p.add_argument("--deals", type=int, default=120,
                   help="deals each choice is played out on (default 120)")
    p.add_argument("--seed", type=int, default=1, help="seed for the matches and the deals")
    p.add_argument("--rules", default="classic", metavar="PRESET",
                   help="one rules preset (default classic)")
    p.add_argument("--jobs", type=count(), default=1,
                   help="worker processes (results do not depend on it)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _fail(message: str) -> int:
    print(f"ecarte regret: {message}", file=sys.stderr)
    return 2


def _se(value: object) -> str:
    return f"{value:.4f}" if isinstance(value, float) else "?"


def _points(value: object) -> str:
    return f"{100 * value:.2f}" if isinstance(value, float) else "?"


def _check(task: tuple[Match, str, int, int]) -> Check:
    return check(*task)


def run(args: argparse.Namespace) -> int:
    if args.positions < 1:
        return _fail("--positions must be at least 1")
    if args.deals < 2:
        return _fail("--deals must be at least 2")
    try:
        presets = parse_presets(args.rules)
    except ValueError as e:
        return _fail(f"--rules: {e}")
    if len(presets) != 1:
        return _fail("--rules: name one preset")
    rules = presets[0]
    found = positions(rules, args.decision, args.seed, args.positions)
    tasks = [(m, args.decision, derive_seed("expert", args.seed, i), args.deals)
             for i, m in enumerate(found.positions)]
    if args.jobs > 1:
        with multiprocessing.get_context(POOL_START).Pool(args.jobs) as pool:
            checks = pool.map(_check, tasks, chunksize=1)
    else:
        checks = [_check(t) for t in tasks]
    summary = summarize(checks, found.per_match)
    summary.update(decision=args.decision, rules=rules.preset, seed=args.seed,
                   matches=found.matches)
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"ecarte regret {args.decision} ({HELP[args.decision]}), rules {rules.preset}, "
          f"seed {args.seed}: {summary['positions']} positions, {summary['deals']} deals each")
    print(f"its choice is the treatises' in {summary['choice_is_treatise']} of them")
    print(f"its choice beats the alternative by {summary['advantage']:+.4f} "
          f"(± {_se(summary['advantage_se'])}) of P(win the match), played out")
    print(f"its search's estimate of that difference is off by {summary['bias']:+.4f} "
          f"(± {_se(summary['bias_se'])})")
    print(f"significantly worse than the alternative (2 SE): {summary['worse']}; "
          f"better: {summary['better']}")
    print(f"at most {summary['loss_bound']:.4f} of P(win the match) lost per decision "
          "(mean of the losses played out, their noise included)")
    print(f"choosing by these play-outs instead would gain {summary['switch_gain']:+.4f} "
          f"(± {_se(summary['switch_gain_se'])}) per decision "
          "(half the deals choose, the other half measure)")
    print(f"the expert meets {summary['per_match']:.2f} of these decisions per match "
          f"(over the {found.matches} matches the positions came from): per match at most "
          f"{_points(summary['loss_bound_per_match'])} points of match wins lost, and "
          f"{100 * summary['switch_gain_per_match']:+.2f} "
          f"(± {_points(summary['switch_gain_per_match_se'])}) by choosing on the play-outs")
    return 0
