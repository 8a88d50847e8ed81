"""The rows that keep one club's processes in step, in the club's SQLite file (WAL).

Every process has its own connection (``Store``); SQLite's write lock orders the writers and
the unique (table, step) key settles two writers of the same step.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from ecarte_tui.table import Entry
from net.store.club_store import STILL_OPEN, Store
from net.store.postgres import NOTIFY_CHANNEL, PgConnection

Steps = list[tuple[int, Entry]]
Changes = tuple[int, dict[str, Steps], int, list[tuple[str, str]]]
"""What moved since the ids seen last: (last log id, the new steps of each table, last feed
id, [(table, what changed)])."""
NOTE_SEP = "|"  # a NOTIFY's payload: "node|code" (the node that wrote), or "code"

WATCHERS = "*"  # the presence row of a table's watchers


def _entry(text: str) -> Entry:
    """A step of the log as stored (JSON) read back."""
    verb, seat, arg = json.loads(text)
    return (str(verb), int(seat), str(arg))


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# The statements of a move and of reading other nodes' moves, in SQLite's form (PostgreSQL's
# by ``translate``): sent here synchronously, or awaited by ``async_log.AsyncLog``.
LOG_INSERT = "INSERT INTO table_log (code, seq, entry, node, at) VALUES (?, ?, ?, ?, ?)"
LOG_AFTER = "SELECT seq, entry FROM table_log WHERE code = ? AND seq > ? ORDER BY seq"
CHANGES_AFTER = ("SELECT 0, id, code, seq, entry FROM table_log WHERE id > ? "
                 "UNION ALL SELECT 1, id, code, 0, what FROM club_feed WHERE id > ? "
                 "ORDER BY 1, 2")
SAVE_IF_CURRENT = ("UPDATE tables SET ecn = ?, status = ?, winner = COALESCE(?, winner), "
                   f"updated = ? WHERE code = ? AND {STILL_OPEN} AND "
                   "(SELECT COALESCE(MAX(seq), 0) FROM table_log WHERE code = ?) <= ?")

PRESENCE_EVERYWHERE = ("SELECT p.code, p.member, SUM(p.sessions) FROM presence p "
                       "JOIN nodes n ON n.node = p.node WHERE n.beat >= ? "
                       "GROUP BY p.code, p.member")
DROPS_EVERYWHERE = "SELECT code, member, at FROM seat_drops"


def read_presence(rows: Sequence[Sequence[Any]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for code, member, n in rows:
        out.setdefault(str(code), {})[str(member)] = int(n)
    return out


def read_drops(rows: Sequence[Sequence[Any]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for code, member, at in rows:
        out.setdefault(str(code), {})[str(member)] = float(at)
    return out


def read_steps(rows: Sequence[Sequence[Any]]) -> Steps:
    return [(int(s), _entry(text)) for s, text in rows]


def read_changes(rows: Sequence[Sequence[Any]], log_id: int, feed_id: int) -> Changes:
    """The rows of ``CHANGES_AFTER`` sorted out (ids follow commits: every writer holds the
    club's write lock)."""
    steps: dict[str, Steps] = {}
    feed: list[tuple[str, str]] = []
    for kind, row_id, code, seq, text in rows:
        if kind == 0:
            log_id = int(row_id)
            if int(seq) == 0:  # a genesis: no step to show
                continue
            steps.setdefault(str(code), []).append((int(seq), _entry(text)))
        else:
            feed_id = int(row_id)
            feed.append((str(code), str(text)))
    return log_id, steps, feed_id, feed


class SyncStore:
    """A table's log, seats taken atomically, presence, leases and heartbeats."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.after_write: Callable[[], None] | None = None
        """Called after a step or a change is written (SQLite's nodes wake the others so)."""

    def _written(self) -> None:
        if self.after_write is not None:
            self.after_write()

    # ------------------------------------------------------------------ the log

    def log_after(self, code: str, seq: int) -> list[tuple[int, Entry]]:
        with self.store._lock:
            rows = self.store._db.execute(LOG_AFTER, (code, seq)).fetchall()
        return read_steps(rows)

    def append_step(self, code: str, seq: int, entry: Entry, node: str) -> bool:
        """Step ``seq`` of ``code``; False when another process wrote that step first."""
        try:
            self._insert_and_notify(
                LOG_INSERT, (code, seq, json.dumps(list(entry)), node, now_text()), code, node)
        except sqlite3.IntegrityError:
            return False
        self._written()
        return True

    def changes_after(self, log_id: int, feed_id: int) -> Changes:
        """What moved since the ids seen last, in one read (on PostgreSQL the node awaits
        ``AsyncLog.changes_after`` instead: this one holds the event loop for a round trip)."""
        with self.store._lock:
            rows = self.store._db.execute(CHANGES_AFTER, (log_id, feed_id)).fetchall()
        return read_changes(rows, log_id, feed_id)

    def last_ids(self) -> tuple[int, int]:
        with self.store._lock:
            db = self.store._db
            a = db.execute("SELECT COALESCE(MAX(id), 0) FROM table_log").fetchone()[0]
            b = db.execute("SELECT COALESCE(MAX(id), 0) FROM club_feed").fetchone()[0]
        return int(a), int(b)

    def announce(self, code: str, what: str, node: str | None = None) -> None:
        """Tell every process that ``code`` changed (``what``: seats, status, presence);
        ``node``, the writer, is not woken by its own note."""
        self._insert_and_notify("INSERT INTO club_feed (code, what) VALUES (?, ?)",
                                (code, what), code, node)
        self._written()

    def _insert_and_notify(self, insert: str, args: tuple[object, ...], code: str,
                           node: str | None) -> None:
        """The insert in a transaction of its own under the write lock, and on PostgreSQL
        the note that wakes the other nodes at commit (LISTEN/NOTIFY) in the same statement,
        the whole sent in one round trip (``PgConnection.write_alone``). SQLite's nodes are
        woken by ``after_write`` and poll."""
        store = self.store
        with store._lock:
            db = store._db
            if not isinstance(db, PgConnection):
                with store._tx() as tx:
                    tx.execute(insert, args)
                return
            note = code if node is None else f"{node}{NOTE_SEP}{code}"
            sql = f"WITH written AS ({insert} RETURNING 1) SELECT pg_notify(?, ?) FROM written"
            if db.in_transaction:  # (inside a caller's transaction: part of it)
                db.execute(sql, (*args, NOTIFY_CHANNEL, note))
            else:
                db.write_alone(sql, (*args, NOTIFY_CHANNEL, note))

    @property
    def listen_url(self) -> str | None:
        """Where to LISTEN for other nodes' changes (None: poll)."""
        return str(self.store.path) if self.store.is_postgres else None

    # ------------------------------------------------------------------ tables

    def is_current(self, key: str, seq: int) -> bool:
        """No step after ``seq`` in the log of match ``key``."""
        with self.store._lock:
            last = self.store._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM table_log WHERE code = ?", (key,)).fetchone()
        return int(last[0]) <= seq

    def save_if_current(self, code: str, seq: int, ecn: str, status: str,
                        winner: str | None) -> bool:
        """Store the record of the replay up to step ``seq`` unless the log is further on
        (another node wrote a later step, and stores its own record).

        One statement, without the club's write lock: on PostgreSQL one round trip instead of
        four for every move. A later step's writer saves after its step is in the log, so
        its record is the one left whatever the order of the two statements."""
        with self.store._lock:
            cur = self.store._db.execute(
                SAVE_IF_CURRENT, (ecn, status, winner, now_text(), code, code, seq))
        return cur.rowcount == 1 or self.is_current(code, seq)

    def genesis(self, key: str, proposed: str) -> str:
        """The match's genesis (its log's step 0): ``proposed`` unless another process wrote
        one first."""
        with self.store._tx() as db:
            db.execute("INSERT OR IGNORE INTO table_log (code, seq, entry, node, at) "
                       "VALUES (?, 0, ?, 'genesis', ?)", (key, proposed, now_text()))
            row = db.execute("SELECT entry FROM table_log WHERE code = ? AND seq = 0",
                             (key,)).fetchone()
        return str(row[0]) if row else proposed

    def has_genesis(self, key: str) -> bool:
        with self.store._lock:
            row = self.store._db.execute(
                "SELECT 1 FROM table_log WHERE code = ? AND seq = 0", (key,)).fetchone()
        return row is not None

    def claim_seat(self, code: str, seat: int, player_id: str, name: str) -> bool:
        """Take a free seat; False if someone (in any process) took it first, or the table
        was cancelled or closed meanwhile."""
        col = "ab"[seat]
        with self.store._tx() as db:
            cur = db.execute(
                f"UPDATE tables SET seat_{col} = ?, name_{col} = ?, updated = ? "
                f"WHERE code = ? AND seat_{col} IS NULL AND status IN ('open', 'playing')",
                (player_id, name, now_text(), code))
        return cur.rowcount == 1

    # ------------------------------------------------------------------ presence

    def set_presence(self, code: str, member: str, node: str, sessions: int) -> None:
        with self.store._tx() as db:
            if sessions > 0:
                db.execute(
                    "INSERT INTO presence (code, member, node, sessions) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT(code, member, node) DO UPDATE SET sessions = excluded.sessions",
                    (code, member, node, sessions))
            else:
                db.execute("DELETE FROM presence WHERE code = ? AND member = ? AND node = ?",
                           (code, member, node))

    def presence_of(self, code: str, live_since: float) -> dict[str, int]:
        """Sessions per member (``WATCHERS`` for the watchers) over the processes alive."""
        with self.store._lock:
            rows = self.store._db.execute(
                "SELECT p.member, SUM(p.sessions) FROM presence p "
                "JOIN nodes n ON n.node = p.node WHERE p.code = ? AND n.beat >= ? "
                "GROUP BY p.member", (code, live_since)).fetchall()
        return {str(m): int(n) for m, n in rows}

    def presence_everywhere(self, live_since: float) -> dict[str, dict[str, int]]:
        """``presence_of`` for every table at once (the heartbeat's one read, not two per
        table: on PostgreSQL each is a round trip that holds the node's event loop)."""
        with self.store._lock:
            rows = self.store._db.execute(PRESENCE_EVERYWHERE, (live_since,)).fetchall()
        return read_presence(rows)

    def drop(self, code: str, member: str, at: float) -> float:
        """The seated ``member`` is away since ``at`` (kept if he was already): since when."""
        with self.store._tx() as db:
            db.execute("INSERT OR IGNORE INTO seat_drops (code, member, at) VALUES (?, ?, ?)",
                       (code, member, at))
            row = db.execute("SELECT at FROM seat_drops WHERE code = ? AND member = ?",
                             (code, member)).fetchone()
        return float(row[0])

    def gone(self, code: str, member: str, at: float) -> None:
        """The seated ``member`` is away for good (a guest who left): away since ``at``,
        over any earlier time, so that every node sees his time run out at once."""
        with self.store._tx() as db:
            db.execute("INSERT INTO seat_drops (code, member, at) VALUES (?, ?, ?) "
                       "ON CONFLICT (code, member) DO UPDATE SET at = excluded.at",
                       (code, member, at))

    def back(self, code: str, member: str) -> None:
        with self.store._tx() as db:
            db.execute("DELETE FROM seat_drops WHERE code = ? AND member = ?", (code, member))

    def drops_of(self, code: str) -> dict[str, float]:
        with self.store._lock:
            rows = self.store._db.execute(
                "SELECT member, at FROM seat_drops WHERE code = ?", (code,)).fetchall()
        return {str(m): float(a) for m, a in rows}

    def drops_everywhere(self) -> dict[str, dict[str, float]]:
        with self.store._lock:
            rows = self.store._db.execute(DROPS_EVERYWHERE).fetchall()
        return read_drops(rows)

    # ------------------------------------------------------------------ leases and nodes

    def take_lease(self, code: str, node: str, now: float, ttl: float) -> bool:
        """Hold (or go on holding) the table's lease unless a live holder has it."""
        with self.store._tx() as db:
            db.execute(
                "INSERT INTO leases (code, node, expires) VALUES (?, ?, ?) "
                "ON CONFLICT(code) DO UPDATE SET node = excluded.node, expires = excluded.expires "
                "WHERE leases.node = excluded.node OR leases.expires < ?",
                (code, node, now + ttl, now))
            row = db.execute("SELECT node FROM leases WHERE code = ?", (code,)).fetchone()
        return bool(row and row[0] == node)

    def renew_leases(self, node: str, now: float, ttl: float) -> None:
        with self.store._tx() as db:
            db.execute("UPDATE leases SET expires = ? WHERE node = ?", (now + ttl, node))
            db.execute("INSERT INTO nodes (node, beat) VALUES (?, ?) "
                       "ON CONFLICT(node) DO UPDATE SET beat = excluded.beat", (node, now))

    def release(self, node: str) -> None:
        """A process stopping: its leases go at once and its sessions are gone."""
        with self.store._tx() as db:
            db.execute("DELETE FROM leases WHERE node = ?", (node,))
            db.execute("DELETE FROM presence WHERE node = ?", (node,))
            db.execute("DELETE FROM nodes WHERE node = ?", (node,))
