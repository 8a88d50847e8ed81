"""Deals consistent with what a seat has seen, weighted by what the opponent did.

The hard facts (``Knowledge``) are never broken: a sampled opponent hand avoids his voids
and the cards he could not have held, holds his announced king and has the right size.
The soft facts weigh each deal: a player who plays without proposing or refuses usually
holds a strong hand, one who proposes a weak one, and a player who changed ``k`` cards
usually kept trumps and kings (003, 004: "his hand after the exchange probably holds ...").
The weights use the treatises' rules, with Cavendish's regard for the score, as the model
of a sensible opponent (the same rules the ``classic`` bot plays by).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..engine.actions import Kind
from ..engine.cards import FULL_MASK, cards_of
from ..engine.view import SeatView
from .knowledge import Knowledge
from .playout import PolicyPlay
from .rollout import elder_plays_at, score_eager
from .treatises import dealer_refuses, trumps_and_kings

# how much likelier a hand is when it agrees with the treatise model (1 : UNLIKE); a
# sensible opponent seldom leaves the treatises before the play, so a hand that would have
# made him decide otherwise keeps little weight (0.15 before: the same matches within noise)
UNLIKE = 0.03
# weight of a hand that holds fewer trumps and kings than he kept at his last exchange
SHORT_KEPT = 0.02
# weight of a sample where the opponent holds a king he did not announce in time
SILENT_KING = 0.05
# relative chance that a card he threw away was a trump or a king
KEPT_WEIGHT = 0.08
# weight of a sample in which a sensible player would not have led (followed with) the card
# the opponent actually led (chose among several legal cards); 0.4 and 0.6 before
LEAD_MISS = 0.15
FOLLOW_MISS = 0.3


@dataclass(frozen=True, slots=True)
class Deal:
    """One guess at the hidden cards: his hand, the stock (top first), and its weight."""

    opp: int
    stock: tuple[int, ...]
    weight: float


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """What the opponent did with his present (pre-play) hand, to weigh a guess at it."""

    played: bool | None  # elder: played (True) or proposed and was refused (False)
    refused: bool | None  # dealer: refused (True) or accepted with no exchange after
    first: bool  # that decision carried the penalty (no exchange before it)
    kept: int  # cards he kept at his last exchange (-1: he did not exchange)
    scores: tuple[int, int] = (0, 0)  # (his, mine) when he decided, the king aside


def opponent_model(view: SeatView) -> OpponentModel:
    """Read the opponent's decisions since his last exchange from the hand's events."""
    opp = 1 - view.seat
    played = refused = None
    kept = -1
    exchanges = 0
    first = True
    for i, e in enumerate(view.events):
        kind = e.action.kind
        if kind is Kind.DISCARD:
            if e.seat == opp:
                kept = 5 - e.count
                played = refused = None
            if e.seat == view.dealer:
                exchanges += 1
        elif e.seat == opp and kind in (Kind.PLAY, Kind.PROPOSE):
            # a proposal says something about this hand only if no exchange follows
            nxt = view.events[i + 1].action.kind if i + 1 < len(view.events) else None
            if kind is Kind.PLAY or nxt is None or nxt is Kind.REFUSE:
                played = kind is Kind.PLAY
                first = exchanges == 0
        elif e.seat == opp and kind in (Kind.ACCEPT, Kind.REFUSE):
            refused = kind is Kind.REFUSE
            first = exchanges == 0
    # the scores when he decided: an announced king scored after every pre-play decision
    his, mine = view.scores[opp], view.scores[view.seat]
    if view.king == opp:
        his -= 1
    elif view.king == view.seat:
        mine -= 1
    return OpponentModel(played, refused, first, kept, (his, mine))


def hand_likelihood(hand: int, model: OpponentModel, trump: int, view: SeatView) -> float:
    """How well ``hand`` (his hand before the play) fits what he did, 1 at best.

    After an exchange he kept the trumps and kings of his old hand (003) and drew the rest
    at random, so a hand with ``s`` such cards is ``C(s, kept)`` times as likely as one
    with just ``kept`` of them (the ways to choose which he kept); fewer is nearly
    impossible. His play/propose and refuse/accept are read with the score rules.
    """
    w = 1.0
    rules = view.rules
    if model.kept > 0:
        strong = trumps_and_kings(hand, trump, rules.ace_high).bit_count()
        if strong < model.kept:
            w *= SHORT_KEPT ** (model.kept - strong)
        else:
            w *= math.comb(strong, model.kept)
    his, mine = model.scores
    if model.played is not None:
        plays = elder_plays_at(hand, trump, rules, his, mine, 0 if model.first else 1)
        if plays != model.played:
            w *= UNLIKE
    if model.refused is not None:
        eager = score_eager(rules, his, mine)
        if dealer_refuses(hand, trump, rules.ace_high, eager) != model.refused:
            w *= UNLIKE
    return w


def play_likelihood(hand: int, view: SeatView, policy: PolicyPlay,
                    misses: tuple[float, float] = (LEAD_MISS, FOLLOW_MISS)) -> float:
    """How well ``hand`` (his hand now) explains the cards he chose to play this hand.

    The model of a sensible player is the classic leads and follows (``playout``): a hand
    from which he would have led what he led is likelier than one from which he would not.
    """
    opp = 1 - view.seat
    plays: list[tuple[int, int, bool]] = []  # (trick index, card, led it)
    for i, t in enumerate(view.tricks):
        if t.leader == opp:
            plays.append((i, t.lead, True))
        else:
            plays.append((i, t.follow, False))
    if view.trick_lead is not None and view.leader == opp:
        plays.append((len(view.tricks), view.trick_lead, True))
    w = 1.0
    held = hand
    for i, card, led in reversed(plays):
        held |= 1 << card  # his hand when he played this card
        if led:
            if policy.lead(held, i) != card:
                w *= misses[0]
        else:
            lead = view.tricks[i].lead
            if policy.options(held, lead).bit_count() > 1 and policy.follow(held, lead) != card:
                w *= misses[1]
    return w


def _stock(rest: int, know: Knowledge, rng: random.Random, keep: int) -> tuple[int, ...]:
    """The stock, top first, from the unseen cards not in his hand.

    His discards are among those cards too, and a player throws out what is not a trump or
    a king (003): they are drawn first, mostly from such cards, so the stock left is as rich
    in trumps and kings as it really is likely to be.
    """
    cards = cards_of(rest)
    thrown = sum(know.opp_discards)
    if thrown:
        # weighted sampling without replacement (Efraimidis-Spirakis keys)
        keyed = sorted(
            cards,
            key=lambda c: rng.random() ** (1.0 / (KEPT_WEIGHT if keep >> c & 1 else 1.0)),
        )
        cards = keyed[: len(cards) - thrown]
    return tuple(rng.sample(cards, know.stock_size))


def sample_deals(
    know: Knowledge,
    rng: random.Random,
    count: int,
    view: SeatView | None = None,
    with_stock: bool = True,
    oversample: float = 1.0,
    misses: tuple[float, float] = (LEAD_MISS, FOLLOW_MISS),
) -> list[Deal]:
    """``count`` deals drawn uniformly among those the hard facts allow, then weighted."""
    pool_mask = know.unseen & ~know.forbidden & ~know.required
    need = know.opp_count - know.required.bit_count()
    preferred = cards_of(pool_mask & ~know.unlikely)
    pool = preferred if len(preferred) >= need else cards_of(pool_mask)
    model = opponent_model(view) if view is not None else None
    trump = view.trump if view is not None and view.trump is not None else 0
    keep = trumps_and_kings(FULL_MASK, trump, view.rules.ace_high) if view is not None else 0
    policy = None
    if view is not None and (view.tricks or view.trick_lead is not None):
        policy = PolicyPlay(trump, view.rules.ace_high)
    drawn = max(count, round(count * oversample))
    hands: list[tuple[int, float]] = []
    deals: list[Deal] = []
    for _ in range(drawn):
        opp = know.required
        for c in rng.sample(pool, need):
            opp |= 1 << c
        stock: tuple[int, ...] = ()
        if drawn == count and with_stock and know.stock_size:
            # drawn here, in this order, so that a seed deals as it did before resampling
            stock = _stock(know.unseen & ~opp, know, rng, keep)
        w = 1.0
        if model is not None and view is not None:
            w = hand_likelihood(opp | know.opp_played, model, trump, view)
        if opp & know.unlikely:
            w *= SILENT_KING
        if policy is not None and view is not None:
            w *= play_likelihood(opp, view, policy, misses)
        if drawn == count:
            deals.append(Deal(opp, stock, w))
        else:
            hands.append((opp, w))
    if drawn == count:
        return deals
    for opp, w in resampled(hands, count, rng):
        stock = ()
        if with_stock and know.stock_size:
            stock = _stock(know.unseen & ~opp, know, rng, keep)
        deals.append(Deal(opp, stock, w))
    return deals


def resampled(
    hands: list[tuple[int, float]], count: int, rng: random.Random
) -> list[tuple[int, float]]:
    """``count`` of the weighted hands drawn in proportion to their weights, weight 1 each.

    The search spends the same on a deal whatever its weight, so when what the opponent did
    leaves most guesses little weight, drawing more guesses and keeping the likely ones
    (systematic resampling) gives the search more deals that count.
    """
    total = sum(w for _, w in hands)
    if total <= 0:
        return hands[:count]
    step = total / count
    point = rng.random() * step
    out: list[tuple[int, float]] = []
    acc = 0.0
    for opp, w in hands:
        acc += w
        while point < acc and len(out) < count:
            out.append((opp, 1.0))
            point += step
    while len(out) < count:  # rounding left the last point past the sum
        out.append((hands[-1][0], 1.0))
    return out
