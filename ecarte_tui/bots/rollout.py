"""The rest of the exchanges, played out in one sampled deal by the treatises' rules.

When the expert weighs a proposal, an answer or a discard, it needs what happens next:
the other's answer, both discards, the cards drawn, maybe more proposals. In a sampled
deal every card is known, so the treatise rules (a fair model of a sensible player, and
cheap) play the exchanges out; the trick play that follows is then solved exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import SUIT_MASK
from ..engine.rules import Rules
from .treatises import (
    dealer_refuses,
    is_jeu_de_regle,
    king_of_trumps,
    treatise_discard,
    trumps_and_kings,
)

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
    eager: bool = False  # the score makes a refusal worth more (``score_eager``)


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


def score_eager(rules: Rules, a: int, b: int) -> bool:
    """Cavendish: at ``target - 1`` on either side the dealer refuses with a guard less."""
    return a == rules.target - 1 or b == rules.target - 1


def elder_plays_at(hand: int, trump: int, rules: Rules, me: int, opp: int,
                   exchanges: int) -> bool:
    """The elder's play/propose by the treatises with Cavendish's score rules, from the
    elder's score ``me`` and the dealer's ``opp`` (mirrors ``classic.elder_plays``)."""
    jeu = is_jeu_de_regle(hand, trump, rules)
    if exchanges > 0:
        return jeu
    target = rules.target
    king = hand >> king_of_trumps(trump) & 1
    if me == target - 1 and king:
        return True
    trumps = (hand & SUIT_MASK[trump]).bit_count()
    strong = trumps_and_kings(hand, trump, rules.ace_high).bit_count()
    if opp == target - 1:
        return not king and (jeu or trumps >= 2 or trumps >= 1 and strong >= 2)
    if opp == target - 2:
        return not king and (trumps >= 3 or strong >= 4)
    return jeu and not king


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
            if dealer_refuses(ex.dealer, trump, ace_high, ex.eager):
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
