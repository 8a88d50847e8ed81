"""``ecarte bench engine|ui|ssh|store``: figures printed by the project, not timed unit
tests."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .arg_types import count, positive_seconds, seconds


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("what", choices=["engine", "ui", "ssh", "store"], help="what to measure")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--seconds", type=positive_seconds, default=2.0,
                   help="time per engine measurement")
    p.add_argument("--sessions", type=count(), default=50, help="SSH sessions (bench ssh)")
    p.add_argument("--duration", type=positive_seconds, default=60.0,
                   help="seconds of play measured (bench ssh)")
    p.add_argument("--idle-seconds", type=seconds, default=10.0, metavar="SECONDS",
                   help="after the play, sessions left idle in the lobby, then at tables, "
                        "for this long each; 0 skips it (bench ssh, 10)")
    p.add_argument("--workers", type=count(), default=1, metavar="N",
                   help="serve with N worker processes on one port (bench ssh, 1)")
    p.add_argument("--store", metavar="URL", default=None,
                   help="the club in PostgreSQL (postgresql://...) instead of SQLite "
                        "(bench ssh)")
    p.add_argument("--matches", type=count(), default=50000, metavar="N",
                   help="finished matches in the throw-away store (bench store, 50000)")
    p.add_argument("--profile", type=Path, default=None, metavar="FILE",
                   help="run the server under cProfile and write its stats to FILE; the top "
                        "25 cumulative entries go to stderr (bench ssh)")


def run(args: argparse.Namespace) -> int:
    if args.what == "engine":
        from ..engine.bench import run_engine_bench

        result = run_engine_bench(args.seconds)
        if args.json:
            print(json.dumps(result))
        else:
            print(f"random legal playouts: {result['hands_per_s']:,.0f} hands/s (one core)")
            print(f"ECN records parsed:    {result['records_per_s']:,.0f} records/s")
        return 0
    if args.what == "ui":
        from ..ui.bench import run_ui_bench  # type: ignore[import-not-found]

        return int(run_ui_bench(args) or 0)
    if args.what == "store":
        from net.bench.store_bench import run_store_bench

        return run_store_bench(args)
    from net.bench import run_ssh_bench  # type: ignore[import-not-found]

    return int(run_ssh_bench(args) or 0)
