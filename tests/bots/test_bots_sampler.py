"""The sampler never deals the opponent a hand that contradicts what the seat saw."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ecarte_tui.bots.knowledge import knowledge_of
from ecarte_tui.bots.sampler import sample_deals
from ecarte_tui.bots.treatises import king_of_trumps
from ecarte_tui.engine import PRESETS, Match, Rules, SeatView, seat_view
from ecarte_tui.engine.cards import HIGHER, SUIT_MASK


def follow_was_legal(hand: int, lead: int, follow: int, trump: int, ace_high: bool) -> bool:
    """The follow rules (RULES.md §5), written out again independently of the bots."""
    same = hand & SUIT_MASK[lead >> 3]
    if same:
        higher = same & HIGHER[ace_high][lead]
        allowed = higher if higher else same
    else:
        trumps = hand & SUIT_MASK[trump]
        allowed = trumps if trumps else hand
    return bool(allowed >> follow & 1)


def seen_by(view: SeatView) -> int:
    seen = view.hand_mask
    for m in view.own_discards:
        seen |= m
    for t in view.tricks:
        seen |= 1 << t.lead | 1 << t.follow
    if view.trick_lead is not None:
        seen |= 1 << view.trick_lead
    if view.turn_up is not None:
        seen |= 1 << view.turn_up
    return seen


def check_deal(view: SeatView, m: Match, opp_hand: int, stock: tuple[int, ...]) -> None:
    opp = 1 - view.seat
    seen = seen_by(view)
    assert opp_hand.bit_count() == m.hands[opp].bit_count()
    assert opp_hand & seen == 0
    assert len(stock) == view.stock_size
    stock_mask = sum(1 << x for x in stock)
    assert stock_mask.bit_count() == len(stock)
    assert stock_mask & (seen | opp_hand) == 0
    trump = view.trump
    assert trump is not None
    king = king_of_trumps(trump)
    if view.king == opp and not seen >> king & 1:
        assert opp_hand >> king & 1
    # replay the opponent's follows with the sampled hand plus the cards he played since
    later = 0
    if view.trick_lead is not None and view.leader == opp:
        later |= 1 << view.trick_lead
    for t in reversed(view.tricks):
        if t.leader == opp:
            later |= 1 << t.lead
            continue
        later |= 1 << t.follow
        held = opp_hand | later
        assert follow_was_legal(held, t.lead, t.follow, trump, view.rules.ace_high)


@settings(max_examples=200, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 40),
)
def test_sampled_deals_agree_with_everything_seen(preset: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    m = Match(Rules.named(preset), first_dealer=rng.getrandbits(1))
    m.deal(rng)
    for _ in range(steps):
        if m.to_move is None or (len(m.tricks_played) == 4 and m.led >= 0):
            break  # keep the hand running: the last card would end it
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    if m.hand is None or m.hand.over:
        return
    for seat in (0, 1):
        view = seat_view(m, seat)
        know = knowledge_of(view)
        # the truth is always possible
        assert m.hands[1 - seat] & know.forbidden == 0
        assert m.hands[1 - seat] & know.required == know.required
        for deal in sample_deals(know, random.Random(seed + seat), 25, view, True):
            check_deal(view, m, deal.opp, deal.stock)
            assert deal.weight > 0


def test_voids_and_could_not_head_are_learnt() -> None:
    from bots_support import c, hand_from

    from ecarte_tui.engine import PLAY, play_card

    # hearts trump; A leads the 9 of spades, B (no spade higher) throws the 7 of clubs:
    # B is void in spades and in trumps
    m = hand_from("9S KD QD JD AD", "7C 8C 9C TC AC", "7H")
    m.apply(PLAY)
    m.apply(play_card(c("9S")))
    m.apply(play_card(c("7C")))
    know = knowledge_of(seat_view(m, 0))
    assert know.forbidden & SUIT_MASK[0] == SUIT_MASK[0] & know.unseen
    assert know.forbidden & SUIT_MASK[1] == SUIT_MASK[1] & know.unseen
    for deal in sample_deals(know, random.Random(1), 50, seat_view(m, 0)):
        assert deal.opp & (SUIT_MASK[0] | SUIT_MASK[1]) == 0


def _weighted_share(deals, pred) -> float:  # type: ignore[no-untyped-def]
    total = sum(d.weight for d in deals)
    return sum(d.weight for d in deals if pred(d.opp)) / total


def test_an_elder_who_plays_seldom_holds_the_king_of_trumps() -> None:
    # the treatises propose with the king of trumps (no danger of the dealer taking it
    # in), so an elder who played without proposing at 0-0 is unlikely to hold it
    from bots_support import hand_from

    from ecarte_tui.bots.sampler import hand_likelihood, opponent_model
    from ecarte_tui.engine import PLAY

    m = hand_from("7S 8S 9S 7C 8C", None, "7H")  # B (seat 1) deals
    m.apply(PLAY)
    view = seat_view(m, 1)
    model = opponent_model(view)
    assert model.played is True and model.first
    king = 1 << king_of_trumps(view.trump)
    weak_with_king = king | (0b1111 << 24)  # K of trumps and four low clubs
    assert hand_likelihood(weak_with_king, model, view.trump, view) < 1.0
    deals = sample_deals(knowledge_of(view), random.Random(3), 400, view, False)
    share = _weighted_share(deals, lambda opp: opp & king)
    assert share < 0.5 * 5 / 26  # a fifth of the uniform chance would be 5 in 26 cards


def test_cards_kept_at_an_exchange_are_trumps_and_kings() -> None:
    # 003: "his hand after the exchange probably holds" the trumps and kings he kept:
    # after the dealer changed only one card, the elder expects him to be strong
    from bots_support import hand_from

    from ecarte_tui.bots.treatises import trumps_and_kings
    from ecarte_tui.engine import ACCEPT, PROPOSE, discard

    m = hand_from("7S 8S 9S 7C 8C", None, "7H")
    m.apply(PROPOSE)
    m.apply(ACCEPT)
    m.apply(discard(m.hands[0]))
    dealer_hand = m.hands[1]
    m.apply(discard(dealer_hand & -dealer_hand))  # the dealer changes one card
    view = seat_view(m, 0)
    deals = sample_deals(knowledge_of(view), random.Random(4), 400, view, False)
    trump = view.trump
    mean_strong = sum(
        d.weight * trumps_and_kings(d.opp, trump, False).bit_count() for d in deals
    ) / sum(d.weight for d in deals)
    assert mean_strong >= 3.5  # he kept four, and may have drawn more


def test_resampling_keeps_hands_in_proportion_to_their_weights() -> None:
    from ecarte_tui.bots.sampler import resampled

    hands = [(1, 3.0), (2, 1.0), (4, 0.0), (8, 4.0)]  # weights 3 : 1 : 0 : 4 of 8
    out = resampled(hands, 80, random.Random(5))
    assert len(out) == 80 and all(w == 1.0 for _, w in out)
    counts = {h: sum(1 for o, _ in out if o == h) for h, _ in hands}
    assert counts == {1: 30, 2: 10, 4: 0, 8: 40}  # systematic: each share to within one


def test_an_oversampled_elder_who_played_seldom_holds_the_king_of_trumps() -> None:
    # as above, with four guesses drawn per deal kept: the deals kept are the likely ones
    # (each of weight 1), and together they say what the weighted guesses say
    from bots_support import hand_from

    from ecarte_tui.engine import PLAY

    m = hand_from("7S 8S 9S 7C 8C", None, "7H")
    m.apply(PLAY)
    view = seat_view(m, 1)
    king = 1 << king_of_trumps(view.trump)
    know = knowledge_of(view)
    kept = sample_deals(know, random.Random(3), 400, view, True, oversample=4)
    assert len(kept) == 400 and {d.weight for d in kept} == {1.0}
    for d in kept[:50]:
        assert len(d.stock) == view.stock_size and d.opp & sum(1 << x for x in d.stock) == 0
    share = sum(1 for d in kept if d.opp & king) / len(kept)
    assert share < 0.5 * 5 / 26
    plain = sample_deals(know, random.Random(3), 1600, view, False)
    assert abs(share - _weighted_share(plain, lambda opp: opp & king)) < 0.03


def test_a_card_he_would_not_have_led_weighs_as_the_reading_says() -> None:
    # A (elder) leads; seen from B, a guess at A's hand from which the treatises would
    # have led another card keeps LEAD_MISS of its weight, or what play_misses makes it
    from bots_support import c, hand_from

    from ecarte_tui.bots.playout import PolicyPlay
    from ecarte_tui.bots.sampler import LEAD_MISS, play_likelihood
    from ecarte_tui.engine import PLAY, play_card

    m = hand_from("9S KD QD JD AD", None, "7H")
    m.apply(PLAY)
    view_before = seat_view(m, 0)
    policy = PolicyPlay(view_before.trump, view_before.rules.ace_high)
    first = policy.lead(m.hands[0], 0)
    other = next(x for x in (c("9S"), c("KD"), c("AD")) if x != first)
    m.apply(play_card(other))  # a lead the treatises would not have made from this hand
    view = seat_view(m, 1)
    rest = m.hands[0]  # his hand now, the card led gone
    assert play_likelihood(rest, view, policy) == LEAD_MISS
    assert play_likelihood(rest, view, policy, (0.5, 0.5)) == 0.5
