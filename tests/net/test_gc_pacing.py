"""The server's collections paced by the clock (``net.ssh.gc_pacing``): cyclic garbage is
collected by the pacer's ticks alone; what survives a young tick is frozen, out of the
older collections, and the full tick unfreezes and collects it."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from net.ssh.gc_pacing import CollectionPacer


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def a_cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(a)


@pytest.fixture
def only_the_pacer_collects() -> Iterator[list[int]]:
    """No collection but the pacer's; the generations collected, in order."""
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    was_enabled = gc.isenabled()
    gc.disable()
    gc.collect()
    gc.callbacks.append(record)
    try:
        yield seen
    finally:
        gc.callbacks.remove(record)
        gc.unfreeze()
        gc.collect()
        if was_enabled:
            gc.enable()


async def ticks(pacer: CollectionPacer, n: int) -> None:
    for _ in range(500):
        await asyncio.sleep(0.01)
        if pacer.ticks >= n:
            return


async def test_a_young_tick_collects_a_dead_cycle_and_freezes_the_living(
        only_the_pacer_collects: list[int]) -> None:
    seen = only_the_pacer_collects
    kept, alive = a_cycle()
    dropped, dead = a_cycle()
    del dropped
    assert dead() is not None, "a cycle outlives its last outside reference"
    frozen = gc.get_freeze_count()
    pacer = CollectionPacer(asyncio.get_running_loop(), young_seconds=0.01, full_seconds=60,
                            idle_collection=0)
    pacer.start()
    await ticks(pacer, 1)
    pacer.stop()
    assert dead() is None, "the young tick collected it"
    assert seen and set(seen) == {0}, "young collections only"
    assert gc.get_freeze_count() > frozen, "the survivors are frozen"
    assert alive() is kept
    ticked = pacer.ticks
    await asyncio.sleep(0.05)
    assert pacer.ticks == ticked, "stopped: no more ticks"


async def test_the_full_tick_collects_a_cycle_that_died_frozen(
        only_the_pacer_collects: list[int]) -> None:
    seen = only_the_pacer_collects
    cycle, ref = a_cycle()
    gc.freeze()  # as a young tick leaves a cycle that was still alive
    del cycle
    gc.collect(0)
    gc.collect(1)
    assert ref() is not None, "frozen: the younger collections do not see it"
    seen.clear()
    pacer = CollectionPacer(asyncio.get_running_loop(), young_seconds=0.01,
                            full_seconds=0.03, idle_collection=0)
    pacer.start()
    await ticks(pacer, 3)
    pacer.stop()
    assert seen[:3] == [0, 0, 2], "two young ticks, then the full one"
    assert pacer.runs[0] >= 2 and pacer.runs[1] >= 1
    assert ref() is None, "the full tick unfroze and collected it"


async def test_an_idle_process_is_woken_less_and_less_and_work_brings_the_ticks_back(
        only_the_pacer_collects: list[int]) -> None:
    """Every collection counted as next to nothing (``idle_collection`` longer than any):
    the ticks back off to ``MAX_BACKOFF``; counted as work (0), they stay ``young_seconds``
    apart. The full collection keeps its period in young ticks' worth either way."""
    from net.ssh.gc_pacing import MAX_BACKOFF

    loop = asyncio.get_running_loop()
    idle = CollectionPacer(loop, young_seconds=0.001, full_seconds=60, idle_collection=1.0)
    idle.start()
    await ticks(idle, 7)
    idle.stop()
    assert idle.backoff == MAX_BACKOFF and idle.runs[1] == 0
    busy = CollectionPacer(loop, young_seconds=0.001, full_seconds=0.004, idle_collection=0)
    busy.start()
    await ticks(busy, 8)
    busy.stop()
    assert busy.backoff == 1
    assert busy.runs[1] == busy.ticks // 4, "a full collection every fourth tick"
