"""``ecarte regret``: the one-step check of the expert's choices before the play."""

from __future__ import annotations

import argparse
import json
import random

import pytest

from ecarte_tui.bots.classic import ClassicBot
from ecarte_tui.bots.match_value import MatchValue
from ecarte_tui.bots.regret import (
    Check,
    check,
    play_hand,
    positions,
    summarize,
    switch_gain,
    value_after,
)
from ecarte_tui.commands import regret as command
from ecarte_tui.engine import Rules
from ecarte_tui.engine.ecn import write_ecn
from ecarte_tui.engine.match import Match, Phase
from ecarte_tui.engine.view import seat_view

CLASSIC = Rules.named("classic")


@pytest.mark.parametrize(
    ("decision", "phases", "first"),
    [
        ("first", {Phase.DECIDE}, True),
        ("decide", {Phase.DECIDE}, False),
        ("answer", {Phase.ANSWER}, None),
        ("discard", {Phase.ELDER_DISCARD, Phase.DEALER_DISCARD}, None),
    ],
)
def test_positions_are_the_decision_asked_for(
    decision: str, phases: set[Phase], first: bool | None
) -> None:
    found = positions(CLASSIC, decision, 5, 2)
    assert len(found.positions) == 2
    # Every decision met is counted, the ones not picked too, over whole matches.
    seen = found.per_match * found.matches
    assert seen == pytest.approx(round(seen)) and round(seen) >= 2
    for m in found.positions:
        assert m.to_move == 0 and m.phase in phases
        if first is not None:
            assert (m.exchanges == 0) is first
        choices = [a for a in seat_view(m, 0).legal if a.kind.name != "KING"]
        assert len(choices) > 1


def test_value_after_a_hand_is_a_probability_the_two_seats_share() -> None:
    mv = MatchValue(CLASSIC)
    rng = random.Random(4)
    m = Match(CLASSIC, first_dealer=0)
    bots = [ClassicBot(), ClassicBot()]
    while not m.is_over:
        m.deal(rng)
        play_hand(m, bots)
        a, b = value_after(m, 0, mv), value_after(m, 1, mv)
        assert 0.0 <= a <= 1.0
        assert a + b == pytest.approx(1.0)
    assert value_after(m, m.match_winner or 0, mv) == 1.0
    assert value_after(m, 1 - (m.match_winner or 0), mv) == 0.0


def test_check_plays_out_two_different_legal_choices_and_leaves_the_position() -> None:
    m = positions(CLASSIC, "answer", 7, 1).positions[0]
    before = (write_ecn(m), m.stock_pos, tuple(m.hands))
    result = check(m, "answer", 11, 6)
    assert (write_ecn(m), m.stock_pos, tuple(m.hands)) == before
    assert {result.choice, result.alternative} == {"accept", "refuse"}
    assert result.deals == 6
    assert -1.0 <= result.played_out <= 1.0 and result.se >= 0.0
    assert check(m, "answer", 11, 6) == result  # the same seed, the same figures


def test_summary_of_hand_made_checks() -> None:
    def c(out: float, se: float, est: float, gain: float = 0.0) -> Check:
        return Check("first", "play", "propose", True, est, out, se, gain, 10, (0, 0), 0)

    s = summarize([c(0.05, 0.01, 0.06), c(-0.04, 0.01, 0.0, 0.03), c(0.0, 0.02, 0.01)],
                  per_match=2.0)
    assert s["positions"] == 3
    assert s["worse"] == 1 and s["better"] == 1
    assert s["advantage"] == pytest.approx(0.01 / 3)
    assert s["bias"] == pytest.approx((0.01 + 0.04 + 0.01) / 3)
    assert s["loss_bound"] == pytest.approx(0.04 / 3)
    assert s["switch_gain"] == pytest.approx(0.01)
    assert s["switch_gain_per_match"] == pytest.approx(0.02)
    assert s["loss_bound_per_match"] == pytest.approx(0.08 / 3)


def test_switch_gain_is_measured_on_the_deals_that_did_not_choose() -> None:
    even = [1.0] * 4
    # The alternative better on every deal: switching gains that difference.
    assert switch_gain([0.2] * 4, [0.5] * 4, even) == pytest.approx(0.3)
    # The choice better on every deal: nothing to switch.
    assert switch_gain([0.5] * 4, [0.2] * 4, even) == 0.0
    # The halves disagree (even deals favour the alternative by 0.3, odd ones the
    # choice by 0.1): the even half switches and the odd half measures it, -0.1, halved.
    chosen, other = [0.2, 0.6, 0.2, 0.6], [0.5, 0.5, 0.5, 0.5]
    assert switch_gain(chosen, other, even) == pytest.approx(-0.05)
    # Weights count within a half as in the expert's own paired difference.
    assert switch_gain([0.0, 0.0, 1.0, 0.0], [0.5, 0.5, 0.5, 0.5],
                       [1.0, 1.0, 0.0, 1.0]) == pytest.approx(0.5)


def test_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    args = parser.parse_args(["first", "--positions", "1", "--deals", "4", "--json"])
    assert command.run(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["decision"] == "first" and out["positions"] == 1
    assert out["checks"][0]["choice"] in ("play", "propose")
    assert out["matches"] >= 1 and out["per_match"] * out["matches"] >= 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["first", "--positions", "0"], "--positions"),
        (["first", "--deals", "1"], "--deals"),
        (["first", "--rules", "decisive"], "one preset"),
        (["first", "--rules", "nowhere"], "unknown rules preset"),
    ],
)
def test_bad_options_get_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    assert command.run(parser.parse_args(argv)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert says in err and "\n" not in err
