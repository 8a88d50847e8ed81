"""RULES.md §1: the 32 cards and their rank; the card tokens of ECN.md."""

import pytest
from engine_support import c, card, new_hand, run

from ecarte_tui.engine import Rules, card_label, card_str, parse_card
from ecarte_tui.engine.cards import DECK, SPADES, STRENGTH, cards_of, in_hand_order, sorted_hand

RANKS_LOW_TO_HIGH = "789TAJQK"  # RULES.md §1: K Q J A 10 9 8 7, high to low
ACE_HIGH_LOW_TO_HIGH = "789TJQKA"  # option ace_high (001): A K Q J 10 9 8 7


def test_deck_has_32_distinct_cards_in_four_suits_of_eight():
    """000-004: 32 cards, K Q J A 10 9 8 7 in spades, hearts, diamonds, clubs."""
    tokens = {card_str(x) for x in DECK}
    assert len(DECK) == 32 and len(tokens) == 32
    expected = {r + s for r in "KQJAT987" for s in "SHDC"}
    assert tokens == expected
    assert all(parse_card(card_str(x)) == x for x in DECK)


@pytest.mark.parametrize("suit", "SHDC")
def test_rank_order_in_every_suit(suit):
    """000, 001, 002, 004: K Q J A 10 9 8 7, the ace between the jack and the ten."""
    strength = STRENGTH[False]
    order = sorted((r + suit for r in "KQJAT987"), key=lambda t: strength[c(t)])
    assert "".join(t[0] for t in order) == RANKS_LOW_TO_HIGH


@pytest.mark.parametrize("suit", "SHDC")
def test_ace_high_rank_order(suit):
    """001 (variant): with ace_high the ace ranks above the king: A K Q J 10 9 8 7."""
    strength = STRENGTH[True]
    order = sorted((r + suit for r in "KQJAT987"), key=lambda t: strength[c(t)])
    assert "".join(t[0] for t in order) == ACE_HIGH_LOW_TO_HIGH


def test_rank_order_decides_the_trick():
    """000: K Q J A 10...: a jack led beats an ace played to it; with ace_high the ace wins."""
    for ace_high, winner in ((False, 0), (True, 1)):  # A led JH
        # B deals, A (elder) leads JH; B holds only AH in hearts and must play it.
        m = new_hand(
            Rules.named("classic", ace_high=ace_high),
            a="JH 7C 8C 9C TC", b="AH 7D 8D 9D TD", up="7S",
        )
        run(m, "A play", "A JH", "B AH")
        assert m.tricks_played[-1][3] == winner


def test_ace_high_changes_what_heads_a_trick():
    """001 variant + 000 'must head': with ace_high an ace is higher than a king led."""
    m = new_hand(Rules.named("classic", ace_high=True), a="KH 7C 8C 9C TC",
                 b="AH 7H 8D 9D TD", up="7S")
    run(m, "A play", "A KH")
    assert [str(x) for x in m.legal_actions()] == ["AH"]
    m = new_hand(Rules(), a="KH 7C 8C 9C TC", b="AH 7H 8D 9D TD", up="7S")
    run(m, "A play", "A KH")
    assert sorted(str(x) for x in m.legal_actions()) == ["7H", "AH"]


@pytest.mark.parametrize(
    "token, canonical",
    [("KS", "KS"), ("ks", "KS"), ("10H", "TH"), ("10h", "TH"), ("th", "TH"), ("K♠", "KS"),
     ("q♥", "QH"), ("10♦", "TD"), ("7♣", "7C"), ("aD", "AD")],
)
def test_card_tokens_accepted_and_written_canonical(token, canonical):
    """ECN.md Cards: 10 for T, suit symbols, either case; written back canonical."""
    assert card_str(parse_card(token)) == canonical


@pytest.mark.parametrize("token", ["", "K", "1S", "11H", "KX", "ZS", "KSS", "10", "♠K"])
def test_bad_card_tokens_refused(token):
    """ECN.md Cards: only K Q J A T 9 8 7 (or 10) followed by S H D C or a suit symbol."""
    with pytest.raises(ValueError):
        parse_card(token)


def test_card_label_for_players():
    """ECN.md: TH is what the record writes; a player reads 10♥ (or 10H without Unicode)."""
    assert card_label(c("TH")) == "10♥"
    assert card_label(c("TH"), ascii_only=True) == "10H"
    assert card_label(c("KS")) == "K♠"
    assert card(" KS ".strip()).label() == "K♠"


def test_cards_named_from_a_mask_follow_the_hands_order():
    hand = sorted_hand([parse_card(c) for c in ("7S", "TD", "JC", "9C", "8C")], trump=SPADES)
    mask = sum(1 << parse_card(c) for c in ("8C", "JC", "TD", "9C"))
    assert [card_label(c) for c in in_hand_order(mask, hand)] == ["10♦", "J♣", "9♣", "8♣"]
    assert in_hand_order(mask | 1 << parse_card("KH"), ()) == cards_of(
        mask | 1 << parse_card("KH")), "without a hand: by card, as before"
