"""What a node's loops log while the club's database is away: one warning when a loop's
statements start failing and one when they work again, rather than a traceback every
second of a restart. A failure that is not the database's (a bug) keeps its traceback."""

from __future__ import annotations

import logging
import sqlite3
import time

from net.store.postgres import first_line


def is_outage(error: BaseException) -> bool:
    """Whether ``error`` says the store cannot be reached, rather than that code is wrong."""
    if isinstance(error, (OSError, sqlite3.OperationalError, TimeoutError)):
        return True
    try:
        import psycopg
        from psycopg_pool import PoolTimeout
    except ImportError:  # pragma: no cover - SQLite only
        return False
    return isinstance(error, (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout))


class OutageLog:
    """The log of one loop (the feed, the heartbeat, NOTIFY) across outages."""

    def __init__(self, what: str, logger: logging.Logger) -> None:
        self.what, self.log = what, logger
        self.since: float | None = None  # when the current outage began

    def failed(self, error: BaseException) -> None:
        if not is_outage(error):
            self.log.error("%s failed", self.what, exc_info=error)
            return
        if self.since is None:
            self.since = time.monotonic()
            self.log.warning("%s failed: %s (the club's database; trying again)", self.what,
                             first_line(error))
        self.log.debug("%s failed", self.what, exc_info=error)

    def worked(self) -> None:
        if self.since is not None:
            self.log.warning("%s works again (after %.0f s)", self.what,
                             time.monotonic() - self.since)
            self.since = None
