"""Connection counts and failed logins shared by the workers of one ``ecarte serve
--workers N``.

Each worker used to count only its own, so ``--max-connections-per-ip 10`` let an address
hold ten connections on every worker, and an address was locked out after ten failed
logins on each. The supervisor makes a small file that every worker maps: one row per
worker, each worker writing only its own (so no lock), every worker reading all of them.
A row holds the worker's open connections and, in buckets chosen by a keyed hash of the
address, how many come from each address, and the times of each bucket's last failed
logins (the key is the supervisor's secret: nobody can aim two addresses at one bucket).
A restarted worker zeroes its row: its connections died with it (its failures too).

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
FAIL_BUCKETS = 1 << 12  # failed logins are rarer: fewer buckets, each a ring of times
FAIL_SLOTS = 16  # the newest failed logins a worker keeps per bucket
FAIL_ROW = FAIL_BUCKETS * (1 + FAIL_SLOTS)  # per bucket: the next slot, then the times
FAIL_CELL = 8  # a double: time.monotonic(), the same clock in every process of a machine


def _sizes(workers: int) -> tuple[int, int]:
    """Where the failures begin (8-byte aligned) and the file's size."""
    counts = workers * ROW * CELL
    start = counts + (-counts) % FAIL_CELL
    return start, start + workers * FAIL_ROW * FAIL_CELL


def create(path: Path, workers: int) -> str:
    """The supervisor's part: a zeroed file for ``workers`` rows; returns the hash key to
    hand each worker with its row (``worker_env``)."""
    with open(path, "wb") as f:
        f.truncate(_sizes(workers)[1])
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
        start, size = _sizes(workers)
        with open(path, "r+b") as f:
            self._map = mmap.mmap(f.fileno(), size)
        self._cells = memoryview(self._map)[:start].cast("I")
        self._times = memoryview(self._map)[start:].cast("d")
        for offset, length in ((index * ROW * CELL, ROW * CELL),
                               (start + index * FAIL_ROW * FAIL_CELL, FAIL_ROW * FAIL_CELL)):
            self._map[offset:offset + length] = bytes(length)  # a restart starts empty

    @classmethod
    def from_env(cls) -> SharedCounts | None:
        """The counts a supervisor gave this worker, or None (one process alone)."""
        spec = os.environ.get(ENV)
        if not spec:
            return None
        path, workers, index, key = spec.split("|")
        return cls(Path(path), int(workers), int(index), key)

    def _hash(self, ip: str) -> int:
        digest = hashlib.blake2b(ip.encode(), key=self._key, digest_size=4).digest()
        return int.from_bytes(digest, "little")

    def _bucket(self, ip: str) -> int:
        return 1 + self._hash(ip) % BUCKETS

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

    def _ring(self, worker: int, ip: str) -> int:
        return worker * FAIL_ROW + (self._hash(ip) % FAIL_BUCKETS) * (1 + FAIL_SLOTS)

    def failed(self, ip: str, when: float) -> None:
        """A failed login from ``ip`` on this worker, at ``when``."""
        ring = self._ring(self.index, ip)
        slot = int(self._times[ring])
        self._times[ring + 1 + slot] = when
        self._times[ring] = (slot + 1) % FAIL_SLOTS

    def failures_elsewhere(self, ip: str, after: float) -> list[float]:
        """The times, later than ``after``, of failed logins from ``ip``'s bucket on the
        other workers (an address sharing it by chance counts too, one in 4,096)."""
        found = []
        for w in range(self.workers):
            if w == self.index:
                continue
            ring = self._ring(w, ip)
            slots = self._times[ring + 1:ring + 1 + FAIL_SLOTS]
            found += [t for t in slots if t > 0.0 and t > after]  # 0.0: an empty slot
        return found

    def close(self) -> None:
        self._cells.release()
        self._times.release()
        self._map.close()
