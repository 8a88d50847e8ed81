"""The round bookkeeping of pool and French-rule tables, on a club without a server: each
round its own match and record id, the pool's rotation, the store, and a restart."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ecarte_tui.bots import make_bot
from ecarte_tui.engine import read_ecn
from net.club import Club, ClubError, TableOptions, pool_tables
from net.club.clubhouse.options import ClubOptions
from net.club.clubhouse.pool import Pool
from net.club.house import House
from net.store import Player, Store

ANN, BOB, CLEO = Player("k1", "ann"), Player("k2", "bob"), Player("k3", "cleo")


def make_club(tmp_path: Path, house: bool = False) -> Club:
    club = Club(Store(tmp_path / "club.db"), archive_dir=tmp_path / "archive",
                rng=random.Random(5), bot_delay=0)
    if house:
        club.house = House(tmp_path / "club.db")
    return club


def pool_options(rule: str = "two_in_row") -> TableOptions:
    return TableOptions("classic", (("target", "3"),), club=ClubOptions(pool=rule))


def finish_round(lt, seed: int = 0) -> int:
    """Play the round's game out with random bots; the winner's seat."""
    t = lt.table
    bots = [make_bot("random", seed), make_bot("random", seed + 1)]
    for _ in range(2000):
        if t.status == "over":
            return t.match.match_winner
        if t.status == "choose":
            t.choose_dealer(t.waiting_for, 1 - t.waiting_for)
        elif t.status == "between":
            for s in (0, 1):
                if not t.has_asked_next_hand(s):
                    t.ready(s)
        else:
            seat = t.waiting_for
            seats = [seat] if seat is not None else [0, 1]
            for s in seats:
                view = t.view(s)
                if view.legal:
                    action = bots[s].choose(view)
                    if action is None:
                        t.pass_king(s)
                    else:
                        t.submit(s, action)
                    break
            else:
                raise AssertionError(f"nobody may act: {t.status}")
    raise AssertionError("the round never ended")


def test_a_round_is_one_game_and_has_its_own_record(tmp_path):
    club = make_club(tmp_path)
    lt, _ = club.create(ANN, pool_options())
    assert len(lt.seats) == 3 and lt.record_id == lt.code
    club.sit(lt.code, BOB)
    assert lt.table is not None and lt.table.rules.games_to_win == 1
    _, seat = club.sit(lt.code, CLEO)
    assert seat == pool_tables.WAITING_SEAT and lt.rounds.pool is not None
    assert lt.rounds.pool.waiting == CLEO.id
    w = finish_round(lt)
    winner, loser = lt.seats[w].player_id, lt.seats[1 - w].player_id
    assert not lt.finished  # the pool goes on
    stored = club.stored_round(lt.code)
    assert stored is not None and stored.status == "finished" and stored.winner == winner
    assert (tmp_path / "archive" / f"{lt.code}.ecn").exists()
    pool_tables.start_next(club, lt)
    assert lt.rounds.number == 2 and lt.record_id == f"{lt.code}.2"
    # the one waiting took the loser's seat; the loser waits
    assert lt.seats[2].player_id == loser and CLEO.id in (s.player_id for s in lt.seats[:2])
    assert winner in (s.player_id for s in lt.seats[:2])
    assert lt.table.match.is_over is False
    assert club.stored_round(f"{lt.code}.2").status == "playing"


def test_rotation_over_several_rounds_follows_the_pool(tmp_path):
    club = make_club(tmp_path)
    lt, _ = club.create(ANN, pool_options("loser_out"))
    club.sit(lt.code, BOB)
    club.sit(lt.code, CLEO)
    shadow = Pool([ANN.id, BOB.id, CLEO.id], "loser_out")
    for n in range(1, 5):
        w = finish_round(lt, seed=n)
        shadow.record_game(lt.seats[w].player_id)
        assert lt.rounds.pool == shadow  # the table's pool is the rules' pool
        pool_tables.start_next(club, lt)
        assert [s.player_id for s in lt.seats] == [*shadow.pairing, shadow.waiting]
        assert lt.table.names == tuple(s.name for s in lt.seats[:2])
    assert sum(shadow.pools_won.values()) == 4  # 001: each game takes the pool
    finished = [rid for rid, r in club.finished_rounds()]
    assert sorted(finished) == sorted([lt.code, f"{lt.code}.2", f"{lt.code}.3", f"{lt.code}.4"])


def test_the_first_game_counts_when_the_third_arrives_late(tmp_path):
    club = make_club(tmp_path)
    lt, _ = club.create(ANN, pool_options())
    club.sit(lt.code, BOB)
    w = finish_round(lt)
    winner = lt.seats[w].player_id
    pool_tables.start_next(club, lt)
    assert lt.rounds.number == 1  # no next round without a third player
    club.sit(lt.code, CLEO)
    pool = lt.rounds.pool
    assert pool is not None and pool.games_won[winner] == 1 and pool.waiting != winner
    assert CLEO.id in pool.pairing


def test_a_restart_brings_the_pool_back_mid_round(tmp_path):
    club = make_club(tmp_path)
    lt, _ = club.create(ANN, pool_options())
    club.sit(lt.code, BOB)
    club.sit(lt.code, CLEO)
    finish_round(lt, seed=3)
    pool_tables.start_next(club, lt)
    t = lt.table
    t.choose_dealer(t.waiting_for, 1 - t.waiting_for) if t.status == "choose" else None
    before_pool = lt.rounds.pool.to_json()
    before_seats = [s.player_id for s in lt.seats]
    before_ecn = t.record_text()
    club.store.close()

    again = make_club(tmp_path)
    assert again.restore() == []
    lt2 = again.tables[lt.code]
    assert lt2.rounds.number == 2 and lt2.record_id == f"{lt.code}.2"
    assert lt2.rounds.pool.to_json() == before_pool
    assert [s.player_id for s in lt2.seats] == before_seats
    assert lt2.table.record_text() == before_ecn
    assert lt2.seats[2].dropped_at is not None  # away until he reconnects
    finish_round(lt2, seed=9)
    pool_tables.start_next(again, lt2)
    assert lt2.rounds.number == 3 and len(lt2.rounds.pool.games) == 2


def test_a_broken_saved_pool_is_not_restored(tmp_path):
    club = make_club(tmp_path)
    lt, _ = club.create(ANN, pool_options())
    club.sit(lt.code, BOB)
    club.store._db.execute("UPDATE table_state SET state = '{\"version\": 9}'")
    assert make_club(tmp_path).restore() == [lt.code]


def test_french_rule_the_adviser_takes_the_seat(tmp_path):
    club = make_club(tmp_path, house=True)
    opts = TableOptions("classic", (("target", "3"),), club=ClubOptions(french_rule=True))
    lt, _ = club.create(ANN, opts)
    club.sit(lt.code, BOB)
    gallery = club.house.gallery(lt)
    gallery.join(CLEO.id, CLEO.name)
    w = finish_round(lt, seed=4)
    loser = lt.seats[1 - w]
    assert lt.rounds.offer is None  # nobody backed anyone: nothing offered
    pool_tables.start_next(club, lt)
    assert [s.player_id for s in lt.seats] == [ANN.id, BOB.id]  # the same two play on
    gallery = club.house.gallery(lt)
    gallery.back(CLEO.id, loser.player_id)
    for seed in range(5, 30):
        w = finish_round(lt, seed=seed)
        if lt.seats[1 - w].player_id == loser.player_id:
            break
        pool_tables.start_next(club, lt)
    else:
        pytest.skip("the backed player never lost")
    offer = lt.rounds.offer
    assert offer is not None and offer.adviser == CLEO.id and offer.loser == loser.player_id
    with pytest.raises(ClubError, match="not offered to you"):
        pool_tables.take_seat(club, lt, ANN.id, ANN.name)
    number = lt.rounds.number
    pool_tables.take_seat(club, lt, CLEO.id, CLEO.name)
    assert lt.rounds.number == number + 1
    assert lt.seats[offer.seat].player_id == CLEO.id
    assert loser.player_id not in (s.player_id for s in lt.seats)
    assert CLEO.name in lt.table.names
    ecn = club.stored_round(f"{lt.code}.{number}").ecn
    assert read_ecn(ecn).match.is_over


def test_a_pool_is_not_played_against_the_servers_bot(tmp_path):
    club = make_club(tmp_path)
    opts = TableOptions("classic", opponent="bot:easy", club=ClubOptions(pool="loser_out"))
    with pytest.raises(ValueError, match="ecarte play --pool"):
        club.create(ANN, opts)
