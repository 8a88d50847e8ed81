"""The rest of the exchanges, played out in one sampled deal by the treatises' rules.

When the expert weighs a proposal, an answer or a discard, it needs what happens next:
the other's answer, both discards, the cards drawn, maybe more proposals. In a sampled
deal every card is known, so the treatise rules (a fair model of a sensible player, and
cheap) play the exchanges out; the trick play that follows is then solved exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.rules import Rules
from .treatises import dealer_refuses, is_jeu_de_regle, king_of_trumps, treatise_discard

DECIDE, ANSWER, ELDER_DISCARD, DEALER_DISCARD = range(4)


@dataclass(slots=True)
class Exchange:
    """A hand before the play: both hands, the stock still to draw and the risk so far."""

    elder: int
    dealer: int
    stock: Sequence[int]  # top first
    pos: int
    exchanges: int
    at_risk: int | None  # 0 = elder, 1 = dealer (roles, not seats)


def _draw(ex: Exchange, n: int) -> int:
    drawn = 0
    for c in ex.stock[ex.pos : ex.pos + n]:
        drawn |= 1 << c
    ex.pos += n
    return drawn


def discard_and_draw(ex: Exchange, role: int, mask: int) -> bool:
    """Apply one discard; True if the play starts because the stock is empty."""
    n = mask.bit_count()
    if role == 0:
        ex.elder = (ex.elder & ~mask) | _draw(ex, n)
    else:
        ex.dealer = (ex.dealer & ~mask) | _draw(ex, n)
    empty = ex.pos >= len(ex.stock)
    if role == 1 or empty:
        ex.exchanges += 1
    return empty


def elder_would_play(hand: int, trump: int, rules: Rules, exchanges: int) -> bool:
    """Foster's rule: a jeu de règle plays, unless it holds the king on the first decision."""
    if not is_jeu_de_regle(hand, trump, rules):
        return False
    return exchanges > 0 or not hand >> king_of_trumps(trump) & 1


def play_out(ex: Exchange, step: int, trump: int, rules: Rules) -> Exchange:
    """Continue from ``step`` with the treatise policy until the play begins."""
    ace_high = rules.ace_high
    stock_len = len(ex.stock)
    while True:
        left = stock_len - ex.pos
        if step == DECIDE:
            if left <= 0 or elder_would_play(ex.elder, trump, rules, ex.exchanges):
                if ex.exchanges == 0 and left > 0:
                    ex.at_risk = 0
                return ex
            step = ANSWER
        elif step == ANSWER:
            if dealer_refuses(ex.dealer, trump, ace_high):
                if ex.exchanges == 0:
                    ex.at_risk = 1 if rules.penalized == "committer" else 0
                return ex
            step = ELDER_DISCARD
        elif step == ELDER_DISCARD:
            mask = treatise_discard(ex.elder, trump, ace_high, 1, min(5, left))
            if discard_and_draw(ex, 0, mask):
                return ex
            step = DEALER_DISCARD
        else:
            lo = min(rules.dealer_min_discard, left)
            mask = treatise_discard(ex.dealer, trump, ace_high, lo, min(5, left))
            if discard_and_draw(ex, 1, mask):
                return ex
            step = DECIDE
