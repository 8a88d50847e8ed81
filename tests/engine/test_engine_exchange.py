"""RULES.md §3: proposals, acceptance, refusal, the exchanges, the stock and the first proposal."""

import pytest
from engine_support import card, mask, new_hand, run, snapshot

from ecarte_tui.engine import (
    ACCEPT,
    PLAY,
    PRESETS,
    PROPOSE,
    REFUSE,
    A,
    B,
    IllegalAction,
    Kind,
    Phase,
    Rules,
    discard,
)

HAND_A = "7S 8S 9S TS AS"
HAND_B = "7H 8H 9H TH AH"
STOCK_TOP = "KS QS JS KH QH JH KD QD JD AD TD 9D"


def fresh(rules=None, **kw):
    return new_hand(rules, a=HAND_A, b=HAND_B, up="7C", stock_top=STOCK_TOP, **kw)


def test_elder_plays_or_proposes_first():
    """000-004 §3.1: the elder (non-dealer) speaks first: play or propose; nothing else."""
    m = fresh()
    assert m.phase is Phase.DECIDE and m.to_move == A
    assert set(m.legal_actions()) == {PLAY, PROPOSE}
    assert list(m.legal_actions(B)) == []
    with pytest.raises(IllegalAction, match="it is A's turn, not B's"):
        m.apply(PROPOSE, B)


def test_play_starts_the_play_at_once_elder_leads():
    """000 'We play!': no exchange; §5: the elder leads to the first trick."""
    m = fresh()
    run(m, "A play")
    assert m.phase is Phase.TRICKS and m.to_move == A and m.stock_size == 21
    assert {a.kind for a in m.legal_actions()} == {Kind.CARD}


def test_proposal_goes_to_the_dealer():
    """000, 001 §3.2: to a proposal the dealer accepts or refuses."""
    m = fresh()
    run(m, "A propose")
    assert m.phase is Phase.ANSWER and m.to_move == B
    assert set(m.legal_actions()) == {ACCEPT, REFUSE}
    assert list(m.legal_actions(A)) == []


def test_refusal_starts_the_play_with_the_hands_as_dealt():
    """000, 001, 004 §3.2: a refusal starts the play at once, with the cards as dealt."""
    m = fresh()
    run(m, "A propose", "B refuse")
    assert m.phase is Phase.TRICKS and m.to_move == A
    assert m.hands == [mask(HAND_A), mask(HAND_B)] and m.stock_size == 21
    assert m.discards == ([], [])


def test_exchange_elder_then_dealer_from_the_top_of_the_stock():
    """000, 001 §3.3: the elder discards and draws as many from the top of the stock, then the
    dealer discards and draws the next ones."""
    m = fresh()
    run(m, "A propose", "B accept")
    assert m.phase is Phase.ELDER_DISCARD and m.to_move == A
    run(m, "A discard 7S 8S")
    assert m.hands[A] == mask("9S TS AS KS QS")  # KS QS: the top two of the stock
    assert m.phase is Phase.DEALER_DISCARD and m.to_move == B and m.stock_size == 19
    run(m, "B discard 7H 8H 9H")
    assert m.hands[B] == mask("TH AH JS KH QH")  # the next three
    assert m.stock_size == 16
    assert m.phase is Phase.DECIDE and m.to_move == A  # §3.4: the elder speaks again
    assert m.discards == ([mask("7S 8S")], [mask("7H 8H 9H")])


def test_elder_discards_one_to_five():
    """000 ('from one to five'), 001, 004 §3.3: the elder's discard is 1 to 5 of his cards."""
    m = fresh()
    run(m, "A propose", "B accept")
    legal = list(m.legal_actions())
    assert len(legal) == 31  # every non-empty subset of five cards
    assert {a.cards.bit_count() for a in legal} == {1, 2, 3, 4, 5}
    assert all(a.kind is Kind.DISCARD and a.cards & ~mask(HAND_A) == 0 for a in legal)
    assert discard(0) not in legal
    with pytest.raises(IllegalAction, match="A must discard at least one card"):
        m.apply(discard(0))
    with pytest.raises(IllegalAction, match="A does not hold 7H"):
        m.apply(discard(mask("7S 7H")))
    run(m, "A discard 7S 8S 9S TS AS")
    assert m.hands[A] == mask("KS QS JS KH QH")


def take(m, n):
    """Apply the mover's first legal discard of exactly ``n`` cards."""
    m.apply(next(a for a in m.legal_actions() if a.cards.bit_count() == n))


