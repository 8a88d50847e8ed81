"""The "jeux de règle" table option: the elder may not propose on a jeu de règle (004).

004, "Jeux de Règles (vaste biedstijl): Vooroorlogse vorm met strakke conventies voor
wanneer de voorhand een voorstel mag doen; strikt op regels gebaseerd" (fixed conventions
for when the elder may propose). RULES.md §9: a *jeu de règle* is a hand that takes 3
tricks unless the dealer holds two trumps, about 2 : 1 in favour (Foster's Complete Hoyle);
"the classical advice is to play such hands without proposing, unless the king of trumps is
among them". At such a table that advice is the rule:

- it binds the elder's first decision of a hand (playing "without proposing" is only a
  question before the first exchange; after it no penalty is at stake, RULES.md §3);
- holding the king of trumps the elder may still propose (the dealer cannot draw it);
- which hands are jeux de règle is decided by the classic bot's classifier,
  ``ecarte_tui.bots.treatises.is_jeu_de_regle`` (Foster, 003, Cavendish), imported lazily
  so the server does not load the bots until a table uses the option.

The table calls ``forbidden_by_jeu_de_regle`` before ``Table.submit`` and refuses with the
reason; ``restrict_view`` removes the forbidden proposal from a view's ``legal`` (for the
screen and for bots), and ``obey`` turns a bot's forbidden proposal into "play".
"""

from __future__ import annotations

import dataclasses

from ecarte_tui.engine import PLAY, Action, Kind, Match, Phase, SeatView
from ecarte_tui.engine.cards import KING, SUIT_MASK, SUIT_NAMES, SUIT_SINGULAR, make_card

OPTION = "jeux_de_regle"


def _position(state: SeatView | Match, seat: int) -> tuple[bool, int, int, object] | None:
    """(first decision of the elder?, hand mask, trump, rules), or None if not applicable."""
    if isinstance(state, Match):
        if state.phase is not Phase.DECIDE or seat != state.elder:
            return None
        return state.exchanges == 0, state.hands[seat], state.trump, state.rules
    if state.phase is not Phase.DECIDE or seat != state.elder or state.trump is None:
        return None
    if state.seat != seat:
        raise ValueError("only the elder's own view (or the match) shows the hand to judge")
    return state.exchanges == 0, state.hand_mask, state.trump, state.rules


def forbidden_by_jeu_de_regle(state: SeatView | Match, seat: int, action: Action) -> str | None:
    """Why ``seat`` may not do ``action`` at a jeux-de-règle table, or None if it may."""
    if action.kind is not Kind.PROPOSE:
        return None
    pos = _position(state, seat)
    if pos is None:
        return None  # not the elder's decision: the engine says what is wrong, if anything
    first, hand, trump, rules = pos
    if not first:
        return None
    if hand >> make_card(KING, trump) & 1:
        return None  # "unless the king of trumps is among them" (RULES.md §9)
    from ecarte_tui.bots.treatises import is_jeu_de_regle, trumps_and_kings

    if not is_jeu_de_regle(hand, trump, rules):  # type: ignore[arg-type]
        return None
    trumps = (hand & SUIT_MASK[trump]).bit_count()
    ace_high = bool(getattr(rules, "ace_high", False))
    kings = trumps_and_kings(hand, trump, ace_high).bit_count() - trumps
    parts = [_plural(trumps, SUIT_SINGULAR[trump], SUIT_NAMES[trump])] if trumps else []
    if kings:
        parts.append(_plural(kings, "plain king", "plain kings"))
    held = " and ".join(parts)
    return (
        f"jeux de règle: with {held} this hand is a jeu de règle, which the elder must play "
        "without proposing (it takes 3 tricks unless the dealer holds two trumps)"
    )


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def restrict_view(view: SeatView) -> SeatView:
    """``view`` without the actions the option forbids (the proposal on a jeu de règle)."""
    if view.seat is None or not any(a.kind is Kind.PROPOSE for a in view.legal):
        return view
    legal = tuple(a for a in view.legal if forbidden_by_jeu_de_regle(view, view.seat, a) is None)
    if len(legal) == len(view.legal):
        return view
    return dataclasses.replace(view, legal=legal)


def obey(state: SeatView | Match, seat: int, action: Action) -> Action:
    """The action a bot may submit: a forbidden proposal becomes "play" (the rule's answer)."""
    return PLAY if forbidden_by_jeu_de_regle(state, seat, action) is not None else action
