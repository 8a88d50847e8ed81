"""Letting go of what no node needs any more, so that a club left running does not grow for
ever: the log of a table finished, closed or cancelled an hour ago (its row holds the whole
match as ECN, and no node replays a table that is over), and the feed's rows that every
running node has read (a node that starts reads the feed from its end).

Every step of every match stays in the log while the match is played (a node joining, or
catching up, replays it); once it is over the step log is a second copy of the record, larger
than the record itself. The work is done in small batches on the node's heartbeat; a backlog
is worked through every ten seconds, then once an hour.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime

from net.club_sync.sync_store import SyncStore

log = logging.getLogger(__name__)

KEEP_SECONDS = 3600.0  # a table over this long has its log let go; the feed read this long ago
BATCH = 50  # tables whose logs go in one statement's round
BATCHES = 10  # rounds in one go; more left: again in ``BACKLOG_SECONDS``
BACKLOG_SECONDS = 10.0
FEED_BATCH = 5000

# logs of plain tables over, and of every round of a pool table closed for good
_LOGS_OF_TABLES_OVER = """
SELECT DISTINCT l.code FROM table_log l JOIN tables t ON t.code = l.code
WHERE t.status IN ('finished', 'closed', 'cancelled') AND t.updated < ?
  AND t.code NOT IN (SELECT code FROM rounds)
LIMIT ?
"""
_LOGS_OF_POOLS_CLOSED = """
SELECT DISTINCT l.code FROM table_log l JOIN rounds r ON r.record_id = l.code
JOIN tables t ON t.code = r.code
WHERE t.status IN ('closed', 'cancelled') AND t.updated < ?
LIMIT ?
"""


def iso(epoch: float) -> str:
    """As the store writes ``updated`` (sorts as the times do)."""
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds")


def prune_logs(sync: SyncStore, before: str, batch: int = BATCH) -> int:
    """Delete the logs of up to ``batch`` tables over since before ``before``; how many."""
    with sync.store._tx() as db:
        codes = [r[0] for r in db.execute(_LOGS_OF_TABLES_OVER, (before, batch)).fetchall()]
        if len(codes) < batch:
            codes += [r[0] for r in db.execute(
                _LOGS_OF_POOLS_CLOSED, (before, batch - len(codes))).fetchall()]
        if codes:  # (one statement: one round trip to PostgreSQL for the whole batch)
            marks = ", ".join("?" * len(codes))
            db.execute(f"DELETE FROM table_log WHERE code IN ({marks})", tuple(codes))
    return len(codes)


def prune_feed(sync: SyncStore, up_to: int) -> int:
    """Delete feed rows up to id ``up_to`` (at most ``FEED_BATCH``); how many."""
    with sync.store._tx() as db:
        low = db.execute("SELECT COALESCE(MIN(id), 0) FROM club_feed").fetchone()[0]
        cur = db.execute("DELETE FROM club_feed WHERE id <= ?",
                         (min(up_to, int(low) + FEED_BATCH - 1),))
    return max(0, cur.rowcount)


class LogPruner:
    """One node's schedule: ``tick`` on each heartbeat with the feed id it has read."""

    def __init__(self, sync: SyncStore, wall: Callable[[], float], feed_id: int) -> None:
        self.sync, self.wall = sync, wall
        self._mark = feed_id  # the feed id read a ``KEEP_SECONDS`` ago (at most)
        self._next = wall() + KEEP_SECONDS

    def tick(self, feed_id: int) -> tuple[int, int] | None:
        """Prune if it is time: (tables whose logs went, feed rows), else None."""
        now = self.wall()
        if now < self._next:
            return None
        tables = feed = 0
        for _ in range(BATCHES):
            n = prune_logs(self.sync, iso(now - KEEP_SECONDS))
            tables += n
            if n < BATCH:
                break
        for _ in range(BATCHES):
            n = prune_feed(self.sync, self._mark)
            feed += n
            if n < FEED_BATCH:
                break
        backlog = tables == BATCH * BATCHES or feed == FEED_BATCH * BATCHES
        if not backlog:
            self._mark = feed_id  # (read by this node now: every row up to it, in an hour)
        self._next = now + (BACKLOG_SECONDS if backlog else KEEP_SECONDS)
        if tables or feed:
            log.info("let go of the logs of %d tables over and %d rows of the feed", tables,
                     feed)
        return tables, feed
