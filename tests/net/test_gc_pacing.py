"""The server's collections paced by the clock (``net.ssh.gc_pacing``): cyclic garbage is
collected by the pacer's ticks alone, the older generations in their turn, until it stops."""

from __future__ import annotations

import asyncio
import gc
import weakref

from net.ssh.gc_pacing import CollectionPacer


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def a_cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


async def test_the_pacer_alone_collects_cycles_and_every_generation_in_turn():
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.disable()  # no collection but the pacer's
    gc.callbacks.append(record)
    try:
        gc.collect()
        seen.clear()
        dead = a_cycle()
        assert dead() is not None, "a cycle outlives its last outside reference"
        pacer = CollectionPacer(asyncio.get_running_loop(), young_seconds=0.01,
                                older_every=3, full_seconds=0.06)
        pacer.start()
        for _ in range(500):
            await asyncio.sleep(0.01)
            if pacer.ticks >= 6:
                break
        pacer.stop()
        ticks = pacer.ticks
        assert dead() is None, "the pacer collected it"
        assert seen[:6] == [0, 0, 1, 0, 0, 2], "young ones, every third older, then full"
        assert pacer.runs[0] >= 4 and pacer.runs[1] >= 1 and pacer.runs[2] >= 1
        await asyncio.sleep(0.05)
        assert pacer.ticks == ticks, "stopped: no more ticks"
    finally:
        gc.callbacks.remove(record)
        if was_enabled:
            gc.enable()
