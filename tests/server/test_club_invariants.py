"""The store checks random input ends with (``club_invariants``) hold on a sound club and
catch each kind of fault they name: a check that never fails would pass any hunt."""

from __future__ import annotations

import pytest
from club_invariants import broken
from playouts import random_match

from ecarte_tui.engine import Rules, write_ecn
from net.club.clubhouse.purse import Ledger
from net.club.clubhouse.ratings import RatingBook
from net.store.club_store import Store
from net.store.ledger_db import ClubDB


@pytest.fixture
def club(tmp_path):
    """A finished staked match (settled, a watcher's wager paid, rated) and one in play."""
    path = tmp_path / "club.db"
    match = random_match(seed=4)
    store = Store(path)
    seats = ("key-a", "key-b")
    store.create_table("DONE", {}, seats, ("ann", "bob"), write_ecn(match), "playing")
    store.save_table("DONE", status="finished", winner=seats[match.match_winner])
    store.create_table("LIVE", {}, seats, ("ann", "bob"), "", "playing")
    store.close()
    db = ClubDB(path)
    ledger = Ledger(db)
    rules = Rules.named("classic", target=3)
    for game in ("DONE/1", "LIVE/1"):
        ledger.open_game(game, seats, stake=5, rules=rules)
    ledger.place_wager("DONE/1", "key-w", "key-a", 30)
    ledger.close_betting("DONE/1")
    ledger.settle("DONE/1", seats[match.match_winner], tuple(match.scores))
    RatingBook(db).record_match("DONE", seats, match)
    db.close()
    return path


def run_sql(path, sql: str, args: tuple = ()) -> None:
    db = ClubDB(path)
    with db.tx() as conn:
        conn.execute(sql, args)
    db.close()


def test_a_sound_club_breaks_nothing(club):
    assert broken(club, club) == []


def test_a_chip_made_outside_the_ledger_is_caught(club):
    run_sql(club, "UPDATE club_purses SET chips = chips + 5 WHERE player = 'key-w'")
    problems = broken(club, club)
    assert any("not conserved" in p for p in problems)
    assert any(p.startswith("key-w's purse holds") for p in problems)


def test_an_unpaid_wager_and_an_unsettled_game_are_caught(club):
    run_sql(club, "UPDATE club_wagers SET payout = NULL")
    run_sql(club, "UPDATE club_games SET status = 'playing' WHERE game_id = 'DONE/1'")
    problems = broken(club, club)
    assert any("DONE/1: still playing" in p for p in problems)
    run_sql(club, "UPDATE club_games SET status = 'settled' WHERE game_id = 'DONE/1'")
    assert any("DONE/1: closed with a wager unpaid" in p for p in broken(club, club))


def test_a_record_that_does_not_read_or_names_another_winner_is_caught(club):
    store = Store(club)
    store.save_table("DONE", winner="key-c")
    store.save_table("LIVE", ecn="hand\ndealer Q\n")
    store.close()
    problems = broken(club, club)
    assert any(p.startswith("DONE: the row's winner 'key-c'") for p in problems)
    assert any(p.startswith("LIVE (playing): its record does not read") for p in problems)


def test_a_match_not_counted_or_a_rating_not_its_sum_is_caught(club):
    run_sql(club, "UPDATE club_ratings SET rating = rating + 1 WHERE player = 'key-a'")
    assert any(p.startswith("key-a's rating") for p in broken(club, club))
    run_sql(club, "DELETE FROM club_matches")
    problems = broken(club, club)
    assert any(p.startswith("DONE: finished between") for p in problems)
    assert any(p.startswith("key-b has 1 rated matches, 0 recorded") for p in problems)


def test_a_finished_match_missing_from_the_archive_or_unlike_it_is_caught(club, tmp_path):
    archive = tmp_path / "archive"
    archive.mkdir()
    assert broken(club, club, archive) == ["DONE: finished, not archived"]
    store = Store(club)
    (archive / "DONE.ecn").write_text(store.table("DONE").ecn, encoding="utf-8")
    store.close()
    assert broken(club, club, archive) == []
    with (archive / "DONE.ecn").open("a", encoding="utf-8") as f:
        f.write("\n")
    assert broken(club, club, archive) == ["DONE: its archive is not its stored record"]
