"""Cyclic garbage collections paced by the clock, in small steps of the server's event loop.

CPython starts a young collection when allocations minus deallocations of tracked objects
pass the first threshold. A served screen's redraw frees old cached lines as it makes new
ones, so the count barely moves while the young generation grows: at 250 sessions on two
workers the young generation held 100,000-220,000 objects (not the 50,000 of the
threshold) when it was finally collected, 50-200 ms of one event-loop step, and the second
generation's collections took 150-300 ms (measured 2026-12-03 with a gc callback in both
workers). Here a young collection runs every ``YOUNG_SECONDS`` (3-10 ms at that load) and
a full collection every ``FULL_SECONDS``, each as its own callback between the sessions'
steps. The thresholds of ``server_tuning`` stay as the net for a burst of allocations
between two ticks.

What survives a young collection is then frozen (``gc.freeze``: moved, in constant time,
out of every generation), not promoted. A served screen leaves no cycles during play, so
those survivors are live lines and widgets, and the older collections only walked them
again: at 250 sessions on two workers those took 10-50 ms each (up to 69 of 20-50 ms per
worker in a minute), a stall for every session of the worker. Frozen, they are walked
again only by the full collection, which unfreezes everything first: cycles that became
garbage after their freeze wait for it (it found 500-1,000 such objects after 20 s of play
at 250 sessions), as they waited for it before in the oldest generation. The full
collection itself stops a worker for 0.5-0.7 s at 250 sessions (every ``FULL_SECONDS``).
Measured 2026-12-06 with ``ecarte bench ssh --sessions 250 --workers 2``: collections took
2.6 s of the two workers' CPU per minute against 5-7 s, none longer than 20 ms.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc

YOUNG_SECONDS = 0.1
FULL_SECONDS = 600.0


class CollectionPacer:
    """Runs the collections on ``loop`` until ``stop``; the collections run so far, young
    and full, in ``runs``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, young_seconds: float = YOUNG_SECONDS,
                 full_seconds: float = FULL_SECONDS) -> None:
        self.loop = loop
        self.young_seconds = young_seconds
        self.full_every = max(1, round(full_seconds / young_seconds))
        self.ticks = 0
        self.runs = [0, 0]
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._schedule()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _schedule(self) -> None:
        # an empty context: the callback needs none, and must not keep a session's alive
        self._handle = self.loop.call_later(self.young_seconds, self._tick,
                                            context=contextvars.Context())

    def _tick(self) -> None:
        self.ticks += 1
        if self.ticks % self.full_every == 0:
            gc.unfreeze()
            gc.collect(2)
            self.runs[1] += 1
        else:
            gc.collect(0)
            self.runs[0] += 1
        gc.freeze()
        self._schedule()


def pace_collections(loop: asyncio.AbstractEventLoop | None = None) -> CollectionPacer:
    """Start pacing this process's collections (the server, once it listens)."""
    pacer = CollectionPacer(loop or asyncio.get_running_loop())
    pacer.start()
    return pacer
