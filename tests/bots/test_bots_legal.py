"""Every bot, under every preset, only ever returns legal actions (whole matches)."""

from __future__ import annotations

import random

import pytest
from bots_support import drive

from ecarte_tui.bots import LEVELS, make_bot
from ecarte_tui.bots.expert import ExpertBot
from ecarte_tui.engine import PRESETS, Match, Rules

VARIANTS = [Rules.named(p) for p in PRESETS] + [
    Rules.named("classic", ace_high=True),
    Rules.named("nl", target=3),
    Rules.named("academie", target=7, games_to_win=2),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: f"{r.preset}-{r.target}-{r.ace_high}")
def test_cheap_bots_play_legally(rules: Rules) -> None:
    rng = random.Random(hash((rules.preset, rules.target)) & 0xFFFF)
    levels = ["random", "easy", "classic"]
    decisions = 0
    for i in range(90):
        a, b = levels[i % 3], levels[(i // 3) % 3]
        m = Match(rules, first_dealer=i & 1)
        decisions += drive(m, (make_bot(a, i), make_bot(b, i + 1)), rng=rng)
        assert m.is_over
    assert decisions > 1000


@pytest.mark.parametrize("preset", list(PRESETS))
def test_expert_plays_legally(preset: str) -> None:
    # a lighter search (fewer deals) walks the same code paths in a fraction of the time
    rng = random.Random(len(preset))
    for i, other in enumerate(("random", "classic")):
        m = Match(Rules.named(preset), first_dealer=i)
        drive(m, (ExpertBot(i, effort=0.15), make_bot(other, i)), rng=rng)
        assert m.is_over


def test_full_strength_expert_plays_a_match_legally() -> None:
    m = Match(Rules.named("classic", ace_high=True), first_dealer=0)
    drive(m, (make_bot("expert", 3), make_bot("expert", 4)), rng=random.Random(5))
    assert m.is_over


def test_levels_and_unknown_level() -> None:
    assert list(LEVELS) == ["random", "easy", "classic", "expert"]
    for level in LEVELS:
        assert make_bot(level, 1).name == level
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster")
