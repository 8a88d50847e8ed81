"""Each server process says in the club's store how busy it is, so that ``ecarte status``
can sum a club served by several workers or machines (SIGUSR1 asks one process at a time)."""

from __future__ import annotations

import hashlib
import os
import socket
import sqlite3
from dataclasses import astuple, dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

from net.store.club_store import Store
from net.store.postgres import PgConnection

REFRESH_SECONDS = 30.0  # a process unchanged says it again this often (it is alive)
SILENT_SECONDS = 3 * REFRESH_SECONDS  # a process not heard from for longer is not counted
FORGET_SECONDS = 3600.0  # a row not said again for this long is deleted (a killed process)


@dataclass(frozen=True, slots=True)
class ServingRow:
    node: str  # host:pid, the process's name in the store
    host: str
    machine: str  # which machine, where host names may repeat (``machine_id``)
    pid: int
    port: int
    version: str
    started: float  # epoch seconds
    said: float  # epoch seconds
    sessions: int
    guests: int
    watching: int


COLUMNS = ", ".join(f.name for f in fields(ServingRow))


def read_serving(db: sqlite3.Connection | PgConnection) -> list[ServingRow]:
    """Every process's last word, oldest start first."""
    rows: list[tuple[Any, ...]] = db.execute(
        f"SELECT {COLUMNS} FROM serving ORDER BY started, node").fetchall()
    return [ServingRow(str(r[0]), str(r[1]), str(r[2]), int(r[3]), int(r[4]), str(r[5]),
                       float(r[6]), float(r[7]), int(r[8]), int(r[9]), int(r[10]))
            for r in rows]


@cache
def machine_id() -> str:
    """This machine, told apart from another of the same host name (cloud images often
    share one): from systemd's machine id, else the host name. Hashed for this program,
    as systemd asks (the id itself is meant to stay on the machine)."""
    found = socket.gethostname()
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            found = Path(path).read_text().strip() or found
            break
        except OSError:
            continue
    return hashlib.sha256(f"ecarte:{found}".encode()).hexdigest()[:16]


def row_state(row: ServingRow, now: float) -> str:
    """"serving", "silent" (not heard from lately) or "stopped": a process on this machine
    (by its machine id: host names may repeat) is known stopped when its pid is gone; one
    elsewhere only by its silence."""
    if row.machine == machine_id() and not _pid_alive(row.pid):
        return "stopped"
    return "serving" if now - row.said <= SILENT_SECONDS else "silent"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (another user's process: it exists)
        return True
    return True


class Serving:
    """This process's row: written when its counts change, or every ``REFRESH_SECONDS``."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._written: ServingRow | None = None
        self._forgot = float("-inf")  # when rows of killed processes were last deleted

    def say(self, row: ServingRow) -> bool:
        """Write ``row`` unless the last one written says the same and is recent; whether
        it was written. A failure (the database away) is raised: said again next time."""
        last = self._written
        if (last is not None and replace(last, said=row.said) == row
                and row.said - last.said < REFRESH_SECONDS):
            return False
        with self.store._tx() as db:
            db.execute(f"INSERT INTO serving ({COLUMNS}) VALUES "
                       f"({', '.join('?' * len(fields(ServingRow)))}) "
                       "ON CONFLICT (node) DO UPDATE SET "
                       + ", ".join(f"{f.name} = excluded.{f.name}"
                                   for f in fields(ServingRow)[1:]), astuple(row))
            if row.said - self._forgot >= REFRESH_SECONDS:
                db.execute("DELETE FROM serving WHERE said < ?", (row.said - FORGET_SECONDS,))
                self._forgot = row.said
        self._written = row
        return True

    def elsewhere(self, node: str, now: float) -> int:
        """Sessions served by the club's other processes that still serve (for the lobby's
        "who is here")."""
        with self.store._lock:
            rows = read_serving(self.store._db)
        return sum(r.sessions for r in rows
                   if r.node != node and row_state(r, now) == "serving")

    def died(self, node: str) -> None:
        """The process was seen to die (by its supervisor): it serves nobody now, though its
        line stays for ``ecarte status`` to say it stopped without saying so."""
        with self.store._tx() as db:
            db.execute("UPDATE serving SET sessions = 0, guests = 0, watching = 0 "
                       "WHERE node = ?", (node,))

    def gone(self, node: str) -> None:
        """The process stops: it no longer serves anyone."""
        with self.store._tx() as db:
            db.execute("DELETE FROM serving WHERE node = ?", (node,))
        self._written = None
