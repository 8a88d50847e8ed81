"""A node's frequent statements on PostgreSQL without holding the event loop: psycopg's
``AsyncConnection`` from a ``psycopg_pool`` pool, for what every move sends (its step in the
log, its record), what every other node's move reads (the club's feed) and the heartbeat
(leases, the whole club's presence).

The SQL is ``SyncStore``'s where the synchronous path sends the same: one body of SQL, two
ways to wait for it. Each write is one statement: see ``append``. The rest of the club
(seats, purses, a pool's rounds) stays on the synchronous connection: rare next to moves.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from ecarte_tui.table import Entry
from net.club_sync.sync_store import (
    CHANGES_AFTER,
    DROPS_EVERYWHERE,
    LOG_AFTER,
    NOTE_SEP,
    PRESENCE_EVERYWHERE,
    Changes,
    Steps,
    now_text,
    read_changes,
    read_drops,
    read_presence,
    read_steps,
)
from net.store.club_store import STILL_OPEN
from net.store.postgres import NOTIFY_CHANNEL, WRITE_LOCK, translate, with_timeouts

log = logging.getLogger(__name__)

POOL_SIZE = (1, 4)  # a worker's connections: one for its moves, more while they pile up
# the pool's tries to connect back off up to ``reconnect_timeout`` (its default, five
# minutes, left a restarted database unused for half a minute): they give up soon, and the
# next statement starts them again at once
POOL_RECONNECT = 5.0
POOL_WAIT = 10.0  # seconds a statement waits for a connection before it fails (retried)
APP_NAME = "ecarte-moves"  # the pool's connections, as pg_stat_activity shows them

_APPEND = (
    f"WITH locked AS (SELECT pg_advisory_xact_lock({WRITE_LOCK:d})), "
    "steps AS (SELECT * FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::text[], "
    "%s::text[], %s::text[]) AS s (code, seq, entry, ecn, status, winner)), "
    "written AS (INSERT INTO table_log (code, seq, entry, node, at) "
    "SELECT s.code, s.seq, s.entry, %s, %s FROM steps s, locked ORDER BY s.code "
    "ON CONFLICT (code, seq) DO NOTHING RETURNING code, seq), "
    # the record of a step written, unless the log is further on (SyncStore.save_if_current)
    "saved AS (UPDATE tables t SET ecn = s.ecn, status = s.status, "
    "winner = COALESCE(s.winner, t.winner), updated = %s "
    "FROM steps s JOIN written w ON w.code = s.code AND w.seq = s.seq "
    f"WHERE t.code = s.code AND s.ecn IS NOT NULL AND t.{STILL_OPEN} AND "
    "(SELECT COALESCE(MAX(l.seq), 0) FROM table_log l WHERE l.code = s.code) <= s.seq) "
    "SELECT code, seq, pg_notify(%s, %s || code) FROM written")

Record = tuple[str, str, str | None]
"""A table's record as stored with a step: (ECN, status, winner's player id or None)."""
StepRow = tuple[str, int, Entry, Record | None]
"""A step to write: (table's log, step number, the step, the table's record at it)."""


def pool_class() -> Any:
    """psycopg_pool's ``AsyncConnectionPool``, or why a PostgreSQL store cannot run."""
    try:
        from psycopg_pool import AsyncConnectionPool
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise RuntimeError("a PostgreSQL store needs psycopg-pool: "
                           "pip install 'ecarte[postgresql]'") from e
    return AsyncConnectionPool


class AsyncLog:
    """The log and feed statements of one node, on a pool opened by :meth:`open`."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pool = pool_class()(
            with_timeouts(url), min_size=POOL_SIZE[0], max_size=POOL_SIZE[1], open=False,
            name=APP_NAME, timeout=POOL_WAIT, reconnect_timeout=POOL_RECONNECT,
            kwargs={"autocommit": True, "application_name": APP_NAME})

    async def open(self) -> None:
        await self.pool.open(wait=True, timeout=10.0)

    async def close(self) -> None:
        await self.pool.close()

    async def append(self, steps: list[StepRow], node: str) -> set[tuple[str, int]]:
        """Each step (one per table) and, with it, its table's record at that step; the
        (table, step) written, the others taken first by another node.

        One statement, so one transaction that the server runs to its end on its own: under
        the club's write lock (ids follow commits, as the feed needs), the other nodes woken
        at commit. In several statements the lock would be held while this loop runs other
        tasks, one of which may wait for the same lock synchronously: the node would hang.
        And one statement for all the tables that moved since the last one: a busy worker's
        loop takes a while to come back to each statement, and moves would queue behind the
        pool's connections if each were written on its own."""
        if not steps:
            return set()
        columns: list[list[Any]] = [[], [], [], [], [], []]
        for step in steps:
            code, seq, entry, record = step
            ecn, status, winner = record if record is not None else (None, None, None)
            for column, value in zip(columns, (code, seq, json.dumps(list(entry)), ecn, status,
                                               winner), strict=True):
                column.append(value)
        at = now_text()
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                _APPEND, (*columns, node, at, at, NOTIFY_CHANNEL, f"{node}{NOTE_SEP}"))
            return {(str(code), int(seq)) for code, seq, _ in await cur.fetchall()}

    async def log_after(self, code: str, seq: int) -> Steps:
        async with self.pool.connection() as conn:
            cur = await conn.execute(translate(LOG_AFTER), (code, seq))
            return read_steps(await cur.fetchall())

    async def changes_after(self, log_id: int, feed_id: int) -> Changes:
        """``SyncStore.changes_after``, awaited."""
        async with self.pool.connection() as conn:
            cur = await conn.execute(translate(CHANGES_AFTER), (log_id, feed_id))
            return read_changes(await cur.fetchall(), log_id, feed_id)

    # ------------------------------------------------------------------ the heartbeat

    async def renew(self, node: str, now: float, ttl: float) -> None:
        """``SyncStore.renew_leases``: this node alive, its leases renewed (one statement)."""
        async with self.pool.connection() as conn:
            await conn.execute(
                "WITH renewed AS (UPDATE leases SET expires = %s WHERE node = %s) "
                "INSERT INTO nodes (node, beat) VALUES (%s, %s) "
                "ON CONFLICT (node) DO UPDATE SET beat = excluded.beat",
                (now + ttl, node, node, now))

    async def take_leases(self, codes: list[str], node: str, now: float, ttl: float
                          ) -> set[str]:
        """``SyncStore.take_lease`` for several tables in one statement: those held now."""
        if not codes:
            return set()
        async with self.pool.connection() as conn:
            cur = await conn.execute(
                "INSERT INTO leases (code, node, expires) "
                "SELECT code, %s, %s FROM unnest(%s::text[]) AS code "
                "ON CONFLICT (code) DO UPDATE SET node = excluded.node, "
                "expires = excluded.expires "
                "WHERE leases.node = excluded.node OR leases.expires < %s RETURNING code",
                (node, now + ttl, codes, now))
            return {str(row[0]) for row in await cur.fetchall()}

    async def presence_everywhere(self, live_since: float) -> dict[str, dict[str, int]]:
        async with self.pool.connection() as conn:
            cur = await conn.execute(translate(PRESENCE_EVERYWHERE), (live_since,))
            return read_presence(await cur.fetchall())

    async def drops_everywhere(self) -> dict[str, dict[str, float]]:
        async with self.pool.connection() as conn:
            cur = await conn.execute(translate(DROPS_EVERYWHERE))
            return read_drops(await cur.fetchall())
