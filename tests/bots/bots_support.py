"""Helpers for the bot tests: name cards by token, build exact positions, drive matches."""

from __future__ import annotations

import random

from ecarte_tui.bots import Bot
from ecarte_tui.engine import KING, Match, Rules, parse_card, seat_view


def c(token: str) -> int:
    return parse_card(token)


def mask(tokens: str) -> int:
    m = 0
    for t in tokens.split():
        m |= 1 << parse_card(t)
    return m


FILLER = "7C 8C 9C TC 7D 8D 9D TD 9S TS AS AD AC"


def hand_from(
    a: str, b: str | None, up: str, rules: Rules | None = None, dealer: int = 1
) -> Match:
    """A match whose first hand gives ``a`` to seat A and ``b`` to seat B (B deals).

    ``b`` None gives B small cards that ``a`` and ``up`` leave free.
    """
    m = Match(rules or Rules(), first_dealer=dealer)
    ha = [c(t) for t in a.split()]
    u = c(up)
    if b is None:
        hb = [x for x in (c(t) for t in FILLER.split()) if x not in ha and x != u][:5]
    else:
        hb = [c(t) for t in b.split()]
    used = set(ha) | set(hb) | {u}
    stock = [x for x in range(32) if x not in used][:21]
    m.start_hand(ha, hb, u, stock, dealer=dealer)
    return m


def drive(m: Match, bots: tuple[Bot, Bot], until_over: bool = True, rng: random.Random | None = None
          ) -> int:
    """Play with ``bots`` (asking the waiting seat about the king first, as the table does);
    every returned action must be legal. Returns the number of decisions taken."""
    rng = rng or random.Random(0)
    decisions = 0
    while True:
        if m.needs_deal:
            if m.is_over or not until_over:
                return decisions
            m.deal(rng)
        while m.to_move is not None:
            mover = m.to_move
            other = 1 - mover
            if m.legal_actions(other):
                v = seat_view(m, other)
                a = bots[other].choose(v)
                assert a is None or a is KING, f"{bots[other].name} answered {a} out of turn"
                if a is not None:
                    assert a in v.legal
                    m.apply(a, other)
                    continue
            v = seat_view(m, mover)
            a = bots[mover].choose(v)
            assert a is not None, f"{bots[mover].name} passed on its turn"
            assert a in v.legal, f"{bots[mover].name} chose illegal {a} from {v.legal}"
            m.apply(a, mover)
            decisions += 1
        if m.is_over or not until_over:
            return decisions