def exchange_to(m, left):
    """Full exchanges until exactly ``left`` cards remain, the elder to decide again."""
    while m.stock_size > left:
        need = m.stock_size - left
        t = min(10, need)
        if need - t == 1:
            t -= 1
        assert t >= 2
        e = max(1, t - 5)
        m.apply(PROPOSE)
        m.apply(ACCEPT)
        take(m, e)
        take(m, t - e)
    assert m.stock_size == left and m.phase is Phase.DECIDE


def test_elder_never_takes_more_than_the_stock_holds():
    """000, 001, 002 §3.3: with 3 cards left, the elder may discard 1 to 3, not 4."""
    m = fresh()
    exchange_to(m, 3)
    run(m, "A propose", "B accept")
    assert {a.cards.bit_count() for a in m.legal_actions()} == {1, 2, 3}
    four = mask(" ".join(cs_of(m.hands[A])[:4]))
    snap = snapshot(m)
    with pytest.raises(IllegalAction, match="the stock holds only 3 cards: A may take no more"):
        m.apply(discard(four))
    assert snapshot(m) == snap  # nothing drawn, nothing discarded


def cs_of(hand):
    from ecarte_tui.engine import card_str, cards_of

    return [card_str(x) for x in cards_of(hand)]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_dealer_min_discard_of_each_preset(preset):
    """§3.3 dealer_min_discard: 1 for classic (001), academie (000), nl (004); 0 for regles
    (002 'les cartes de son choix') and britannica (003 'as many cards as he may choose')."""
    expected = {"classic": 1, "academie": 1, "nl": 1, "regles": 0, "britannica": 0}[preset]
    m = fresh(Rules.named(preset))
    run(m, "A propose", "B accept", "A discard 7S")
    counts = {a.cards.bit_count() for a in m.legal_actions()}
    assert min(counts) == expected and max(counts) == 5
    assert (discard(0) in m.legal_actions()) == (expected == 0)


def test_dealer_must_change_a_card_when_min_discard_is_1():
    """001, 004 ('moet minstens 1 kaart ruilen'): the dealer's empty discard is refused."""
    m = fresh(Rules.named("classic"))
    run(m, "A propose", "B accept", "A discard 7S")
    with pytest.raises(IllegalAction, match="dealer must change at least one card"):
        m.apply(discard(0))
    assert m.phase is Phase.DEALER_DISCARD


def test_dealer_may_keep_his_hand_when_min_discard_is_0():
    """002, 003: the dealer may keep his hand: an empty discard, nothing drawn."""
    m = fresh(Rules.named("regles"))
    run(m, "A propose", "B accept", "A discard 7S", "B discard")
    assert m.hands[B] == mask(HAND_B) and m.stock_size == 20
    assert m.phase is Phase.DECIDE and m.exchanges == 1
    assert str(m.hand.actions[-1][1]) == "discard"  # ECN: written 'discard' alone


def test_min_discard_0_override_on_classic():
    """§8: dealer_min_discard overridden alone on classic lets the dealer keep his hand."""
    m = fresh(Rules.named("classic", dealer_min_discard=0))
    run(m, "A propose", "B accept", "A discard 7S", "B discard")
    assert m.hands[B] == mask(HAND_B)


def test_dealer_never_takes_more_than_the_stock_holds():
    """001 §3.3: the dealer never takes more than the stock holds: 2 left after the elder."""
    m = fresh()
    exchange_to(m, 5)
    run(m, "A propose", "B accept")
    take(m, 3)
    assert m.stock_size == 2 and m.phase is Phase.DEALER_DISCARD
    assert {a.cards.bit_count() for a in m.legal_actions()} == {1, 2}
    with pytest.raises(IllegalAction, match="the stock holds only 2 cards: B may take no more"):
        m.apply(discard(m.hands[B]))
    take(m, 2)
    # the dealer emptied the stock: the play starts, with no 'play' line (002, 004)
    assert m.stock_size == 0 and m.phase is Phase.TRICKS and m.to_move == A


