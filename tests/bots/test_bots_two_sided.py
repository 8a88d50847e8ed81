"""The expert's option ``two_sided``: a score valued by how hands end when it plays the
treatises, its deals and his apart (``match_tables``), rather than by classic self-play,
where both seats are alike and the table is the same for every preset."""

from __future__ import annotations

import pytest

from ecarte_tui.bots.arena import play_match
from ecarte_tui.bots.match_tables import AGAINST_CLASSIC, measure
from ecarte_tui.bots.match_value import MatchValue, hand_outcomes
from ecarte_tui.bots.spec import bot_from_spec
from ecarte_tui.engine import PRESETS, read_ecn, summary


def test_two_equal_sides_are_the_self_play_value():
    rules = PRESETS["classic"]
    plain = MatchValue(rules)
    sides = MatchValue(rules, (hand_outcomes(rules), hand_outcomes(rules)))
    for score in ((0, 0), (3, 3), (4, 2), (1, 4)):
        for deal in (True, False):
            assert sides.game_win(*score, deal) == pytest.approx(plain.game_win(*score, deal))


@pytest.mark.parametrize("preset", ["classic", "britannica", "nl"])
def test_the_tables_give_the_expert_its_edge_and_the_dealer_his(preset):
    rules = PRESETS[preset]
    mv = MatchValue(rules, AGAINST_CLASSIC[preset])
    plain = MatchValue(rules)
    start = 0.5 * (mv.game_win(0, 0, True) + mv.game_win(0, 0, False))
    assert 0.53 < start < 0.65  # it wins 57-62% of matches against the treatises
    for side in AGAINST_CLASSIC[preset]:
        assert sum(row[0] for row in side) == pytest.approx(1.0, abs=0.002)
    # every score is worth more to it than to an equal player, most of all when it deals
    for me, opp in ((0, 0), (2, 3), (3, 3), (4, 3)):
        assert mv.game_win(me, opp, True) > plain.game_win(me, opp, True)
        assert mv.game_win(me, opp, True) > mv.game_win(me, opp, False)


def test_the_option_sets_the_tables_of_the_preset_played():
    bot = bot_from_spec("expert:two_sided=1", seed=1)
    for preset in ("classic", "nl"):
        rules = PRESETS[preset]
        mv = bot.match_value(rules)  # type: ignore[attr-defined]
        want = MatchValue(rules, AGAINST_CLASSIC[preset])
        assert mv.game_win(3, 3, True) == pytest.approx(want.game_win(3, 3, True))
    plain = bot_from_spec("expert:blend=0.8", seed=1)
    nl = PRESETS["nl"]
    assert plain.match_value(nl).game_win(3, 3, True) == pytest.approx(  # type: ignore[attr-defined]
        MatchValue(nl).game_win(3, 3, True))


def test_measure_counts_each_hand_once_on_the_side_of_who_dealt(tmp_path):
    """The tables from the arena's records, checked against the records' own points."""
    rules = PRESETS["classic"]
    for pair in range(6):
        for swapped in (False, True):
            play_match(("random", "classic"), rules, 5, pair, swapped, record=tmp_path)
    mine, his = measure(tmp_path, bot="random")["classic"]
    dealt: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
    for path in tmp_path.glob("*.ecn"):
        text = path.read_text()
        me = "A" if '[A "random"' in text else "B"
        for h in summary(read_ecn(text))["hands"]:
            if h["complete"]:
                elder = "B" if h["dealer"] == "A" else "A"
                dealt[h["dealer"] == me].append((h["points"][h["dealer"]], h["points"][elder]))
    for table, rows in ((mine, dealt[True]), (his, dealt[False])):
        assert len(rows) > 20
        assert sum(row[0] for row in table) == pytest.approx(1.0, abs=0.002)
        dealer = sum(p * (bd + td) for p, bd, _be, td, _te in table)
        elder = sum(p * (be + te) for p, _bd, be, _td, te in table)
        assert dealer == pytest.approx(sum(r[0] for r in rows) / len(rows), abs=0.003)
        assert elder == pytest.approx(sum(r[1] for r in rows) / len(rows), abs=0.003)
    # the treatises, dealing or not, score more than a random player
    assert sum(p * (be + te) for p, _bd, be, _td, te in mine) > sum(
        p * (be + te) for p, _bd, be, _td, te in his)
