"""The card play's plan over deals it cannot tell apart never sees the opponent's hand."""

from __future__ import annotations

import random

from bots_support import c, mask
from hypothesis import given, settings
from hypothesis import strategies as st

from ecarte_tui.bots.info_set import InfoSetPlay
from ecarte_tui.bots.playout import PolicyPlay
from ecarte_tui.engine.cards import cards_of

TRICKS = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0)  # value = tricks: the plan maximises tricks


def clairvoyant(policy: PolicyPlay, me: int, card: int, his: int) -> int:
    """Tricks from ``card`` on when my later cards see his hand (I lead ``card``)."""
    reply = policy.follow(his, card)
    mine = not policy.heads(card, reply)
    return mine + policy.best_tricks(me ^ (1 << card), his ^ (1 << reply), mine)


def by_treatise(policy: PolicyPlay, me: int, his: int, i_lead: bool) -> int:
    """Tricks ``me`` takes from here when both sides play by the treatises."""
    won = 0
    while me:
        played = 5 - me.bit_count()
        if i_lead:
            mine = policy.lead(me, played)
            reply = policy.follow(his, mine)
            i_lead = not policy.heads(mine, reply)
        else:
            led = policy.lead(his, played)
            mine, reply = policy.follow(me, led), led
            i_lead = policy.heads(led, mine)
        me, his = me ^ (1 << mine), his ^ (1 << reply)
        won += i_lead
    return won


def test_a_guess_left_for_later_is_not_a_sure_trick() -> None:
    # spades trumps, three cards each left, I lead; he holds Q♥ 7♦ and either 10♦ or J♣
    # (he has no trump). Seeing his hand, K♠ first takes all three either way: the nine
    # of the suit he lacks comes next. Without seeing it, after K♠ (he throws Q♥ in both)
    # the nines are a guess; a nine first shows which suit he holds, and the K♠ then
    # keeps the lead for the other nine.
    policy = PolicyPlay(0, False)
    me = mask("KS 9D 9C")
    deals = [(0, mask("QH 7D TD")), (1, mask("QH 7D JC"))]
    plan = InfoSetPlay(policy, [1.0, 1.0], [TRICKS, TRICKS], 2)
    seen = {card: sum(clairvoyant(policy, me, card, h) for _, h in deals) for card in cards_of(me)}
    planned = {card: sum(plan.after(me, card, None, deals).values()) for card in cards_of(me)}
    assert seen[c("KS")] == 6  # the fused plan: three tricks on both deals
    assert planned[c("KS")] < seen[c("KS")]
    assert max(planned, key=planned.__getitem__) != c("KS")
    assert max(planned.values()) == 5


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 5), st.integers(1, 6),
       st.booleans(), st.booleans())
def test_the_plan_lies_between_the_treatises_and_seeing_his_cards(
    rng: random.Random, n: int, count: int, ace_high: bool, i_lead: bool
) -> None:
    trump = rng.randrange(4)
    policy = PolicyPlay(trump, ace_high)
    cards = rng.sample(range(32), 32)
    me = sum(1 << x for x in cards[:n])
    pool = cards[n:]
    lead = None if i_lead else pool.pop()
    held = n if lead is None else n - 1  # he led a card of his n
    deals = [(k, sum(1 << x for x in rng.sample(pool, held))) for k in range(count)]
    weights = [rng.random() + 0.1 for _ in deals]
    plan = InfoSetPlay(policy, weights, [TRICKS] * len(deals), 5 - n)
    legal = cards_of(me if lead is None else policy.options(me, lead))
    for card in legal:
        res = plan.after(me, card, lead, deals)
        assert sorted(res) == [k for k, _ in deals]
        for k, his in deals:
            rest = me ^ (1 << card)
            if lead is None:
                seeing = clairvoyant(policy, me, card, his)
            else:
                mine = policy.heads(lead, card)
                seeing = mine + policy.best_tricks(rest, his, mine)
            assert 0 <= res[k] <= seeing
            if len(deals) == 1:
                assert res[k] == seeing
        # a plan that cannot see his cards is one the search considered: never better
        if lead is None:
            reply = [policy.follow(his, card) for _, his in deals]
            plain = [(not policy.heads(card, r)) + by_treatise(
                policy, me ^ (1 << card), his ^ (1 << r), not policy.heads(card, r))
                for (_, his), r in zip(deals, reply, strict=True)]
        else:
            mine = policy.heads(lead, card)
            plain = [mine + by_treatise(policy, me ^ (1 << card), his, mine) for _, his in deals]
        total = sum(w * res[k] for w, (k, _) in zip(weights, deals, strict=True))
        assert total >= sum(w * t for w, t in zip(weights, plain, strict=True)) - 1e-9
