"""RULES.md §4: announcing the king of trumps."""

import pytest
from engine_support import c, card, mask, new_hand, run, snapshot

from ecarte_tui.engine import KING, PLAY, PRESETS, A, B, IllegalAction, Phase, Rules

# spades are trumps (7S turned up); A holds KS
A_KING = "KS 7H 8H 9H TH"
B_PLAIN = "QH 7D 8D 9D TD"
DEADLINE = {"classic": "own_first_card", "academie": "own_first_card",
            "britannica": "own_first_card", "regles": "opening_lead", "nl": "opening_lead"}


def hand(rules=None, a=A_KING, b=B_PLAIN, up="7S", dealer=B, stock_top=""):
    return new_hand(rules, a=a, b=b, up=up, dealer=dealer, stock_top=stock_top)


def test_holder_announces_and_scores_one_at_once():
    """000 ('scores 1 point ... immediately, without having to show his king'), 001."""
    m = hand()
    run(m, "A play")
    assert KING in m.legal_actions()
    run(m, "A king")
    assert m.scores == [1, 0] and m.hand.king == A and m.hand.points == [1, 0]
    assert m.phase is Phase.TRICKS and m.to_move == A  # still A's lead
    assert m.hands[A] >> c("KS") & 1  # not shown, still held


def test_king_is_announced_once():
    """§4: announce once; a second announcement is refused and not scored."""
    m = hand()
    run(m, "A play", "A king")
    assert KING not in m.legal_actions()
    with pytest.raises(IllegalAction, match="already been announced"):
        run(m, "A king")
    assert m.scores == [1, 0]


def test_only_the_holder_may_announce_with_a_clear_error():
    """§4 / ECN.md: 'A cannot announce the king: A does not hold KS (spades are trumps)'."""
    m = hand(a=B_PLAIN.replace("QH", "QC"), b=A_KING.replace("KS", "KC"), up="7S")
    run(m, "A play")
    before = snapshot(m)
    with pytest.raises(IllegalAction) as e:
        run(m, "A king")
    assert str(e.value) == "A cannot announce the king: A does not hold KS (spades are trumps)"
    assert e.value.personal() == (
        "You cannot announce the king: you do not hold KS (spades are trumps)"
    )
    with pytest.raises(IllegalAction, match="B does not hold KS"):
        run(m, "B king")
    assert snapshot(m) == before and m.scores == [0, 0]
    assert KING not in m.legal_actions(A) and KING not in m.legal_actions(B)


def test_king_names_the_trump_suit_of_the_hand():
    """§2, §4: the king of trumps is the king of the turn-up's suit (hearts here)."""
    m = hand(a="KS 7C 8C 9C TC", b=B_PLAIN.replace("QH", "QC"), up="7H")
    run(m, "A play")
    with pytest.raises(IllegalAction, match=r"does not hold KH \(hearts are trumps\)"):
        run(m, "A king")


@pytest.mark.parametrize(
    "lines",
    [(), ("A propose",), ("A propose", "B accept"), ("A propose", "B accept", "A discard 7H")],
)
def test_not_before_the_play_has_begun(lines):
    """§4: the announcement is made once the play has begun (after play, refuse, or the
    exchange that empties the stock), never while the exchanges go on."""
    m = hand()
    run(m, *lines)
    assert KING not in m.legal_actions(A) and KING not in m.legal_actions(B)
    with pytest.raises(IllegalAction, match="before the play has begun"):
        run(m, "A king")


def test_after_a_refusal():
    """§4: 'after refuse' the play has begun."""
    m = hand()
    run(m, "A propose", "B refuse", "A king")
    assert m.scores == [1, 0]


def test_after_the_exchange_that_empties_the_stock():
    """§4: the exchange that empties the stock begins the play; a king drawn may be announced."""
    m = hand(a=B_PLAIN.replace("QH", "QC"), b=A_KING.replace("KS", "KC"), up="7S",
             stock_top="KS")
    run(m, "A propose", "B accept", "A discard 7D")  # A draws KS from the top of the stock
    assert m.hands[A] >> c("KS") & 1
    while m.phase is not Phase.TRICKS:
        if m.phase is Phase.DECIDE:
            run(m, "A propose", "B accept")
        # the largest discard that keeps the king
        m.apply(max((x for x in m.legal_actions() if not x.cards >> c("KS") & 1),
                    key=lambda x: x.cards.bit_count()))
    assert m.stock_size == 0
    run(m, "A king")
    assert m.scores == [1, 0]


def test_a_discarded_king_cannot_be_announced():
    """§3.5 + §4: a king discarded is gone; its former holder cannot announce it."""
    m = hand()
    run(m, "A propose", "B accept", "A discard KS", "B discard 7D", "A play")
    with pytest.raises(IllegalAction, match="A does not hold KS"):
        run(m, "A king")


