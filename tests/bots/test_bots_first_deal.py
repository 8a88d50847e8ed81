"""A bot that drew the higher card (001's rule: the higher card chooses) takes the deal or
leaves it by its chance of the match from the start, not by habit (it used to let the
opponent deal, which the self-play frequencies make the weaker seat)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from ecarte_tui.bot_seat import BotSeat
from ecarte_tui.bots.match_value import MatchValue, first_deal_hint, first_dealer_for
from ecarte_tui.bots.random_bot import RandomBot
from ecarte_tui.engine import PRESETS
from ecarte_tui.table import Table


@pytest.mark.parametrize("preset", ["classic", "regles"])
def test_the_chooser_takes_the_seat_with_the_better_chance_of_the_match(preset):
    rules = PRESETS[preset]
    value = MatchValue(rules)
    deal, lead = value.value(0, 0, True, 0, 0), value.value(0, 0, False, 0, 0)
    assert deal > lead  # the turned-up king is the dealer's (self-play frequencies)
    for chooser in (0, 1):
        assert first_dealer_for(rules, chooser) == chooser


def test_a_lost_first_game_of_a_long_match_changes_nothing_of_the_choice():
    """At the start every match is 0-0: the choice depends on the rules alone (a longer
    match dilutes the first deal's worth but not its sign)."""
    rules = replace(PRESETS["classic"], target=10, games_to_win=3)
    value = MatchValue(rules)
    assert value.value(0, 0, True, 0, 0) > value.value(0, 0, False, 0, 0)
    assert first_dealer_for(rules, 1) == 1


async def test_the_bot_at_the_table_deals_when_it_chooses():
    for seed in range(40):  # a deal where the bot (seat 1) drew the higher card
        table = Table.new(PRESETS["classic"], ("You", "Bot"), seed=seed)
        if table.status == "choose" and table.draw is not None and table.draw.chooser == 1:
            break
    else:
        pytest.fail("no seed lets the bot choose")
    bot = BotSeat(table, 1, RandomBot(seed=1), delay=0)
    bot.start()
    bot._on_update(None)  # type: ignore[arg-type]  # (as the table's first update does)
    for _ in range(50):
        if table.draw is not None and table.draw.dealer is not None:
            break
        await asyncio.sleep(0.01)
    bot.stop()
    assert table.draw is not None and table.draw.dealer == 1


def test_the_hint_names_the_choice_and_its_chances():
    hint = first_deal_hint(PRESETS["classic"])
    assert hint.startswith("deal (d)") and "50.7% against 49.3% to win the match" in hint
