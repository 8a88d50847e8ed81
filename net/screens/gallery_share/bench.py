"""What sharing saves: the server's CPU per move with N watchers, shared and not.

``python -m net.screens.gallery_share.bench --watchers 20 --moves 40`` runs ``ecarte serve`` twice
(``ECARTE_GALLERY_SHARE=1``, then ``=0``) as a subprocess, seats two scripted players at one
table, connects N watchers at the same size (clients that only count bytes, so their cost
is small and equal in both runs), lets everyone settle, then has the players make the moves
as fast as the screens answer and reads the server's CPU time (``/proc``) around them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
from pathlib import Path

from net.bench.screen_player import DONE, next_move
from net.bench.ssh_bench import (
    SIZE,
    BenchClient,
    Totals,
    _cpu_seconds,
    _screens_quiet,
    _start_server,
)


async def _player(c: BenchClient, moves: list[int], goal: int, rng: random.Random) -> None:
    """Answer prompts at once until the table has had ``goal`` moves (or the match ends)."""
    while moves[0] < goal and not c.closed:
        await c.quiet(0.05)
        move = next_move(c.text(), rng)
        if move is DONE:
            return
        if move is None:
            await c.wait_data(0.5)
            continue
        c.press(move.key)
        moves[0] += 1
        await c.wait_data(5.0)


async def run(watchers: int, moves: int, shared: bool) -> dict[str, float]:
    os.environ["ECARTE_GALLERY_SHARE"] = "1" if shared else "0"
    totals = Totals()
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = await _start_server(Path(tmp), watchers + 4)
        clients: list[BenchClient] = []
        try:
            host = await BenchClient.open(port, totals, 1)
            clients.append(host)
            await host.wait_text("C L U B")
            code = await host.open_new_table()
            guest = await BenchClient.open(port, totals, 2, f"join {code}")
            clients.append(guest)
            await guest.wait_text("Écarté ·")
            ws = []
            for i in range(watchers):
                w = await BenchClient.open(port, totals, 100 + i, f"watch {code}")
                clients.append(w)
                ws.append(w)
            for w in ws:
                await w.wait_text("Watching table")
            rng = random.Random(7)
            count = [0]
            # two warm-up moves: the watchers join their group at the first move they see
            await asyncio.gather(_player(host, count, 2, rng), _player(guest, count, 2, rng))
            await _screens_quiet(clients, 0.3, 10.0)
            cpu0 = _cpu_seconds(proc.pid)
            bytes0 = sum(w.received for w in ws)
            start = count[0]
            goal = start + moves
            await asyncio.gather(_player(host, count, goal, rng),
                                 _player(guest, count, goal, rng))
            await _screens_quiet(clients, 0.3, 10.0)
            cpu = _cpu_seconds(proc.pid) - cpu0
            made = count[0] - start
            received = sum(w.received for w in ws) - bytes0
            return {"moves": made, "cpu_s": cpu, "cpu_ms_per_move": 1000 * cpu / max(1, made),
                    "watcher_bytes_per_move": received / max(1, made) / max(1, watchers)}
        finally:
            for c in clients:
                c.close()
            proc.terminate()
            await proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--watchers", type=int, default=20)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args(argv)
    print(f"1 table, {args.watchers} watchers at {SIZE[0]}x{SIZE[1]}, {args.moves} moves")
    for shared in (True, False):
        r = asyncio.run(run(args.watchers, args.moves, shared))
        print(f"  sharing {'on ' if shared else 'off'}: {r['moves']:.0f} moves, "
              f"server CPU {r['cpu_s']:.2f} s = {r['cpu_ms_per_move']:.1f} ms per move, "
              f"{r['watcher_bytes_per_move']:.0f} bytes per watcher per move")
    return 0


if __name__ == "__main__":
    sys.exit(main())
