"""Illegal actions: IllegalAction (a ValueError) naming the rule and the card; nothing changes."""

import pytest
from engine_support import card, mask, new_hand, play_deal, run, snapshot

from ecarte_tui.engine import (
    ACCEPT,
    KING,
    PLAY,
    PROPOSE,
    REFUSE,
    A,
    B,
    IllegalAction,
    Match,
    Phase,
    Rules,
    discard,
)

HAND_A = "QS 7C 8C 9C KH"
HAND_B = "JS KS 7D 8D 9D"  # hearts are trumps (9H turned up): A holds KH


def at(*lines, rules=None):
    m = new_hand(rules, a=HAND_A, b=HAND_B, up="9H")
    run(m, *lines)
    return m


CASES = [
    # (lines before, seat, action, expected reason)
    ((), B, PLAY, "it is A's turn, not B's"),
    ((), A, ACCEPT, "A cannot accept now: the elder must play or propose"),
    ((), A, REFUSE, "A cannot refuse now: the elder must play or propose"),
    ((), A, discard(mask("QS")), "A cannot discard now: the elder must play or propose"),
    ((), A, card("QS"), "A cannot play a card now: the elder must play or propose"),
    ((), A, KING, "A cannot announce the king before the play has begun"),
    (("A propose",), A, PLAY, "it is B's turn, not A's"),
    (("A propose",), B, PROPOSE, "B cannot propose now: the dealer must accept or refuse"),
    (("A propose",), B, card("KS"), "B cannot play a card now: the dealer must accept or"),
    (("A propose", "B accept"), A, discard(0), "A must discard at least one card"),
    (("A propose", "B accept"), A, discard(mask("QS KS")), "A does not hold KS"),
    (("A propose", "B accept"), A, PLAY, "A cannot play now: the elder must discard"),
    (("A propose", "B accept"), B, discard(mask("KS")), "it is A's turn, not B's"),
    (("A propose", "B accept", "A discard QS"), B, discard(0),
     "the dealer must change at least one card under these rules (classic: "
     "dealer_min_discard 1)"),
    (("A propose", "B accept", "A discard QS"), B, discard(mask("QS")), "B does not hold QS"),
    (("A propose", "B accept", "A discard QS"), B, REFUSE,
     "B cannot refuse now: the dealer must discard"),
    (("A play",), A, card("JS"), "A does not hold JS"),
    (("A play",), B, card("JS"), "it is A's turn, not B's"),
    (("A play",), A, PROPOSE, "A cannot propose: the play has begun"),
    (("A play",), B, KING, "B cannot announce the king: B does not hold KH (hearts are trumps)"),
    (("A play", "A QS"), B, card("JS"), "B must head the trick: QS is led and B holds KS"),
    (("A play", "A QS"), B, card("7D"), "B must head the trick: QS is led and B holds KS"),
    (("A play", "A QS", "B KS", "B 7D"), A, card("QS"), "A does not hold QS"),
    (("A play", "A QS", "B KS", "B 7D"), A, card("7C"),
     "A must trump: 7D is led, A has no diamond and holds KH (hearts are trumps)"),
    (("A play", "A QS", "B KS", "B 7D"), B, card("8D"), "it is A's turn, not B's"),
    (("A play", "A king"), A, KING, "the king has already been announced"),
    (("A play", "A 7C"), A, KING, "A announced the king too late: A has already played a card"),
]


@pytest.mark.parametrize("before, seat, action, reason", CASES)
def test_illegal_action_reason_and_state_unchanged(before, seat, action, reason):
    """ECN.md Errors / RULES.md: an illegal action is refused with a reason a player
    understands, naming the rule and the card, and the state is exactly as it was."""
    m = at(*before)
    snap = snapshot(m)
    assert action not in m.legal_actions(seat)
    assert not m.is_legal(action, seat)
    with pytest.raises(IllegalAction) as e:
        m.apply(action, seat)
    assert isinstance(e.value, ValueError)
    assert reason in str(e.value)
    assert snapshot(m) == snap
    assert e.value.seat == seat


def test_personal_form_speaks_to_the_player():
    """DESIGN.md: the same error reads in the second person on the player's own screen."""
    m = at("A play", "A QS", "B KS", "B 7D")
    with pytest.raises(IllegalAction) as e:
        run(m, "A 7C")
    assert e.value.personal() == (
        "You must trump: 7D is led, you have no diamond and hold KH (hearts are trumps)"
    )
    assert e.value.personal(label=lambda x: "[card]") == (
        "You must trump: [card] is led, you have no diamond and hold [card] (hearts are trumps)"
    )


def test_nothing_is_legal_between_hands_and_after_the_match():
    """§7: after a hand nothing can be played until the next deal; after the match, nothing."""
    m = Match(Rules.named("classic", target=1, games_to_win=2))
    play_deal(m, B, "E", False, "play")
    assert m.phase is Phase.DEAL and m.to_move is None
    snap = snapshot(m)
    for seat in (A, B):
        assert list(m.legal_actions(seat)) == []
        assert not m.is_legal(PLAY, seat)
        with pytest.raises(IllegalAction, match="the next hand must be dealt first"):
            m.apply(PLAY, seat)
    assert list(m.legal_actions()) == []
    assert not m.is_legal(PLAY)  # nobody is to move
    with pytest.raises(IllegalAction, match="the next hand must be dealt first"):
        m.apply(PLAY)
    assert snapshot(m) == snap
    play_deal(m, A, "D", False, "play")
    assert m.is_over
    snap = snapshot(m)
    assert not m.is_legal(KING)
    with pytest.raises(IllegalAction, match="the match is over: A won it, 2 games to 0"):
        m.apply(card("7H"))
    assert snapshot(m) == snap
