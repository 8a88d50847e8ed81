"""The operator's files as each machine of a club has them (its block list, its notice),
kept in the club's store so that every machine can read every other's."""

from __future__ import annotations

from dataclasses import dataclass

from net.store.club_store import Store


@dataclass(frozen=True, slots=True)
class MachineFile:
    machine: str
    text: str
    changed: float  # when the file was written (epoch seconds); 0: there was none at start


class ClubFiles:
    """The ``club_files`` rows, on the store's connection (same file or database)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def publish(self, kind: str, machine: str, text: str, changed: float, now: float) -> None:
        with self.store._tx() as db:
            db.execute("INSERT INTO club_files (kind, machine, text, changed, seen) "
                       "VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, machine) DO UPDATE SET "
                       "text = excluded.text, changed = excluded.changed, seen = excluded.seen",
                       (kind, machine, text, changed, now))

    def of(self, kind: str, since: float = 0.0) -> list[MachineFile]:
        """Each machine's file of ``kind``, of the machines heard from since ``since``."""
        with self.store._lock:
            rows = self.store._db.execute(
                "SELECT machine, text, changed FROM club_files WHERE kind = ? AND seen >= ? "
                "ORDER BY machine", (kind, since)).fetchall()
        return [MachineFile(m, t, float(c)) for m, t, c in rows]
