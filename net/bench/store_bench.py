"""``ecarte bench store``: what a lobby's header and a player's list of matches cost to read
from a club's SQLite store that has run for a long time (many finished matches), and what
a server's start costs there.

Each lobby session reads its player's record when the list of tables changes (up to once a
second), on the event loop that serves every session of the process: a read that grows
with the club's history slows everyone. Every start (of every worker) looks for matches a
crash left unrated. The store is a throw-away file in a temporary directory, filled with
``--matches`` finished and rated matches among 2,000 players.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from net.club import Club
from net.club.house import House
from net.store.club_store import Store

PLAYERS = 2000
ECN_SIZE = 3000  # characters: a typical finished match's record
READS = 200


def fill(store: Store, matches: int, rng: random.Random) -> list[str]:
    """``matches`` finished matches among ``PLAYERS`` players; the players' ids."""
    players = [f"SHA256:bench{i:05d}" for i in range(PLAYERS)]
    ecn = "x" * ECN_SIZE
    with store._tx() as db:
        for i in range(matches):
            a, b = rng.sample(players, 2)
            db.execute(
                "INSERT INTO tables (code, options, seat_a, seat_b, name_a, name_b, ecn, "
                "status, winner, created, updated) VALUES (?, '{}', ?, ?, 'a', 'b', ?, "
                "'finished', ?, '2026-12-07', '2026-12-07')",
                (f"B{i:07d}", a, b, ecn, rng.choice((a, b))))
    return players


def _start(store: Store, where: Path) -> tuple[float, float]:
    """What a start spends looking for unrated matches (every one is rated here, as in a
    club that never crashed): seconds, and the peak of memory allocated meanwhile (MB)."""
    house = House(where / "club.db")
    with store._tx() as db:
        db.execute("INSERT INTO club_matches (match_id, player_a, player_b, winner, rated, at) "
                   "SELECT code, seat_a, seat_b, winner, 1, updated FROM tables")
    club = Club(store, archive_dir=where / "archive")
    tracemalloc.start()
    t = time.perf_counter()
    house.rate_finished(club.finished_rounds())
    took = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    house.close()
    return took, peak


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered) * 1000, 3),
            "p99_ms": round(ordered[int(len(ordered) * 0.99) - 1] * 1000, 3)}


def run_store_bench(args: argparse.Namespace) -> int:
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="ecarte-bench-store-") as tmp:
        store = Store(Path(tmp) / "club.db")
        players = fill(store, args.matches, rng)
        record, listed = [], []
        for _ in range(READS):
            player = rng.choice(players)
            t = time.perf_counter()
            store.record_for(player)
            record.append(time.perf_counter() - t)
            t = time.perf_counter()
            store.finished_for(player)
            listed.append(time.perf_counter() - t)
        start_s, start_mb = _start(store, Path(tmp))
        store.close()
    result = {"matches": args.matches, "players": PLAYERS, "reads": READS,
              "record": _ms(record), "match_list": _ms(listed),
              "start_rating_s": round(start_s, 3), "start_rating_peak_mb": round(start_mb, 1)}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"store: {args.matches:,} finished matches among {PLAYERS:,} players (SQLite)")
    for label, key in (("a player's record (lobby header)", "record"),
                       ("a player's last 20 matches     ", "match_list")):
        r = result[key]
        assert isinstance(r, dict)
        print(f"{label}: {r['median_ms']:.3f} ms median, {r['p99_ms']:.3f} ms p99 "
              f"({READS} reads)")
    print(f"a start, looking for unrated matches: {result['start_rating_s']:.2f} s, "
          f"{result['start_rating_peak_mb']:.0f} MB at the peak")
    return 0
