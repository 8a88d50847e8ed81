"""Elo ratings on hand-computed examples, records from the engine's hand records."""

from __future__ import annotations

import random

import pytest
from clubhouse_support import deal, finished_match

from ecarte_tui.engine import KING, PLAY, Match, Rules
from net.club.clubhouse.ratings import (
    INITIAL_RATING,
    K_FACTOR,
    RatingBook,
    SeatStats,
    elo_update,
    expected_score,
    match_stats,
)
from net.store.ledger_db import ClubDB


@pytest.fixture
def book(club_db_target):
    db = ClubDB(club_db_target)
    yield RatingBook(db)
    db.close()


def won_by(seat: int, seed: int = 0) -> Match:
    """A finished match won by ``seat`` (the first seeded playout that ends so)."""
    for s in range(seed, seed + 200):
        m = finished_match(seed=s, rules=Rules.named("classic", target=3))
        if m.match_winner == seat:
            return m
    raise AssertionError("no such playout")


def test_the_parameters_are_the_stated_ones():
    assert (INITIAL_RATING, K_FACTOR) == (1500.0, 32.0)


def test_equal_ratings():
    # E = 1 / (1 + 10 ** (0 / 400)) = 1/2; the winner gains 32 * (1 - 1/2) = 16
    assert expected_score(1500, 1500) == 0.5
    assert elo_update(1500, 1500) == (1516.0, 1484.0)


def test_an_upset_moves_more():
    # 1400 beats 1600: E = 1 / (1 + 10 ** (200 / 400)) = 1 / (1 + 3.16227766) = 0.24025307
    # gain = 32 * (1 - 0.24025307) = 32 * 0.75974693 = 24.31190
    assert expected_score(1400, 1600) == pytest.approx(0.24025307, abs=1e-8)
    w, lo = elo_update(1400, 1600)
    assert w == pytest.approx(1424.31190, abs=1e-5)
    assert lo == pytest.approx(1575.68810, abs=1e-5)
    # the favourite winning gains little: 32 * (1 - 0.75974693) = 7.68810
    w, lo = elo_update(1600, 1400)
    assert (w, lo) == (pytest.approx(1607.68810, abs=1e-5), pytest.approx(1392.31190, abs=1e-5))


def test_rating_book_updates_once_per_match_and_chains(book):
    m1 = won_by(0)
    r = book.record_match("AAAA", ("anna", "ben"), m1)
    assert r.before == (1500.0, 1500.0) and r.delta == (16.0, -16.0) and not r.already
    assert (book.rating("anna"), book.rating("ben")) == (1516.0, 1484.0)
    # recording the same match again changes nothing
    assert book.record_match("AAAA", ("anna", "ben"), m1).already
    assert (book.rating("anna"), book.rating("ben")) == (1516.0, 1484.0)
    assert book.record("anna").rated_matches == 1
    # carl (new, 1500) beats anna (1516) in seat B:
    # E_carl = 1 / (1 + 10 ** (16 / 400)) = 1 / (1 + 1.09647820) = 0.47699041
    # gain = 32 * (1 - 0.47699041) = 32 * 0.52300959 = 16.73631
    m2 = won_by(1)
    r = book.record_match("BBBB", ("anna", "carl"), m2)
    assert r.delta[1] == pytest.approx(16.73631, abs=1e-5)
    assert book.rating("carl") == pytest.approx(1516.73631, abs=1e-5)
    assert book.rating("anna") == pytest.approx(1499.26369, abs=1e-5)
    board = book.leaderboard()
    assert [s.player for s in board] == ["carl", "anna", "ben"]
    assert [s.rank for s in board] == [1, 2, 3]
    assert board[0].rating == pytest.approx(1516.73631, abs=1e-5)


def test_unrated_matches_count_in_the_record_only(book):
    m = won_by(0)
    r = book.record_match("CCCC", ("anna", "bot:expert"), m, rated=False)
    assert r.delta == (0.0, 0.0)
    assert book.rating("anna") == INITIAL_RATING
    assert book.record("anna").matches == 1 and book.record("anna").match_wins == 1
    assert book.leaderboard() == []  # nobody has a rated match


def test_a_forfeit_names_its_winner(book):
    m = Match(Rules())
    m.first_dealer = 0
    m.deal(random.Random(1))  # one hand under way, nobody has won
    with pytest.raises(ValueError, match="no winner"):
        book.record_match("DDDD", ("anna", "ben"), m)
    r = book.record_match("DDDD", ("anna", "ben"), m, winner_seat=1)
    assert r.winner == "ben" and book.record("ben").match_wins == 1
    assert book.record("ben").games == 0  # the game itself was never finished


def play_first_legal_cards(m: Match) -> None:
    while not m.needs_deal and not m.is_over:
        m.apply(next(a for a in m.legal_actions() if a is not KING))


