"""Units of the club's money and jeux de règle at a table: the table's guard, the rule-bound
bot, the lobby's option marks, the pot and settlement texts, the new-table dialog's options."""

from __future__ import annotations

import random

import pytest
from dialog_host import DialogHost

from ecarte_tui.engine import PLAY, PROPOSE, IllegalAction, Kind, Match, Rules, parse_card
from ecarte_tui.table import Table
from net.club import TableOptions
from net.club.clubhouse.options import ClubOptions
from net.club.clubhouse.purse import Ledger
from net.club.house_rules import RuleBoundBot, jeu_de_regle_refusal, table_guard
from net.screens.money_text import club_marks, pot_text, settlement_lines
from net.screens.new_table_screen import NewTableScreen
from net.screens.wager_screen import WagerScreen
from net.store.ledger_db import ClubDB

A, B = 0, 1
JEU = "QS JS 7S 8H 9D"  # three trumps (spades): a jeu de règle
WEAK = "7S 8H 9H 7D 8C"  # one weak trump: the elder may propose


def stacked(hand_a: str, rules: Rules | None = None) -> Table:
    """A table where A (the elder, B deals) holds ``hand_a``; spades are trumps."""
    m = Match(rules or Rules())
    a = [parse_card(t) for t in hand_a.split()]
    b = [parse_card(t) for t in "9C TC AC JC QC".split()]
    up = parse_card("9S")
    stock = [c for c in range(32) if c not in {*a, *b, up}]
    m.first_dealer = B
    m.start_hand(a, b, up, stock, dealer=B)
    return Table(m, ("anna", "ben"), random.Random(1))


# ---------------------------------------------------------------------- the table's guard


def test_without_a_guard_the_table_is_unchanged():
    table = stacked(JEU)
    assert table.guard is None and table_guard(ClubOptions()) is None
    table.submit(A, PROPOSE)  # the local game: a jeu de règle may be proposed
    assert table.match.hand.actions[-1][1].kind is Kind.PROPOSE


def test_the_guard_refuses_a_proposal_on_a_jeu_de_regle_and_changes_nothing():
    table = stacked(JEU)
    table.guard = table_guard(ClubOptions(jeux_de_regle=True))
    seen = []
    table.watch(A, seen.append)
    before = table.record_text()
    with pytest.raises(IllegalAction) as e:
        table.submit(A, PROPOSE)
    text = e.value.personal()
    assert "jeux de règle (004)" in text and "3 spades" in text and "without proposing" in text
    assert table.record_text() == before and len(seen) == 1  # nothing applied, nothing sent
    table.submit(A, PLAY)  # playing is what the rule asks
    assert table.match.hand.actions[-1][1].kind is Kind.PLAY


def test_the_guard_lets_a_weak_hand_propose():
    table = stacked(WEAK)
    table.guard = table_guard(ClubOptions(jeux_de_regle=True))
    assert jeu_de_regle_refusal(table.match, A, PROPOSE) is None
    table.submit(A, PROPOSE)
    assert table.match.hand.actions[-1][1].kind is Kind.PROPOSE


class AlwaysProposes:
    name = "proposer"

    def __init__(self) -> None:
        self.offered: list[tuple] = []

    def choose(self, view):
        self.offered.append(tuple(view.legal))
        return PROPOSE if PROPOSE in view.legal else view.legal[0]


def test_a_rule_bound_bot_never_proposes_a_jeu_de_regle():
    inner = AlwaysProposes()
    bot = RuleBoundBot(inner)
    assert bot.choose(stacked(JEU).view(A)) == PLAY
    assert PROPOSE not in inner.offered[-1]  # it was not even offered
    assert bot.choose(stacked(WEAK).view(A)) == PROPOSE


# ---------------------------------------------------------------------- texts


def test_the_lobby_marks_only_what_differs_from_the_defaults():
    assert club_marks(ClubOptions()) == []
    marks = club_marks(ClubOptions(pool="two_in_row", stake=5, wagers=False,
                                   jeux_de_regle=True))
    assert marks == ["pool 003", "stake 5", "no bets", "jdr"]
    assert club_marks(ClubOptions(pool="loser_out", french_rule=False)) == ["pool 001"]


