"""Pool écarté (001, 003): rotation, streaks, the pool under each rule, saving."""

from __future__ import annotations

import json

import pytest

from net.club.clubhouse.pool import Pool, PoolError


def test_rotation_the_loser_gives_his_seat_to_the_one_waiting():
    # 001: "the loser of each game is replaced by the waiting player"
    pool = Pool(["anna", "ben", "carl"], rule="two_in_row")
    assert pool.pairing == ("anna", "ben") and pool.waiting == "carl"
    r = pool.record_game("anna")
    assert (r.loser, r.entering, r.seat) == ("ben", "carl", 1)
    assert pool.pairing == ("anna", "carl") and pool.waiting == "ben"
    r = pool.record_game("carl")
    assert (r.loser, r.entering, r.seat) == ("anna", "ben", 0)
    assert pool.pairing == ("ben", "carl") and pool.waiting == "anna"
    r = pool.record_game("ben")
    assert pool.pairing == ("ben", "anna") and pool.waiting == "carl"
    assert [g.players for g in pool.games] == [
        ("anna", "ben"), ("anna", "carl"), ("ben", "carl"),
    ]
    assert pool.games_won == {"anna": 1, "ben": 1, "carl": 1}


def test_two_in_row_takes_the_pool_only_after_two_games_in_succession():
    # 003: "the pool not being taken except by the winner of two games in succession"
    pool = Pool(["anna", "ben", "carl"], rule="two_in_row")
    assert not pool.record_game("anna").pool_taken  # anna 1 in a row
    assert not pool.record_game("carl").pool_taken  # carl beats anna: 1 in a row, anna 0
    r = pool.record_game("carl")  # carl beats ben: two in succession
    assert r.pool_taken and r.streak == 2 and r.pool_number == 1
    assert pool.pools_won == {"anna": 0, "ben": 0, "carl": 1}
    assert pool.last_pool_winner == "carl" and pool.pool_number == 2
    # a new pool: carl's third win in a row is only his first toward it
    r = pool.record_game("carl")
    assert not r.pool_taken and r.streak == 3
    row = {b.player: b for b in pool.board()}["carl"]
    assert (row.streak, row.toward_pool, row.pools_won) == (3, 1, 1)
    assert pool.record_game("carl").pool_taken
    assert pool.pool_winners() == ["carl", "carl"]


def test_loser_out_every_game_takes_the_pool():
    # 001 asks no succession: the winner of each game takes the pool
    pool = Pool(["anna", "ben", "carl"], rule="loser_out")
    winners = []
    for w in ("anna", "carl", "ben", "ben"):
        r = pool.record_game(w)
        assert r.pool_taken
        winners.append(w)
    assert pool.pool_winners() == winners
    assert pool.pools_won == {"anna": 1, "ben": 2, "carl": 1}


def test_the_board_shows_who_plays_and_who_waits():
    pool = Pool(["anna", "ben", "carl"])
    pool.record_game("ben")
    board = pool.board()
    assert [(b.player, b.status, b.seat, b.streak) for b in board] == [
        ("carl", "plays", 0, 0), ("ben", "plays", 1, 1), ("anna", "waits", None, 0),
    ]


def test_only_a_player_of_the_game_can_win_it():
    pool = Pool(["anna", "ben", "carl"])
    with pytest.raises(PoolError, match="waiting"):
        pool.record_game("carl")
    with pytest.raises(PoolError, match="not in this pool"):
        pool.record_game("dora")
    with pytest.raises(PoolError, match="three different"):
        Pool(["anna", "anna", "ben"])
    with pytest.raises(PoolError, match="unknown pool rule"):
        Pool(["anna", "ben", "carl"], rule="first")


@pytest.mark.parametrize("rule", ["loser_out", "two_in_row"])
def test_json_round_trip_survives_a_restart(rule):
    pool = Pool(["anna", "ben", "carl"], rule=rule)
    for w in ("anna", "anna", "ben", "carl"):
        pool.record_game(w if w in pool.pairing else pool.pairing[0])
    saved = json.dumps(pool.to_json())
    back = Pool.from_json(json.loads(saved))
    assert back == pool and back.to_json() == pool.to_json()
    # both go on identically
    for p in (pool, back):
        p.record_game(p.pairing[1])
        p.record_game(p.pairing[1])
    assert back == pool


def test_a_broken_saved_pool_is_refused():
    good = Pool(["anna", "ben", "carl"]).to_json()
    for broken in (
        {**good, "version": 99},
        {**good, "seats": ["anna", "anna"]},
        {**good, "streak": {"anna": 0}},
        {k: v for k, v in good.items() if k != "waiting"},
        {**good, "games": [[1, ["anna"], "anna", False]]},
    ):
        with pytest.raises(PoolError):
            Pool.from_json(broken)


def test_replace_a_player_who_leaves():
    pool = Pool(["anna", "ben", "carl"])
    pool.record_game("anna")
    pool.replace("ben", "dora")  # ben was waiting
    assert pool.waiting == "dora" and "ben" not in pool.players
    assert pool.streak["dora"] == 0
    with pytest.raises(PoolError):
        pool.replace("anna", "carl")
