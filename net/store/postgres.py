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


class _NoRows:
    """What a statement PostgreSQL is not sent answers (a PRAGMA, the BEGIN): no round trip
    for an empty result, each one of which held the node's event loop."""

    rowcount = -1

    def fetchone(self) -> None:
        return None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return []


_NO_ROWS = _NoRows()


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

    def execute(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> _Cursor | _NoRows:
        head = sql.lstrip()[:16].upper()
        with self._lock:
            if head.startswith("PRAGMA"):
                return _NO_ROWS
            if head.startswith("BEGIN"):
                # one round trip: two statements without parameters go as one simple query
                self._conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK:d})")
                self._in_tx = True
                return _NO_ROWS
            if head.startswith(("COMMIT", "ROLLBACK")):
                self._in_tx = False
                return _Cursor(self._conn.execute(head.split()[0]))
            try:
                return _Cursor(self._conn.execute(translate(sql), tuple(args)))
            except self._psycopg.IntegrityError as e:
                raise sqlite3.IntegrityError(str(e)) from e

    def write_alone(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> None:
        """One write in a transaction of its own under the club's write lock (as ``BEGIN
        IMMEDIATE`` takes it), sent in one round trip with psycopg's pipeline rather than
        three: BEGIN and the lock, the write, COMMIT. A failed write is rolled back."""
        with self._lock:
            conn = self._conn
            try:
                with conn.pipeline():
                    conn.execute("BEGIN")
                    conn.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK:d})")
                    conn.execute(translate(sql), tuple(args))
                    conn.execute("COMMIT")
            except self._psycopg.Error as e:
                if conn.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE:
                    conn.execute("ROLLBACK")
                if isinstance(e, self._psycopg.IntegrityError):
                    raise sqlite3.IntegrityError(str(e)) from e
                raise

    def executescript(self, script: str) -> None:
        """A schema, created by one node at a time (``IF NOT EXISTS`` races otherwise)."""
        with self._lock:
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                self._conn.execute(script)

    def close(self) -> None:
        self._conn.close()


def connect(target: str | Any, timeout: float = 10.0) -> sqlite3.Connection | PgConnection:
    """A connection to the club's store: a PostgreSQL URL, or an SQLite file."""
    if is_url(target):
        return PgConnection(str(target))
    return sqlite3.connect(str(target), isolation_level=None, check_same_thread=False,
                           timeout=timeout)


def schema_ddl(sqlite_script: str, rowid_tables: tuple[str, ...] = ()) -> str:
    """PostgreSQL's form of a schema written for SQLite: the same tables and columns.

    SQLite's implicit ``rowid`` (the insertion order, used to sort) becomes a column of the
    tables named in ``rowid_tables``; a case-blind unique name becomes a unique index on
    ``lower(name)``."""
    out = sqlite_script.replace("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGSERIAL PRIMARY KEY")
    out = re.sub(r"\bREAL\b", "DOUBLE PRECISION", out)
    extra = []
    for m in re.finditer(r"CREATE TABLE IF NOT EXISTS (\w+) \((?:(?!CREATE).)*?"
                         r"\b(\w+) TEXT NOT NULL UNIQUE COLLATE NOCASE", out, re.S):
        extra.append(f"CREATE UNIQUE INDEX IF NOT EXISTS {m[1]}_{m[2]} ON {m[1]} (lower({m[2]}))")
    out = out.replace(" UNIQUE COLLATE NOCASE", "")
    extra += [f"ALTER TABLE {t} ADD COLUMN IF NOT EXISTS rowid BIGSERIAL" for t in rowid_tables]
    return out.rstrip().rstrip(";") + ";\n" + "".join(f"{e};\n" for e in extra)
