"""A shared table's ``Journal``: its steps written to, and read from, the club's store;
on PostgreSQL a ``DeferredStoreJournal`` writes them without holding the event loop."""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ecarte_tui.engine import Event, Rules
from ecarte_tui.table import Entry, Table
from net.club_sync.genesis import TableGenesis
from net.club_sync.sync_store import Steps, SyncStore

if TYPE_CHECKING:
    from net.club_sync.async_log import AsyncLog, Record

log = logging.getLogger(__name__)
T = TypeVar("T")


class StoreJournal:
    """The log of table ``code`` in ``store``; ``moved`` runs after steps of others arrive."""

    def __init__(self, store: SyncStore, node: str, code: str, genesis: TableGenesis,
                 rules: Rules, moved: Callable[[], None] = lambda: None) -> None:
        self.store, self.node, self.code = store, node, code
        self.genesis, self.rules, self.moved = genesis, rules, moved

    def catch_up(self, table: Table, read: Steps | None = None) -> None:
        """The steps after the table's from ``read`` (the feed's rows, this node's own among
        them), or from the log when they do not follow on."""
        if read is None:
            steps = self.store.log_after(self.code, table.seq)
        else:
            steps = [(seq, entry) for seq, entry in read if seq > table.seq]
            if steps and steps[0][0] != table.seq + 1:  # (some were not read: the log has them)
                steps = self.store.log_after(self.code, table.seq)
        if not steps:
            return
        for seq, entry in steps:
            if seq != table.seq + 1:  # a gap cannot happen in one log; if it did, start over
                self.rebuild(table)
                return
            table.replay_entry(entry)
        self.moved()

    def append(self, table: Table, entry: Entry) -> bool:
        return self.store.append_step(self.code, table.seq + 1, entry, self.node)

    def replay(self, guard: Table | None = None, steps: Steps | None = None) -> Table:
        """A new table: the genesis and every step of the log (read now unless given),
        nobody watching it."""
        fresh = self.genesis.build(self.rules)
        if guard is not None:
            fresh.guard, fresh.restrict = guard.guard, guard.restrict
        for seq, entry in self.store.log_after(self.code, 0) if steps is None else steps:
            fresh.apply_entry(entry)
            fresh.seq = seq
        return fresh

    def rebuild(self, table: Table) -> None:
        table.reset_from(self.replay(table))
        self.moved()


@dataclass(slots=True)
class _Pending:
    seq: int
    entry: Entry
    held: list[Event | None]
    record: Record | None


RETRY_SECONDS = (0.1, 0.3, 1.0, 2.0)  # waits between tries while the store does not answer


async def _patiently(call: Callable[..., Awaitable[T]], *args: Any) -> T:
    """``call`` until the store answers (a database restarting): a step applied here is
    shown to nobody until it is written, so the table waits rather than forget it."""
    for attempt in itertools.count():
        try:
            return await call(*args)
        except Exception:
            if attempt == 0:
                log.exception("the club's store did not answer; trying again")
            await asyncio.sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])
    raise AssertionError("unreachable")


class DeferredStoreJournal(StoreJournal):
    """The table's log on PostgreSQL through ``AsyncLog``: a step is applied at once and
    queued; a task writes the queue in order, each step with the table's record at that
    step, and shows each one when it is written (``Table.confirm``). A step another node
    wrote first empties the queue: the table becomes the log's replay and every queued step
    is checked again (``Table.retry``), refused to its seat if no longer legal.

    ``record`` gives the table's record as stored with a step (None: the steps only)."""

    def __init__(self, store: SyncStore, node: str, code: str, genesis: TableGenesis,
                 rules: Rules, alog: AsyncLog, record: Callable[[Table], Record] | None = None,
                 moved: Callable[[], None] = lambda: None) -> None:
        super().__init__(store, node, code, genesis, rules, moved)
        self.alog, self.record = alog, record
        self.stored_seq = -1
        """The last step written with the table's record (``Club._persist`` need not)."""
        self._queue: deque[_Pending] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._missed = False  # other nodes' steps arrived while this node's were queued

    @property
    def deferring(self) -> bool:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False  # (a table restored before the server's loop: written at once)
        return True

    @property
    def pending(self) -> int:
        """Steps applied here and not yet in the log."""
        return len(self._queue)

    def write_later(self, table: Table, entry: Entry, held: list[Event | None]) -> None:
        record = self.record(table) if self.record is not None else None
        self._queue.append(_Pending(table.seq, entry, held, record))
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(
                self._write(table), name=f"table-log-{self.code}")

    def catch_up(self, table: Table, read: Steps | None = None) -> None:
        if self._queue:  # the state here is ahead of the log: read again when written
            self._missed = True
            return
        super().catch_up(table, read)

    async def _write(self, table: Table) -> None:
        try:
            while self._queue or self._missed:
                if not self._queue:
                    self._missed = False
                    steps = await _patiently(self.alog.log_after, self.code, table.seq)
                    if not self._queue:
                        super().catch_up(table, steps)
                    else:
                        self._missed = True
                    continue
                p = self._queue[0]
                if await _patiently(self.alog.append, self.code, p.seq, p.entry, self.node,
                                    p.record):
                    self._queue.popleft()
                    if p.record is not None:
                        self.stored_seq = p.seq
                    table.confirm(p.held, stored=not self._queue)
                    continue
                lost = [q.entry for q in self._queue]
                self._queue.clear()
                steps = await _patiently(self.alog.log_after, self.code, 0)
                table.reset_from(self.replay(table, steps))
                self.moved()
                for entry in lost:
                    table.retry(entry)  # (queued again if still legal)
        finally:
            self._writer = None

    async def drain(self) -> None:
        """Until every queued step is written (a node stopping)."""
        while self._writer is not None:
            await asyncio.shield(self._writer)
