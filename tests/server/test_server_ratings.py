"""Ratings through the club: Elo moves as stated, the leaderboard and the record show it,
and a finished match can be replayed from the lobby.

The formula (net/club/clubhouse/ratings.py): everyone starts at 1500; the winner's expected score
is E = 1 / (1 + 10 ** ((R_loser - R_winner) / 400)) and the winner takes 32 * (1 - E) from
the loser. Every expected number below is worked out by hand from that in a comment.
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest
from playouts import random_match
from server_harness import Seat, club_server, new_key, open_table

from ecarte_tui.engine import KING, Match
from net.club import Club, LiveTable, TableOptions
from net.club.clubhouse.ratings import RatingBook
from net.club.house import House
from net.screens.served_replay import stored_record
from net.screens.standings import leaderboard_rows, match_rows
from net.store import Player, Store

ANNA, BEN, CARL = Player("SHA256:anna", "anna"), Player("SHA256:ben", "ben"), \
    Player("SHA256:carl", "carl")


class FirstLegal:
    name = "first"

    def choose(self, view):
        return view.legal[0] if view.my_turn else None


def make_club(tmp_path: Path) -> Club:
    store = Store(tmp_path / "club.db")
    for p in (ANNA, BEN, CARL):
        store.register(p.id, p.name)
    club = Club(store, archive_dir=tmp_path / "archive", rng=random.Random(7),
                bot_factory=lambda level, seed: FirstLegal(), bot_delay=0)
    club.house = House(tmp_path / "club.db")
    return club


def play_to_the_end(lt: LiveTable, seed: int) -> int:
    """Both seats play seeded random legal moves (never the king, to keep it short) until
    the match is over; every action goes through the table, so the club stores it and the
    house rates it. Returns the winning seat."""
    table = lt.table
    assert table is not None
    rng = random.Random(seed)
    while table.status != "over":
        if table.status == "choose":
            assert table.draw is not None
            table.choose_dealer(table.draw.chooser, 0)
        elif table.status == "between":
            table.ready(0)
            table.ready(1)
        else:
            seat = table.match.to_move
            assert seat is not None
            if table.waiting_for is not None and table.waiting_for != seat:
                table.pass_king(table.waiting_for)
            legal = [a for a in table.match.legal_actions(seat) if a is not KING]
            table.submit(seat, rng.choice(legal))
    winner = table.match.match_winner
    assert winner is not None
    return winner


def club_match(club: Club, a: Player, b: Player, seed: int) -> tuple[LiveTable, int]:
    lt, _ = club.create(a, TableOptions("classic", overrides=(("target", "3"),)))
    club.sit(lt.code, b)
    return lt, play_to_the_end(lt, seed)


# ---------------------------------------------------------------- the formula, by hand


def won_by(seat: int) -> Match:
    """A finished match (target 3) won by ``seat``: the first seeded playout that ends so."""
    for s in range(200):
        m = random_match(s)
        if m.match_winner == seat:
            return m
    raise AssertionError("no such playout")


def test_a_chain_of_three_matches_on_the_leaderboard_and_in_the_records(tmp_path):
    store = Store(tmp_path / "club.db")
    for p in (ANNA, BEN, CARL):
        store.register(p.id, p.name)
    house = House(tmp_path / "club.db")
    book: RatingBook = house.ratings
    # 1. anna beats ben, both 1500: E = 1/2, the winner takes 32 * 1/2 = 16
    book.record_match("M1", (ANNA.id, BEN.id), won_by(0))
    # 2. anna (1516) beats carl (1500): E = 1 / (1 + 10 ** (-16/400)) = 1 / 1.91201084
    #    = 0.52300959; anna takes 32 * 0.47699041 = 15.26369 -> 1531.26369 / 1484.73631
    book.record_match("M2", (CARL.id, ANNA.id), won_by(1))
    # 3. ben (1484) beats anna (1531.26369): E = 1 / (1 + 10 ** (47.26369/400))
    #    = 1 / (1 + 1.31268110) = 0.43239857; ben takes 32 * 0.56760143 = 18.16325
    #    -> ben 1502.16325, anna 1513.10045
    book.record_match("M3", (ANNA.id, BEN.id), won_by(1))
    assert book.rating(ANNA.id) == pytest.approx(1513.10045, abs=1e-5)
    assert book.rating(BEN.id) == pytest.approx(1502.16325, abs=1e-5)
    assert book.rating(CARL.id) == pytest.approx(1484.73631, abs=1e-5)

    rows = leaderboard_rows(store, book, CARL.id)
    assert [(r.rank, r.name, r.rating, r.matches, r.wins, r.mine) for r in rows] == [
        (1, "anna", 1513, 3, 2, False),
        (2, "ben", 1502, 2, 1, False),
        (3, "carl", 1485, 1, 0, True),
    ]
    # carl outside the top two still sees his own row, marked, with his true rank
    top = leaderboard_rows(store, book, CARL.id, limit=2)
    assert [(r.rank, r.name, r.mine) for r in top] == [
        (1, "anna", False), (2, "ben", False), (3, "carl", True)]
    assert not any(r.mine for r in leaderboard_rows(store, book, "guest:x", limit=2))
    assert all("SHA256" not in r.name for r in rows)
    # the rating changes as a player's own list shows them (M1..M3 are not club tables,
    # so the store has none: the book is asked by match id)
    assert book.match_rating("M2").delta == pytest.approx((-15.26369, 15.26369), abs=1e-5)
    assert book.match_rating("NONE") is None
    store.close()
    house.close()


def test_the_favourite_winning_gains_little(tmp_path):
    # 1600 vs 1400, the favourite wins: E = 1 / (1 + 10 ** (-200/400)) = 1 / 1.31622777
    # = 0.75974693; gain = 32 * (1 - 0.75974693) = 7.68810 (rounded 7.69)
    from net.club.clubhouse.ratings import elo_update

    assert elo_update(1600, 1400)[0] - 1600 == pytest.approx(7.68810, abs=1e-5)
    assert round(elo_update(1600, 1400)[0] - 1600, 2) == 7.69


# ---------------------------------------------------------------- through the club and house


def test_a_club_match_is_rated_as_soon_as_it_ends(tmp_path):
    club = make_club(tmp_path)
    assert club.house is not None
    book = club.house.ratings
    lt, winner = club_match(club, ANNA, BEN, seed=5)
    assert lt.finished
    w, lo = (ANNA, BEN) if winner == 0 else (BEN, ANNA)
    # both at 1500: the winner takes 16
    assert (book.rating(w.id), book.rating(lo.id)) == (1516.0, 1484.0)
    rows = leaderboard_rows(club.store, book, lo.id)
    assert [(r.name, r.rating, r.matches, r.wins, r.mine) for r in rows] == [
        (w.name, 1516, 1, 1, False), (lo.name, 1484, 1, 0, True)]
    mine = match_rows(club.store, book, w.id)
    assert [(m.code, m.opponent, m.result, m.change) for m in mine] == [
        (lt.code, lo.name, "won", "+16.0")]
    assert mine[0].rules == "classic · to 3" and re.fullmatch(r"\d{4}-\d\d-\d\d", mine[0].date)
    theirs = match_rows(club.store, book, lo.id)
    assert [(m.result, m.change, m.seat) for m in theirs] == [("lost", "-16.0", 1 - winner)]
    record = stored_record(club.store, lt.code)
    assert record is not None and record.match.is_over
    assert stored_record(club.store, "ZZZZ") is None

    # a second match, anna against carl (new, 1500): E of the winner follows the formula
    lt2, winner2 = club_match(club, CARL, ANNA, seed=9)
    anna_before = 1516.0 if w is ANNA else 1484.0
    if winner2 == 1:  # anna won: E_anna = 1 / (1 + 10 ** ((1500 - anna) / 400))
        gain = 32 * (1 - 1 / (1 + 10 ** ((1500 - anna_before) / 400)))
    else:
        gain = -32 * (1 - 1 / (1 + 10 ** ((anna_before - 1500) / 400)))
    assert book.rating(ANNA.id) == pytest.approx(anna_before + gain)
    assert book.rating(CARL.id) == pytest.approx(1500 - gain)
    assert book.record(ANNA.id).matches == 2
    assert [m.code for m in match_rows(club.store, book, ANNA.id)] == [lt2.code, lt.code]
    club.house.close()


def test_a_start_rates_what_a_crash_left_unrated_reading_only_those_records(tmp_path):
    """A crash between a match's end and its rating: the next start rates it. The records
    of the matches already rated are not read (a long-run club has tens of thousands, and
    every start, of every worker, used to read them all)."""
    club = make_club(tmp_path)
    assert club.house is not None
    house, book = club.house, club.house.ratings
    first, _ = club_match(club, ANNA, BEN, seed=5)
    second, _ = club_match(club, ANNA, CARL, seed=9)
    after = (book.rating(ANNA.id), book.rating(BEN.id), book.rating(CARL.id))
    with house.db.tx() as db:  # (the second match's rating undone, as if never made)
        db.execute("DELETE FROM club_matches WHERE match_id = ?", (second.code,))
    assert book.recorded_ids() == {first.code}
    read: list[str] = []
    real = club.store.finished_match

    def counted(record_id: str):
        read.append(record_id)
        return real(record_id)

    club.store.finished_match = counted  # type: ignore[method-assign]
    assert house.rate_finished(club.finished_rounds()) == 1
    assert read == [second.code]  # the rated one's record was left alone
    assert book.recorded_ids() == {first.code, second.code}
    assert house.rate_finished(club.finished_rounds()) == 0  # idempotent
    assert book.rating(BEN.id) == after[1]
    club.house.close()


def test_a_guest_or_the_bot_moves_no_rating(tmp_path):
    club = make_club(tmp_path)
    assert club.house is not None
    book = club.house.ratings
    guest = Player("guest:7", "guest-7")
    lt, winner = club_match(club, ANNA, guest, seed=3)
    assert lt.finished and club.store.table(lt.code).status == "finished"
    assert book.rating(ANNA.id) == 1500.0 and book.record(ANNA.id).rated_matches == 0
    assert leaderboard_rows(club.store, book, ANNA.id) == []
    rows = match_rows(club.store, book, ANNA.id)
    assert [(r.opponent, r.change) for r in rows] == [("guest-7", "unrated")]
    assert rows[0].result == ("won" if winner == 0 else "lost")
    club.house.close()


# ---------------------------------------------------------------- through the real server


async def registered(port: int, name: str, seed: int, **kw) -> Seat:
    seat = await Seat.connect(port, name, seed=seed, key=new_key(), **kw)
    await seat.wait_for("first visit")
    seat.press(b"\r")  # the suggested name: the SSH user name
    return seat


async def test_two_players_see_the_match_on_the_leaderboard_record_and_replay(tmp_path):
    async with club_server(tmp_path) as server:
        anna = await registered(server.port, "anna", 1)
        code = await open_table(anna)
        ben = await registered(server.port, "ben", 2, command=f"join {code}")
        await anna.wait_for("Draw for the deal")
        end_a, end_b = await asyncio.gather(anna.play(), ben.play())
        lt = server.club.find(code)
        assert lt.table is not None and lt.finished
        winner = lt.table.match.match_winner
        names = ("anna", "ben")
        w, lo = names[winner], names[1 - winner]
        ids = {s.name: s.player_id for s in lt.seats}
        # rated by the house the moment the match ended: 1500 vs 1500, the winner takes 16
        assert server.house.ratings.rating(ids[w]) == 1516.0
        assert server.house.ratings.rating(ids[lo]) == 1484.0

        seat = (anna, ben)[winner]
        seat.press(b"h")  # back to the lobby
        screen = await seat.wait_for("rating 1516")
        assert "1 match played, 1 won" in screen
        seat.press(b"l")
        screen = await seat.wait_for("L E A D E R B O A R D")
        await seat.wait_for(lo)
        screen = seat.text()
        assert re.search(rf"1\s+.*{w} \(you\)\s+1516\s+1\s+1", screen), screen
        assert re.search(rf"2\s+{lo}\s+1484\s+1\s+0", screen), screen
        assert "SHA256" not in screen
        seat.press(b"\x1b")
        await seat.wait_for("C L U B")
        seat.press(b"r")
        await seat.wait_for("R E C O R D")
        screen = await seat.wait_for("+16.0")
        assert "Rating 1516 (1 rated match) · matches 1, won 1" in screen
        assert re.search(rf"{lo}\s+classic · to 5\s+won\s+\+16\.0", screen), screen
        seat.press(b"\r")  # the replay of that match
        screen = await seat.wait_for("Écarté replay")
        assert "hand 1" in screen and "Move 1 of" in screen
        seat.press(b"\x1b[C")  # → one move on
        await seat.wait_for("Move 2 of")
        seat.press(b"q")  # back to the record, not out of the club
        await seat.wait_for("R E C O R D")
        seat.press(b"\x1b")
        await seat.wait_for("C L U B")

        # the loser's side: the same match, the other way round
        other = (anna, ben)[1 - winner]
        other.press(b"h")
        await other.wait_for("rating 1484")
        other.press(b"r")
        screen = await other.wait_for("-16.0")
        assert re.search(rf"{w}\s+classic · to 5\s+lost\s+-16\.0", screen), screen
        for c in (anna, ben):
            await c.close()


async def test_a_guest_has_no_record_and_sees_the_leaderboard(tmp_path):
    async with club_server(tmp_path) as server:
        guest = await Seat.connect(server.port, "cleo")
        screen = await guest.wait_for("a guest: connect with an SSH key to keep a name")
        assert "You play as" not in screen  # said in the lobby, not in a toast over its keys
        guest.press(b"r")
        screen = await guest.wait_for("R E C O R D")
        await guest.wait_for("no rating and no record")
        screen = guest.text()
        assert "Connect with an SSH key" in screen
        guest.press(b"q")
        await guest.wait_for("C L U B")
        guest.press(b"l")
        await guest.wait_for("No rated match yet")
        assert server.house.ratings.leaderboard() == []
        await guest.close()
