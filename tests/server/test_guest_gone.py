"""A guest whose session ends can never come back (his next session is another guest): his
open table closes at once, his opponent need not wait five minutes for him, and a game he
left against the bot is won by the bot and let go instead of staying in memory for ever."""

from __future__ import annotations

import random

from server_harness import Clock, Seat, club_server, first_visit, new_key, open_table
from test_club_nodes import ANNA, BRUNO, make_node

from net.club import Club, LiveTable, TableOptions
from net.club.identity import Identities
from net.screens.presence import away_banner, may_claim
from net.store import Player, Store


def club(tmp_path) -> tuple[Club, Store]:
    store = Store(tmp_path / "club.db")
    return Club(store, archive_dir=tmp_path / "archive", rng=random.Random(3),
                bot_delay=0), store


def test_a_guests_open_table_closes_when_he_is_gone(tmp_path):
    c, store = club(tmp_path)
    guest = Identities(store).guest()
    lt, seat = c.create(guest, TableOptions())
    c.connected(lt, seat)
    c.disconnected(lt, seat)
    assert lt.code in {t.code for t in c.lobby_tables(guest.id)}  # (his own, while here)
    c.gone_for_good(lt, seat)
    assert lt.code not in c.tables and store.table(lt.code).status == "cancelled"


def test_his_opponent_may_claim_at_once_and_reads_that_a_guest_cannot_come_back(tmp_path):
    c, store = club(tmp_path)
    guest = Identities(store).guest()
    lt, _ = c.create(ANNA, TableOptions())
    c.sit(lt.code, guest)
    for seat in (0, 1):
        c.connected(lt, seat)
    c.disconnected(lt, 1)
    assert not may_claim(c, lt, 0), "a player with a key may come back: he is waited for"
    c.gone_for_good(lt, 1)
    assert may_claim(c, lt, 0)
    banner = away_banner(c, lt, 0)
    assert banner is not None and "left (a guest cannot come back): w take the win" in banner[0]


def test_a_game_a_guest_left_against_the_bot_is_won_by_the_bot_and_let_go(tmp_path):
    c, store = club(tmp_path)
    guest = Identities(store).guest()
    lt, seat = c.create(guest, TableOptions(opponent="bot:easy"))
    c.connected(lt, seat)
    c.disconnected(lt, seat)
    c.gone_for_good(lt, seat)
    assert lt.finished and lt.table is not None and lt.table.match.match_winner == 1
    stored = store.table(lt.code)
    assert stored is not None and stored.status == "finished"
    assert "[Forfeit" in stored.ecn
    c.sweep()
    assert lt.code not in c.tables


def test_every_node_sees_a_gone_guests_time_out(tmp_path):
    db = tmp_path / "club.db"
    one, two = make_node(db, "one", 11, tmp_path), make_node(db, "two", 12, tmp_path)
    guest = Identities(one.store).guest()
    lt1, _ = one.create(ANNA, TableOptions())
    two.node.read_feed()  # type: ignore[union-attr]
    lt2, seat = two.sit(lt1.code, guest)
    one.node.read_feed()  # type: ignore[union-attr]
    two.connected(lt2, seat)
    two.disconnected(lt2, seat)
    one.node.refresh_presence(lt1)  # type: ignore[union-attr]
    assert not may_claim(one, lt1, 0)
    two.gone_for_good(lt2, seat)
    one.node.refresh_presence(lt1)  # type: ignore[union-attr]
    assert may_claim(one, lt1, 0), "anna's node lets her claim at once too"


async def test_over_ssh_the_opponent_of_a_guest_who_left_is_offered_the_win_at_once(
        tmp_path):
    async with club_server(tmp_path / "data") as server:
        anna = await first_visit(server.port, "anna", new_key(), seed=1)
        code = await open_table(anna)
        gus = await Seat.connect(server.port, "gus", seed=2, command=f"join {code}")
        await gus.wait_for("drew the higher card")
        await gus.close()  # a guest's connection ends: he can never be this guest again
        screen = await anna.wait_for("cannot come back", timeout=20)
        assert "Waiting for" not in screen  # (no five-minute countdown)
        await anna.close()



