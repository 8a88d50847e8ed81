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

import contextlib
import logging
import os
import re
import select
import sqlite3
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

WRITE_LOCK = 0x45434152  # "ECAR": the advisory lock every writer of the club takes
NOTIFY_CHANNEL = "ecarte_club"  # a table moved or changed: the payload is its code
RECONNECT_PAUSE = 2.0  # seconds between tries to connect again while the database is away
# libpq's defaults wait for minutes on a database host that went silent (no connect
# timeout; a dead peer noticed after two hours): every node waits at most this long
TIMEOUTS = {"connect_timeout": "3", "keepalives": "1", "keepalives_idle": "10",
            "keepalives_interval": "5", "keepalives_count": "3", "tcp_user_timeout": "10000"}


class StoreUnavailable(sqlite3.OperationalError):
    """The club's database cannot be reached (restarting, down, the network): the statement
    was not done, or its answer was lost. Raised as sqlite3's kind so that one ``except``
    serves both backends; the connection reconnects by itself once the database is back."""


def with_timeouts(url: str) -> str:
    """``url`` as libpq connection parameters, with ``TIMEOUTS`` where the URL sets none."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    params = conninfo_to_dict(url)
    return make_conninfo(**{**TIMEOUTS, **params})


def first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


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
        self._conninfo = with_timeouts(url)
        self._conn = psycopg.connect(self._conninfo, autocommit=True)
        self._lock = threading.RLock()
        self._in_tx = False
        self._down: tuple[float, str] | None = None  # since when, and why, if unreachable
        self._closing = False

    @property
    def in_transaction(self) -> bool:
        return self._in_tx

    # ------------------------------------------------------------------ staying connected

    def _live(self) -> Any:
        """The connection, made again if the database closed it (a restart, an
        administrator): found before a statement is sent, so none is sent twice."""
        conn = self._conn
        if not conn.closed and not self._in_tx and self._hung_up(conn):
            conn.close()
        if conn.closed or conn.broken:
            if self._in_tx:  # the transaction died with its connection: the caller knows
                self._in_tx = False
            return self._reconnect()
        return conn

    def _hung_up(self, conn: Any) -> bool:
        """Whether the server closed this idle connection: its socket is readable (an idle
        connection is sent nothing else but notices) and reading it finds the end."""
        try:
            for _ in range(4):  # (the server's last word, then the end of the stream)
                readable, _, _ = select.select([conn.fileno()], [], [], 0)
                if not readable:
                    break
                conn.pgconn.consume_input()
            else:
                return True
        except (OSError, self._psycopg.Error):
            return True
        return conn.pgconn.status != self._psycopg.pq.ConnStatus.OK

    def _reconnect(self) -> Any:
        """One try at once (after a restart the database is back already); if it fails, a
        thread tries every ``RECONNECT_PAUSE`` and each statement fails at once meanwhile:
        a database host gone silent holds the event loop for one connect timeout, not one
        per statement."""
        if self._down is not None:  # (the thread is at it)
            raise StoreUnavailable(f"the club's database cannot be reached: {self._down[1]}")
        try:
            conn = self._psycopg.connect(self._conninfo, autocommit=True)
        except self._psycopg.Error as e:
            self._lost(e)
            threading.Thread(target=self._reconnect_later, name="ecarte-store-reconnect",
                             daemon=True).start()
            raise StoreUnavailable(
                f"the club's database cannot be reached: {first_line(e)}") from e
        self._conn = conn
        log.info("the club's database closed a connection; connected again")
        return conn

    def _reconnect_later(self) -> None:
        while not self._closing:
            time.sleep(RECONNECT_PAUSE)
            try:
                conn = self._psycopg.connect(self._conninfo, autocommit=True)
            except self._psycopg.Error:
                continue
            with self._lock:
                if self._closing:
                    conn.close()
                    return
                old, self._conn = self._conn, conn
                down, self._down = self._down, None
            with contextlib.suppress(self._psycopg.Error):
                old.close()
            since = down[0] if down is not None else time.monotonic()
            log.warning("the club's database answers again (after %.0f s)",
                        time.monotonic() - since)
            return

    def _lost(self, error: BaseException) -> None:
        """Logged once per outage (each statement meanwhile fails fast, with a message)."""
        if self._down is None:
            self._down = (time.monotonic(), first_line(error))
            log.warning("the club's database cannot be reached (%s): players are told to "
                        "try again; trying to connect every %g s", self._down[1],
                        RECONNECT_PAUSE)

    def _failed(self, conn: Any, error: Exception) -> Exception:
        """What a failed statement raises: its connection lost, ``StoreUnavailable``."""
        if isinstance(error, self._psycopg.IntegrityError):
            return sqlite3.IntegrityError(str(error))
        if conn.closed or conn.broken or isinstance(error, self._psycopg.OperationalError):
            if conn.closed or conn.broken:
                self._in_tx = False
            return StoreUnavailable(f"the club's database did not answer: {first_line(error)}")
        return error

    # ------------------------------------------------------------------ statements

    def execute(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> _Cursor | _NoRows:
        head = sql.lstrip()[:16].upper()
        with self._lock:
            if head.startswith("PRAGMA"):
                return _NO_ROWS
            if head.startswith("ROLLBACK") and (self._conn.closed or self._conn.broken):
                self._in_tx = False  # (the server ended that transaction with the connection)
                return _NO_ROWS
            conn = self._live()
            try:
                if head.startswith("BEGIN"):
                    # one round trip: two statements without parameters go as one simple query
                    conn.execute(f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK:d})")
                    self._in_tx = True
                    return _NO_ROWS
                if head.startswith(("COMMIT", "ROLLBACK")):
                    self._in_tx = False
                    return _Cursor(conn.execute(head.split()[0]))
                return _Cursor(conn.execute(translate(sql), tuple(args)))
            except self._psycopg.Error as e:
                raise self._failed(conn, e) from e

    def write_alone(self, sql: str, args: tuple[Any, ...] | list[Any] = ()) -> None:
        """One write in a transaction of its own under the club's write lock (as ``BEGIN
        IMMEDIATE`` takes it), sent in one round trip with psycopg's pipeline rather than
        three: BEGIN and the lock, the write, COMMIT. A failed write is rolled back."""
        with self._lock:
            conn = self._live()
            try:
                with conn.pipeline():
                    conn.execute("BEGIN")
                    conn.execute(f"SELECT pg_advisory_xact_lock({WRITE_LOCK:d})")
                    conn.execute(translate(sql), tuple(args))
                    conn.execute("COMMIT")
            except self._psycopg.Error as e:
                if not (conn.closed or conn.broken) and (
                        conn.info.transaction_status != self._psycopg.pq.TransactionStatus.IDLE):
                    with contextlib.suppress(self._psycopg.Error):
                        conn.execute("ROLLBACK")
                raise self._failed(conn, e) from e

    def executescript(self, script: str) -> None:
        """A schema, created by one node at a time (``IF NOT EXISTS`` races otherwise)."""
        with self._lock:
            conn = self._live()
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                conn.execute(script)

    def close(self) -> None:
        self._closing = True  # (a reconnecting thread stops)
        self._conn.close()


def connect(target: str | Any, timeout: float = 10.0) -> sqlite3.Connection | PgConnection:
    """A connection to the club's store: a PostgreSQL URL, or an SQLite file."""
    if is_url(target):
        return PgConnection(str(target))
    if str(target) != ":memory:":
        keep_private(Path(target))
    return sqlite3.connect(str(target), isolation_level=None, check_same_thread=False,
                           timeout=timeout)


def keep_private(db: Path) -> None:
    """The club's SQLite file holds the hidden cards of every game in play: readable by the
    server's user only, as its host key is (SQLite makes the ``-wal`` and ``-shm`` files
    with the database's mode; those an older version left are made so too)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(db, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for path in (db, db.with_name(f"{db.name}-wal"), db.with_name(f"{db.name}-shm")):
        try:
            if path.stat().st_mode & 0o077:
                path.chmod(0o600)
        except FileNotFoundError:
            continue
        except PermissionError:  # (another user's file the server may write: it says so)
            log.warning("%s may be read by other users and is not the server's to change",
                        path)


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
