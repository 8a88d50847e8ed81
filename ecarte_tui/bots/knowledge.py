"""What one seat knows about the hidden cards, read from its view alone.

The follow rules leak information: a player who does not follow is void in the suit led
(and in trumps too if he did not trump); one who follows low could not head the card led.
Those facts, the king's announcement and the card counts are all the sampler may use.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import Kind
from ..engine.cards import FULL_MASK, HIGHER, STRENGTH, SUIT_MASK
from ..engine.match import Phase
from ..engine.view import SeatView
from .treatises import king_of_trumps


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden cards as one seat sees them (masks over the 32 card ids)."""

    me: int  # my hand
    unseen: int  # cards whose place I do not know: opponent's hand, stock, his discards
    opp_count: int  # cards in the opponent's hand
    stock_size: int
    forbidden: int  # cards the opponent cannot hold now (voids, could-not-head)
    required: int  # cards he must hold (an announced king not yet played)
    unlikely: int  # cards he most likely does not hold (a king he did not announce in time)
    opp_played: int  # cards he played to tricks this hand
    opp_discards: tuple[int, ...]  # how many cards he changed at each exchange
    opp_king_open: bool  # he may still announce the king if he holds it


def knowledge_of(view: SeatView) -> Knowledge:
    """Everything the seat of ``view`` has seen that bears on the hidden cards."""
    me = view.hand_mask
    seen = me
    for m in view.own_discards:
        seen |= m
    trump = view.trump if view.trump is not None else 0
    if view.turn_up is not None:
        seen |= 1 << view.turn_up
    opp = 1 - view.seat
    higher = HIGHER[view.rules.ace_high]
    strength = STRENGTH[view.rules.ace_high]
    forbidden = opp_played = 0
    for t in view.tricks:
        seen |= (1 << t.lead) | (1 << t.follow)
        if t.leader == opp:
            opp_played |= 1 << t.lead
            continue
        opp_played |= 1 << t.follow
        forbidden |= could_not_hold(t.lead, t.follow, trump, higher, strength)
    if view.trick_lead is not None:
        seen |= 1 << view.trick_lead
        if view.leader == opp:
            opp_played |= 1 << view.trick_lead
    unseen = FULL_MASK & ~seen
    king = king_of_trumps(trump)
    required = unlikely = 0
    passed = _opp_deadline_passed(view, opp_played)
    if unseen >> king & 1:
        if view.king == opp:
            required = 1 << king
        elif view.king is None and passed:
            unlikely = 1 << king
    forbidden &= unseen & ~required
    return Knowledge(
        me=me,
        unseen=unseen,
        opp_count=view.opponent_cards,
        stock_size=view.stock_size,
        forbidden=forbidden,
        required=required,
        unlikely=unlikely & ~forbidden,
        opp_played=opp_played,
        opp_discards=view.opponent_discards,
        opp_king_open=view.king is None and not passed,
    )


def could_not_hold(
    lead: int, follow: int, trump: int, higher: tuple[int, ...], strength: tuple[int, ...]
) -> int:
    """The cards a follower cannot have held when he answered ``lead`` with ``follow``."""
    lead_suit = lead >> 3
    if follow >> 3 == lead_suit:
        if strength[follow] < strength[lead]:
            return higher[lead]  # he had to head the card led if he could
        return 0
    out = SUIT_MASK[lead_suit]  # void in the suit led
    if follow >> 3 != trump:
        out |= SUIT_MASK[trump]  # and he would have had to trump
    return out


def _opp_deadline_passed(view: SeatView, opp_played: int) -> bool:
    """Has the opponent's time to announce the king gone by (RULES.md §4)?"""
    if view.phase is not Phase.TRICKS:
        return False
    if view.rules.king_deadline == "own_first_card":
        return opp_played != 0
    return bool(view.tricks) or view.trick_lead is not None


def legal_card_mask(view: SeatView) -> int:
    """The cards the seat may play now, as a mask."""
    m = 0
    for a in view.legal:
        if a.kind is Kind.CARD:
            m |= a.cards
    return m