def test_pot_and_settlement_texts_from_a_real_ledger(tmp_path):
    ledger = Ledger(ClubDB(tmp_path / "club.db"))
    ledger.open_game("T/1", ("anna", "ben"), stake=5, rules=Rules())
    ledger.place_wager("T/1", "carl", "anna", 120)
    ledger.place_wager("T/1", "dora", "ben", 40)
    names = {"anna": "ANNA", "ben": "BEN"}
    assert pot_text(ledger.wagers("T/1"), ("anna", "ben"), names) == \
        "wagers: 120 on ANNA, 40 on BEN"
    assert pot_text([], ("anna", "ben"), names) == "wagers: none yet"
    s = ledger.settle("T/1", "anna", (5, 2))
    assert settlement_lines(s, "anna", names, 5) == ["Stake: BEN pays you 15 chips"]
    assert settlement_lines(s, "ben", names, 5) == ["Stake: you pay ANNA 15 chips"]
    assert settlement_lines(s, "carl", names, 5) == ["You won 40 chips on ANNA"]
    assert settlement_lines(s, "dora", names, 5) == ["You lost your 40 chips on BEN"]
    assert settlement_lines(s, "eve", names, 5) == []


# ---------------------------------------------------------------------- the dialogs


async def _set_club(pilot, screen: NewTableScreen, **values) -> None:
    from textual.widgets import Input

    from ecarte_tui.ui.widgets.choice import Choice

    for key, value in values.items():
        if key == "stake":
            screen.query_one("#stake", Input).value = value
        else:  # the pool, and the yes-or-no options
            screen.query_one(f"#{key}", Choice).value = value
    await pilot.pause()


async def test_the_new_table_dialog_makes_club_options():
    screen = NewTableScreen()
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _set_club(pilot, screen, pool="two_in_row", stake="5", wagers=False,
                        backers=False, jdr=True)
        await pilot.press("ctrl+n")
        await pilot.pause()
    assert isinstance(app.result, TableOptions)
    assert app.result.club == ClubOptions(pool="two_in_row", stake=5, wagers=False,
                                          french_rule=False, backers_see_hand=False,
                                          jeux_de_regle=True)


@pytest.mark.parametrize(("values", "message"), [
    ({"pool": "loser_out", "french": True}, "choose one"),
    ({"stake": "500"}, "a stake is 0 to 100"),
    ({"stake": "-3"}, "a stake is 0 to 100"),
])
async def test_options_that_cannot_go_together_are_refused_in_the_dialog(values, message):
    screen = NewTableScreen()
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _set_club(pilot, screen, **values)
        await pilot.press("ctrl+n")
        await pilot.pause()
        error = str(screen.query_one("#new-table-error").render())
        assert message in error.lower() and screen.query_one("#new-table-error").display
        assert app.screen is screen  # still open: nothing was created
    assert app.result == "not dismissed"


async def test_a_staked_table_against_the_bot_is_refused_in_the_dialog():
    screen = NewTableScreen("bot:expert")
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _set_club(pilot, screen, stake="2")
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert "no stake" in str(screen.query_one("#new-table-error").render())
    assert app.result == "not dismissed"


async def test_a_refused_wager_stays_in_the_dialog_with_its_reason():
    from net.club.clubhouse.purse import LedgerError

    placed: list[tuple[int, int]] = []

    def place(seat: int, amount: int) -> str:
        if amount > 1000:
            raise LedgerError(f"a wager of {amount} chips would overdraw your purse: "
                              "you have 1000")
        placed.append((seat, amount))
        return f"You wagered {amount} chips"

    screen = WagerScreen(("anna", "ben"), 1, 1000, "wagers: none yet", place)
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*"5000", "enter")
        await pilot.pause()
        assert "overdraw" in str(screen.query_one("#wager-error").render())
        assert placed == [] and app.screen is screen
        await pilot.press(*["backspace"] * 4, *"50", "enter")
        await pilot.pause()
    assert placed == [(0, 50)] and app.result == "You wagered 50 chips"


async def test_a_purse_that_cannot_be_read_is_said_in_the_dialog_and_nothing_is_created():
    """The stake is checked against the purse in the ledger: with the store away the
    dialog says so and stays (from a button or Enter it used to end the session)."""
    import sqlite3
    from types import SimpleNamespace

    from net.screens.store_trouble import STORE_DOWN
    from net.store.club_store import Player

    class HouseAway:
        def stake_refusal(self, *_args: object) -> str | None:
            raise sqlite3.OperationalError("database is locked")

    screen = NewTableScreen()
    app = DialogHost(screen)
    app.club = SimpleNamespace(house=HouseAway())  # type: ignore[attr-defined]
    app.player = Player("SHA256:anna", "anna")  # type: ignore[attr-defined]
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _set_club(pilot, screen, stake="5")
        await pilot.click("#create")
        await pilot.pause()
        assert STORE_DOWN[:40] in str(screen.query_one("#new-table-error").render())
        assert app.screen is screen
    assert app.result == "not dismissed"
