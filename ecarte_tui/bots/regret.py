"""How far the expert's choices before the play are from the best given its own later play.

A one-step check of the search: at positions taken from its matches against ``classic``,
its choice and the alternative (the other bid; for a discard the treatises' one, or the
race's runner-up when it took the treatises') are each played out on the same deals drawn
by its own sampler, the rest of the hand by the real expert and ``classic``, and scored by
the chance of winning the match after the hand. If no choice loses measurably to its
alternative, fixing one decision type cannot win much: what is left needs a new design.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass

from ..engine.actions import KING, Action, Kind
from ..engine.match import Match, Phase
from ..engine.rules import Rules
from ..engine.view import seat_view
from .arena import derive_seed, movers
from .classic import ClassicBot
from .expert import ActionEval, ExpertBot, paired_difference
from .knowledge import knowledge_of
from .match_value import MatchValue
from .sampler import sample_deals

EXPERT = 0  # the expert's seat in every position
DECISIONS: dict[str, tuple[Phase, ...]] = {
    "first": (Phase.DECIDE,),  # the elder's first play or propose
    "decide": (Phase.DECIDE,),  # play or propose after an exchange
    "answer": (Phase.ANSWER,),  # the dealer's accept or refuse
    "discard": (Phase.ELDER_DISCARD, Phase.DEALER_DISCARD),
}


@dataclass(frozen=True, slots=True)
class Check:
    """One position: the expert's estimate and the play-outs of its choice against the
    alternative, in P(win the match)."""

    decision: str
    choice: str
    alternative: str
    choice_is_treatise: bool
    estimate: float  # its search's value of the choice minus the alternative's
    played_out: float  # the same difference, played out with its real later play
    se: float  # standard error of ``played_out`` (paired over the deals)
    switch_gain: float  # what choosing by the play-outs would gain: see ``switch_gain``
    deals: int
    scores: tuple[int, int]  # the game's score, the expert's first
    exchanges: int


def play_hand(m: Match, bots: list[ExpertBot | ClassicBot],
              before_move: Callable[[Match], None] | None = None) -> None:
    """Play the hand to its end as the arena does (the waiting seat asked once per
    position whether it announces the king); ``before_move`` sees every position."""
    for mover in movers(m, bots):
        if before_move is not None:
            before_move(m)
        action = bots[mover].choose(seat_view(m, mover))
        assert action is not None
        m.apply(action, mover)


def value_after(m: Match, seat: int, mv: MatchValue) -> float:
    """P(``seat`` wins the match) once a hand is over."""
    if m.is_over:
        return 1.0 if m.match_winner == seat else 0.0
    games = m.games_won[seat], m.games_won[1 - seat]
    game = m.games[-1]
    if game.winner is not None:
        return mv.match_win(*games)
    return mv.value(game.score[seat], game.score[1 - seat], m.next_dealer == seat, *games)


def _wanted(m: Match, decision: str) -> bool:
    if m.to_move != EXPERT or m.phase not in DECISIONS[decision]:
        return False
    if decision in ("first", "decide") and (m.exchanges == 0) != (decision == "first"):
        return False
    return sum(1 for a in m.legal_actions(EXPERT) if a is not KING) > 1


@dataclass(frozen=True, slots=True)
class Found:
    """The positions to check, and how often the expert meets the decision in a match."""

    positions: list[Match]
    per_match: float  # decisions of this kind per match, over the matches played
    matches: int


def positions(rules: Rules, decision: str, seed: int, count: int) -> Found:
    """Positions where the expert (seat A) is about to make this decision, taken at random
    (one in two) from its matches against ``classic``; the last match is played to its end
    so that the count per match is over whole matches."""
    pick = random.Random(derive_seed("pick", seed))
    found: list[Match] = []
    seen = 0

    def keep(m: Match) -> None:
        nonlocal seen
        if not _wanted(m, decision):
            return
        seen += 1
        if len(found) < count and pick.random() < 0.5:
            found.append(m.copy())

    k = 0
    while len(found) < count:
        k += 1
        m = Match(rules, first_dealer=k & 1)
        bots: list[ExpertBot | ClassicBot] = [ExpertBot(derive_seed("bot", seed, k)),
                                              ClassicBot()]
        deals = random.Random(derive_seed("deals", seed, k))
        while not m.is_over:
            m.deal(deals)
            play_hand(m, bots, keep)
    return Found(found, seen / k, k)


def _alternative(evals: list[ActionEval]) -> ActionEval:
    choice = evals[0]
    if choice.action.kind is Kind.DISCARD and not choice.treatise:
        treatise = next((e for e in evals if e.treatise), None)
        if treatise is not None:
            return treatise
    return evals[1]


def check(m: Match, decision: str, seed: int, deals: int) -> Check:
    """Play the expert's choice and its alternative out from ``m`` on the same deals."""
    view = seat_view(m, EXPERT)
    expert = ExpertBot(seed)
    evals = expert.evaluate(view)
    choice, alt = evals[0], _alternative(evals)
    mv = MatchValue(m.rules)
    rng = random.Random(derive_seed("check", seed, len(m.hands_log), m.stock_pos,
                                    view.hand_mask))
    sampled = sample_deals(knowledge_of(view), rng, deals, view, True)
    chosen: list[float] = []
    other: list[float] = []
    weights: list[float] = []
    for deal in sampled:
        chosen.append(_play_out(m, deal.opp, deal.stock, choice.action, seed, mv))
        other.append(_play_out(m, deal.opp, deal.stock, alt.action, seed, mv))
        weights.append(deal.weight)
    # The same statistic the expert's own margins use, so the two are comparable.
    mean, se = paired_difference(chosen, other, weights)
    se = se if math.isfinite(se) else 1.0  # one deal: no spread to measure
    game = m.games[-1]
    return Check(decision, str(choice.action), str(alt.action), choice.treatise,
                 choice.value - alt.value, mean, se, switch_gain(chosen, other, weights),
                 len(sampled),
                 (game.score[EXPERT], game.score[1 - EXPERT]), m.exchanges)


