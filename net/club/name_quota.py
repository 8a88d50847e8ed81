"""How many new names one address may take in an hour.

A name is a player's for good, and a new SSH key costs nothing: without a bound, a script
could take every good name (and grow the players' table) as fast as it can connect. Counted
in each process: with several workers or machines, the bound is per process.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

SWEEP_AT = 10_000  # addresses remembered before the ones with nothing recent are let go


class NameQuota:
    def __init__(self, limit: int, window: float = 3600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``limit`` new names per address within ``window`` seconds; 0: no bound."""
        self.limit, self.window, self.clock = limit, window, clock
        self._taken: dict[str, deque[float]] = {}

    def allows(self, address: str) -> bool:
        """Whether ``address`` may take one more name now."""
        if not self.limit:
            return True
        times = self._recent(address)
        return times is None or len(times) < self.limit

    def took(self, address: str) -> None:
        """``address`` took a name now."""
        if not self.limit:
            return
        if len(self._taken) >= SWEEP_AT:
            for other in list(self._taken):
                self._recent(other)
        self._taken.setdefault(address, deque()).append(self.clock())

    def _recent(self, address: str) -> deque[float] | None:
        times = self._taken.get(address)
        if times is None:
            return None
        while times and self.clock() - times[0] >= self.window:
            times.popleft()
        if not times:
            del self._taken[address]
            return None
        return times
