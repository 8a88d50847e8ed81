"""How many new names one address may take in an hour.

A name is a player's for good, and a new SSH key costs nothing: without a bound, a script
could take every good name (and grow the players' table) as fast as it can connect. The
names are counted in the club's store, so the bound is the club's whatever the number of
its workers and machines: a name is counted before it is taken, in one transaction with the
count, so two processes cannot both let in the last one.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from net.store.club_store import Store


def address_key(address: str) -> str:
    """What the store keeps of an address: enough to count it, not to print it."""
    return hashlib.sha256(f"ecarte-new-name:{address}".encode()).hexdigest()[:24]


class NameQuota:
    def __init__(self, store: Store, limit: int, window: float = 3600.0,
                 clock: Callable[[], float] = time.time) -> None:
        """``limit`` new names per address within ``window`` seconds; 0: no bound."""
        self.store, self.limit, self.window, self.clock = store, limit, window, clock

    def allows(self, address: str) -> bool:
        """Whether ``address`` may take one more name now (a look: ``take`` counts it)."""
        if not self.limit:
            return True
        since = self.clock() - self.window
        return self.store.new_names_since(address_key(address), since) < self.limit

    def take(self, address: str) -> float | None:
        """Count one new name for ``address`` now if it may take one: when it was counted
        (for ``give_back``), or None when the bound is reached. With no bound nothing is
        counted (0.0)."""
        if not self.limit:
            return 0.0
        now = self.clock()
        if not self.store.take_new_name(address_key(address), now, now - self.window,
                                        self.limit):
            return None
        return now

    def give_back(self, address: str, taken: float) -> None:
        """The name counted by ``take`` at ``taken`` was not taken after all."""
        if self.limit:
            self.store.new_name_returned(address_key(address), taken)