def test_record_counts_voles_and_kings_from_the_hand_records(book):
    # target 3: A (elder) announces the king (1) and takes all five tricks, a vole (2):
    # 3 points, the game and the match in one hand (RULES.md §4, §6).
    m = Match(Rules.named("classic", target=3))
    deal(m, "KS QS JS AS TS", "KH QH JH AH TH", up="9S", dealer=1)
    m.apply(PLAY)
    m.apply(KING, 0)
    play_first_legal_cards(m)
    assert m.is_over and m.match_winner == 0
    a, b = match_stats(m)
    assert a == SeatStats(matches=1, match_wins=1, games=1, wins=1, hands=1, voles=1,
                          kings=1, points=3)
    assert b == SeatStats(matches=1, match_wins=0, games=1, wins=0, hands=1, voles=0,
                          kings=0, points=0)
    book.record_match("EEEE", ("anna", "ben"), m)
    rec = book.record("anna")
    assert (rec.games, rec.wins, rec.voles, rec.kings, rec.points) == (1, 1, 1, 1, 3)


def test_a_turned_up_king_counts_for_the_dealer():
    # 004: the king of trumps scores "of die nu ... aangekondigd of omgedraaid is"
    m = Match(Rules.named("nl", target=1))
    deal(m, "7S 8S 9S TS AS", "7H 8H 9H TH AH", up="KD", dealer=1)
    assert m.is_over and m.match_winner == 1
    a, b = match_stats(m)
    assert (b.kings, b.points, b.wins, a.kings) == (1, 1, 1, 0)


def test_record_totals_add_up_over_random_matches(book):
    total_hands = 0
    for i in range(6):
        m = finished_match(seed=100 + i)
        book.record_match(f"R{i}", ("anna", "ben"), m)
        total_hands += len(m.hands_log)
    a, b = book.record("anna"), book.record("ben")
    assert a.matches == b.matches == 6
    assert a.match_wins + b.match_wins == 6
    assert a.hands == b.hands == total_hands
    assert a.rating + b.rating == pytest.approx(3000.0)  # Elo conserves the sum


def test_record_from_the_stores_ecn_and_a_forfeit(book):
    from ecarte_tui.engine import write_ecn

    m = won_by(1)
    r = book.record_ecn("FFFF", ("anna", "ben"), write_ecn(m))
    assert r.winner == "ben" and r.delta == (-16.0, 16.0)
    # a match stopped by a forfeit: the store's winner decides
    stopped = Match(Rules())
    stopped.first_dealer = 0
    stopped.deal(random.Random(2))
    r = book.record_ecn("GGGG", ("anna", "ben"), write_ecn(stopped), winner="anna")
    assert r.winner == "anna"
    assert book.record_ecn("GGGG", ("anna", "ben"), write_ecn(stopped), winner="anna").already


def test_a_readers_place_counts_everyone_ahead_ties_broken_by_id(book):
    """The place is read from two ranges of the rating index (every reader asks again at
    each rating); it must equal the count of the whole board, ties and the bound on rated
    matches included."""
    rng = random.Random(4)
    rows = [(f"SHA256:p{i:03d}", float(rng.choice((1480, 1500, 1516, 1530))), rng.randint(0, 3))
            for i in range(120)]
    with book.db.tx() as db:
        for player, rating, n in rows:
            db.execute("INSERT INTO club_ratings (player, rating, rated_matches, updated) "
                       "VALUES (?, ?, ?, 'x')", (player, rating, n))
    for min_matches in (1, 2):
        eligible = [r for r in rows if r[2] >= min_matches]
        board = sorted(eligible, key=lambda r: (-r[1], r[0]))
        assert [s.player for s in book.leaderboard(limit=10, min_matches=min_matches)] == [
            r[0] for r in board[:10]]
        for place, (player, _rating, _n) in enumerate(board, start=1):
            standing = book.standing(player, min_matches)
            assert standing is not None and standing.rank == place
        below = next(r for r in rows if r[2] < min_matches)
        assert book.standing(below[0], min_matches) is None


def test_the_board_and_a_place_are_read_from_the_rating_index(tmp_path):
    db = ClubDB(tmp_path / "club.db")
    board = db.read("EXPLAIN QUERY PLAN SELECT r.player FROM club_ratings r "
                    "WHERE r.rated_matches >= 1 ORDER BY r.rating DESC, r.player LIMIT 10")
    assert "club_ratings_rating" in " ".join(str(row[3]) for row in board)
    place = db.read("EXPLAIN QUERY PLAN SELECT COUNT(*) FROM club_ratings WHERE rating > ? "
                    "AND rated_matches >= ?", (1500.0, 1))
    assert "COVERING INDEX club_ratings_rating" in " ".join(str(row[3]) for row in place)
    db.close()
