"""A "play again" after a match: one offer per finished table, and at most one new table.

The first player to ask writes the offer; the other's "yes" claims it and names the new
table in the same statement. Two players asking at the same instant on two nodes cannot
both write it (the finished table's code is the key): the one who loses the race finds the
other's offer and accepts it, so exactly one new table is made. An offer withdrawn (its
asker left the table) cannot be claimed any more, and a claimed one cannot be withdrawn.
"""

from __future__ import annotations

from dataclasses import dataclass

from net.store.club_store import Store


@dataclass(frozen=True, slots=True)
class Rematch:
    asker: str  # player id
    next_code: str | None = None  # the new table, once accepted


class Rematches:
    """The rematch offers, on the store's connection (same file or database)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def ask(self, code: str, asker: str) -> Rematch:
        """Offer a rematch at finished table ``code``: the offer now standing there (this
        one, or the other player's if he asked first)."""
        with self.store._tx() as db:
            db.execute("INSERT OR IGNORE INTO rematches (code, asker) VALUES (?, ?)",
                       (code, asker))
            row = db.execute("SELECT asker, next_code FROM rematches WHERE code = ?",
                             (code,)).fetchone()
        assert row is not None
        return Rematch(row[0], row[1])

    def claim(self, code: str, asker: str, next_code: str) -> bool:
        """Accept ``asker``'s offer with the new table's code; False if it was withdrawn or
        claimed already."""
        with self.store._tx() as db:
            cur = db.execute(
                "UPDATE rematches SET next_code = ? "
                "WHERE code = ? AND asker = ? AND next_code IS NULL",
                (next_code, code, asker))
        return cur.rowcount == 1

    def withdraw(self, code: str, asker: str) -> None:
        """The asker left before an answer: the offer lapses (unless it was accepted)."""
        with self.store._tx() as db:
            db.execute("DELETE FROM rematches WHERE code = ? AND asker = ? "
                       "AND next_code IS NULL", (code, asker))

    def of(self, code: str) -> Rematch | None:
        with self.store._lock:
            row = self.store._db.execute(
                "SELECT asker, next_code FROM rematches WHERE code = ?", (code,)).fetchone()
        return Rematch(row[0], row[1]) if row else None
