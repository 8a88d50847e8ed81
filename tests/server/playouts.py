"""Whole matches played with seeded random moves, for tests that need a finished match."""

from __future__ import annotations

import random

from ecarte_tui.engine import Match, Rules


def random_match(seed: int, target: int = 3) -> Match:
    """A finished classic match to ``target``, every move drawn from ``Random(seed)``."""
    rng = random.Random(seed)
    m = Match(Rules.named("classic", target=target))
    m.first_dealer = 0
    while not m.is_over:
        if m.needs_deal:
            m.deal(rng)
        else:
            m.apply(rng.choice(list(m.legal_actions())))
    return m
