"""A table's moves on PostgreSQL written with psycopg's async connection (``AsyncLog``,
``DeferredStoreJournal``): a move is checked at once, shown when the log has it, stored with
its record; two nodes writing one step at once write it once, and the loser's seat is told;
a node's own synchronous writes never wait for its event loop."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
from test_club_nodes import ANNA, BRUNO, make_node, step

from ecarte_tui.engine import IllegalAction
from ecarte_tui.table import Table, Update
from net.club import Club, TableOptions
from net.club_sync.journal import DeferredStoreJournal
from net.club_sync.sync_store import SyncStore


async def opened_nodes(url: str, tmp: Path) -> tuple[Club, Club]:
    one, two = make_node(url, "one", 11, tmp), make_node(url, "two", 12, tmp)
    for club in (one, two):
        await club.node.open()  # type: ignore[union-attr]
    return one, two


async def close(*clubs: Club) -> None:
    for club in clubs:
        await club.node.stop()  # type: ignore[union-attr]
        club.store.close()


async def settle(*clubs: Club) -> None:
    """Every node's queued steps written, then every node's feed read (as its poller does)."""
    for club in clubs:
        await club.node._drain_tables()  # type: ignore[union-attr]
    for club in clubs:
        node = club.node
        assert node is not None and node.alog is not None
        try:
            changes = await node.alog.changes_after(*node._ids)
        except psycopg.OperationalError:  # a connection the database cut: the poller's
            changes = await node.alog.changes_after(*node._ids)  # next read takes another
        node.read_feed(changes)


@contextlib.asynccontextmanager
async def seated_pair(url: str, tmp: Path) -> AsyncIterator[tuple[Club, Club, Table, Table, str]]:
    """Two nodes with the pool open, anna at one and bruno at the other of a new table."""
    one, two = await opened_nodes(url, tmp)
    try:
        yield (one, two, *await seated(one, two))
    finally:
        await close(one, two)


async def seated(one: Club, two: Club) -> tuple[Table, Table, str]:
    lt1, _ = one.create(ANNA, TableOptions("classic", (("target", "3"),)))
    await settle(one, two)
    two.sit(lt1.code, BRUNO)
    await settle(one, two)
    t1, t2 = one.tables[lt1.code].table, two.tables[lt1.code].table
    assert t1 is not None and t2 is not None
    return t1, t2, lt1.code


async def play_until_waiting(one: Club, two: Club, t1: Table, t2: Table, seed: int,
                             seat: int | None = None) -> int:
    """Moves, each on its seat's node, until the play waits for a decision (``seat``'s)."""
    rng = random.Random(seed)
    while t1.status != "play" or t1.waiting_for is None or seat not in (None, t1.waiting_for):
        step({0: t1, 1: t2}, rng)
        await settle(one, two)
    return t1.waiting_for


async def test_a_match_on_two_nodes_is_written_off_the_loop(postgres_url, tmp_path):
    async with seated_pair(postgres_url, tmp_path) as (one, two, t1, t2, code):
        assert isinstance(t1.journal, DeferredStoreJournal)
        assert isinstance(t2.journal, DeferredStoreJournal)
        rng = random.Random(5)
        moves = 0
        while step({0: t1, 1: t2}, rng) is not None:  # each move on its seat's node
            moves += 1
            await settle(one, two)
            assert t1.record_text() == t2.record_text()
        assert t1.status == "over"
        assert one.tables[code].finished and two.tables[code].finished
        stored = one.store.table(code)
        assert stored is not None and stored.status == "finished"
        assert stored.ecn == t1.record_text(), "the record written with the last step"
        log = SyncStore(one.store).log_after(code, 0)
        assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
        assert len(log) == moves, "every move written once"
        assert t1.journal.replay().record_text() == t1.record_text()  # type: ignore[union-attr]
        # idle, a journal holds no reference back to its table: no cycle left to collect
        assert t1.journal._table is None and t2.journal._table is None  # type: ignore[union-attr]


async def test_a_move_is_shown_only_once_the_log_has_it(postgres_url, tmp_path):
    async with seated_pair(postgres_url, tmp_path) as (one, two, t1, t2, code):
        await play_until_waiting(one, two, t1, t2, seed=2, seat=0)
        shown: list[Update] = []
        t1.watch(0, shown.append)
        before = len(shown)
        action = sorted(t1.match.legal_actions(0), key=str)[0]
        t1.submit(0, action)
        assert t1.journal.pending == 1  # type: ignore[union-attr]
        assert len(shown) == before, "nobody is shown a move the log does not have"
        late: list[Update] = []  # a screen opened meanwhile: not shown it either
        t1.watch(0, late.append)
        assert t1.ahead_of_log and late == []
        await settle(one, two)
        assert len(shown) > before and shown[-1].event is not None
        assert not t1.ahead_of_log and late and late[0].event is None
        assert late[0].view == shown[-1].view, "then the whole table, the move in it"
        assert str(shown[-1].event.action) == str(action)
        assert SyncStore(one.store).log_after(code, 0)[-1][1] == ("submit", 0, str(action))


async def test_one_step_written_at_once_on_two_nodes_is_written_once(postgres_url, tmp_path):
    async with seated_pair(postgres_url, tmp_path) as (one, two, t1, t2, code):
        seat = await play_until_waiting(one, two, t1, t2, seed=1)
        legal = sorted(t1.match.legal_actions(seat), key=str)
        assert len(legal) >= 2
        before = len(SyncStore(one.store).log_after(code, 0))
        told: dict[int, list[Update]] = {1: [], 2: []}
        t1.watch(seat, told[1].append)
        t2.watch(seat, told[2].append)

        # the same player acts on both nodes before either has read the other's step
        t1.submit(seat, legal[0])
        t2.submit(seat, legal[1])
        await settle(one, two)

        log = SyncStore(one.store).log_after(code, 0)
        assert len(log) == before + 1, "exactly one of the two was written"
        won = 1 if log[-1][1] == ("submit", seat, str(legal[0])) else 2
        assert log[-1][1] == ("submit", seat, str(legal[won - 1]))
        assert t2.record_text() == t1.record_text(), "the loser shows the winner's step"
        refused = {n: [u.refused for u in told[n] if u.refused is not None] for n in told}
        assert refused[won] == []
        assert len(refused[3 - won]) == 1 and isinstance(refused[3 - won][0], IllegalAction), (
            "the loser's seat is told its move was refused")


async def test_a_sync_write_while_a_move_is_written_does_not_hang_the_node(
        postgres_url, tmp_path):
    """A move's statement holds the club's write lock only while the server runs it: a
    synchronous write of the same node (its heartbeat) made while the move is on its way
    waits for the server, never for this event loop (which it blocks)."""
    async with seated_pair(postgres_url, tmp_path) as (one, two, t1, t2, code):
        one.store._db.execute("SET lock_timeout = '5s'")  # a hang fails instead
        before = len(SyncStore(one.store).log_after(code, 0))
        rng = random.Random(3)
        for turns in range(24):
            if step({0: t1, 1: t1}, rng) is None:
                break
            # the move's statement somewhere on its way: the lock must not be held meanwhile
            for _ in range(turns % 12):
                await asyncio.sleep(0)
            await asyncio.sleep(0.001 * (turns // 12))
            one.node.beat()  # type: ignore[union-attr]  # the write lock, synchronously
            await settle(one, two)
        assert len(SyncStore(one.store).log_after(code, 0)) > before
        assert t1.record_text() == t2.record_text()


async def test_the_heartbeat_on_the_pool_moves_a_lease_and_counts_presence(
        postgres_url, tmp_path):
    """The heartbeat's statements through the pool: the holder of a bot table's lease runs
    its bot; when it stops beating another node takes the lease and the bot; a player's
    sessions on one node are seen by the other."""
    from net.club_sync import node as node_module

    one, two = await opened_nodes(postgres_url, tmp_path)
    now = [1000.0]
    try:
        for club in (one, two):
            club.node.wall = lambda: now[0]  # type: ignore[union-attr]
            await club.node._beat_async(club.node.alog)  # type: ignore[union-attr]
        lt1, _ = one.create(ANNA, TableOptions(opponent="bot:random"))
        one.connected(lt1, 0)  # anna's session on node one
        await settle(one, two)
        lt2 = two.tables[lt1.code]
        assert lt1.bots[1] is not None and lt2.bots[1] is None, "the bot runs on node one"
        await two.node._beat_async(two.node.alog)  # type: ignore[union-attr]
        assert lt2.seats[0].sessions == 1, "node two counts anna's session on node one"
        assert lt2.bots[1] is None, "node one's lease is alive: its bot stays there"

        for b in lt1.bots:  # node one dies: no more heartbeats, no bot
            if b is not None:
                b.stop()
        now[0] += node_module.LEASE_SECONDS + 1
        await two.node._beat_async(two.node.alog)  # type: ignore[union-attr]
        assert lt2.bots[1] is not None, "node two took the lease and runs the bot"
        assert lt2.seats[0].sessions == 0 and lt2.seats[0].dropped_at is not None, (
            "anna's node is dead: she is away")
        held = await two.node.alog.take_leases(  # type: ignore[union-attr]
            [lt1.code], "one", now[0], node_module.LEASE_SECONDS)
        assert held == set(), "a live holder keeps its lease"
    finally:
        await close(one, two)


async def test_one_statement_writes_the_steps_of_several_tables_each_on_its_own(
        postgres_url, tmp_path):
    """The writer's batch: a step another node took first is not written, and does not keep
    the other tables' steps from being written; each table's record goes with its step."""
    from net.club_sync.async_log import AsyncLog

    one, two = await opened_nodes(postgres_url, tmp_path)
    alog = AsyncLog(postgres_url)
    await alog.open()
    try:
        a, b = (one.create(p, TableOptions())[0].code for p in (ANNA, BRUNO))
        sync = SyncStore(one.store)
        assert sync.append_step(a, 1, ("ready", 0, ""), "elsewhere")  # taken first
        written = await alog.append(
            [(a, 1, ("ready", 1, ""), ("ecn a", "playing", None)),
             (b, 1, ("ready", 1, ""), ("ecn b", "playing", None))], "here")
        assert written == {(b, 1)}
        assert sync.log_after(a, 0) == [(1, ("ready", 0, ""))], "nothing written twice"
        assert sync.log_after(b, 0) == [(1, ("ready", 1, ""))]
        assert one.store.table(b).ecn == "ecn b"  # type: ignore[union-attr]
        assert one.store.table(a).ecn != "ecn a"  # type: ignore[union-attr]
    finally:
        await alog.close()
        await close(one, two)


async def test_a_move_made_while_the_database_drops_the_pool_is_written_when_it_answers(
        postgres_url, tmp_path):
    """The database ends the pool's connections (a restart, a failover): the move made
    meanwhile is not lost nor shown unwritten; it is written on a new connection."""
    from net.club_sync.async_log import APP_NAME

    async with seated_pair(postgres_url, tmp_path) as (one, two, t1, t2, code):
        seat = await play_until_waiting(one, two, t1, t2, seed=4)
        table = t1 if seat == 0 else t2
        shown: list[Update] = []
        table.watch(seat, shown.append)
        dropped = one.store._db.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name = ?",
            (APP_NAME,)).fetchone()
        assert dropped is not None and dropped[0] >= 2, "both nodes' pools were cut"
        action = sorted(table.match.legal_actions(seat), key=str)[0]
        table.submit(seat, action)
        await settle(one, two)
        assert SyncStore(one.store).log_after(code, 0)[-1][1] == ("submit", seat, str(action))
        assert shown[-1].event is not None and str(shown[-1].event.action) == str(action)
        assert t1.record_text() == t2.record_text(), "the other node follows it too"
