"""RULES.md §5: leading, following, heading, trumping, and who wins the trick."""

import pytest
from engine_support import c, new_hand, run, snapshot

from ecarte_tui.engine import KING, A, B, IllegalAction, Kind, Phase


def legal_cards(m, seat=None):
    return sorted(str(a) for a in m.legal_actions(seat) if a.kind is Kind.CARD)


def follower(b, a="QS 7C 8C 9C TC", up="9H", lead="QS"):
    """A (elder) plays and leads ``lead``; B, holding ``b``, is to follow."""
    m = new_hand(a=a, b=b, up=up)
    run(m, "A play", f"A {lead}")
    assert m.to_move == B
    return m


def test_001_example_must_head_with_the_king():
    """001: hearts are trump; the elder leads Q♠; holding J♠ and K♠ the follower must play K♠."""
    m = follower("JS KS 7D 8D 9D")
    assert legal_cards(m) == ["KS"]
    before = snapshot(m)
    with pytest.raises(IllegalAction) as e:
        run(m, "B JS")
    # ECN.md's own example of the error
    assert str(e.value) == "B must head the trick: QS is led and B holds KS"
    assert e.value.personal() == "You must head the trick: QS is led and you hold KS"
    assert snapshot(m) == before
    run(m, "B KS")
    assert m.tricks_played[-1] == (A, c("QS"), c("KS"), B)


def test_001_example_must_trump_with_the_seven():
    """001: with no spade but 7♥ (hearts trump) he must trump with 7♥."""
    m = follower("7H 7D 8D 9D TD")
    assert legal_cards(m) == ["7H"]
    with pytest.raises(IllegalAction, match=r"B must trump: QS is led, B has no spade and holds"
                                            r" 7H \(hearts are trumps\)"):
        run(m, "B 7D")
    run(m, "B 7H")
    assert m.tricks_played[-1][3] == B  # 'which wins the trick' (001)


def test_must_follow_suit_when_unable_to_head():
    """000 ('not allowed to renounce'), 001-004: with only lower spades, any spade, but a spade."""
    m = follower("7S 8S 7H 8D 9D")
    assert legal_cards(m) == ["7S", "8S"]
    with pytest.raises(IllegalAction, match="B must follow suit: QS is led and B holds 7S"):
        run(m, "B 7H")  # not even a trump may be played while holding the suit led
    run(m, "B 8S")
    assert m.tricks_played[-1][3] == A


def test_must_head_with_any_higher_card_not_only_the_lowest():
    """000 ('must always head the trick by playing a higher card of the suit led'): any higher
    card heads; lower cards of the suit are then refused."""
    m = follower("7S KS 7D 8D 9D", a="JS 7C 8C 9C TC", lead="JS")
    assert legal_cards(m) == ["KS"]
    m = follower("QS KS 7S 8D 9D", a="JS 7C 8C 9C TC", lead="JS")
    assert legal_cards(m) == ["KS", "QS"]


def test_must_head_in_trumps_too():
    """002 ('obligatoire de monter ... à l'atout comme aux autres couleurs'): trump led."""
    m = follower("8H QH 7D 8D 9D", a="9H 7C 8C 9C TC", lead="9H", up="AH")
    assert legal_cards(m) == ["QH"]


def test_ace_below_jack_when_heading():
    """000: K Q J A 10: an ace does not head a jack; a ten is headed by an ace."""
    m = follower("AS 7D 8D 9D TD", a="JS 7C 8C 9C TC", lead="JS")
    assert legal_cards(m) == ["AS"]  # must follow, cannot head
    run(m, "B AS")
    assert m.tricks_played[-1][3] == A
    m = follower("AS 7S 8D 9D TD", a="TS 7C 8C 9C TC", lead="TS")
    assert legal_cards(m) == ["AS"]


def test_with_neither_suit_nor_trump_any_card():
    """000 ('he plays the card that best suits his hand'), 001: any card; the leader wins."""
    m = follower("7D 8D 9D TD AC", a="QS 7C 8C 9C TC")
    assert legal_cards(m) == ["7D", "8D", "9D", "AC", "TD"]
    run(m, "B AC")
    assert m.tricks_played[-1][3] == A


def test_any_trump_when_void():
    """000, 001, 002, 004: without the suit led, any trump (no need to be the highest)."""
    m = follower("7H KH 8D 9D TD")
    assert legal_cards(m) == ["7H", "KH"]


def test_leader_plays_any_card():
    """001: the player who leads may play any card."""
    m = new_hand(a="QS 7C 8C 9C TC", b="JS KS 7D 8D 9D", up="7H")
    run(m, "A play")
    assert legal_cards(m) == sorted(["QS", "7C", "8C", "9C", "TC"])


def test_elder_leads_and_trick_winner_leads_next():
    """000, 001, 003: the elder leads to the first trick, the winner of a trick to the next."""
    m = new_hand(a="QS 7C 8C 9C TC", b="JS KS 7D 8D 9D", up="7H", dealer=B)
    run(m, "A play")
    assert m.to_move == A
    run(m, "A QS", "B KS")
    assert m.to_move == B and m.leader == B
    run(m, "B 7D", "A 7C")  # A has no diamond, no trump: any card; B wins
    assert m.to_move == B
    run(m, "B JS")  # A has no spade now
    assert legal_cards(m) == ["8C", "9C", "TC"]
    run(m, "A 8C")
    assert m.to_move == B and m.tricks_won() == [0, 3]


def test_trump_beats_every_other_card_even_a_king():
    """§5: a trump beats every card of another suit."""
    m = new_hand(a="KS 7C 8C 9C TC", b="7H 8D 9D TD AD", up="8H")
    run(m, "A play", "A KS", "B 7H")
    assert m.tricks_played[-1] == (A, c("KS"), c("7H"), B)


def test_higher_trump_wins_a_trump_trick():
    """§5: otherwise the higher card of the suit led wins (trumps led)."""
    m = new_hand(a="TH 7C 8C 9C TC", b="7H 8D 9D TD AD", up="8H")
    run(m, "A play", "A TH", "B 7H")
    assert m.tricks_played[-1][3] == A


def test_all_five_tricks_are_always_played():
    """004 ('Elke beurt speelt alle 5 slagen uit'): after three tricks the hand goes on."""
    m = new_hand(a="KH QH JH AH TH", b="7S 8S 9S TS 7D", up="7H")
    run(m, "A play", "A KH", "B 7S", "A QH", "B 8S", "A JH", "B 9S")
    assert m.tricks_won() == [3, 0] and m.phase is Phase.TRICKS and m.to_move == A
    assert m.scores == [0, 0]
    run(m, "A AH", "B TS", "A TH", "B 7D")
    assert m.hand.complete and m.tricks_won() == [5, 0]
    assert m.hand.points == [2, 0]  # the vole needs all five (and A, at risk, won)


def test_no_words_during_the_play():
    """§3, §5: once the play has begun, only cards (and the king) can be played."""
    m = new_hand(a="KH QH JH AH TH", b="7S 8S 9S TS 7D", up="7H")
    run(m, "A play")
    for word in ("play", "propose", "accept", "refuse", "discard 7S"):
        seat = "B" if word in ("accept", "refuse") else "A"
        with pytest.raises(IllegalAction):
            run(m, f"{seat} {word}")
    with pytest.raises(IllegalAction, match="it is A's turn, not B's"):
        run(m, "B 7S")
    with pytest.raises(IllegalAction, match="A does not hold 7S"):
        run(m, "A 7S")
    assert KING in m.legal_actions(A)  # A holds KH, the king of trumps, and may announce
    assert KING not in m.legal_actions(B)
