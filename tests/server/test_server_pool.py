"""Pool écarté (001, 003) and the French rule (003) through the real server, three SSH
clients at one table: the rotation over several games, the pool board on every screen, the
one waiting never shown a hidden card, a restart mid-pool, the adviser taking the seat."""

from __future__ import annotations

import asyncio
import time

import pytest
from leak_check import CheckedClient, SeenCards
from server_harness import Seat, club_server, generous_limits, new_key

from net.club import TableOptions
from net.club.clubhouse.options import ClubOptions
from net.club.clubhouse.pool import Pool
from net.store import Player

SIZE = (120, 40)
NAMES = ("ann", "bob", "cleo")


async def until(check, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.05)


async def gone(seat: Seat, text: str, timeout: float = 20.0) -> None:
    await until(lambda: text not in seat.text(), timeout, f"{seat.name}: {text!r} gone")


def register(server, n: int = 3):
    keys = [new_key() for _ in range(n)]
    players = [server.store.register(k.get_fingerprint("sha256"), NAMES[i])
               for i, k in enumerate(keys)]
    return keys, [Player(p.id, p.name) for p in players]


async def connect(server, key, name: str, command: str | None = None) -> Seat:
    kw = {"command": command} if command else {}
    client = await CheckedClient.connect(server.port, size=SIZE, key=key, **kw)
    return Seat(client, name, seed=sum(map(ord, name)))


async def seat_two(server, club: ClubOptions):
    """ann creates a table (target 1) with these club options, bob joins it."""
    keys, players = register(server)
    opts = TableOptions("classic", (("target", "1"),), club=club)
    lt, _ = server.club.create(players[0], opts)
    ann = await connect(server, keys[0], "ann")
    await ann.wait_for("Waiting for an opponent")
    bob = await connect(server, keys[1], "bob", f"join {lt.code}")
    await bob.wait_for("Écarté ·")
    return lt, keys, players, ann, bob


async def seat_three(server, rule: str):
    lt, keys, players, ann, bob = await seat_two(server, ClubOptions(pool=rule))
    cleo = await connect(server, keys[2], "cleo", f"join {lt.code}")
    await cleo.wait_for("You wait your turn in the pool")
    return lt, keys, players, {"ann": ann, "bob": bob, "cleo": cleo}


async def play_round(lt, seats: dict[str, Seat], n: int) -> str:
    """Round ``n``: the two seated play it out; the one waiting is checked for leaks."""
    playing = [lt.seats[0].name, lt.seats[1].name]
    waiter = lt.seats[2].name
    for seat in seats.values():
        await seat.wait_for(f"{n - 1} game{'s' if n != 2 else ''} played")
        await gone(seat, "wins the match.")
        await gone(seat, "win the match!")
    w = seats[waiter]
    await w.wait_for("You wait your turn in the pool")
    table = lt.table
    w.client.watch_for_leaks(SeenCards(table), None)
    frames_before = w.client.frames_checked
    w.client.labels_seen.clear()

    def next_round(lt) -> None:  # this round only: the next one is another table
        if lt.table is not table:
            w.client.seen = None

    lt.listeners.append(next_round)
    await play_out(table, [seats[p] for p in playing])
    # the check was not vacuous: the one waiting was sent frames showing this round's cards
    # (how many frames depends on how the server batches them, so only "some" is asserted)
    assert w.client.frames_checked > frames_before and w.client.labels_seen
    assert w.client.leaks == [], w.client.leaks[0]
    assert table.match.is_over
    return server_round_winner(lt, table)


async def play_out(table, players: list[Seat]) -> None:
    """The two answer their prompts until the round's game is over at the server (the next
    round may replace a screen before its player reads the result)."""
    await asyncio.gather(*(p.play(until=lambda _s: table.match.is_over, timeout=120)
                           for p in players))


def server_round_winner(lt, table) -> str:
    """The winner's id, by name (the seats may have rotated already)."""
    name = table.names[table.match.match_winner]
    return next(s.player_id for s in lt.seats if s.name == name)


