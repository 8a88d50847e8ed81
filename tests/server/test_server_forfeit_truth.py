"""One forfeit, one truth (issue 14, item 7): after a player does not come back and the
opponent takes the win, the archived record (``ecarte replay --json``), the store, the
ledger's score and chips, the ratings and the winner's screen all tell the same result, at
the score on the table when he left. Through the real server, then for a pool's round."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from server_harness import Clock, Seat, club_server, generous_limits, new_key

from ecarte_tui.engine import read_ecn, summary
from net.club import Club, TableOptions
from net.club.clubhouse.options import ClubOptions
from net.club.clubhouse.purse import STARTING_PURSE, game_id, stake_transfer
from net.club.house import House
from net.store import Player, Store

ROOT = Path(__file__).resolve().parents[2]
STAKE = 5


def replay_json(path: Path) -> dict:
    """``ecarte replay FILE --json``, the command itself (the ECN.md contract)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-m", "ecarte_tui", "replay", str(path), "--json"],
                       capture_output=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    return json.loads(r.stdout)


def in_hand_2(screen: str) -> bool:
    return "hand 2" in screen.split("\n", 1)[0]


def assert_one_truth(house: House, record: dict, record_id: str, players: tuple[str, str],
                     winner_seat: int) -> None:
    """The ledger's game, the chips moved and the ratings agree with the record's JSON."""
    letter = "AB"[winner_seat]
    assert record["games"][-1]["winner"] == letter and record["match_winner"] == letter
    score = record["games"][-1]["score"]
    g = house.ledger.game(game_id(record_id, len(record["games"])))
    assert g is not None and g.status == "settled"
    assert g.winner == players[winner_seat]
    assert g.score == (score["A"], score["B"])  # the table's score, not the target
    w, lo = winner_seat, 1 - winner_seat
    paid = stake_transfer(g.stake, g.score[w], g.score[lo], g.escrow_each)
    assert house.ledger.purse(players[w]) == STARTING_PURSE + paid
    assert house.ledger.purse(players[lo]) == STARTING_PURSE - paid
    assert house.ledger.escrow_total() == 0
    rating = house.ratings.match_rating(record_id)
    assert rating is not None and rating.winner == players[winner_seat]
    assert rating.delta[w] > 0 > rating.delta[lo]
    assert house.ratings.record(players[w]).match_wins == 1
    assert house.ratings.record(players[lo]).match_wins == 0


async def test_a_forfeit_reads_the_same_in_the_record_the_store_the_ledger_and_the_screen(
        tmp_path):
    keys = {n: new_key() for n in ("anna", "ben")}
    ids = {n: k.get_fingerprint("sha256") for n, k in keys.items()}
    async with club_server(tmp_path, reconnect_timeout=1.5, limits=generous_limits()) as server:
        lt, _ = server.club.create(Player(ids["anna"], "anna"),
                                   TableOptions(club=ClubOptions(stake=STAKE)))
        code = lt.code
        anna = await Seat.connect(server.port, "anna", seed=1, key=keys["anna"],
                                  command=f"join {code}")
        await anna.wait_for("first visit")
        anna.press(b"\r")
        await anna.wait_for("Waiting for an opponent")
        ben = await Seat.connect(server.port, "ben", seed=2, key=keys["ben"],
                                 command=f"join {code}")
        await ben.wait_for("first visit")
        ben.press(b"\r")
        await asyncio.gather(anna.play(until=in_hand_2), ben.play(until=in_hand_2))
        on_table = tuple(lt.table.match.scores)
        assert sum(on_table) > 0 and not lt.table.match.is_over  # points, no winner yet

        await ben.close()
        await anna.wait_for("ben did not come back: w take the win", timeout=20)
        anna.press(b"w")
        await anna.dismiss_toast("Chips")  # the stake's news: it would cover her prompt 12 s
        await anna.wait_for("ben did not come back: you win the match by forfeit")
        await anna.quiet()
        screen = anna.text()

        # the record: archived, stored, and read by `ecarte replay --json`
        archived = tmp_path / "archive" / f"{code}.ecn"
        record = replay_json(archived)
        assert record["games"][-1]["score"] == {"A": on_table[0], "B": on_table[1]}
        stored = server.store.table(code)
        assert stored.ecn == archived.read_text()
        assert summary(read_ecn(stored.ecn)) == record
        assert stored.status == "finished" and stored.winner == ids["anna"]
        assert_one_truth(server.house, record, code, (ids["anna"], ids["ben"]), 0)

        # the screen: the match is over by forfeit, and nothing asks anna to play
        for prompt in ("Your lead", ": your card", "Choose your discards", "c “Cards!”",
                       "a accept · r refuse", "enter next hand", "Next hand  ⏎"):
            assert prompt not in screen, screen
        await anna.close()



def play_first_hand(lt) -> None:
    """Both seats play the round's first hand (first legal action) and ask for the next."""
    t = lt.table
    for _ in range(200):
        if t.status == "choose":
            t.choose_dealer(t.waiting_for, 0)
        elif t.status == "between":
            for s in (0, 1):
                t.ready(s)
            return
        else:
            seat = t.waiting_for
            seat = seat if seat is not None else t.match.to_move
            legal = t.view(seat).legal
            t.submit(seat, legal[0]) if legal else t.pass_king(seat)
    raise AssertionError("the hand did not end")


def test_a_pool_round_won_by_forfeit_reads_the_same_everywhere(tmp_path):
    ann, bob, cleo = (Player(f"SHA256:{n}", n) for n in ("ann", "bob", "cleo"))
    clock = Clock()
    club = Club(Store(tmp_path / "club.db"), archive_dir=tmp_path / "archive",
                reconnect_timeout=60, clock=clock, rng=random.Random(4), bot_delay=0)
    club.house = House(tmp_path / "club.db")
    opts = TableOptions("classic", club=ClubOptions(pool="loser_out", stake=STAKE))
    lt, _ = club.create(ann, opts)
    club.sit(lt.code, bob)
    club.sit(lt.code, cleo)
    for seat in range(3):
        club.connected(lt, seat)
    play_first_hand(lt)
    on_table = tuple(lt.table.match.scores)
    assert sum(on_table) > 0 and not lt.table.match.is_over

    ann_seat, bob_seat = lt.seat_of(ann.id), lt.seat_of(bob.id)
    club.disconnected(lt, bob_seat)
    clock.now += 61
    club.take_win(lt, ann_seat)

    archived = tmp_path / "archive" / f"{lt.code}.ecn"
    record = replay_json(archived)
    assert record["games"][-1]["score"] == {"A": on_table[0], "B": on_table[1]}
    stored = club.stored_round(lt.code)
    assert stored.status == "finished" and stored.winner == ann.id
    assert summary(read_ecn(stored.ecn)) == record
    players = (lt.seats[0].player_id, lt.seats[1].player_id)
    assert_one_truth(club.house, record, lt.code, players, ann_seat)
