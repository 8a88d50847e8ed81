"""The oracle is a true ceiling: it sees the stock's order and takes the best action outright."""

from __future__ import annotations

import random

from ecarte_tui.bots import make_oracle
from ecarte_tui.bots.classic import ClassicBot
from ecarte_tui.bots.oracle import OracleBot
from ecarte_tui.engine import (
    ACCEPT,
    PLAY,
    PROPOSE,
    Kind,
    Match,
    Phase,
    Rules,
    discard,
    parse_card,
    seat_view,
)


def cards(tokens: str) -> list[int]:
    return [parse_card(t) for t in tokens.split()]


def elder_to_discard(top: str) -> Match:
    """A (elder) holds K♥ Q♥ and three small plain cards, hearts trumps; B holds kings and
    queens and no trump. A has proposed, B accepted: A is to discard. ``top``: the stock's
    first cards, the rest in card order."""
    a, b, up = cards("KH QH 7S 8C 9D"), cards("KS QS KC QC KD"), parse_card("7H")
    used = {*a, *b, up, *cards(top)}
    stock = cards(top) + [x for x in range(32) if x not in used]
    m = Match(Rules.named("classic"))
    m.start_hand(a, b, up, stock, dealer=1)
    m.apply(PROPOSE, 0)
    m.apply(ACCEPT, 1)
    assert m.phase is Phase.ELDER_DISCARD
    return m


# Under the three small cards lie J♥ A♥ 10♥: changing them gives A the five best trumps.
TRUMPS_ON_TOP = "JH AH TH 9H 8H"
# Only J♥ is on top; a deeper draw takes small diamonds and leaves A♥ 10♥ to B.
ONE_TRUMP_ON_TOP = "JH 7D 8D AH TH"


def test_the_oracle_sees_the_stock_order() -> None:
    deep, shallow = elder_to_discard(TRUMPS_ON_TOP), elder_to_discard(ONE_TRUMP_ON_TOP)
    # the two positions look the same from A's seat: a bot that cannot see the stock
    # (every bot but the oracle is given only this view) must choose alike in both
    assert seat_view(deep, 0) == seat_view(shallow, 0)
    on_deep = OracleBot(deep, 0, 1).choose(seat_view(deep, 0))
    on_shallow = OracleBot(shallow, 0, 1).choose(seat_view(shallow, 0))
    # it draws the three trumps it knows are there (the five best trumps: a sure vole)...
    assert on_deep == discard(sum(1 << x for x in cards("7S 8C 9D")))
    # ...and not when only one is on top
    assert on_shallow != on_deep
    assert on_shallow is not None and on_shallow.kind is Kind.DISCARD


def test_the_oracle_leaves_the_treatise_for_the_best_action() -> None:
    """A (elder) holds K♠ (trumps) K♦ Q♦ J♦ J♥ against B's 8♠ and small cards: seeing B's
    hand, playing at once takes the vole and the king; the treatises propose."""
    m = Match(Rules.named("classic"))
    a, b, up = cards("JD JH KD QD KS"), cards("8S 7C AC 9C 8D"), parse_card("7S")
    used = {*a, *b, up}
    m.start_hand(a, b, up, [x for x in range(32) if x not in used], dealer=1)
    view = seat_view(m, 0)
    oracle = make_oracle(m, 0, 1)
    assert isinstance(oracle, OracleBot) and oracle.margin == 0
    assert ClassicBot().choose(view) == PROPOSE
    assert oracle.choose(view) == PLAY
    values = {e.action: e.value for e in oracle.evaluate(view)}
    assert values[PLAY] > values[PROPOSE]


def test_the_oracle_always_takes_the_arg_max_before_the_play() -> None:
    """Over many dealt positions before the play, its first action is worth the most, and
    it is not always the treatises' (the old oracle agreed with classic 608 times of 608)."""
    rng = random.Random(5)
    checked = differs = 0
    for _ in range(40):
        m = Match(Rules.named("britannica"), first_dealer=rng.randrange(2))
        m.deal(rng)
        while m.to_move is not None and m.phase is not Phase.TRICKS:
            seat = m.to_move
            view = seat_view(m, seat)
            oracle = OracleBot(m, seat, 3)
            evals = oracle.evaluate(view)
            assert evals[0].value == max(e.value for e in evals)
            action = oracle.choose(view)
            assert action == evals[0].action
            checked += 1
            differs += action != ClassicBot().choose(view)
            m.apply(action, seat)
    assert checked >= 40
    assert differs > 0


def test_the_oracle_refuses_a_position_its_match_is_not_in() -> None:
    m = elder_to_discard(TRUMPS_ON_TOP)
    other = elder_to_discard(TRUMPS_ON_TOP)
    other.apply(discard(sum(1 << x for x in cards("7S 8C 9D"))), 0)
    oracle = OracleBot(other, 0, 1)
    try:
        oracle.choose(seat_view(m, 0))
    except RuntimeError as e:
        assert "not in" in str(e)
    else:
        raise AssertionError("the oracle answered about another position")


def test_the_partial_oracles_see_their_part_of_the_truth_and_no_more() -> None:
    from ecarte_tui.bots.oracle import PartialOracle

    m = elder_to_discard(TRUMPS_ON_TOP)
    view = seat_view(m, 0)
    hand = m.hands[1]
    rng = random.Random(3)
    told_hand = PartialOracle(m, 0, "oracle-hand", 1).deals(view, rng, 24, True)
    assert {d.opp for d in told_hand} == {hand}  # his hand, always
    assert len({d.stock for d in told_hand}) > 1  # the stock's order guessed
    assert all(not any(hand >> c & 1 for c in d.stock) for d in told_hand)
    for sight in ("oracle-preplay", "oracle-cards"):
        assert PartialOracle(m, 0, sight, 1).deals(view, rng, 24, True) == [
            *OracleBot(m, 0, 1).deals(view, rng, 1, True)]


def test_the_preplay_and_cards_oracles_use_the_truth_only_in_their_phase() -> None:
    from ecarte_tui.bots.expert import ExpertBot
    from ecarte_tui.bots.oracle import PartialOracle

    m = elder_to_discard(TRUMPS_ON_TOP)
    view = seat_view(m, 0)
    # before the play: the pre-play oracle discards as the oracle does (it draws the
    # three trumps it knows are on top), the card-play one as the expert does
    oracle_choice = OracleBot(m, 0, 1).choose(view)
    assert PartialOracle(m, 0, "oracle-preplay", 1).choose(view) == oracle_choice
    assert PartialOracle(m, 0, "oracle-cards", 1).choose(view) == ExpertBot(1).choose(view)
    # in the play, the other way round
    m.apply(discard(sum(1 << x for x in cards("7S 8C 9D"))), 0)
    while m.phase is not Phase.TRICKS:
        mover = m.to_move
        assert mover is not None
        action = ClassicBot().choose(seat_view(m, mover))
        assert action is not None
        m.apply(action, mover)
    mover = m.to_move
    assert mover is not None
    view = seat_view(m, mover)
    assert PartialOracle(m, mover, "oracle-cards", 1).choose(view) == OracleBot(
        m, mover, 1).choose(view)
    assert PartialOracle(m, mover, "oracle-preplay", 1).choose(view) == ExpertBot(
        1).choose(view)