def test_dealer_does_not_exchange_when_the_elder_emptied_the_stock():
    """001 ('the dealer must play with the hand they have'): the elder takes the last cards;
    the dealer has no discard and the play starts at once, the elder to lead."""
    m = fresh()
    exchange_to(m, 4)
    dealer_hand = m.hands[B]
    run(m, "A propose", "B accept")
    take(m, 4)
    assert m.stock_size == 0
    assert m.phase is Phase.TRICKS and m.to_move == A and m.hands[B] == dealer_hand
    assert len(m.discards[B]) == len(m.discards[A]) - 1
    assert list(m.legal_actions(B)) == []  # (B does not hold KC, the king of trumps)
    with pytest.raises(IllegalAction):
        m.apply(discard(1 << min(x for x in range(32) if dealer_hand >> x & 1)), B)


@pytest.mark.parametrize("word", ["play", "propose"])
def test_play_or_propose_refused_when_the_stock_is_empty(word):
    """002, 004 §3.4 / ECN.md: when the stock is empty no proposal can be made and the play
    starts; a 'play' or 'propose' then is refused."""
    m = fresh()
    exchange_to(m, 1)
    run(m, "A propose", "B accept")
    m.apply(m.legal_actions()[0])  # one card: the stock is empty
    assert m.stock_size == 0 and m.phase is Phase.TRICKS
    assert PLAY not in m.legal_actions() and PROPOSE not in m.legal_actions()
    with pytest.raises(IllegalAction, match=f"A cannot {word}: the play has begun"):
        run(m, f"A {word}")


def test_exchanges_repeat_until_someone_plays():
    """000 ('the procedure resumes in the same way'), 003 ('a second proposal and a third'):
    after an exchange the elder plays or proposes again, any number of times."""
    m = fresh()
    for i in range(1, 4):
        run(m, "A propose", "B accept")
        m.apply(m.legal_actions()[0])
        m.apply(m.legal_actions()[0])
        assert m.phase is Phase.DECIDE and m.exchanges == i
    run(m, "A propose", "B refuse")
    assert m.phase is Phase.TRICKS


def test_discards_are_gone_for_good():
    """002 ('On ne peut pas prendre des cartes parmi celles qui ont été écartées'), 001:
    a discarded card never comes back, neither from the stock nor to be played."""
    m = fresh()
    run(m, "A propose", "B accept", "A discard 7S 8S 9S TS AS",
        "B discard 7H 8H 9H TH AH")
    gone = mask(HAND_A) | mask(HAND_B)
    while m.phase is not Phase.TRICKS:  # exchange everything until the stock is empty
        run(m, "A propose", "B accept")
        m.apply(m.legal_actions()[-1])
        if m.phase is Phase.DEALER_DISCARD:
            m.apply(m.legal_actions()[-1])
        assert (m.hands[A] | m.hands[B]) & gone == 0
    assert m.stock_size == 0
    with pytest.raises(IllegalAction, match="A does not hold 7S"):
        m.apply(card("7S"))


@pytest.mark.parametrize(
    "preset, at_risk_refuse",
    [("classic", B), ("academie", B), ("regles", B), ("britannica", A), ("nl", A)],
)
def test_first_decision_sets_who_is_at_risk(preset, at_risk_refuse):
    """§3 'The first proposal', §6 table: playing without proposing puts the elder at risk;
    refusing the first proposal puts the dealer (committer: 000, 001, 002) or the elder
    (elder: 003, 004) at risk."""
    m = fresh(Rules.named(preset))
    run(m, "A play")
    assert m.hand.at_risk == A
    m = fresh(Rules.named(preset))
    run(m, "A propose", "B refuse")
    assert m.hand.at_risk == at_risk_refuse
    m = fresh(Rules.named(preset))
    run(m, "A propose", "B accept")
    assert m.hand.at_risk is None


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("second", [("A play",), ("A propose", "B refuse")])
def test_only_the_first_proposal_carries_risk(preset, second):
    """000 ('the penalty point is no longer applied'), 001 ('only to the first proposal'),
    002 ('après le premier écart, il n'y a plus de point supplémentaire'): after one exchange
    playing or refusing costs nothing."""
    m = fresh(Rules.named(preset))
    run(m, "A propose", "B accept", "A discard 7S", "B discard 7H", *second)
    assert m.phase is Phase.TRICKS and m.hand.at_risk is None


def test_risk_stays_when_the_hand_is_not_played_out():
    """ECN.md at_risk: set by the first decision and kept even if a king ends the game."""
    m = new_hand(Rules.named("classic", target=1), a="KS 7H 8H 9H TH", b="7D 8D 9D TD AD",
                 up="7S")
    run(m, "A play", "A king")
    assert m.is_over and m.hand.at_risk == A and not m.hand.complete
