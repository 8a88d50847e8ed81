"""A bot called into the seat of a player who did not come back, at a staked table with
wagers: the game the stake and the wagers were for is no longer played by its pair, so its
chips go back (and everyone whose chips went back is told so), and the table survives a
restart. The ledger kept the game open for the absent player: a bot's win could not be
settled (an error, the chips left in escrow), and a restart could not bring the table back
(found by random input's restart check)."""

from __future__ import annotations

import asyncio
import logging

from server_harness import Clock
from test_club import FirstLegal
from test_pool_forfeit import make_club as pool_club

from net.club import Club, TableOptions
from net.club.clubhouse.options import ClubOptions
from net.club.clubhouse.purse import Settlement, game_id
from net.screens.money_text import settlement_lines
from net.store import Player

ANN, BOB, GUS = (Player(f"SHA256:{n}", n) for n in ("ann", "bob", "gus"))


def make_club(tmp_path, clock: Clock) -> Club:
    """The pool tests' club, with bots that take their first legal action."""
    club = pool_club(tmp_path, clock)
    club.bot_factory = lambda level, seed: FirstLegal()
    return club


async def play(table, seats: tuple[int, ...], until) -> None:
    """The players in ``seats`` take their first legal action whenever it is their turn;
    a bot plays its own."""
    for _ in range(2000):
        if until():
            return
        if table.status == "choose" and table.draw.chooser in seats:
            table.choose_dealer(table.draw.chooser, 0)
        elif table.status == "between":
            for seat in seats:
                table.ready(seat)
        elif table.waiting_for in seats and table.match.to_move != table.waiting_for:
            table.pass_king(table.waiting_for)
        elif table.match.to_move in seats:
            seat = table.match.to_move
            table.submit(seat, sorted(table.match.legal_actions(seat), key=str)[0])
        await asyncio.sleep(0.005)
    raise AssertionError("the game did not get there")


async def test_a_bot_in_an_absent_players_staked_seat_gives_every_chip_back(tmp_path, caplog):
    caplog.set_level(logging.ERROR)
    clock = Clock()
    club = make_club(tmp_path, clock)
    lt, ann_seat = club.create(ANN, TableOptions("classic", (("target", "3"),),
                                                 club=ClubOptions(stake=5)))
    _, bob_seat = club.sit(lt.code, BOB)
    for seat in (ann_seat, bob_seat):
        club.connected(lt, seat)
    house, table = club.house, lt.table
    told: list[Settlement] = []
    house.settlement_listeners.append(lambda _code, settlement: told.append(settlement))
    house.place_wager(lt, GUS.id, bob_seat, 40)
    first = game_id(lt.record_id, 1)
    await play(table, (ann_seat, bob_seat),
               until=lambda: house.ledger.game(first).status == "playing")
    assert house.ledger.escrow_total() > 40  # both stakes and the wager

    club.disconnected(lt, bob_seat)
    clock.now += 61
    club.replace_with_bot(lt, bob_seat, "random")
    escrow = house.ledger.game(first).escrow_each
    await play(table, (ann_seat,), until=lambda: bool(told))
    (void,) = told  # told at once: the wager's owner and both players hear it
    names = {ANN.id: "ann", BOB.id: "bob"}
    assert void.game_id == first and void.winner is None
    assert settlement_lines(void, GUS.id, names, 5) == [
        "Nothing is paid on game 1: 40 chips back to your purse"]
    assert settlement_lines(void, BOB.id, names, 5) == [
        f"Nothing is paid on game 1: {escrow} chips back to your purse"]
    await play(table, (ann_seat,), until=lambda: len(table.match.hands_log) >= 2)

    again = make_club(tmp_path, Clock())
    assert again.restore() == [] and again.tables[lt.code].table is not None  # (a restart)
    for bot in again.tables[lt.code].bots:
        if bot is not None:
            bot.stop()

    await play(table, (ann_seat,), until=lambda: table.match.is_over)
    ledger = house.ledger
    assert ledger.game(first).status == "void"
    assert [ledger.purse(p.id) for p in (ANN, BOB, GUS)] == [1000, 1000, 1000]
    assert ledger.escrow_total() == 0
    assert [r.getMessage() for r in caplog.records] == []


def test_a_void_game_nobody_had_chips_on_says_nothing():
    void = Settlement("ABCD/1", None, 0, {ANN.id: 0, BOB.id: 0}, ())
    assert settlement_lines(void, ANN.id, {}, 0) == []