def test_games_left_an_hour_are_let_go_against_the_bot_won_by_it(tmp_path):
    store, clock = Store(tmp_path / "club.db"), Clock()
    c = Club(store, archive_dir=tmp_path / "archive", rng=random.Random(3), bot_delay=0,
             clock=clock)
    c.abandon_after = 3600.0
    lt, seat = c.create(ANNA, TableOptions(opponent="bot:easy"))
    people, _ = c.create(ANNA, TableOptions())
    c.sit(people.code, BRUNO)
    for table, s in ((lt, seat), (people, 0), (people, 1)):
        c.connected(table, s)
        c.disconnected(table, s)  # everybody gone home
    clock.now += 3599
    c.sweep()
    assert not lt.finished and not people.finished, "they may still come back"
    c.connected(lt, seat)  # anna did, to the bot's game, and left again: its hour restarts
    c.disconnected(lt, seat)
    clock.now += 3599
    c.sweep()  # both people gone two hours: nobody claimed it, nobody came back to it
    assert people.finished and people.code not in c.tables
    stored = store.table(people.code)
    assert stored is not None and stored.status == "closed" and stored.winner is None
    assert not lt.finished
    clock.now += 1
    c.sweep()
    assert lt.finished and lt.table.match.match_winner == 1  # type: ignore[union-attr]
    assert store.table(lt.code).status == "finished"  # type: ignore[union-attr]
    c.sweep()
    assert lt.code not in c.tables


def pool_of_three(c: Club, *players: Player) -> LiveTable:
    """anna's loser-out pool, ``players`` sitting down after her in this order, all here."""
    from net.club.clubhouse.options import ClubOptions

    lt, _ = c.create(ANNA, TableOptions(club=ClubOptions(pool="loser_out")))
    for p in players:
        c.sit(lt.code, p)
    for seat in range(3):
        c.connected(lt, seat)
    return lt


def test_at_a_pool_his_opponent_may_take_the_round_at_once_and_the_pool_goes_on(tmp_path):
    c, store = club(tmp_path)
    guest = Identities(store).guest()
    lt = pool_of_three(c, guest, BRUNO)
    anna, gone, waiting = lt.seat_of(ANNA.id), lt.seat_of(guest.id), lt.seat_of(BRUNO.id)
    assert {anna, gone} == {0, 1} and waiting == 2
    c.disconnected(lt, gone)
    assert not may_claim(c, lt, anna)  # (the five minutes, as for anyone)
    c.gone_for_good(lt, gone)
    assert may_claim(c, lt, anna)  # nobody waits for a guest who cannot come back
    c.take_win(lt, anna)
    assert c.stored_round(lt.code).winner == ANNA.id and lt.code in c.tables
    assert lt.rounds is not None and lt.rounds.pool.waiting == guest.id


def test_a_guest_who_left_while_waiting_his_turn_is_not_waited_for_when_it_comes(tmp_path):
    from net.club import pool_tables

    now = [1000.0]
    store = Store(tmp_path / "club.db")
    c = Club(store, archive_dir=tmp_path / "archive", reconnect_timeout=60,
             clock=lambda: now[0], rng=random.Random(3), bot_delay=0)
    guest = Identities(store).guest()
    lt = pool_of_three(c, BRUNO, guest)
    assert lt.seat_of(guest.id) == 2  # he waits his turn
    c.disconnected(lt, lt.seat_of(BRUNO.id))
    now[0] += 61  # bruno does not come back ...
    c.disconnected(lt, 2)  # ... and the guest leaves meanwhile
    c.gone_for_good(lt, 2)
    c.take_win(lt, lt.seat_of(ANNA.id))
    pool_tables.start_next(c, lt)
    assert {lt.seat_of(ANNA.id), lt.seat_of(guest.id)} == {0, 1}  # his turn has come
    assert may_claim(c, lt, lt.seat_of(ANNA.id))  # and nobody waits five minutes for him
