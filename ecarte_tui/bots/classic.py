"""The ``classic`` player: the treatises' rules, applied to the letter (see ``treatises``).

Score (Cavendish, "The condition of the score ought to be considered before proposing or
playing without proposing"), with a 5-point target written as "target - n":
- opponent at target - 2: "it is dangerous to play without proposing, unless the hand be
  very strong": the 2-point penalty would give him the game, so the elder plays only with
  three trumps (or four trumps and kings).
- opponent at target - 1: "it is better not to propose if the non-dealer's hand be fairly
  strong, unless the king be held, as there is a chance of the dealer taking in the king":
  the elder plays with a fairly strong hand (two trumps, or a trump and a king).
- as dealer, at target - 1 or against an elder at target - 1, a refusal is worth more: one
  won point ends the game, and an exchange may give the other the king (and the game). The
  dealer then refuses with one guard less (``dealer_refuses(eager=True)``).
"""

from __future__ import annotations

from ..engine.actions import ACCEPT, KING, PLAY, PROPOSE, REFUSE, Action, Kind, discard
from ..engine.cards import STRENGTH, SUIT_MASK
from ..engine.match import Phase
from ..engine.view import SeatView
from .treatises import (
    MASTERS,
    dealer_refuses,
    is_jeu_de_regle,
    keep_score,
    king_of_trumps,
    treatise_discard,
    trumps_and_kings,
)


class ClassicBot:
    name = "classic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # the treatises leave nothing to chance

    def choose(self, view: SeatView) -> Action | None:
        legal = view.legal
        if not legal:
            return None
        if KING in legal:
            # always announce (000, 001: the point is lost if not announced in time; 004:
            # "Het ene punt is gratis")
            return KING
        if view.to_move != view.seat:
            return None
        trump = view.trump if view.trump is not None else 0
        ace_high = view.rules.ace_high
        hand = view.hand_mask
        phase = view.phase
        if phase is Phase.DECIDE:
            return PLAY if elder_plays(view, hand, trump) else PROPOSE
        if phase is Phase.ANSWER:
            target = view.rules.target
            me, opp = view.scores[view.seat], view.scores[1 - view.seat]
            eager = me == target - 1 or opp == target - 1
            return REFUSE if dealer_refuses(hand, trump, ace_high, eager) else ACCEPT
        if phase in (Phase.ELDER_DISCARD, Phase.DEALER_DISCARD):
            sizes = [a.cards.bit_count() for a in legal]
            return discard(treatise_discard(hand, trump, ace_high, min(sizes), max(sizes)))
        cards = [a.card for a in legal if a.kind is Kind.CARD]
        if view.trick_lead is None:
            return _card(classic_lead(hand, trump, ace_high, len(view.tricks)), legal)
        return _card(classic_follow(cards, view.trick_lead, trump, ace_high), legal)


def _card(card: int, legal: tuple[Action, ...]) -> Action:
    for a in legal:
        if a.kind is Kind.CARD and a.card == card:
            return a
    raise AssertionError("the chosen card is not legal")


def elder_plays(view: SeatView, hand: int, trump: int) -> bool:
    """Play without proposing? (RULES.md §9, Foster; score rules of Cavendish above.)"""
    rules = view.rules
    target = rules.target
    opp = view.scores[1 - view.seat]
    me = view.scores[view.seat]
    ace_high = rules.ace_high
    king = hand >> king_of_trumps(trump) & 1
    strong = trumps_and_kings(hand, trump, ace_high).bit_count()
    trumps = (hand & SUIT_MASK[trump]).bit_count()
    jeu = is_jeu_de_regle(hand, trump, rules)
    if view.exchanges > 0:
        return jeu  # no penalty any more: play a jeu de règle, ask for cards otherwise
    if me == target - 1 and king:
        return True  # the king's point wins at once: nothing else matters
    if opp == target - 1:
        # Cavendish: do not let the dealer take in the king with a fairly strong hand
        return not king and (jeu or trumps >= 2 or trumps >= 1 and strong >= 2)
    if opp == target - 2:
        return not king and (trumps >= 3 or strong >= 4)  # Cavendish: "very strong"
    # Foster, 003: play a jeu de règle without proposing, unless it holds the king of
    # trumps ("there is no danger of the dealer's getting the King")
    return jeu and not king


def classic_lead(hand: int, trump: int, ace_high: bool, tricks_played: int) -> int:
    """The card to lead (003 and Cavendish's leads).

    Trumps early only with the king, queen-knave or knave-ace of trumps (a sequence that
    draws the dealer's trumps); otherwise the highest card of the longest plain suit
    ("lead off with the best card of the other suit, holding the trumps in reserve";
    001: "Lead your strongest suit").
    """
    strength = STRENGTH[ace_high]
    trumps = hand & SUIT_MASK[trump]
    tstr = {strength[c] for c in range(32) if trumps >> c & 1}
    if trumps and tricks_played <= 1 and (7 in tstr or {6, 5} <= tstr or {5, 4} <= tstr):
        return max((c for c in range(32) if trumps >> c & 1), key=strength.__getitem__)
    best: tuple[int, int, int] | None = None
    for s in range(4):
        if s == trump:
            continue
        cards = [c for c in range(s * 8, s * 8 + 8) if hand >> c & 1]
        if not cards:
            continue
        top = max(cards, key=strength.__getitem__)
        key = (len(cards), strength[top], top)
        if best is None or key > best:
            best = key
    if best is not None:
        return best[2]
    return max((c for c in range(32) if hand >> c & 1), key=strength.__getitem__)


def classic_follow(cards: list[int], led: int, trump: int, ace_high: bool) -> int:
    """Win as cheaply as possible; if the trick is lost, throw the least useful card."""
    strength = STRENGTH[ace_high]
    led_suit = led >> 3
    winners = [
        c
        for c in cards
        if (c >> 3 == led_suit and strength[c] > strength[led])
        or (c >> 3 == trump and led_suit != trump)
    ]
    if winners:
        return min(winners, key=lambda c: (c >> 3 == trump and led_suit != trump, strength[c]))
    masters = MASTERS[ace_high]
    return min(cards, key=lambda c: (keep_score(c, trump, ace_high), c in masters, c))
