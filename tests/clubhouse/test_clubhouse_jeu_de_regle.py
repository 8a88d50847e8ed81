"""Jeux de règle (004, RULES.md §9): no proposal on a jeu de règle, unless holding the king."""

from __future__ import annotations

import pytest
from clubhouse_support import deal

from ecarte_tui.bots.treatises import is_jeu_de_regle
from ecarte_tui.engine import (
    ACCEPT,
    KING,
    PLAY,
    PROPOSE,
    Match,
    Rules,
    discard,
    mask_of,
    parse_card,
    seat_view,
)
from net.club.clubhouse.jeu_de_regle import forbidden_by_jeu_de_regle, obey, restrict_view

A, B = 0, 1

# RULES.md §9: "a hand that takes 3 tricks unless the dealer holds two trumps" (Foster);
# the treatises' patterns (003, Cavendish) as the classic bot lists them. Spades are trumps.
JEUX = {
    "three trumps": "QS JS 7S 8H 9D",
    "three kings": "KH KD KC 7H 8D",
    "two trumps and a king": "QS 7S KH 8D 9C",
    "two trumps and three of a plain suit": "JS 8S 7H 8H 9H",
    "one trump and a tierce major": "8S KH QH JH 7D",
    "one trump and four of a plain suit": "9S 7D 8D 9D TD",
    "one trump and two queens": "9S QH 7H QD 8C",
}
NOT_JEUX = {
    "no trump": "QH JH QD 8D 7C",
    "one trump, weak": "7S 8H 9H 7D 8C",
    "two trumps, nothing else": "AS 7S 8H 9D 7C",
}


def elder_to_decide(hand: str, rules: Rules | None = None) -> Match:
    """A (the elder, B deals) holds ``hand``; spades are trumps (a low spade turned up)."""
    m = Match(rules or Rules())
    up = "9S" if "9S" not in hand.split() else "TS" if "TS" not in hand.split() else "8S"
    others = [t for t in "7C 8C 9C TC AC JC QC KC 7D 8D".split() if t not in hand.split()]
    deal(m, hand, " ".join(others[:5]), up=up, dealer=B)
    return m


@pytest.mark.parametrize("name", list(JEUX))
def test_a_jeu_de_regle_may_not_be_proposed(name):
    m = elder_to_decide(JEUX[name])
    assert is_jeu_de_regle(m.hands[A], m.trump, m.rules)  # the classic bot agrees
    why = forbidden_by_jeu_de_regle(m, A, PROPOSE)
    assert why is not None and "jeu de règle" in why and "without proposing" in why
    assert forbidden_by_jeu_de_regle(m, A, PLAY) is None
    # the same answer from the elder's own view
    assert forbidden_by_jeu_de_regle(seat_view(m, A), A, PROPOSE) == why


def test_the_reason_names_what_makes_the_hand():
    why = forbidden_by_jeu_de_regle(elder_to_decide(JEUX["three trumps"]), A, PROPOSE)
    assert "with 3 spades this hand" in why
    why = forbidden_by_jeu_de_regle(elder_to_decide(JEUX["two trumps and a king"]), A, PROPOSE)
    assert "with 2 spades and 1 plain king" in why
    why = forbidden_by_jeu_de_regle(elder_to_decide(JEUX["three kings"]), A, PROPOSE)
    assert "with 3 plain kings this hand" in why


@pytest.mark.parametrize("name", list(NOT_JEUX))
def test_other_hands_may_propose(name):
    m = elder_to_decide(NOT_JEUX[name])
    assert not is_jeu_de_regle(m.hands[A], m.trump, m.rules)
    assert forbidden_by_jeu_de_regle(m, A, PROPOSE) is None


def test_holding_the_king_of_trumps_the_elder_may_propose():
    # RULES.md §9: "play such hands without proposing, unless the king of trumps is among them"
    m = elder_to_decide("KS QS JS 8H 9D")
    assert is_jeu_de_regle(m.hands[A], m.trump, m.rules)
    assert forbidden_by_jeu_de_regle(m, A, PROPOSE) is None


def test_only_the_elders_first_decision_is_bound():
    m = elder_to_decide("7S 8H 9H 7D 8C")
    m.apply(PROPOSE, A)
    assert forbidden_by_jeu_de_regle(m, B, ACCEPT) is None  # the dealer is never bound
    m.apply(ACCEPT, B)
    m.apply(discard(mask_of([parse_card(t) for t in "8H 9H 7D 8C".split()])), A)
    m.apply(m.legal_actions(B)[0], B)
    # after an exchange there is no penalty at stake: proposing again is free (RULES.md §3)
    assert forbidden_by_jeu_de_regle(m, A, PROPOSE) is None


def test_a_watchers_view_cannot_judge_the_elders_hand():
    m = elder_to_decide(JEUX["three trumps"])
    with pytest.raises(ValueError, match="elder's own view"):
        forbidden_by_jeu_de_regle(seat_view(m, None), A, PROPOSE)


def test_restrict_view_and_obey_for_screens_and_bots():
    m = elder_to_decide(JEUX["three trumps"])
    view = seat_view(m, A)
    assert view.legal == (PLAY, PROPOSE)
    assert restrict_view(view).legal == (PLAY,)
    assert obey(view, A, PROPOSE) is PLAY and obey(view, A, PLAY) is PLAY
    free = seat_view(elder_to_decide(NOT_JEUX["one trump, weak"]), A)
    assert restrict_view(free) is free
    dealer_view = seat_view(m, B)
    assert restrict_view(dealer_view) is dealer_view


def test_ace_high_tables_use_the_ace_as_the_master_card():
    # with ace_high the ace is the "king" of a plain suit (treatises.py): 2 trumps + AH
    rules = Rules.named("classic", ace_high=True)
    m = elder_to_decide("QS 7S AH 8D 9C", rules)
    assert forbidden_by_jeu_de_regle(m, A, PROPOSE) is not None
    assert KING not in m.legal_actions(A)