def test_turn_up_king_cannot_be_announced_by_anyone():
    """001: the turn-up never enters a hand, so a turned-up king is nobody's to announce."""
    m = hand(a="QS 7H 8H 9H TH", up="KS")
    run(m, "A play")
    assert m.scores == [0, 1]  # the dealer's turn-up point only
    for seat in (A, B):
        assert KING not in m.legal_actions(seat)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_king_deadline_of_each_preset(preset):
    """§4 king_deadline: own_first_card for classic (001), academie (000), britannica (003);
    opening_lead for regles (002) and nl (004)."""
    assert Rules.named(preset).king_deadline == DEADLINE[preset]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_non_mover_may_announce_before_the_opening_lead(preset):
    """000, 002, 004: the dealer holding the king announces while the elder is to lead, through
    legal_actions(seat)/apply(action, seat)."""
    m = hand(Rules.named(preset), a=B_PLAIN.replace("QH", "QC"), b=A_KING, up="7S")
    run(m, "A play")
    assert m.to_move == A
    assert list(m.legal_actions(B)) == [KING]
    m.apply(KING, B)
    assert m.scores == [0, 1] and m.hand.king == B and m.to_move == A


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_dealer_after_the_elder_led(preset):
    """own_first_card (000, 001): the dealer may still announce after the elder led, before his
    own first card; opening_lead (002 'avant que le premier joueur entame le premier pli',
    004 'vóór het uitkomen op de eerste slag'): nobody may after the elder led."""
    m = hand(Rules.named(preset), a=B_PLAIN.replace("QH", "QC"), b=A_KING, up="7S")
    run(m, "A play", "A 7D")
    allowed = DEADLINE[preset] == "own_first_card"
    assert (KING in m.legal_actions(B)) is allowed
    if allowed:
        run(m, "B king")
        assert m.scores == [0, 1]
    else:
        before = snapshot(m)
        with pytest.raises(IllegalAction, match="too late: the elder has led"):
            run(m, "B king")
        assert snapshot(m) == before


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_elder_cannot_announce_after_leading(preset):
    """000 ('before playing one's first card'), 001, 002, 004: once the elder has led he may not
    announce (under both deadlines)."""
    m = hand(Rules.named(preset), a=A_KING, b=B_PLAIN, up="7S")
    run(m, "A play", "A 7H")
    assert KING not in m.legal_actions(A)
    with pytest.raises(IllegalAction, match="too late"):
        m.apply(KING, A)
    assert m.scores == [0, 0]


def test_dealer_too_late_after_his_own_first_card():
    """000, 001 own_first_card: after the dealer's first card, the dealer may not announce."""
    m = hand(Rules.named("classic"), a="QC 7H 8D 9D TD", b="KS 8H 7C 8C 9C", up="7S")
    run(m, "A play", "A 7H", "B 8H")  # B wins the trick and leads next
    assert m.to_move == B
    assert KING not in m.legal_actions(B)
    with pytest.raises(IllegalAction, match="B announced the king too late: B has already"):
        run(m, "B king")


def test_not_announcing_loses_the_point():
    """001 ('if you forget, the point is lost'): a hand played out without the announcement
    scores only the tricks."""
    m = hand()
    run(m, "A play")
    while m.to_move is not None:  # each plays his lowest legal card, and never announces
        m.apply(next(x for x in m.legal_actions() if x != KING))
    # B throws QH on KS, and then has no heart and no trump: A takes all five
    assert m.hand.king is None and m.hand.tricks == [5, 0]
    assert m.hand.points == m.scores == [2, 0]  # the vole only: no point for the king


@pytest.mark.parametrize("dealer", [A, B])
def test_king_reaching_the_target_ends_the_game_at_once(dealer):
    """000 ('the round stops at once'), 001: the king's point reaching the target wins the game;
    the hand is not played (not complete)."""
    elder = 1 - dealer
    hands = {elder: A_KING, dealer: B_PLAIN}
    m = hand(Rules.named("classic", target=1), a=hands[A], b=hands[B], dealer=dealer)
    m.apply(PLAY)
    m.apply(KING, elder)
    assert m.is_over and m.match_winner == elder and m.games[0].winner == elder
    assert m.hand.over and not m.hand.complete and m.hand.tricks == [0, 0]
    assert m.to_move is None
    assert list(m.legal_actions(A)) == [] and list(m.legal_actions(B)) == []
    with pytest.raises(IllegalAction, match="the match is over"):
        m.apply(card("7H"), elder)


def test_dealer_king_after_lead_reaching_target_ends_mid_trick():
    """000, 001: the dealer on target-1 announces after the elder's lead; the game stops with
    one card on the table."""
    m = hand(Rules.named("academie", target=1), a="QC 7C 8D 9D TD", b=A_KING, up="7S")
    run(m, "A play", "A 8D", "B king")
    assert m.is_over and m.match_winner == B and not m.hand.complete
    assert m.hands[B] == mask(A_KING)
