"""The ``easy`` player: a beginner's habits, so a new player can win.

It keeps trumps and kings, plays its highest card every time, plays without proposing
whenever it holds two trumps and announces the king only when it is its turn (so under the
``opening_lead`` deadline it forgets the king as dealer).
"""

from __future__ import annotations

from ..engine.actions import ACCEPT, KING, PLAY, PROPOSE, REFUSE, Action, Kind, discard
from ..engine.cards import STRENGTH, SUIT_MASK
from ..engine.match import Phase
from ..engine.view import SeatView
from .treatises import treatise_discard


class EasyBot:
    name = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # the beginner never hesitates: nothing is random

    def choose(self, view: SeatView) -> Action | None:
        legal = view.legal
        if not legal:
            return None
        if view.to_move != view.seat:
            return None  # a beginner does not know he may announce out of turn
        if KING in legal:
            return KING
        trump = view.trump if view.trump is not None else 0
        hand = view.hand_mask
        trumps = (hand & SUIT_MASK[trump]).bit_count()
        phase = view.phase
        if phase is Phase.DECIDE:
            return PLAY if trumps >= 2 else PROPOSE
        if phase is Phase.ANSWER:
            return REFUSE if trumps >= 2 else ACCEPT
        if phase in (Phase.ELDER_DISCARD, Phase.DEALER_DISCARD):
            sizes = [a.cards.bit_count() for a in legal]
            mask = treatise_discard(hand, trump, view.rules.ace_high, min(sizes), max(sizes))
            return discard(mask)
        strength = STRENGTH[view.rules.ace_high]
        cards = [a for a in legal if a.kind is Kind.CARD]
        # the highest card; between equals, a trump
        return max(cards, key=lambda a: (strength[a.card], a.card >> 3 == trump, a.card))