@pytest.mark.parametrize("rule", ["loser_out", "two_in_row"])
async def test_a_pool_of_three_rotates_over_several_games(tmp_path, rule):
    async with club_server(tmp_path, seed=21, limits=generous_limits()) as server:
        server.club.round_pause = 0.1
        lt, _, players, seats = await seat_three(server, rule)
        shadow = Pool([p.id for p in players], rule)
        header = "Pool (003): 2 in a row" if rule == "two_in_row" else "Pool (001)"
        for seat in seats.values():
            await seat.wait_for(header)
            await seat.wait_for("waits   0    0")  # (a dialog may hide the names)
        text = await seats["cleo"].wait_for("cleo      waits   0    0")  # cleo waits her turn
        assert "ann       plays   0    0" in text and "bob       plays   0    0" in text
        for n in range(1, 5):
            assert lt.record_id == (lt.code if n == 1 else f"{lt.code}.{n}")
            winner = await play_round(lt, seats, n)
            shadow.record_game(winner)
            await until(lambda n=n: lt.rounds.number == n + 1, what=f"round {n + 1}")
            assert lt.rounds.pool == shadow
            assert [s.player_id for s in lt.seats] == [*shadow.pairing, shadow.waiting]
            stored = server.club.stored_round(lt.code if n == 1 else f"{lt.code}.{n}")
            assert stored.status == "finished" and stored.winner == winner
            assert (tmp_path / "archive" / f"{lt.record_id.rsplit('.', 1)[0]}.ecn").exists()
        waiter = lt.seats[2].name
        # every screen shows the board as the pool stands (a player's result dialog may
        # hide the names, never the figures); the one waiting reads it whole
        for name, seat in seats.items():
            await seat.wait_for("4 games played")
            for row in shadow.board():
                pname = next(p.name for p in players if p.id == row.player)
                figures = f"{row.status} {row.streak:>3} {row.pools_won:>4}"
                await seat.wait_for(f"{pname:<9} {figures}" if name == waiter else figures)
        await seats[waiter].wait_for("You wait your turn in the pool")
        if rule == "loser_out":
            assert sum(shadow.pools_won.values()) == 4
        else:  # 003: only two wins in succession take the pool
            assert sum(shadow.pools_won.values()) == sum(
                1 for a, b in zip(shadow.games, shadow.games[1:], strict=False)
                if a.winner == b.winner and not a.pool_taken)
        for seat in seats.values():
            assert seat.client.leaks == []
            await seat.close()


async def test_a_restart_mid_pool_brings_the_pool_back(tmp_path):
    async with club_server(tmp_path, seed=5, limits=generous_limits()) as server:
        server.club.round_pause = 0.1
        lt, keys, players, seats = await seat_three(server, "two_in_row")
        await play_round(lt, seats, 1)
        await until(lambda: lt.rounds.number == 2, what="round 2")
        code = lt.code
        pool = lt.rounds.pool.to_json()
        order = [s.player_id for s in lt.seats]
        ecn = lt.table.record_text()
        for seat in seats.values():
            await seat.close()
    async with club_server(tmp_path, seed=6, limits=generous_limits()) as server:
        lt2 = server.club.tables[code]
        assert lt2.rounds.number == 2 and lt2.record_id == f"{code}.2"
        assert lt2.rounds.pool.to_json() == pool
        assert [s.player_id for s in lt2.seats] == order
        assert lt2.table.record_text() == ecn
        # the three come back: each to his place in the pool, the board as it was
        back = {}
        for key, p in zip(keys, players, strict=True):
            back[p.name] = await connect(server, key, p.name)
        waiter = lt2.seats[2].name
        await back[waiter].wait_for("You wait your turn in the pool")
        for seat in back.values():
            await seat.wait_for("1 game played")
        server.club.round_pause = 0.1
        winner = await play_round(lt2, back, 2)
        await until(lambda: lt2.rounds.number == 3, what="round 3")
        assert len(lt2.rounds.pool.games) == 2 and lt2.rounds.pool.games[1].winner == winner
        for seat in back.values():
            await seat.close()


async def test_french_rule_the_adviser_takes_the_losers_seat(tmp_path):
    async with club_server(tmp_path, seed=8, limits=generous_limits()) as server:
        server.club.round_pause = 0.1
        server.club.offer_seconds = 60.0
        lt, keys, players, ann, bob = await seat_two(server, ClubOptions(french_rule=True))
        cleo = await connect(server, keys[2], "cleo", f"watch {lt.code}")
        await cleo.wait_for("Watching table")
        gallery = server.club.house.gallery(lt)
        gallery.join(players[2].id, "cleo")
        gallery.back(players[2].id, players[1].id)  # cleo advises bob
        seats = {"ann": ann, "bob": bob}
        for n in range(1, 12):
            for s in seats.values():
                await gone(s, "wins the match.")
                await gone(s, "win the match!")
            table = lt.table
            await play_out(table, list(seats.values()))
            loser = lt.seats[1 - table.match.match_winner].player_id  # (same two seats)
            if loser == players[1].id:
                break
            await until(lambda n=n: lt.rounds.number == n + 1, what=f"round {n + 1}")
            assert [s.player_id for s in lt.seats] == [players[0].id, players[1].id]
        else:
            pytest.fail("bob never lost a game")
        offer = lt.rounds.offer
        assert offer is not None and offer.adviser == players[2].id
        await cleo.wait_for("bob lost: t take his seat")
        cleo.press(b"t")
        await until(lambda: lt.rounds.number == n + 1, what="the adviser's round")
        assert lt.seats[offer.seat].player_id == players[2].id
        assert players[1].id not in (s.player_id for s in lt.seats)
        await bob.wait_for("Watching table")  # the loser joins the gallery
        await cleo.wait_for("Écarté ·")
        await gone(cleo, "Watching table")
        await play_out(lt.table, [ann, cleo])
        stored = server.club.stored_round(f"{lt.code}.{n + 1}")
        assert stored.status == "finished" and players[2].id in stored.players
        for s in (ann, bob, cleo):
            await s.close()
