"""The clubhouse's own tables in the server's SQLite file: purses, wagers, ratings, records.

It opens its own connection to the same database as ``net.store.Store`` (WAL mode lets
both connections work side by side) and owns only the ``club_*`` tables, so the store's
schema and this one can change independently. Every change of chips is one
``BEGIN IMMEDIATE ... COMMIT`` transaction: a server killed in the middle loses the whole
change or nothing, never half of it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from net.store.postgres import connect, is_url, schema_ddl

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS club_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
-- One purse of virtual chips per player (never money; RULES.md §9 "Stakes", seed 004).
CREATE TABLE IF NOT EXISTS club_purses (
    player TEXT PRIMARY KEY,
    chips INTEGER NOT NULL CHECK (chips >= 0),
    created TEXT NOT NULL
);
-- One row per game that carries a stake or wagers. Status: 'betting' (before the first
-- hand), 'playing', 'settled', 'void'. escrow_each: chips each player put in escrow.
CREATE TABLE IF NOT EXISTS club_games (
    game_id TEXT PRIMARY KEY,
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    stake INTEGER NOT NULL CHECK (stake >= 0),
    escrow_each INTEGER NOT NULL CHECK (escrow_each >= 0),
    status TEXT NOT NULL CHECK (status IN ('betting', 'playing', 'settled', 'void')),
    winner TEXT,
    score_a INTEGER,
    score_b INTEGER,
    created TEXT NOT NULL,
    closed TEXT
);
CREATE INDEX IF NOT EXISTS club_games_status ON club_games(status);
-- A watcher's wager, in escrow from the moment it is placed (payout NULL until settled).
CREATE TABLE IF NOT EXISTS club_wagers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES club_games(game_id),
    bettor TEXT NOT NULL,
    on_player TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    payout INTEGER,
    placed TEXT NOT NULL,
    UNIQUE (game_id, bettor)
);
CREATE INDEX IF NOT EXISTS club_wagers_game ON club_wagers(game_id);
-- Every movement of chips in or out of a purse, for audit and for the players' history.
CREATE TABLE IF NOT EXISTS club_journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    player TEXT NOT NULL,
    delta INTEGER NOT NULL,
    reason TEXT NOT NULL,
    game_id TEXT,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS club_journal_player ON club_journal(player);
-- Ratings (see ratings.py for the formula) and the players' records.
CREATE TABLE IF NOT EXISTS club_ratings (
    player TEXT PRIMARY KEY,
    rating REAL NOT NULL,
    rated_matches INTEGER NOT NULL DEFAULT 0,
    updated TEXT NOT NULL
);
-- the leaderboard, read again by every reader at each rating: the best first and a reader's
-- place, from the index alone
CREATE INDEX IF NOT EXISTS club_ratings_rating ON club_ratings(rating, rated_matches);
CREATE TABLE IF NOT EXISTS club_records (
    player TEXT PRIMARY KEY,
    matches INTEGER NOT NULL DEFAULT 0,
    match_wins INTEGER NOT NULL DEFAULT 0,
    games INTEGER NOT NULL DEFAULT 0,
    wins INTEGER NOT NULL DEFAULT 0,
    hands INTEGER NOT NULL DEFAULT 0,
    voles INTEGER NOT NULL DEFAULT 0,
    kings INTEGER NOT NULL DEFAULT 0,
    points INTEGER NOT NULL DEFAULT 0
);
-- Matches already counted: recording a match twice counts it once.
CREATE TABLE IF NOT EXISTS club_matches (
    match_id TEXT PRIMARY KEY,
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    winner TEXT,
    rated INTEGER NOT NULL,
    rating_a REAL,
    rating_b REAL,
    delta_a REAL,
    delta_b REAL,
    at TEXT NOT NULL
);
"""


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ClubDB:
    """One connection to the server's database file, holding the ``club_*`` tables.

    ``path`` may be ``":memory:"`` for tests. Safe to call from the event loop: statements
    are short, and a lock keeps threads from interleaving transactions.
    """

    def __init__(self, path: Path | str, timeout: float = 5.0) -> None:
        """``path``: the SQLite file (or ``":memory:"``), or the club's ``postgresql://`` URL
        (net/postgres.py: the same SQL, writers ordered by one advisory lock)."""
        if isinstance(path, Path):
            path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.RLock()
        # isolation_level=None: we issue BEGIN IMMEDIATE ourselves, so the write lock is taken
        # before the balances are read and two writers can never both pass a purse check.
        self.conn: Any = connect(path, timeout=timeout)
        if is_url(path):
            self.conn.executescript(schema_ddl(SCHEMA, rowid_tables=("club_games",)))
            with self.tx() as db:
                db.execute("INSERT OR IGNORE INTO club_meta (key, value) VALUES ('schema', ?)",
                           (str(SCHEMA_VERSION),))
            return
        self.conn.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode survives a killed process (only a power cut can lose the tail),
        # as in net/store/club_store.py.
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.conn.executescript(SCHEMA)  # CREATE ... IF NOT EXISTS: safe at every start
        with self.tx() as db:
            db.execute(
                "INSERT OR IGNORE INTO club_meta (key, value) VALUES ('schema', ?)",
                (str(SCHEMA_VERSION),),
            )

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; rolled back whole if anything in it raises."""
        with self._lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection for a few reads in a row (no transaction: WAL reads never wait)."""
        with self._lock:
            yield self.conn

    def read(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple]:
        """A read outside any transaction (WAL readers never wait for the writer)."""
        with self._lock:
            return self.conn.execute(sql, args).fetchall()
