"""This process as one node of a club shared with others through the store.

The node reads what the others wrote (new steps, changed seats, presence) and shows it:
on PostgreSQL when NOTIFY says so, on SQLite when another process of the machine wakes it
(``local_wake``), then every ``POLL_SECONDS`` for ``WAKE_WINDOW`` (a write may still be
committing), and every ``IDLE_POLL_SECONDS`` when nothing moves. It writes its own
sessions' presence, and it holds the leases of the tables whose bots and timers run here,
renewing them with its heartbeat. A node that stops beating (killed) loses its leases after
``LEASE_SECONDS``: another node takes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ecarte_tui.table import Table
from net.club_sync.genesis import TableGenesis
from net.club_sync.journal import DeferredStoreJournal, StepWriter, StoreJournal
from net.club_sync.local_wake import LocalWake
from net.club_sync.log_pruning import LogPruner
from net.club_sync.outage import OutageLog, is_outage
from net.club_sync.sync_store import NOTE_SEP, WATCHERS, Changes, Steps, SyncStore
from net.store.postgres import first_line

if TYPE_CHECKING:
    from net.club import Club, LiveTable
    from net.club_sync.async_log import AsyncLog

log = logging.getLogger(__name__)

POLL_SECONDS = 0.02  # SQLite: how often the store is read for other nodes' changes ...
WAKE_WINDOW = 1.0  # ... for this long after a wake-up or a change (net/club_sync/local_wake)
IDLE_POLL_SECONDS = 0.5  # ... and otherwise, with wake-ups (the net for a lost one)
LISTEN_POLL_SECONDS = 1.0  # PostgreSQL: NOTIFY wakes the node; polling only as a safety net
BEAT_SECONDS = 1.0
MAIL = "mail:"  # a feed row carrying a delivery, not a change to reload
LEASE_SECONDS = 4.0  # a node silent this long is taken for dead: its leases move


@contextlib.contextmanager
def _logged(what: str, again: set[str] | None = None, key: str = "") -> Iterator[None]:
    """Log a failure and go on: one bad table must not keep the others from being shown.
    The database going away meanwhile is no bug: one line, and ``key`` goes in ``again``
    to be read at the next read of the feed (its change would be lost on this node)."""
    try:
        yield
    except Exception as e:
        if again is None or not is_outage(e):
            log.exception("%s failed", what)
            return
        again.add(key)
        log.warning("%s failed: %s (the club's database; again at the next read)", what,
                    first_line(e))


def node_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class ClubNode:
    def __init__(self, club: Club, sync: SyncStore, name: str | None = None,
                 wall: Callable[[], float] = time.time) -> None:
        self.club, self.sync = club, sync
        self.name = name or node_name()
        self.wall = wall
        self.local: dict[tuple[str, str], int] = {}  # this node's sessions per (table, member)
        self._ids = sync.last_ids()
        self._unsent: dict[tuple[str, str], tuple[LiveTable, bool]] = {}  # see ``presence``
        self._tasks: list[asyncio.Task[None]] = []
        self._local_wake: LocalWake | None = None
        self.alog: AsyncLog | None = None  # PostgreSQL: the moves' statements, awaited
        if sync.listen_url is not None:
            from net.club_sync.async_log import pool_class

            pool_class()  # (missing, the server says so before it starts)
        self.steps: StepWriter | None = None  # ... and the writer of every table's steps
        # what the database going away kept from being read: read at the next feed
        self._follow_again: set[str] = set()
        self._refresh_again: set[str] = set()
        self.pruner = LogPruner(sync, wall, self._ids[1])  # logs and feed no node needs
        sync.renew_leases(self.name, wall(), LEASE_SECONDS)  # alive before anything counts

    # ------------------------------------------------------------------ running

    async def open(self) -> None:
        """On PostgreSQL, the pool of async connections the tables' moves are written with
        (before the tables are restored, so that theirs are too)."""
        url = self.sync.listen_url
        if url is not None and self.alog is None:
            from net.club_sync.async_log import AsyncLog

            alog = AsyncLog(url)
            await alog.open()
            self.alog, self.steps = alog, StepWriter(alog, self.name)

    def start(self) -> None:
        self._wake = asyncio.Event()
        if self.sync.listen_url is None and self.sync.store.path is not None:
            self._local_wake = LocalWake.open(str(self.sync.store.path), self._wake.set)
            if self._local_wake is not None:
                self.sync.after_write = self._local_wake.ping
        self._tasks = [asyncio.create_task(self._poll(), name="club-node-feed"),
                       asyncio.create_task(self._beat(), name="club-node-beat")]
        url = self.sync.listen_url
        if url is not None:
            self._tasks.append(asyncio.create_task(self._listen(url), name="club-node-listen"))

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await t
        self._tasks = []
        await self._drain_tables()
        if self.alog is not None:
            await self.alog.close()
            self.alog = self.steps = None
        if self._local_wake is not None:
            self.sync.after_write = None
            self._local_wake.close()
            self._local_wake = None
        try:
            self.sync.release(self.name)
        except sqlite3.OperationalError as e:  # (its leases lapse by themselves)
            log.warning("this node's leases were not given back: %s", e)

    async def _drain_tables(self, timeout: float = 5.0) -> None:
        """The steps still being written, written (unless the store is gone for good)."""
        journals = [lt.table.journal for lt in self.club.tables.values()
                    if lt.table is not None]
        waits = [j.drain() for j in journals
                 if isinstance(j, DeferredStoreJournal) and not j.idle]
        if waits:
            try:
                async with asyncio.timeout(timeout):
                    await asyncio.gather(*waits)
            except TimeoutError:
                log.error("steps of %d tables were not written before stopping", len(waits))

    async def _poll(self) -> None:
        listening = self.sync.listen_url is not None
        loop = asyncio.get_running_loop()
        busy_until = 0.0
        outage = OutageLog("reading the club's feed", log)
        while True:
            if listening:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(LISTEN_POLL_SECONDS):
                        await self._wake.wait()
                self._wake.clear()
            elif self._local_wake is None or loop.time() < busy_until:
                await asyncio.sleep(POLL_SECONDS)
            else:  # quiet: until another process says it wrote (or the safety net)
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(IDLE_POLL_SECONDS):
                        await self._wake.wait()
                if self._wake.is_set():  # (its write may still be committing: look again)
                    busy_until = loop.time() + WAKE_WINDOW
            self._wake.clear()
            try:
                changes, since = None, self._ids
                if self.alog is not None:
                    changes = await self.alog.changes_after(*since)
                    if since != self._ids:  # read meanwhile (``Club.find``): read again
                        self._wake.set()
                        continue
                if self.read_feed(changes):
                    busy_until = loop.time() + WAKE_WINDOW
                outage.worked()
            except Exception as e:  # a bad row must not stop the node from following the club
                outage.failed(e)

    async def _listen(self, url: str) -> None:
        """PostgreSQL's NOTIFY: another node wrote a step or changed a table."""
        import psycopg

        from net.store.postgres import NOTIFY_CHANNEL, with_timeouts

        outage = OutageLog("listening to the club's database", log)
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(with_timeouts(url),
                                                             autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    outage.worked()
                    self._wake.set()  # whatever happened while not listening
                    mine = f"{self.name}{NOTE_SEP}"
                    async for note in conn.notifies():
                        if not note.payload.startswith(mine):  # (its own write: nothing new)
                            self._wake.set()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database restarting: listen again in a moment
                outage.failed(e)
                await asyncio.sleep(1.0)

    async def _beat(self) -> None:
        outage = OutageLog("the node's heartbeat", log)
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            try:
                if self.alog is None:
                    self.beat()
                else:
                    await self._beat_async(self.alog)
                self.pruner.tick(self._ids[1])
                outage.worked()
            except Exception as e:
                outage.failed(e)

    def read_feed(self, changes: Changes | None = None) -> bool:
        """Show what the other nodes wrote since the last read (read now unless given);
        whether there was any."""
        log_id, moved, feed_id, feed = changes or self.sync.changes_after(*self._ids)
        self._ids = (log_id, feed_id)
        follow_again, refresh_again = self._follow_again, self._refresh_again
        self._follow_again, self._refresh_again = set(), set()
        # (each table on its own: the ids are read, so a failure must not lose the rest)
        follow: dict[str, Steps | None] = dict.fromkeys(follow_again)
        follow.update(moved)
        for key, steps in follow.items():  # a match's record id: CODE, or CODE.N for a round
            with _logged(f"following table {key}", self._follow_again, key):
                lt = self.club.tables.get(key.split(".")[0])
                journal = lt.table.journal if lt is not None and lt.table is not None else None
                if isinstance(journal, StoreJournal) and journal.code == key:
                    journal.catch_up(lt.table, steps)  # type: ignore[union-attr]
        refresh: dict[str, None] = dict.fromkeys(refresh_again)
        for code, what in feed:
            if not what.startswith(MAIL):
                refresh[code] = None
                continue
            with _logged(f"a delivery at table {code}"):
                mail = json.loads(what[len(MAIL):])
                if mail.get("node") != self.name:  # this node delivered its own already
                    self.club.mail(code, mail)
        for code in refresh:
            with _logged(f"reloading table {code}", self._refresh_again, code):
                self.club.refresh(code)
        return bool(moved or feed)

    def beat(self) -> None:
        """Renew this node's leases; take the leases of tables whose holder died."""
        self.sync.renew_leases(self.name, self.wall(), LEASE_SECONDS)
        self.resend_presence()
        tables = self._live_tables()
        if not tables:
            return
        counts = self.sync.presence_everywhere(self.wall() - LEASE_SECONDS)
        drops = self.sync.drops_everywhere()
        held = {lt.code for lt in tables if self._leased(lt) and self.holds(lt.code)}
        self._beaten(tables, counts, drops, held)

    async def _beat_async(self, alog: AsyncLog) -> None:
        """``beat`` with the pool's statements, none of which holds the event loop."""
        now = self.wall()
        await alog.renew(self.name, now, LEASE_SECONDS)
        if self._unsent:  # (rare: after an outage; on the synchronous connection)
            self.resend_presence()
        tables = self._live_tables()
        if not tables:
            return
        counts = await alog.presence_everywhere(now - LEASE_SECONDS)
        drops = await alog.drops_everywhere()
        held = await alog.take_leases([lt.code for lt in tables if self._leased(lt)],
                                      self.name, now, LEASE_SECONDS)
        self._beaten([lt for lt in tables if lt.table is not None and not lt.finished],
                     counts, drops, held)

    def _live_tables(self) -> list[LiveTable]:
        return [lt for lt in list(self.club.tables.values())
                if not lt.finished and lt.table is not None]

    @staticmethod
    def _leased(lt: LiveTable) -> bool:
        """Whether the table has bots or timers, which run where its lease is."""
        return any(s.is_bot for s in lt.seats) or lt.rounds is not None

    def _beaten(self, tables: list[LiveTable], counts: dict[str, dict[str, int]],
                drops: dict[str, dict[str, float]], held: set[str]) -> None:
        """What the heartbeat read, shown: who came or went, where the bots run (each
        table on its own: one that fails must not stop the others' leases, nor the beat)."""
        for lt in tables:
            try:
                if self.refresh_presence(lt, counts.get(lt.code, {}), drops.get(lt.code, {})):
                    lt.notify()  # e.g. a player whose node died is away now
                    self.club.lobby_changed()
                if self._leased(lt):
                    self.club.lease_changed(lt, lt.code in held)
            except Exception as e:
                if is_outage(e):
                    raise  # (the database away: the beat's own log says so, once)
                log.exception("the heartbeat at table %s failed", lt.code)

    # ------------------------------------------------------------------ tables

    def holds(self, code: str) -> bool:
        return self.sync.take_lease(code, self.name, self.wall(), LEASE_SECONDS)

    def build(self, lt: LiveTable, seed: int | None) -> Table:
        """The table's replay: its genesis (set by whichever node started it first) and every
        step of its log, with the journal that writes this node's steps."""
        names = (lt.seats[0].name or "A", lt.seats[1].name or "B")
        proposed = TableGenesis.new(names, seed)
        key = lt.record_id  # each round of a pool has its own log
        genesis = TableGenesis.from_json(self.sync.genesis(key, proposed.to_json()))
        rules = lt.options.rules()
        if lt.rounds is not None:
            from net.club.pool_tables import round_rules

            rules = round_rules(rules)
        def moved() -> None:
            self.club.remote_moved(lt)

        journal: StoreJournal
        if self.steps is not None and lt.rounds is None:  # (a pool's rounds: written at once)
            journal = DeferredStoreJournal(self.sync, self.name, key, genesis, rules, self.steps,
                                           record=lambda t: self.club.record_row(lt, t),
                                           moved=moved)
        else:
            journal = StoreJournal(self.sync, self.name, key, genesis, rules, moved=moved)
        table = journal.replay()
        table.journal = journal
        return table

    def announce(self, code: str, what: str) -> None:
        self.sync.announce(code, what, self.name)

    def relay(self, code: str, mail: dict[str, object]) -> None:
        """Hand ``mail`` (talk, advice, gallery news) to the other nodes, which deliver it to
        their own sessions at table ``code`` (``Club.mail``)."""
        self.sync.announce(code, MAIL + json.dumps({**mail, "node": self.name}), self.name)

    # ------------------------------------------------------------------ presence

    def presence(self, lt: LiveTable, seat: int | None, delta: int) -> None:
        """A session of this node came to (+1) or left (-1) a seat (None: the watchers)."""
        member = WATCHERS if seat is None else lt.seats[seat].player_id
        if member is None:
            return
        key = (lt.code, member)
        n = max(0, self.local.get(key, 0) + delta)
        if n:
            self.local[key] = n
        else:
            self.local.pop(key, None)  # nothing kept for a table nobody here is at
        try:
            self._write_presence(lt, member, delta > 0)
        except sqlite3.OperationalError as e:  # the store away: written by the heartbeat
            self._unsent[key] = (lt, delta > 0)
            log.debug("presence at table %s kept to write later: %s", lt.code, e)

    def _write_presence(self, lt: LiveTable, member: str, arrived: bool) -> None:
        """This node's count of ``member``'s sessions at the table, as it is now (so
        writing it again later, after an outage, is as right as writing it at once)."""
        self.sync.set_presence(lt.code, member, self.name,
                               self.local.get((lt.code, member), 0))
        if member != WATCHERS:
            if arrived:
                self.sync.back(lt.code, member)
            elif self.sync.presence_of(lt.code, self.wall() - LEASE_SECONDS).get(member, 0) == 0:
                self.sync.drop(lt.code, member, self.wall())
        self.refresh_presence(lt)
        self.announce(lt.code, "presence")

    def resend_presence(self) -> None:
        """The presence the store missed while it was away (raises while it still is)."""
        for key, (lt, arrived) in list(self._unsent.items()):
            self._write_presence(lt, key[1], arrived)
            del self._unsent[key]

    def refresh_presence(self, lt: LiveTable, counts: dict[str, int] | None = None,
                         drops: dict[str, float] | None = None) -> bool:
        """Seats' sessions and drop times as the whole club sees them (read now unless given:
        the heartbeat reads every table's at once); True if someone came or went."""
        if counts is None:
            counts = self.sync.presence_of(lt.code, self.wall() - LEASE_SECONDS)
        if drops is None:
            drops = self.sync.drops_of(lt.code)
        before = (lt.watchers, [(s.sessions, s.dropped_at is None) for s in lt.seats])
        lt.watchers = counts.get(WATCHERS, 0)
        now_wall, now = self.wall(), self.club.clock()
        for s in lt.seats:
            member = s.player_id
            s.sessions = counts.get(member, 0) if member else 0
            if s.sessions or member is None or s.is_bot or lt.finished:
                s.dropped_at = None
            elif member in drops:
                s.dropped_at = now - (now_wall - drops[member])
            else:  # his node died with his sessions: away from now on
                s.dropped_at = now - (now_wall - self.sync.drop(lt.code, member, now_wall))
        return before != (lt.watchers, [(s.sessions, s.dropped_at is None) for s in lt.seats])
