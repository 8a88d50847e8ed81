"""The club's store on PostgreSQL: a connection that speaks the small part of ``sqlite3`` the
store, the ledger and the ratings use, so one body of SQL serves both backends.

The SQL is written once, for SQLite, in the portable subset (``?`` parameters, ``ON CONFLICT``
upserts); it is translated once per statement (``%s`` parameters, ``INSERT OR IGNORE`` as
``ON CONFLICT DO NOTHING``). SQLite serialises writers with ``BEGIN IMMEDIATE``: the ledger's
purse checks rely on it. Here ``BEGIN IMMEDIATE`` takes a transaction-scoped advisory lock,
the same one in every node, so writers are ordered the same way and no purse is overdrawn by
two nodes at once. The driver is psycopg 3 (``pip install 'ecarte[postgresql]'``).
"""

from __future__ import annotations

import re
import sqlite3
import threading
from functools import lru_cache
from typing import Any

WRITE_LOCK = 0x45434152  # "ECAR": the advisory lock every writer of the club takes
NOTIFY_CHANNEL = "ecarte_club"  # a table moved or changed: the payload is its code


def is_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


@lru_cache(maxsize=512)
def translate(sql: str) -> str:
    """SQLite's form of a statement in PostgreSQL's."""
    out = sql.replace("%", "%%").replace("?", "%s")
    m = re.match(r"\s*INSERT OR IGNORE INTO", out, re.I)
    if m:
        out = re.sub(r"INSERT OR IGNORE INTO", "INSERT INTO", out, count=1, flags=re.I)
        out = out.rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
    return out


class _Cursor:
    def __init__(self, cur: Any) -> None:
        self._cur = cur
        self.rowcount: int = cur.rowcount

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._cur.fetchone() if self._cur.description else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._cur.fetchall() if self._cur.description else []


class PgConnection:
    """``execute``, ``executescript``, ``in_transaction``, ``close`` as ``sqlite3`` has them;
    an integrity error is raised as ``sqlite3.IntegrityError`` so callers catch one kind."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError as e:  # pragma: no cover - depends on the installation
            raise RuntimeError(
                "a PostgreSQL store needs psycopg: pip install 'ecarte[postgresql]'") from e
        self._psycopg = psycopg
        self._conn = psycopg.connect(url, autocommit=True)
        self._lock = threading.RLock()
        self._in_tx = False

    @property
    def in_transaction(self) -> bool:
        return self._in_tx

    def execute(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> _Cursor:
        head = sql.lstrip()[:16].upper()
        with self._lock:
            if head.startswith("PRAGMA"):
                return _Cursor(self._conn.execute("SELECT 1 WHERE false"))
            if head.startswith("BEGIN"):
                self._conn.execute("BEGIN")
                self._in_tx = True
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                return _Cursor(self._conn.execute("SELECT 1 WHERE false"))
            if head.startswith(("COMMIT", "ROLLBACK")):
                self._in_tx = False
                return _Cursor(self._conn.execute(head.split()[0]))
            try:
                return _Cursor(self._conn.execute(translate(sql), tuple(args)))
            except self._psycopg.IntegrityError as e:
                raise sqlite3.IntegrityError(str(e)) from e

    def executescript(self, script: str) -> None:
        """A schema, created by one node at a time (``IF NOT EXISTS`` races otherwise)."""
        with self._lock:
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                self._conn.execute(script)

    def notify(self, payload: str) -> None:
        """Wake every node listening (delivered when the transaction commits)."""
        self._conn.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, payload))

    def close(self) -> None:
        self._conn.close()


def connect(target: str | Any, timeout: float = 10.0) -> sqlite3.Connection | PgConnection:
    """A connection to the club's store: a PostgreSQL URL, or an SQLite file."""
    if is_url(target):
        return PgConnection(str(target))
    return sqlite3.connect(str(target), isolation_level=None, check_same_thread=False,
                           timeout=timeout)


STORE_SCHEMA = """
CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created TEXT NOT NULL,
    last_seen TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS players_name ON players (lower(name));
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    seat_a TEXT, seat_b TEXT, name_a TEXT, name_b TEXT,
    ecn TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    winner TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    rowid BIGSERIAL
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE TABLE IF NOT EXISTS rounds (
    record_id TEXT PRIMARY KEY,
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    seat_a TEXT, seat_b TEXT,
    ecn TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    winner TEXT,
    updated TEXT NOT NULL,
    rowid BIGSERIAL
);
CREATE INDEX IF NOT EXISTS rounds_code ON rounds(code);
CREATE TABLE IF NOT EXISTS table_state (code TEXT PRIMARY KEY, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS galleries (
    code TEXT PRIMARY KEY, state TEXT NOT NULL, updated TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS table_log (
    id BIGSERIAL PRIMARY KEY,
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    node TEXT NOT NULL,
    at TEXT NOT NULL,
    UNIQUE (code, seq)
);
CREATE TABLE IF NOT EXISTS club_feed (id BIGSERIAL PRIMARY KEY, code TEXT NOT NULL,
                                      what TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS presence (
    code TEXT NOT NULL, member TEXT NOT NULL, node TEXT NOT NULL, sessions INTEGER NOT NULL,
    PRIMARY KEY (code, member, node));
CREATE TABLE IF NOT EXISTS seat_drops (
    code TEXT NOT NULL, member TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (code, member));
CREATE TABLE IF NOT EXISTS leases (
    code TEXT PRIMARY KEY, node TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS nodes (node TEXT PRIMARY KEY, beat DOUBLE PRECISION NOT NULL);
"""

LEDGER_SCHEMA = """
CREATE TABLE IF NOT EXISTS club_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS club_purses (
    player TEXT PRIMARY KEY,
    chips INTEGER NOT NULL CHECK (chips >= 0),
    created TEXT NOT NULL
);
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
    closed TEXT,
    rowid BIGSERIAL
);
CREATE INDEX IF NOT EXISTS club_games_status ON club_games(status);
CREATE TABLE IF NOT EXISTS club_wagers (
    id BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES club_games(game_id),
    bettor TEXT NOT NULL,
    on_player TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    payout INTEGER,
    placed TEXT NOT NULL,
    UNIQUE (game_id, bettor)
);
CREATE INDEX IF NOT EXISTS club_wagers_game ON club_wagers(game_id);
CREATE TABLE IF NOT EXISTS club_journal (
    id BIGSERIAL PRIMARY KEY,
    player TEXT NOT NULL,
    delta INTEGER NOT NULL,
    reason TEXT NOT NULL,
    game_id TEXT,
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS club_journal_player ON club_journal(player);
CREATE TABLE IF NOT EXISTS club_ratings (
    player TEXT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    rated_matches INTEGER NOT NULL DEFAULT 0,
    updated TEXT NOT NULL
);
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
CREATE TABLE IF NOT EXISTS club_matches (
    match_id TEXT PRIMARY KEY,
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    winner TEXT,
    rated INTEGER NOT NULL,
    rating_a DOUBLE PRECISION,
    rating_b DOUBLE PRECISION,
    delta_a DOUBLE PRECISION,
    delta_b DOUBLE PRECISION,
    at TEXT NOT NULL
);
"""
