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

A process with nothing to collect is not woken ten times a second: a young collection that
found (next to) nothing doubles the time to the next tick, up to ``MAX_BACKOFF`` ticks'
worth, and one that found work brings it back to ``YOUNG_SECONDS``. Each wake-up of the
event loop costs this machine about 0.25 ms of CPU: at ten a second an idle server spent
3 ms/s with no session and about 9 ms/s with a few idle ones (the bench's idle sessions
showed 0.6 ms/s each where they had shown 0.017).
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import time

YOUNG_SECONDS = 0.1
FULL_SECONDS = 600.0
IDLE_COLLECTION = 0.0001  # seconds: a young collection this quick found next to nothing
MAX_BACKOFF = 64  # an idle process's ticks at most this many YOUNG_SECONDS apart (6.4 s)


class CollectionPacer:
    """Runs the collections on ``loop`` until ``stop``; the collections run so far, young
    and full, in ``runs``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, young_seconds: float = YOUNG_SECONDS,
                 full_seconds: float = FULL_SECONDS,
                 idle_collection: float = IDLE_COLLECTION) -> None:
        """``idle_collection``: a young collection shorter than this backs the ticks off
        (0: never, a tick every ``young_seconds``)."""
        self.loop = loop
        self.young_seconds = young_seconds
        self.full_every = max(1, round(full_seconds / young_seconds))
        self.idle_collection = idle_collection
        self.ticks = 0
        self.runs = [0, 0]
        self.backoff = 1  # the next tick is this many ``young_seconds`` away
        self._units = 0  # ``young_seconds`` since the last full collection
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._schedule()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _schedule(self) -> None:
        # an empty context: the callback needs none, and must not keep a session's alive
        self._handle = self.loop.call_later(self.young_seconds * self.backoff, self._tick,
                                            context=contextvars.Context())

    def _tick(self) -> None:
        self.ticks += 1
        self._units += self.backoff
        started = time.perf_counter()
        if self._units >= self.full_every:
            self._units = 0
            gc.unfreeze()
            gc.collect(2)
            self.runs[1] += 1
        else:
            gc.collect(0)
            self.runs[0] += 1
        idle = time.perf_counter() - started < self.idle_collection
        gc.freeze()
        self.backoff = min(2 * self.backoff, MAX_BACKOFF) if idle else 1
        self._schedule()


def pace_collections(loop: asyncio.AbstractEventLoop | None = None) -> CollectionPacer:
    """Start pacing this process's collections (the server, once it listens)."""
    pacer = CollectionPacer(loop or asyncio.get_running_loop())
    pacer.start()
    return pacer
