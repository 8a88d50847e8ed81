"""The server's memory: players, tables and every accepted action, in SQLite (WAL).

A table's whole match is stored as its ECN text and rewritten before any change is shown to
anyone, so a server killed mid-hand comes back with every table exactly where it was.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,              -- 'SHA256:...' key fingerprint
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created TEXT NOT NULL,
    last_seen TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    options TEXT NOT NULL,            -- JSON: rules preset and overrides, opponent
    seat_a TEXT,                      -- player id, 'bot:LEVEL', or NULL (open)
    seat_b TEXT,
    name_a TEXT,
    name_b TEXT,
    ecn TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,             -- 'open', 'playing', 'finished', 'cancelled'
    winner TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
"""

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,15}$")


class StoreError(ValueError):
    """A request the store refuses, with a message for the player (e.g. a name taken)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class StoredTable:
    code: str
    options: dict[str, object]
    seats: tuple[str | None, str | None]
    names: tuple[str | None, str | None]
    ecn: str
    status: str
    winner: str | None


class Store:
    """One SQLite file; safe to call from the event loop (statements are short)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode survives a killed process (only a power cut can lose the tail).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ------------------------------------------------------------------ players

    def player(self, player_id: str) -> Player | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, name FROM players WHERE id = ?", (player_id,)
            ).fetchone()
        return Player(*row) if row else None

    def name_taken(self, name: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM players WHERE name = ?", (name,)).fetchone()
        return row is not None

    def register(self, player_id: str, name: str) -> Player:
        """Create a player, or rename one; the name is unique on the server."""
        check_name(name)
        with self._tx() as db:
            row = db.execute(
                "SELECT id FROM players WHERE name = ? AND id != ?", (name, player_id)
            ).fetchone()
            if row:
                raise StoreError(f"the name {name!r} is taken: choose another")
            db.execute(
                "INSERT INTO players (id, name, created, last_seen) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET name = excluded.name, "
                "last_seen = excluded.last_seen",
                (player_id, name, _now(), _now()),
            )
        return Player(player_id, name)

    def seen(self, player_id: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE players SET last_seen = ? WHERE id = ?", (_now(), player_id))

    # ------------------------------------------------------------------ tables

    def create_table(
        self,
        code: str,
        options: dict[str, object],
        seats: tuple[str | None, str | None],
        names: tuple[str | None, str | None],
        ecn: str,
        status: str,
    ) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO tables (code, options, seat_a, seat_b, name_a, name_b, ecn, status,"
                " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (code, json.dumps(options), *seats, *names, ecn, status, _now(), _now()),
            )

    def code_exists(self, code: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone()
        return row is not None

    def save_table(
        self,
        code: str,
        *,
        ecn: str | None = None,
        seats: tuple[str | None, str | None] | None = None,
        names: tuple[str | None, str | None] | None = None,
        status: str | None = None,
        winner: str | None = None,
    ) -> None:
        sets, args = ["updated = ?"], [_now()]
        if ecn is not None:
            sets.append("ecn = ?")
            args.append(ecn)
        if seats is not None:
            sets += ["seat_a = ?", "seat_b = ?"]
            args += list(seats)  # type: ignore[arg-type]
        if names is not None:
            sets += ["name_a = ?", "name_b = ?"]
            args += list(names)  # type: ignore[arg-type]
        if status is not None:
            sets.append("status = ?")
            args.append(status)
        if winner is not None:
            sets.append("winner = ?")
            args.append(winner)
        with self._tx() as db:
            db.execute(f"UPDATE tables SET {', '.join(sets)} WHERE code = ?", (*args, code))

    def table(self, code: str) -> StoredTable | None:
        rows = self._tables("WHERE code = ?", (code,))
        return rows[0] if rows else None

    def tables(self, *statuses: str) -> list[StoredTable]:
        marks = ", ".join("?" for _ in statuses)
        return self._tables(f"WHERE status IN ({marks}) ORDER BY created", statuses)

    def finished_for(self, player_id: str, limit: int = 20) -> list[StoredTable]:
        return self._tables(
            "WHERE status = 'finished' AND (seat_a = ? OR seat_b = ?) ORDER BY updated DESC "
            "LIMIT ?",
            (player_id, player_id, limit),
        )

    def record_for(self, player_id: str) -> tuple[int, int]:
        """(matches finished, matches won) by a player: their record in the lobby."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*), COALESCE(SUM(winner = ?), 0) FROM tables "
                "WHERE status = 'finished' AND (seat_a = ? OR seat_b = ?)",
                (player_id, player_id, player_id),
            ).fetchone()
        return int(row[0]), int(row[1])

    def _tables(self, where: str, args: tuple[object, ...]) -> list[StoredTable]:
        with self._lock:
            rows = self._db.execute(
                "SELECT code, options, seat_a, seat_b, name_a, name_b, ecn, status, winner "
                f"FROM tables {where}",
                args,
            ).fetchall()
        return [
            StoredTable(r[0], json.loads(r[1]), (r[2], r[3]), (r[4], r[5]), r[6], r[7], r[8])
            for r in rows
        ]


def check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise StoreError(
            "a name is 2 to 16 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )
