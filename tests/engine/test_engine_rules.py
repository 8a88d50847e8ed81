"""RULES.md §8: the presets and overriding their parameters one by one."""

import random

import pytest
from engine_support import new_hand, play_deal, run

from ecarte_tui.engine import (
    KING,
    PRESETS,
    B,
    IllegalAction,
    Match,
    Rules,
    RulesError,
    draw_first_dealer,
    read_ecn,
)
from ecarte_tui.engine.rules import PARAMETERS

# RULES.md §8, transcribed row by row.
TABLE = """
parameter | classic | academie | regles | britannica | nl
first_dealer | higher_chooses | lowest_deals | higher_chooses | highest_deals | lowest_deals
dealer_min_discard | 1 | 1 | 0 | 0 | 1
king_deadline | own_first_card | own_first_card | opening_lead | own_first_card | opening_lead
penalized | committer | committer | committer | elder | elder
penalty_on_vole | cap | add | add | cap | add
target | 5 | 5 | 5 | 5 | 5
games_to_win | 1 | 1 | 2 | 1 | 1
"""

ALTERNATIVES = {
    "first_dealer": ["lowest_deals", "highest_deals", "higher_chooses"],
    "dealer_min_discard": [0, 1],
    "king_deadline": ["own_first_card", "opening_lead"],
    "penalized": ["committer", "elder"],
    "penalty_on_vole": ["cap", "add"],
    "target": [3, 5, 7, 11],
    "games_to_win": [1, 2, 3],
    "ace_high": [False, True],
}


def table():
    rows = [[x.strip() for x in line.split("|")] for line in TABLE.strip().splitlines()]
    presets = rows[0][1:]
    out = {p: {} for p in presets}
    for row in rows[1:]:
        for p, v in zip(presets, row[1:], strict=True):
            out[p][row[0]] = int(v) if v.isdigit() else v
    return out


def test_presets_are_exactly_the_table_of_section_8():
    """§8: five presets, classic (001), academie (000), regles (002), britannica (003), nl (004),
    each parameter as in the table; ace_high is off in all (an option outside the presets)."""
    expected = table()
    assert set(PRESETS) == set(expected)
    for name, rules in PRESETS.items():
        params = rules.params()
        assert params.pop("ace_high") is False
        assert params == expected[name], name
        assert rules.preset == name and Rules.named(name) == rules


def test_every_parameter_has_its_alternatives():
    """RULES.md lists these parameters and no others."""
    assert set(PARAMETERS) == set(ALTERNATIVES)


def test_classic_is_the_default():
    """§8: classic is the default (a Rules(), a Match(), an ECN record with no Rules tag)."""
    assert Rules() == PRESETS["classic"] == Rules.named()
    assert Match().rules == PRESETS["classic"]
    assert read_ecn("").match.rules == PRESETS["classic"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("name", sorted(ALTERNATIVES))
def test_override_one_parameter(preset, name):
    """§8: every parameter can be overridden one by one; the others stay as in the preset."""
    base = PRESETS[preset].params()
    for value in ALTERNATIVES[name]:
        r = Rules.named(preset, **{name: value})
        assert r.preset == preset
        assert r.params() == {**base, name: value}
        assert r.differences() == ({} if base[name] == value else {name: value})
        text = {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) \
            else str(value)
        assert PRESETS[preset].with_text(name, text) == r


def test_academie_with_target_3():
    """§8 example: academie with target = 3."""
    r = Rules.named("academie", target=3)
    assert r.target == 3 and r.penalty_on_vole == "add" and r.first_dealer == "lowest_deals"


@pytest.mark.parametrize(
    "preset, overrides",
    [("nope", {}), ("classic", {"colour": 1}),
     ("classic", {"first_dealer": "youngest"}), ("classic", {"dealer_min_discard": 2}),
     ("classic", {"king_deadline": "never"}), ("classic", {"penalized": "dealer"}),
     ("classic", {"penalty_on_vole": "double"}), ("classic", {"target": 0}),
     ("classic", {"games_to_win": 0}), ("classic", {"ace_high": "yes"})],
)
def test_unknown_preset_parameter_or_value(preset, overrides):
    """§8: only the presets and parameters of RULES.md, with their values."""
    with pytest.raises(RulesError) as e:
        Rules.named(preset, **overrides)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("name, text", [("ace_high", "true"), ("target", "five"),
                                        ("target", "-3"), ("dealer_min_discard", "1.0"),
                                        ("target", "²"), ("games_to_win", "")])
def test_bad_text_values(name, text):
    """ECN.md: boolean values are yes or no; numbers are whole numbers."""
    with pytest.raises(RulesError):
        Rules().with_text(name, text)


# ------------------------------------------------- each parameter, overridden alone, takes effect


def test_override_king_deadline_alone():
    """§4 king_deadline on classic: opening_lead forbids the dealer's king after the lead."""
    for deadline, allowed in (("own_first_card", True), ("opening_lead", False)):
        m = new_hand(Rules.named("classic", king_deadline=deadline), a="QC 7C 8D 9D TD",
                     b="KS 7H 8H 9H TH", up="7S")
        run(m, "A play", "A 8D")
        assert (KING in m.legal_actions(B)) is allowed
        if not allowed:
            with pytest.raises(IllegalAction):
                run(m, "B king")


def test_override_penalized_alone():
    """§6 penalized on classic: elder puts the elder at risk when the dealer refuses."""
    m = Match(Rules.named("classic", penalized="elder"))
    play_deal(m, B, "E", False, "refuse")
    assert m.hand.at_risk == 0 and m.hand.points == [1, 0]


def test_override_penalty_on_vole_alone():
    """§6 penalty_on_vole on classic: add makes the penalised vole 3."""
    m = Match(Rules.named("classic", penalty_on_vole="add"))
    play_deal(m, B, "D", True, "play")
    assert m.hand.points == [0, 3]
    m = Match(Rules.named("nl", penalty_on_vole="cap"))
    play_deal(m, B, "D", True, "play")
    assert m.hand.points == [0, 2]


def test_override_first_dealer_alone():
    """§2 first_dealer on classic: the same draw, a different outcome for each value."""
    outcomes = {}
    for value in ALTERNATIVES["first_dealer"]:
        r = draw_first_dealer(Rules.named("classic", first_dealer=value), random.Random(3))
        outcomes[value] = (r.cards, r.dealer, r.chooser)
    cards = {o[0] for o in outcomes.values()}
    assert len(cards) == 1  # the draw itself does not depend on the parameter
    low, high = outcomes["lowest_deals"][1], outcomes["highest_deals"][1]
    assert {low, high} == {0, 1}
    assert outcomes["higher_chooses"][1] is None and outcomes["higher_chooses"][2] == high
