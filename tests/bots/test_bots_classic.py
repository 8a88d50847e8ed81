"""The classic bot gives the treatises' answers on hands taken from the sources."""

from __future__ import annotations

from bots_support import c, hand_from, mask

from ecarte_tui.bots.classic import ClassicBot
from ecarte_tui.bots.treatises import dealer_refuses, is_jeu_de_regle, treatise_discard
from ecarte_tui.engine import ACCEPT, KING, PLAY, PROPOSE, REFUSE, Kind, Rules, seat_view

HEARTS = c("8H") >> 3
OTHER_DEALER = None  # the dealer's cards do not matter to these decisions: small filler


def test_jeux_de_regle_from_the_sources() -> None:
    # Cavendish (Hoyle's Games Modernized): "A holds queen, ace, and seven of hearts
    # (trumps), king of spades, king of diamonds, and, of course, plays without proposing"
    assert is_jeu_de_regle(mask("QH AH 7H KS KD"), HEARTS)
    # any hand with three trumps
    assert is_jeu_de_regle(mask("7H 8H 9H 8S 8C"), HEARTS)
    # 001: "Two trumps and a King usually make a hand worth playing"
    assert is_jeu_de_regle(mask("7H 8H KS 9D 8C"), HEARTS)
    # 003: two trumps and three cards of one plain suit
    assert is_jeu_de_regle(mask("7H 8H 9S 8S 7S"), HEARTS)
    # 003: one trump and a tierce major; one trump and four cards of a plain suit
    assert is_jeu_de_regle(mask("7H KS QS JS 8D"), HEARTS)
    assert is_jeu_de_regle(mask("7H 9S 8S 7S TS"), HEARTS)
    # 004: "a hand with 10-9-8 in one suit is almost always a losing hand"
    assert not is_jeu_de_regle(mask("TS 9S 8S 7D 8C"), HEARTS)
    assert not is_jeu_de_regle(mask("7H 9S 8D TC JC"), HEARTS)
    # ace high: the ace is the "king" of each suit
    ace_high = Rules.named("classic", ace_high=True)
    assert is_jeu_de_regle(mask("7H 8H AS 9D 8C"), HEARTS, ace_high)
    assert not is_jeu_de_regle(mask("7H 8H KS 9D 8C"), HEARTS, ace_high)


def test_elder_plays_a_jeu_de_regle_without_proposing() -> None:
    m = hand_from("QH AH 7H KS KD", OTHER_DEALER, "8H")
    assert ClassicBot().choose(seat_view(m, 0)) is PLAY
    weak = hand_from("7H 9S 8D TC JC", OTHER_DEALER, "8H")
    assert ClassicBot().choose(seat_view(weak, 0)) is PROPOSE


def test_elder_proposes_a_jeu_de_regle_with_the_king_of_trumps() -> None:
    # Foster: "such hands should always be played without proposing, unless they contain
    # the King of trumps"; 003: "If you hold a jeu de règle, and one of the trumps is the
    # king, propose, as your adversary cannot then take in the king."
    m = hand_from("KH 7H 8H 9S 9C", OTHER_DEALER, "TH")
    assert is_jeu_de_regle(mask("KH 7H 8H 9S 9C"), HEARTS)
    assert ClassicBot().choose(seat_view(m, 0)) is PROPOSE


def test_elder_at_risk_of_losing_the_game_needs_a_very_strong_hand() -> None:
    # Cavendish: "If the adversary be at the score of three, it is dangerous to play
    # without proposing, unless the hand be very strong."
    m = hand_from("7H 8H KS 9D 8C", OTHER_DEALER, "9H")
    assert ClassicBot().choose(seat_view(m, 0)) is PLAY
    m.games[-1].score = [0, 3]
    assert ClassicBot().choose(seat_view(m, 0)) is PROPOSE


def test_dealer_accepts_unless_guarded() -> None:
    # 003: "accept, unless you are guarded in three suits (a queen being a sufficient
    # guard), or in two suits with a trump, or in one suit with two trumps"
    assert dealer_refuses(mask("QS KD QC 7S 8D"), HEARTS, False)
    assert dealer_refuses(mask("KS QD 7H 8C 9C"), HEARTS, False)
    assert dealer_refuses(mask("KS 7H 8H 9D 8C"), HEARTS, False)
    assert not dealer_refuses(mask("9S 8D 7C TC 7H"), HEARTS, False)
    assert not dealer_refuses(mask("KS 8D 7C TC 7H"), HEARTS, False)
    strong = hand_from("7S 8S 9S 7C 8C", "QS KD QC TS 9D", "8H")
    strong.apply(PROPOSE)
    assert ClassicBot().choose(seat_view(strong, 1)) is REFUSE
    weak = hand_from("7S 8S 7D 7C 8C", "9S 8D TC 9C 7H", "8H")
    weak.apply(PROPOSE)
    assert ClassicBot().choose(seat_view(weak, 1)) is ACCEPT


def test_discards_all_but_trumps_and_kings() -> None:
    # 003: "When discarding, throw out all cards except trumps and kings."
    assert treatise_discard(mask("7H KS 9S JD 8C"), HEARTS, False, 1, 5) == mask("9S JD 8C")
    m = hand_from("7H KS 9S JD 8C", OTHER_DEALER, "8H")
    m.apply(PROPOSE)
    m.apply(ACCEPT)
    action = ClassicBot().choose(seat_view(m, 0))
    assert action is not None and action.kind is Kind.DISCARD
    assert action.cards == mask("9S JD 8C")
    # a dealer who must change a card keeps his king of trumps
    assert treatise_discard(mask("KH QH KS KD KC"), HEARTS, False, 1, 5) & mask("KH") == 0


def test_leads() -> None:
    bot = ClassicBot()
    # with the king of trumps: announce it, then lead trumps
    m = hand_from("KH 7H 9S 8D 8C", OTHER_DEALER, "8H")
    m.apply(PLAY)
    assert bot.choose(seat_view(m, 0)) is KING
    m.apply(KING)
    assert bot.choose(seat_view(m, 0)) == _card("KH")
    # Cavendish: "two trumps and three cards of another suit, lead off with the best card
    # of the other suit, holding the trumps in reserve"
    m = hand_from("7H 9H QS 9S 7S", OTHER_DEALER, "8H")
    m.apply(PLAY)
    assert bot.choose(seat_view(m, 0)) == _card("QS")
    # queen-knave of trumps: lead trumps
    m = hand_from("QH JH 9S 8D 7C", OTHER_DEALER, "8H")
    m.apply(PLAY)
    assert bot.choose(seat_view(m, 0)) == _card("QH")


def test_follows_cheaply_and_always_announces() -> None:
    m = hand_from("7S 8D 9D TD AC", "QS KS 7H 8H 9C", "TH")
    m.apply(PLAY)
    m.apply(_card("7S"))
    # B must head: K or Q of spades; the cheaper queen is enough
    assert ClassicBot().choose(seat_view(m, 1)) == _card("QS")


def _card(token: str):  # noqa: ANN202
    from ecarte_tui.engine import play_card

    return play_card(c(token))
