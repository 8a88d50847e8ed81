"""Deals that every process of a club can replay, and that nobody without the key can predict.

A table shared by several processes is the replay of its log, so each process must deal the
same cards. A Mersenne Twister seed would do that, but its outputs betray its state; here
every draw comes from SHAKE-256 of a secret key (kept in the club's store, never written to
a record) and a counter, so earlier deals tell nothing about the next one.
"""

from __future__ import annotations

import hashlib
import random
import secrets

KEY_BYTES = 32
_BLOCK = 64  # bytes drawn from the hash at a time


def new_key() -> str:
    """A fresh table key from the operating system's generator (hex)."""
    return secrets.token_hex(KEY_BYTES)


class KeyedRandom(random.Random):
    """``random.Random`` whose bits are SHAKE-256(key, block number): the same key, the same
    draws, in every process and every Python version (``shuffled_deck`` uses only
    ``getrandbits``)."""

    def __init__(self, key: str) -> None:
        self._key = bytes.fromhex(key)
        self._block = 0
        self._pool = 0  # unused bits, least significant first
        self._bits = 0
        super().__init__(0)

    def seed(self, *_args: object, **_kwargs: object) -> None:
        """Ignored: the key is the seed (``random.Random.__init__`` calls this)."""

    def _more(self) -> None:
        data = hashlib.shake_256(self._key + self._block.to_bytes(8, "big")).digest(_BLOCK)
        self._block += 1
        self._pool |= int.from_bytes(data, "little") << self._bits
        self._bits += 8 * _BLOCK

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._bits < k:
            self._more()
        out = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._bits -= k
        return out

    def random(self) -> float:
        return self.getrandbits(53) / (1 << 53)

    def getstate(self) -> tuple[object, ...]:
        return (self._key, self._block, self._pool, self._bits)

    def setstate(self, state: tuple[object, ...]) -> None:  # type: ignore[override]
        key, block, pool, bits = state
        assert isinstance(key, bytes) and isinstance(block, int)
        assert isinstance(pool, int) and isinstance(bits, int)
        self._key, self._block, self._pool, self._bits = key, block, pool, bits