def _play_out(m: Match, opp: int, stock: tuple[int, ...], action: Action, seed: int,
              mv: MatchValue) -> float:
    """The match value after the hand, with the opponent's hand and the stock as sampled."""
    mm = m.copy()
    mm.hands[1 - EXPERT] = opp
    mm.stock = tuple(mm.stock[: mm.stock_pos]) + stock
    bots: list[ExpertBot | ClassicBot] = [ExpertBot(seed + 1), ClassicBot()]
    view = seat_view(mm, EXPERT)
    if KING in view.legal and bots[EXPERT].announce_now(view):
        mm.apply(KING, EXPERT)
    mm.apply(action, EXPERT)
    play_hand(mm, bots)
    return value_after(mm, EXPERT, mv)


def switch_gain(chosen: list[float], other: list[float], weights: list[float]) -> float:
    """What taking the alternative wherever the play-outs prefer it would gain, without the
    luck of the draw: one half of the deals (every other one) chooses, the other half
    measures, and the two ways round are averaged. The maximum of noisy differences is
    biased upward; this is not, so summed over a match it says what one round of policy
    improvement could win."""
    halves = [(chosen[h::2], other[h::2], weights[h::2]) for h in (0, 1)]
    means = [paired_difference(*half)[0] for half in halves]
    return sum(-means[1 - h] for h in (0, 1) if means[h] < 0) / 2


def summarize(checks: list[Check], per_match: float = 1.0) -> dict[str, object]:
    """The figures the command prints: how much the choice is better than the alternative,
    how biased the search's estimate is, how much it could lose at most, and what switching
    by the play-outs would win per decision and per match (``per_match`` decisions)."""
    n = len(checks)
    if n == 0:
        return {"positions": 0}

    def mean_se(xs: list[float]) -> tuple[float, float | None]:
        m = sum(xs) / len(xs)
        if len(xs) < 2:
            return m, None  # JSON has no infinity
        return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1) / len(xs))

    adv = mean_se([c.played_out for c in checks])
    bias = mean_se([c.estimate - c.played_out for c in checks])
    gain = mean_se([c.switch_gain for c in checks])
    loss_bound = sum(max(0.0, -c.played_out) for c in checks) / n
    return {
        "positions": n,
        "deals": sum(c.deals for c in checks) // n,
        "choice_is_treatise": sum(c.choice_is_treatise for c in checks),
        "advantage": adv[0],
        "advantage_se": adv[1],
        "bias": bias[0],
        "bias_se": bias[1],
        "worse": sum(c.played_out < -2 * c.se for c in checks),
        "better": sum(c.played_out > 2 * c.se for c in checks),
        "loss_bound": loss_bound,
        "switch_gain": gain[0],
        "switch_gain_se": gain[1],
        "per_match": per_match,
        "loss_bound_per_match": loss_bound * per_match,
        "switch_gain_per_match": gain[0] * per_match,
        "switch_gain_per_match_se": None if gain[1] is None else gain[1] * per_match,
        "checks": [asdict(c) for c in checks],
    }
