"""A player who does not come back to a pool (or French-rule) table loses the round, not the
table: the other takes the game, the pool goes on, and a restart in between changes nothing."""

from __future__ import annotations

import random

import pytest
from server_harness import Clock

from ecarte_tui.engine import read_ecn
from net.club import Club, ClubError, TableOptions, pool_tables
from net.club.clubhouse.options import ClubOptions
from net.club.clubhouse.purse import game_id
from net.club.house import House
from net.screens.presence import away_banner, may_claim
from net.store import Player, RoundStore, Store

ANN, BOB, CLEO = (Player(f"SHA256:{n}", n) for n in ("ann", "bob", "cleo"))



def make_club(tmp_path, clock: Clock) -> Club:
    club = Club(Store(tmp_path / "club.db"), archive_dir=tmp_path / "archive",
                reconnect_timeout=60, clock=clock, rng=random.Random(4), bot_delay=0)
    club.house = House(tmp_path / "club.db")
    return club


def pool_of_three(club: Club, stake: int = 0):
    opts = TableOptions("classic", club=ClubOptions(pool="loser_out", stake=stake))
    lt, _ = club.create(ANN, opts)
    club.sit(lt.code, BOB)
    club.sit(lt.code, CLEO)
    for seat in range(3):
        club.connected(lt, seat)
    return lt


def test_the_absent_player_loses_the_round_and_the_pool_goes_on(tmp_path):
    clock = Clock()
    club = make_club(tmp_path, clock)
    lt = pool_of_three(club, stake=1)
    ann_seat, bob_seat = lt.seat_of(ANN.id), lt.seat_of(BOB.id)
    club.disconnected(lt, bob_seat)
    with pytest.raises(ClubError):
        club.take_win(lt, ann_seat)  # bob may still come back
    clock.now += 61
    assert may_claim(club, lt, ann_seat)
    assert not may_claim(club, lt, ann_seat, bot=True)  # no bot joins a pool
    assert "take the game" in away_banner(club, lt, ann_seat)[0]
    with pytest.raises(ClubError):
        club.replace_with_bot(lt, bob_seat)

    club.take_win(lt, ann_seat)
    assert not lt.finished and lt.code in club.tables
    stored = club.stored_round(lt.code)
    assert stored.status == "finished" and stored.winner == ANN.id
    assert "did not come back" in stored.ecn
    assert lt.rounds.pool.pairing == (ANN.id, CLEO.id) and lt.rounds.pool.waiting == BOB.id
    assert not may_claim(club, lt, ann_seat)  # the round is won already
    with pytest.raises(ClubError):
        club.take_win(lt, ann_seat)
    # bob left before the first deal: the round is ann's, but no game was played (the
    # record has none), so the stake in escrow goes back; the ledger holds nothing any more
    assert read_ecn(stored.ecn).match.games == []
    ledger = club.house.ledger
    assert ledger.game(game_id(lt.code, 1)).status == "void"
    assert ledger.purse(ANN.id) == 1000 == ledger.purse(BOB.id)
    assert ledger.escrow_total() == 0

    pool_tables.start_next(club, lt)  # (the server's timer does this after a pause)
    assert lt.rounds.number == 2 and lt.rounds.forfeit is None
    assert {lt.seats[0].player_id, lt.seats[1].player_id} == {ANN.id, CLEO.id}
    assert lt.table is not None and not lt.table.match.is_over
    assert [r.status for r in RoundStore(club.store).rounds_of(lt.code)] == [
        "finished", "playing"]


def test_a_restart_between_the_forfeit_and_the_next_round_keeps_the_result(tmp_path):
    clock = Clock()
    club = make_club(tmp_path, clock)
    lt = pool_of_three(club)
    ann_seat, bob_seat = lt.seat_of(ANN.id), lt.seat_of(BOB.id)
    club.disconnected(lt, bob_seat)
    clock.now += 61
    club.take_win(lt, ann_seat)
    purses = (club.house.ledger.purse(ANN.id), club.house.ledger.purse(BOB.id))

    again = Club(club.store, archive_dir=tmp_path / "archive", reconnect_timeout=60,
                 clock=clock, rng=random.Random(5), bot_delay=0)
    again.house = House(tmp_path / "club.db")
    assert again.restore() == []
    back = again.tables[lt.code]
    assert back.rounds.forfeit is not None and back.rounds.recorded == 1
    assert again.stored_round(lt.code).winner == ANN.id  # still the forfeit's result
    assert back.rounds.pool.waiting == BOB.id
    pool_tables.start_next(again, back)
    assert back.rounds.number == 2
    assert (again.house.ledger.purse(ANN.id), again.house.ledger.purse(BOB.id)) == purses
    assert again.house.ratings.record(ANN.id).rated_matches == 1  # rated once, not twice


def test_a_player_who_resigns_loses_the_round_and_the_pool_goes_on(tmp_path):
    club = make_club(tmp_path, Clock())
    lt = pool_of_three(club)
    ann_seat, bob_seat = lt.seat_of(ANN.id), lt.seat_of(BOB.id)
    club.resign(lt, bob_seat)  # no waiting: he gives the round up himself
    assert not lt.finished and lt.code in club.tables
    stored = club.stored_round(lt.code)
    assert stored.status == "finished" and stored.winner == ANN.id
    rec = read_ecn(stored.ecn)
    assert rec.match.resigned and rec.tags["Termination"] == "resigned"
    assert lt.rounds.pool.pairing == (ANN.id, CLEO.id) and lt.rounds.pool.waiting == BOB.id
    with pytest.raises(ClubError, match="over already"):
        club.resign(lt, ann_seat)  # (the round is over; the next is not dealt yet)
