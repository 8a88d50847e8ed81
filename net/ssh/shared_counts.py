"""Connection counts shared by the workers of one ``ecarte serve --workers N``.

Each worker used to count only its own connections, so ``--max-connections-per-ip 10``
let an address hold ten on every worker. The supervisor makes a small file that every
worker maps: one row per worker, each worker writing only its own (so no lock), every
worker reading all of them. A row holds the worker's open connections and, in buckets
chosen by a keyed hash of the address, how many come from each address (the key is the
supervisor's secret: nobody can aim two addresses at one bucket). A restarted worker
zeroes its row: its connections died with it.

Workers admitting at the same instant may each see the last free place: a limit can be
passed by at most one connection per other worker.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import secrets
from pathlib import Path

ENV = "ECARTE_CONNECTION_COUNTS"  # "FILE|WORKERS|INDEX|KEY", set by the supervisor
BUCKETS = 1 << 16
ROW = 1 + BUCKETS  # the worker's total, then its buckets (4-byte cells)
CELL = 4


def create(path: Path, workers: int) -> str:
    """The supervisor's part: a zeroed file for ``workers`` rows; returns the hash key to
    hand each worker with its row (``worker_env``)."""
    with open(path, "wb") as f:
        f.truncate(workers * ROW * CELL)
    os.chmod(path, 0o600)
    return secrets.token_hex(16)


def worker_env(path: Path, workers: int, index: int, key: str) -> dict[str, str]:
    return {ENV: f"{path}|{workers}|{index}|{key}"}


class SharedCounts:
    """One worker's view of the counts: it writes its row and reads every row."""

    def __init__(self, path: Path, workers: int, index: int, key: str) -> None:
        if not 0 <= index < workers:
            raise ValueError(f"worker {index} of {workers}")
        self.workers, self.index = workers, index
        self._key = bytes.fromhex(key)
        with open(path, "r+b") as f:
            self._map = mmap.mmap(f.fileno(), workers * ROW * CELL)
        self._cells = memoryview(self._map).cast("I")
        start = index * ROW * CELL
        self._map[start:start + ROW * CELL] = bytes(ROW * CELL)  # a restart starts empty

    @classmethod
    def from_env(cls) -> SharedCounts | None:
        """The counts a supervisor gave this worker, or None (one process alone)."""
        spec = os.environ.get(ENV)
        if not spec:
            return None
        path, workers, index, key = spec.split("|")
        return cls(Path(path), int(workers), int(index), key)

    def _bucket(self, ip: str) -> int:
        digest = hashlib.blake2b(ip.encode(), key=self._key, digest_size=4).digest()
        return 1 + int.from_bytes(digest, "little") % BUCKETS

    def total(self) -> int:
        """Open connections on every worker."""
        return sum(self._cells[w * ROW] for w in range(self.workers))

    def from_address_elsewhere(self, ip: str) -> int:
        """Connections from ``ip`` on the other workers (its bucket: an address sharing it
        by chance counts too, one chance in 65,536)."""
        b = self._bucket(ip)
        return sum(self._cells[w * ROW + b] for w in range(self.workers) if w != self.index)

    def opened(self, ip: str) -> None:
        row = self.index * ROW
        self._cells[row] += 1
        self._cells[row + self._bucket(ip)] += 1

    def closed(self, ip: str) -> None:
        row = self.index * ROW
        for cell in (row, row + self._bucket(ip)):
            self._cells[cell] = max(0, self._cells[cell] - 1)

    def close(self) -> None:
        self._cells.release()
        self._map.close()
