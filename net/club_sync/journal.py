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
from net.club_sync.outage import OutageLog
from net.club_sync.sync_store import Steps, SyncStore

if TYPE_CHECKING:
    from net.club_sync.async_log import AsyncLog, Record, StepRow

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
        if table.unwritten:  # (a step of this node the store refused: the log's state)
            self.rebuild(table)
            table.unwritten = False
            return
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
    outage = OutageLog("writing or reading a table's steps", log)
    for attempt in itertools.count():
        try:
            result = await call(*args)
            outage.worked()
            return result
        except Exception as e:
            outage.failed(e)
            await asyncio.sleep(RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)])
    raise AssertionError("unreachable")


class StepWriter:
    """This node's one writer of its tables' steps on PostgreSQL: each table with a step
    waiting has its next one in the next statement (``AsyncLog.append``), so a busy worker
    sends one statement for all the moves made since its last, not one per move."""

    def __init__(self, alog: AsyncLog, node: str) -> None:
        self.alog, self.node = alog, node
        self._waiting: dict[DeferredStoreJournal, None] = {}
        self._task: asyncio.Task[None] | None = None

    def want(self, journal: DeferredStoreJournal) -> None:
        self._waiting[journal] = None
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="table-steps")

    async def _run(self) -> None:
        try:
            while self._waiting:
                batch = list(self._waiting)
                self._waiting.clear()
                rows = [j.head_row() for j in batch]
                written = await _patiently(self.alog.append, rows, self.node)
                for journal, (code, seq, _entry, _record) in zip(batch, rows, strict=True):
                    journal.written((code, seq) in written)
        finally:
            self._task = None


class DeferredStoreJournal(StoreJournal):
    """The table's log on PostgreSQL, written by the node's ``StepWriter``: a step is
    applied at once and queued; the steps are written in order, each with the table's
    record at that step, and each is shown when it is written (``Table.confirm``). A step
    another node wrote first empties the queue: the table becomes the log's replay and every
    queued step is checked again (``Table.retry``), refused to its seat if no longer legal.

    ``record`` gives the table's record as stored with a step (None: the steps only)."""

    def __init__(self, store: SyncStore, node: str, code: str, genesis: TableGenesis,
                 rules: Rules, writer: StepWriter,
                 record: Callable[[Table], Record] | None = None,
                 moved: Callable[[], None] = lambda: None) -> None:
        super().__init__(store, node, code, genesis, rules, moved)
        self.writer, self.alog, self.record = writer, writer.alog, record
        self.stored_seq = -1
        """The last step written with the table's record (``Club._persist`` need not)."""
        self._table: Table | None = None
        self._queue: deque[_Pending] = deque()
        self._in_flight = False  # the head of the queue is with the writer
        self._busy: asyncio.Task[None] | None = None  # reading the log (a replay, a catch-up)
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

    def waiting(self, seq: int) -> bool:
        """Whether step ``seq`` (made here) is not in the log yet."""
        return bool(self._queue) and self._queue[0].seq <= seq

    @property
    def idle(self) -> bool:
        return not self._queue and not self._in_flight and self._busy is None

    def write_later(self, table: Table, entry: Entry, held: list[Event | None]) -> None:
        self._table = table
        record = self.record(table) if self.record is not None else None
        self._queue.append(_Pending(table.seq, entry, held, record))
        self._next()

    def catch_up(self, table: Table, read: Steps | None = None) -> None:
        if not self.idle:  # the state here is ahead of the log: read it when written
            self._table = table
            self._missed = True
            return
        super().catch_up(table, read)

    def head_row(self) -> StepRow:
        p = self._queue[0]
        return (self.code, p.seq, p.entry, p.record)

    def written(self, ok: bool) -> None:
        """The writer's answer for the head of the queue."""
        self._in_flight = False
        table = self._table
        assert table is not None
        if ok:
            p = self._queue.popleft()
            if p.record is not None:
                self.stored_seq = p.seq
            table.confirm(p.held, stored=not self._queue)
        else:  # another node's step is in the log at that number
            self._busy = asyncio.get_running_loop().create_task(
                self._replay(table), name=f"table-replay-{self.code}")
        self._next()

    def _next(self) -> None:
        if self._in_flight or self._busy is not None:
            return
        if self._queue:
            self._in_flight = True
            self.writer.want(self)
        elif self._missed and self._table is not None:
            self._missed = False
            self._busy = asyncio.get_running_loop().create_task(
                self._catch_up(self._table), name=f"table-catch-up-{self.code}")
        else:  # idle: the journal lets go of its table (no cycle is left for the collector)
            self._table = None

    async def _replay(self, table: Table) -> None:
        """After a lost race: the log's replay, then this node's steps checked again (those
        made while it was read too: they were checked against a state that was not)."""
        try:
            steps = await _patiently(self.alog.log_after, self.code, 0)
        finally:
            self._busy = None
        lost = [q.entry for q in self._queue]
        self._queue.clear()
        table.reset_from(self.replay(table, steps))
        self.moved()
        for entry in lost:
            table.retry(entry)  # (queued again if still legal)
        self._next()

    async def _catch_up(self, table: Table) -> None:
        try:
            steps = await _patiently(self.alog.log_after, self.code, table.seq)
        finally:
            self._busy = None
        if self._queue:  # steps of this node meanwhile: follow the log once they are in
            self._missed = True
        else:
            super().catch_up(table, steps)
        self._next()

    async def drain(self) -> None:
        """Until every queued step is written (a node stopping)."""
        while not self.idle:
            await asyncio.sleep(0.005)
