"""Issue 10: watchers who see the same public view at the same size share one rendering.

A real club server on loopback: two players play while watchers look on; the watchers'
table screens count the updates they draw, the table counts the moves, and every watcher's
bytes are scanned for hidden cards (``leak_check``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from leak_check import CheckedClient, SeenCards
from server_harness import Seat, club_server, generous_limits, new_key

from net.club import LiveTable, TableOptions
from net.game_server import GameServer
from net.screens.gallery_share import REGISTRY, Group, Member
from net.store import Player

SIZE = (100, 30)
OTHER_SIZE = (90, 28)


async def eventually(check: Callable[[], bool], what: str, tries: int = 200) -> None:
    """Until ``check()`` holds (polled between loop steps; no time is asserted)."""
    for _ in range(tries):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


class Moves:
    """Counts the table's updates (every watcher's screen is sent each one)."""

    def __init__(self, lt: LiveTable) -> None:
        assert lt.table is not None
        self.count = 0
        self.unwatch = lt.table.watch(None, self._moved)

    def _moved(self, _update: Any) -> None:
        self.count += 1


async def start_table(server: GameServer) -> tuple[LiveTable, Seat, Seat, SeenCards]:
    keys = (new_key(), new_key())
    ids = [server.store.register(k.get_fingerprint("sha256"), n)
           for k, n in zip(keys, ("anna", "ben"), strict=True)]
    lt, _ = server.club.create(Player(ids[0].id, ids[0].name),
                               TableOptions("nl", (("target", "5"),)))
    a = Seat(await CheckedClient.connect(server.port, size=(80, 24), key=keys[0]), "anna", 1)
    await a.wait_for(f"Table {lt.code}")
    b = Seat(await CheckedClient.connect(server.port, size=(80, 24), key=keys[1],
                                         command=f"join {lt.code}"), "ben", 2)
    await b.wait_for("Écarté ·")
    assert lt.table is not None
    return lt, a, b, SeenCards(lt.table)


async def watcher(server: GameServer, lt: LiveTable, seen: SeenCards,
                  size: tuple[int, int] = SIZE) -> Seat:
    client = await CheckedClient.connect(server.port, size=size, command=f"watch {lt.code}")
    client.watch_for_leaks(seen, None)
    w = Seat(client, "watcher")
    await w.wait_for("Watching table")
    return w


async def play_moves(a: Seat, b: Seat, moves: Moves, n: int) -> None:
    """Both players play until the table has moved ``n`` more times."""
    goal = moves.count + n
    done: Callable[[str], bool] = lambda _s: moves.count >= goal  # noqa: E731
    await asyncio.gather(a.play(until=done), b.play(until=done))


def group_of_size(size: tuple[int, int]) -> Group | None:
    for group in REGISTRY.groups.values():
        if group.leader.terminal.size == size:
            return group
    return None


async def settle(*seats: Seat) -> None:
    for s in seats:
        await s.quiet(0.15)


async def grouped(server: GameServer, lt: LiveTable, seen: SeenCards, n: int,
                  a: Seat, b: Seat, moves: Moves) -> tuple[Group, list[Seat]]:
    """``n`` watchers at SIZE, all in one group (they join at the move after arriving)."""
    ws = [await watcher(server, lt, seen) for _ in range(n)]
    for _ in range(20):
        group = group_of_size(SIZE)
        if group is not None and len(group.members) == n:
            break
        await play_moves(a, b, moves, 1)
    else:
        raise AssertionError("the watchers never formed one group")
    await settle(a, b, *ws)
    return group, ws


def watcher_screens(group: Group) -> dict[int, int]:
    return {id(m.app): m.screen.table_updates for m in group.members}


async def with_server(tmp_path: Any, body: Callable[..., Awaitable[None]]) -> None:
    async with club_server(tmp_path, seed=5, limits=generous_limits()) as server:
        lt, a, b, seen = await start_table(server)
        moves = Moves(lt)
        try:
            await body(server, lt, a, b, seen, moves)
        finally:
            moves.unwatch()
            seen.unwatch()
            await a.close()
            await b.close()


async def test_one_rendering_per_move_for_a_group(tmp_path):
    async def body(server, lt, a, b, seen, moves):
        group, ws = await grouped(server, lt, seen, 3, a, b, moves)
        alone = await watcher(server, lt, seen, OTHER_SIZE)
        await play_moves(a, b, moves, 1)  # the one at another size has its own group
        await settle(a, b, *ws, alone)
        solo = group_of_size(OTHER_SIZE)
        assert solo is not None and solo.followers == []
        leader = group.leader
        before = watcher_screens(group)
        solo_before = solo.leader.screen.table_updates
        start = moves.count
        await play_moves(a, b, moves, 8)
        await settle(a, b, *ws, alone)
        n = moves.count - start
        assert n >= 8
        assert group.leader is leader and len(group.followers) == 2  # nobody left
        after = watcher_screens(group)
        drawn = {k: after[k] - before[k] for k in after}
        # one table rendering per move for the three of them, not three
        assert drawn[id(leader.app)] == n
        assert [drawn[id(f.app)] for f in group.followers] == [0, 0]
        assert solo.leader.screen.table_updates - solo_before == n  # alone: its own
        # every member shows the same screen, cell for cell, and the table as it is
        texts = [w.text() for w in ws]
        assert texts[0] == texts[1] == texts[2]
        assert "Watching table" in texts[0]
        top = texts[0].split("\n", 1)[0].split()
        assert top[:6] == alone.text().split("\n", 1)[0].split()[:6]  # "Écarté · nl rules · hand N"
        for w in (*ws, alone):
            assert w.client.leaks == [], w.client.leaks[0]
            assert w.client.frames_checked > 5
        for w in (*ws, alone):
            await w.close()
        await eventually(lambda: len(REGISTRY) == 0, "the registry empties")
        assert REGISTRY.members == {}

    await with_server(tmp_path, body)


async def test_a_follower_who_opens_help_leaves_and_comes_back(tmp_path):
    async def body(server, lt, a, b, seen, moves):
        group, ws = await grouped(server, lt, seen, 3, a, b, moves)
        # which client is a follower: the one whose app is not the leader's
        by_text = {id(m.app): m for m in group.members}
        assert len(by_text) == 3
        follower = group.followers[0]
        # find its client: its terminal's channel is the one its session writes to
        w = next(s for s in ws if _channel_matches(s, follower))
        others = [s for s in ws if s is not w]
        w.press(b"?")
        await w.wait_for("esc to go back")
        assert follower not in group.members and id(follower.app) not in REGISTRY.members
        assert "esc to go back" not in others[0].text()  # the help is his alone
        await play_moves(a, b, moves, 2)  # the group goes on without him
        await settle(a, b, *ws)
        assert "esc to go back" in w.text()
        w.press(b"\x1b")
        await w.wait_for("Watching table")
        await settle(*ws)
        assert w.text() == others[0].text()  # drawn alone: the current table, the same
        await play_moves(a, b, moves, 1)  # he joins again at the next move
        await settle(a, b, *ws)
        assert len(group.members) == 3
        assert w.text() == others[0].text()
        # a toast is his own too: he leaves, it is drawn for him alone, and he stays out
        # while it is up
        mine = next(m for m in group.members if _channel_matches(w, m))
        mine.app.notify("a note for one watcher", timeout=30)
        await w.wait_for("a note for one watcher")
        await play_moves(a, b, moves, 1)
        await settle(a, b, *ws)
        assert id(mine.app) not in REGISTRY.members and len(group.members) == 2
        assert "a note for one watcher" in w.text()
        assert all("a note for" not in s.text() for s in others)
        for s in ws:
            assert s.client.leaks == [], s.client.leaks[0]
            await s.close()
        await eventually(lambda: len(REGISTRY) == 0, "the registry empties")

    await with_server(tmp_path, body)


async def test_the_leader_leaving_hands_the_rendering_on(tmp_path):
    async def body(server, lt, a, b, seen, moves):
        group, ws = await grouped(server, lt, seen, 3, a, b, moves)
        leader = group.leader
        lw = next(s for s in ws if _channel_matches(s, leader))
        rest = [s for s in ws if s is not lw]
        lw.client.resize(*OTHER_SIZE)  # a resize is his own: he leaves, and leads no more
        await eventually(lambda: group.leader is not leader, "another member leads")
        assert len(group.members) == 2
        await play_moves(a, b, moves, 3)
        await settle(a, b, *ws)
        assert rest[0].text() == rest[1].text()
        assert "Watching table" in rest[0].text()
        assert "Watching table" in lw.text()  # drawn for him alone, at his new size
        assert len(lw.text().split("\n")) == OTHER_SIZE[1]
        await lw.close()
        await rest[0].close()
        await eventually(lambda: len(group.members) <= 1, "the group shrinks")
        await rest[1].close()
        await eventually(lambda: len(REGISTRY) == 0, "the registry empties")
        for s in ws:
            assert s.client.leaks == [], s.client.leaks[0]

    await with_server(tmp_path, body)


def _channel_matches(seat: Seat, member: Member) -> bool:
    """Whether ``member``'s session serves ``seat``'s client: their ports match."""
    chan = member.terminal.channel
    peer = chan.get_extra_info("peername")
    conn = seat.client.conn
    assert conn is not None
    local = conn.get_extra_info("sockname")
    return peer is not None and local is not None and peer[1] == local[1]


async def test_a_watcher_with_a_purse_keeps_his_own_view_and_costs_no_reads_per_move(tmp_path):
    """A watcher with a key sees his own purse, so he may not share a guest's rendering (nor
    the guest his): the views are compared each in its own session (a screen's ``app`` is
    the running context's, and a join runs in the newcomer's). The newcomer tries again at
    every move, and the comparison reads no chips from the store (on PostgreSQL a round trip
    each, on the event loop): the panels read them only when the house says they moved."""
    async def body(server, lt, a, b, seen, moves):
        key = new_key()
        server.store.register(key.get_fingerprint("sha256"), "carl")
        carl_client = await CheckedClient.connect(server.port, size=SIZE, key=key,
                                                  command=f"watch {lt.code}")
        carl_client.watch_for_leaks(seen, None)
        carl = Seat(carl_client, "carl")
        await carl.wait_for("Your purse")
        guest = await watcher(server, lt, seen)
        await play_moves(a, b, moves, 2)
        await settle(a, b, carl, guest)
        ledger = server.house.ledger
        reads: list[str] = []
        events: list[str] = []
        for name in ("purse", "wagers"):
            real = getattr(ledger, name)

            def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
                reads.append(_name)
                return _real(*args)

            setattr(ledger, name, counted)
        server.house.listeners.append(lambda _code, what: events.append(what))
        await play_moves(a, b, moves, 8)
        await settle(a, b, carl, guest)
        assert all(len(g.members) == 1 for g in REGISTRY.groups.values())
        # four panels (two players, two watchers), at most two reads each per chip event
        assert len(reads) <= 8 * len(events), (reads, events)
        assert "Your purse: 1000 chips" in carl.text()
        assert "Your purse" not in guest.text()
        for w in (carl, guest):
            assert w.client.leaks == []
            await w.close()

    await with_server(tmp_path, body)
