"""Jeux de règle (004) at the club's live tables: the option guards the table the club
starts (and restores after a restart), its bots obey it, and a table without it is as the
local game."""

from __future__ import annotations

from test_club_money_units import JEU, AlwaysProposes, stacked

from ecarte_tui.engine import PLAY, PROPOSE, IllegalAction
from net.club import Club, TableOptions
from net.club.clubhouse.options import ClubOptions
from net.club.house_rules import RuleBoundBot
from net.store import Player, Store

JDR = TableOptions(opponent="bot:expert", club=ClubOptions(jeux_de_regle=True))


def club_with(tmp_path, bot) -> Club:
    return Club(Store(tmp_path / "club.db"), bot_factory=lambda level, seed: bot)


def test_a_jeux_de_regle_table_is_guarded_and_its_bot_bound(tmp_path):
    club = club_with(tmp_path, AlwaysProposes())
    lt, _ = club.create(Player("k1", "anna"), JDR)
    assert lt.table is not None and lt.table.guard is not None
    assert isinstance(lt.bots[1].bot, RuleBoundBot)
    # the guard is the one of the option: it refuses the proposal on a jeu de règle
    table = stacked(JEU)
    table.guard = lt.table.guard
    try:
        table.submit(0, PROPOSE)
        raise AssertionError("the proposal was accepted")
    except IllegalAction as e:
        assert "jeux de règle (004)" in e.personal()
    assert lt.bots[1].bot.choose(stacked(JEU).view(0)) == PLAY


def test_the_option_survives_a_restart(tmp_path):
    store = Store(tmp_path / "club.db")
    club = Club(store, bot_factory=lambda level, seed: AlwaysProposes())
    lt, _ = club.create(Player("k1", "anna"), JDR)
    again = Club(store, bot_factory=lambda level, seed: AlwaysProposes())
    assert again.restore() == []
    back = again.tables[lt.code]
    assert back.options.club.jeux_de_regle and back.table.guard is not None
    assert isinstance(back.bots[1].bot, RuleBoundBot)


def test_without_the_option_nothing_is_added(tmp_path):
    bot = AlwaysProposes()
    club = club_with(tmp_path, bot)
    lt, _ = club.create(Player("k1", "anna"), TableOptions(opponent="bot:expert"))
    assert lt.table.guard is None and lt.bots[1].bot is bot


def test_the_seat_is_not_offered_the_forbidden_proposal(tmp_path):
    """The prompt, the hints and a backer's advice read the seat's view: no "Cards!" there."""
    club = club_with(tmp_path, AlwaysProposes())
    lt, _ = club.create(Player("k1", "anna"), JDR)
    table = stacked(JEU)
    assert PROPOSE in table.view(0).legal  # the rules alone allow it
    table.restrict = lt.table.restrict
    assert PROPOSE not in table.view(0).legal and PLAY in table.view(0).legal
    assert table.view(None).legal == ()  # a watcher's view is untouched
    plain = Club(Store(tmp_path / "plain.db"), bot_factory=lambda level, seed: AlwaysProposes())
    other, _ = plain.create(Player("k1", "anna"), TableOptions(opponent="bot:expert"))
    assert other.table.restrict is None
