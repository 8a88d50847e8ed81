"""The ``expert`` player: sample the hidden cards, solve each deal exactly, maximise P(win).

For every decision it draws deals consistent with its view (``sampler``, which weighs each
deal by how well it explains the opponent's proposals, refusals and exchanges), plays each
candidate action out in every deal -- the later exchanges by the treatises' rules
(``rollout``), the tricks by search (``solver``, ``playout``) -- and scores the outcome by the
chance of winning the *match* from the resulting score (``match_value``), not by tricks: a
vole at 3-4 is worth more than at 0-0, a refusal that risks 2 points is judged against
what 2 points cost. All candidates share the same deals (common random numbers), so their
differences are measured far more precisely than their values.

Every decision is the search's own, before the play as in it:
- play/propose and accept/refuse are weighed on ``BID_DEALS`` deals, and on twice as many
  (up to ``BID_MAX``) while the two stay within ``BID_SE`` standard errors of each other:
  a clear case costs little, a close one gets the deals;
- the discards race (successive halving): every plausible discard is weighed on a few
  deals, the worse half is dropped, the rest get twice as many, and so on, so the close
  candidates are compared on many deals and the poor ones cost little;
- before the play a hand's outcome is a weighted mean (``BLEND``, 0.8 on the first) of
  two play-outs (``playout``): its own best play against the opponent's treatise play (its
  card play is a best reply to that play on sampled deals; his cannot see its cards), and
  both playing by the treatises.
  Exact search on both sides lets the opponent answer as if he saw the hand; over 489
  hands of the expert against ``classic``, an even blend predicted the tricks it took with
  a mean squared error of 0.12, the exact one 0.155; with the card play that expects the
  treatises' replies, 0.8 won the most matches;
- in the play, each card is weighed on ``CARD_DEALS`` sampled deals by the tricks it leads
  to when the opponent answers by the treatises and the expert's later cards are the best
  against that (``card_policy``, 0.9), and when he answers with exact search (0.1): he
  cannot see its cards, so expecting his best reply to every lead gave up points against
  a sensible player (+1.5 points of match wins against ``classic`` over the same 1,000
  matches), and the small exact part still prefers, among leads that the treatises'
  replies make equal, the one that also holds against the best reply.
``margin`` > 0 brings back the old caution: the treatises' choice then stands unless
another action beats it on the same deals by that many standard errors.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

from ..engine.actions import ACCEPT, KING, PLAY, PROPOSE, REFUSE, Action, Kind, discard
from ..engine.cards import HIGHER, STRENGTH, SUIT_MASK, cards_of
from ..engine.match import Phase
from ..engine.rules import Rules
from ..engine.view import SeatView
from .classic import ClassicBot
from .info_set import InfoSetPlay
from .knowledge import knowledge_of
from .match_tables import AGAINST_CLASSIC
from .match_value import MatchValue, hand_values
from .playout import PolicyPlay
from .rollout import (
    ANSWER,
    DEALER_DISCARD,
    DECIDE,
    ELDER_DISCARD,
    Exchange,
    discard_and_draw,
    play_out,
    score_eager,
)
from .sampler import FOLLOW_MISS, LEAD_MISS, Deal, sample_deals
from .solver import LeadSolver, follow_options, make_solver
from .treatises import MASTERS, king_of_trumps, treatise_discard

# deals per decision: three times the earlier counts (120 per card, 64 in a bid's first
# batch), since more deals before the play won matches (+2.2 points against ``classic``
# over the same 1,000 matches, with ``BLEND`` 0.8; five times won nothing more) and the
# time is there (README: decision times). The card play does without: 120 per card
# measured -0.4 +- 0.8 points for half the median time; the published figures use 360.
CARD_DEALS = 360
BID_DEALS = 192  # play/propose and accept/refuse: the first batch, then twice as many...
BID_MAX = 1152  # ... up to this many while the two stay close
BID_SE = 3.0  # standard errors of the paired difference that settle a bid early
DISCARD_FIRST = 36  # deals per candidate discard in the race's first round
DISCARD_MAX = 576  # deals the last candidates of the race are compared on, at most
RACE_SE = 3.0  # standard errors by which the last two may settle the race early
MAX_DISCARDS = 16  # candidate discards entered in the race
MEMO_LIMIT = 200_000  # solver positions kept for one hand (a few MB at most)
BLEND = 0.8  # weight of its best play against both playing by the treatises, before the play
MARGIN = 0.0  # standard errors by which an action must beat the treatises' (0: arg-max)
# weight, in the card play, of the opponent answering by the treatises (he cannot see my
# cards) against answering with exact search (as if he saw them); see ``_cards``
CARD_POLICY = 0.9
# in the card play, its later cards against the treatises' replies: one plan over the deals
# it cannot tell apart (``info_set``), or the best on each deal as if it saw his hand; the
# plan measured about +0.3 points over five paired runs (README), within the noise: off
INFO_SETS = False
# a score's worth from hands as it plays them against the treatises (``match_tables``), its
# own and his outcomes apart, rather than from self-play, where the two seats are alike
TWO_SIDED = False


@dataclass(frozen=True, slots=True)
class ActionEval:
    """What an action is worth over the sampled deals."""

    action: Action
    value: float  # mean P(win the match)
    point: float  # P(I take 3 tricks or more)
    vole: float  # P(I take all 5)
    tricks: float  # mean tricks I take this hand
    deals: int
    samples: tuple[float, ...] = field(default=(), repr=False, compare=False)  # per deal
    treatise: bool = False  # the treatises' choice (what the ``classic`` bot does here)


class _Tally:
    """Weighted sums for one action."""

    __slots__ = ("w", "value", "point", "vole", "tricks", "samples")

    def __init__(self) -> None:
        self.w = self.value = self.point = self.vole = self.tricks = 0.0
        self.samples: list[float] = []

    def add(self, w: float, value: float, tricks: int) -> None:
        self.samples.append(value)
        self.w += w
        self.value += w * value
        self.tricks += w * tricks
        if tricks >= 3:
            self.point += w
            if tricks == 5:
                self.vole += w

    def add_blend(self, w: float, outcome: tuple[float, float, float, float]) -> None:
        value, tricks, point, vole = outcome
        self.samples.append(value)
        self.w += w
        self.value += w * value
        self.tricks += w * tricks
        self.point += w * point
        self.vole += w * vole

    def mean(self) -> float:
        return self.value / self.w if self.w else 0.0

    def result(self, action: Action, deals: int) -> ActionEval:
        w = self.w or 1.0
        return ActionEval(
            action,
            self.value / w,
            self.point / w,
            self.vole / w,
            self.tricks / w,
            deals,
            tuple(self.samples),
        )


class _Context:
    """Everything a decision needs that does not depend on the sampled deal."""

    def __init__(self, bot: ExpertBot, view: SeatView) -> None:
        self.view = view
        self.rules: Rules = view.rules
        self.seat = view.seat
        self.opp = 1 - view.seat
        self.trump = view.trump if view.trump is not None else 0
        self.tmask = SUIT_MASK[self.trump]
        self.king = king_of_trumps(self.trump)
        self.ace_high = view.rules.ace_high
        self.higher = HIGHER[self.ace_high]
        self.strength = STRENGTH[self.ace_high]
        self.solve: LeadSolver = make_solver(self.trump, self.ace_high, bot.memo(view))
        self.mv = bot.match_value(view.rules)
        self.cap = view.rules.penalty_on_vole == "cap"
        self.i_am_elder = view.elder == view.seat
        self.policy = PolicyPlay(self.trump, self.ace_high)
        self.blend = bot.blend
        self.exact_replies = bot.exact_replies
        self._values: dict[tuple[int | None, int, int], tuple[float, ...]] = {}
        self.weights: list[float] = []  # of the deals sampled for this decision

    def values(self, at_risk: int | None, king_me: int, king_opp: int) -> tuple[float, ...]:
        """Match value for each number of tricks (0-5) I end the hand with."""
        key = (at_risk, king_me, king_opp)
        v = self._values.get(key)
        if v is None:
            view = self.view
            v = hand_values(
                self.mv,
                view.scores[self.seat],
                view.scores[self.opp],
                self.i_am_elder,
                view.games_won[self.seat],
                view.games_won[self.opp],
                at_risk,
                self.seat,
                king_me,
                king_opp,
                self.cap,
            )
            self._values[key] = v
        return v

    def role_seat(self, role: int | None) -> int | None:
        """Seat of a rollout role (0 elder, 1 dealer)."""
        if role is None:
            return None
        elder = self.seat if self.i_am_elder else self.opp
        return elder if role == 0 else 1 - elder

    def outcome(
        self, elder: int, dealer: int, at_risk: int | None
    ) -> tuple[float, float, float, float]:
        """(value, tricks, P(point), P(vole)) for me when the play starts with these hands.

        A blend of my best play against his treatise play and of both playing by the
        treatises (see ``playout``): exact search on both sides lets him answer as if he
        saw my cards, which he cannot. The oracle (``exact_replies``) plays against exact
        replies: it is measured against the best opponent, not the likeliest.
        """
        mine, theirs = (elder, dealer) if self.i_am_elder else (dealer, elder)
        vals = self.values(at_risk, mine >> self.king & 1, theirs >> self.king & 1)
        plain = self.policy.elder_tricks(elder, dealer)
        if not self.i_am_elder:
            plain = 5 - plain
        if self.exact_replies:
            best = self.solve(elder, dealer)
            if not self.i_am_elder:
                best = 5 - best
        else:
            best = self.policy.best_tricks(mine, theirs, self.i_am_elder)
        return mixed(self.blend, vals, best, plain)

    def exact_tricks(self, c: int, me: int, opp: int, lead: int | None) -> int:
        """Tricks I take from this one on after playing ``c``, both sides seeing every card
        (the opponent answers my lead with his most damaging legal card)."""
        solve, n = self.solve, me.bit_count()
        rest = me ^ (1 << c)
        if lead is not None:
            win = self.policy.heads(lead, c)
            return 1 + solve(rest, opp) if win else n - 1 - solve(opp, rest)
        resp, opp_wins = follow_options(c, opp, self.tmask, self.higher)
        worst = 5
        while resp:
            rb = resp & -resp
            resp ^= rb
            t = n - 1 - solve(opp ^ rb, rest) if opp_wins else 1 + solve(rest, opp ^ rb)
            if t < worst:
                worst = t
        return worst

    def policy_tricks(self, c: int, me: int, opp: int, lead: int | None) -> int:
        """Tricks I take from this one on after playing ``c`` when the opponent plays by
        the treatises (wins cheaply, throws his least useful card, leads his long suit),
        my later cards chosen to take the most against that play."""
        policy = self.policy
        rest = me ^ (1 << c)
        if lead is not None:
            win = policy.heads(lead, c)
            return win + policy.best_tricks(rest, opp, win)
        reply = policy.follow(opp, c)
        mine = not policy.heads(c, reply)
        return mine + policy.best_tricks(rest, opp ^ (1 << reply), mine)

    def finish(self, ex: Exchange, tally: _Tally, w: float) -> None:
        """Play out the hand after the exchanges of ``ex`` and add the outcome."""
        tally.add_blend(w, self.outcome(ex.elder, ex.dealer, self.role_seat(ex.at_risk)))


class ExpertBot:
    """Sampling plus search, scored by the chance of winning the match."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        effort: float = 1.0,
        blend: float = BLEND,
        margin: float = MARGIN,
        exact_replies: bool = False,
        card_policy: float = CARD_POLICY,
        info_sets: bool = INFO_SETS,
        two_sided: bool = TWO_SIDED,
        bid_effort: float = 1.0,
        discard_effort: float = 1.0,
        oversample: float = 1.0,
        play_misses: float = 1.0,
    ) -> None:
        self.seed = 0 if seed is None else seed
        # guesses drawn per deal searched, the likeliest kept (1: every guess searched)
        self.oversample = oversample
        # the weight of a guess at his hand from which he would not have played a card he
        # played, as a multiple of the sampler's (LEAD_MISS, FOLLOW_MISS): lower reads his
        # play as the treatises' more strictly
        self.misses = (LEAD_MISS * play_misses, FOLLOW_MISS * play_misses)
        # deals for the bids / the discards only, as a multiple on top of ``effort``: to
        # measure where more deals would pay (the card play's count is ``effort``'s alone)
        self.bid_effort = bid_effort
        self.discard_effort = discard_effort
        self.card_policy = card_policy
        self.info_sets = info_sets
        self.two_sided = two_sided
        self.effort = effort
        self.blend = blend
        self.margin = margin
        self.exact_replies = exact_replies
        self._values: dict[Rules, MatchValue] = {}
        self._memo: dict[int, int] = {}
        self._memo_key: tuple[object, ...] = ()

    # ------------------------------------------------------------ per-instance caches

    def match_value(self, rules: Rules) -> MatchValue:
        mv = self._values.get(rules)
        if mv is None:
            sides = AGAINST_CLASSIC.get(rules.preset) if self.two_sided else None
            mv = self._values[rules] = MatchValue(rules, sides)
        return mv

    def memo(self, view: SeatView) -> dict[int, int]:
        """The solver's table for the hand being played (a new hand starts a new one)."""
        key = (view.game_number, view.hand_number, view.trump, view.rules.ace_high)
        if key != self._memo_key or len(self._memo) > MEMO_LIMIT:
            self._memo_key, self._memo = key, {}
        return self._memo

    def deals(self, view: SeatView, rng: random.Random, count: int, stock: bool) -> list[Deal]:
        """Deals consistent with the view (the oracle overrides this with the truth)."""
        return sample_deals(knowledge_of(view), rng, count, view, stock, self.oversample,
                            self.misses)

    def _rng(self, view: SeatView) -> random.Random:
        # derived from the view, so a decision depends only on what is asked, not on
        # how often the table asked before
        return random.Random(
            f"{self.seed}/{view.game_number}/{view.hand_number}/{len(view.events)}/"
            f"{view.hand_mask}/{int(view.phase)}"
        )

    def _count(self, n: int, extra: float = 1.0) -> int:
        return max(4, int(n * self.effort * extra))

    # ------------------------------------------------------------ the Bot protocol

    def choose(self, view: SeatView) -> Action | None:
        legal = view.legal
        if not legal:
            return None
        if KING in legal:
            if self.announce_now(view):
                return KING
            if view.to_move != view.seat:
                return None
        if view.to_move != view.seat:
            return None
        options = [a for a in legal if a is not KING]
        if len(options) == 1:
            return options[0]
        return self.evaluate(view)[0].action

    def announce_now(self, view: SeatView) -> bool:
        """Announce the king now?

        The point is worth taking whenever it changes the chance of winning the match,
        which is nearly always. It is not worth it when the point cannot matter (no score
        it could lead to wins or loses differently), since announcing tells the opponent
        where the king is. And a dealer under ``own_first_card`` waits for his own first
        card: the elder then leads without knowing where the king is.
        """
        ctx = _Context(self, view)
        with_king = ctx.values(view.at_risk, 1, 0)
        without = ctx.values(view.at_risk, 0, 0)
        if all(abs(a - b) < 1e-9 for a, b in zip(with_king, without, strict=True)):
            return False
        if view.scores[view.seat] + 1 >= view.rules.target:
            return True
        if view.to_move != view.seat and view.rules.king_deadline == "own_first_card":
            return False  # asked again before my own first card
        return True

    # ------------------------------------------------------------ evaluation

    def evaluate(self, view: SeatView) -> list[ActionEval]:
        """Every candidate action (not the king), best first."""
        rng = self._rng(view)
        ctx = _Context(self, view)
        phase = view.phase
        if phase is Phase.TRICKS:
            evals = self._rank(ctx, self._cards(ctx, rng))
        elif phase is Phase.DECIDE:
            evals = self._rank(ctx, self._decide(ctx, rng))
        elif phase is Phase.ANSWER:
            evals = self._rank(ctx, self._answer(ctx, rng))
        else:
            evals = self._discards(ctx, rng)  # ranked by the race
        base = ClassicBot().choose(view)
        evals = [replace(e, treatise=True) if e.action == base else e for e in evals]
        if phase is Phase.TRICKS or self.margin <= 0:
            return evals
        # the old caution, on request: the treatises' choice stands unless the search
        # finds another clearly better on the same deals
        chosen = prefer_unless_clearly_better(evals, base, ctx.weights, self.margin)
        return [chosen, *(e for e in evals if e is not chosen)]

    @staticmethod
    def _rank(ctx: _Context, evals: list[ActionEval]) -> list[ActionEval]:
        """Best value first; ties go to more tricks, then to the cheaper card."""
        strength = ctx.strength
        return sorted(
            evals,
            key=lambda e: (
                -round(e.value, 9),
                -round(e.tricks, 6),
                strength[e.action.card] if e.action.kind is Kind.CARD else 0,
                e.action.cards,
            ),
        )

    def _cards(self, ctx: _Context, rng: random.Random) -> list[ActionEval]:
        """Each legal card on the same sampled deals: the tricks it leads to when the
        opponent answers by the treatises (``card_policy``), blended with exact replies."""
        view = ctx.view
        cards = [a for a in view.legal if a.kind is Kind.CARD]
        deals = self.deals(view, rng, self._count(CARD_DEALS), False)
        me = view.hand_mask
        t0 = view.tricks_won[ctx.seat]
        lead = view.trick_lead
        w_pol = 0.0 if self.exact_replies else self.card_policy
        king_open = opponent_may_announce(view)
        vals = [ctx.values(view.at_risk, 0, 1 if king_open and d.opp >> ctx.king & 1 else 0)
                for d in deals]
        plan, group = None, []  # the plan over all the deals, only where it is asked for
        if self.info_sets and w_pol > 0:
            plan = InfoSetPlay(ctx.policy, [d.weight for d in deals], vals, t0)
            group = [(k, d.opp) for k, d in enumerate(deals)]
        tallies = [_Tally() for _ in cards]
        for i, a in enumerate(cards):
            c = a.card
            planned = plan.after(me, c, lead, group) if plan is not None else None
            for k, deal in enumerate(deals):
                opp = deal.opp
                # each search only where it has weight (the oracle needs no policy play)
                if w_pol <= 0:
                    pol = t0
                elif planned is not None:
                    pol = t0 + planned[k]
                else:
                    pol = t0 + ctx.policy_tricks(c, me, opp, lead)
                exact = t0 + ctx.exact_tricks(c, me, opp, lead) if w_pol < 1 else t0
                tallies[i].add_blend(deal.weight, mixed(w_pol, vals[k], pol, exact))
        return [t.result(a, len(deals)) for t, a in zip(tallies, cards, strict=True)]

    def _decide(self, ctx: _Context, rng: random.Random) -> list[ActionEval]:
        risk = ctx.seat if ctx.view.exchanges == 0 else None
        return self._stand_or_exchange(ctx, rng, risk, True, ANSWER, PLAY, PROPOSE)

    def _answer(self, ctx: _Context, rng: random.Random) -> list[ActionEval]:
        view = ctx.view
        risk = None
        if view.exchanges == 0:
            risk = ctx.seat if view.rules.penalized == "committer" else ctx.opp
        return self._stand_or_exchange(ctx, rng, risk, False, ELDER_DISCARD, REFUSE, ACCEPT)

    def _stand_or_exchange(self, ctx: _Context, rng: random.Random, risk: int | None,
                           elder: bool, step: int, stand: Action,
                           exchange: Action) -> list[ActionEval]:
        """The elder's "play or propose" and the dealer's "refuse or accept" alike: the
        hand as dealt against an exchange, over the same sampled deals, in batches until
        the paired difference is clear or ``BID_MAX`` deals are spent."""
        view = ctx.view
        me = view.hand_mask
        eager = score_eager(ctx.rules, view.scores[0], view.scores[1])
        stood, exchanged = _Tally(), _Tally()
        batch = self._count(BID_DEALS, self.bid_effort)
        cap = self._count(BID_MAX, self.bid_effort)
        deals: list[Deal] = []
        while len(deals) < cap:
            want = min(batch, cap - len(deals))
            new = self.deals(view, rng, want, True)
            deals += new
            for deal in new:
                first, second = (me, deal.opp) if elder else (deal.opp, me)
                stood.add_blend(deal.weight, ctx.outcome(first, second, risk))
                ex = Exchange(first, second, deal.stock, 0, view.exchanges, None, eager)
                ctx.finish(play_out(ex, step, ctx.trump, ctx.rules), exchanged, deal.weight)
            if len(new) < want:
                break  # the hook gives no more (the oracle's one true deal)
            mean, se = paired_difference(stood.samples, exchanged.samples,
                                         [d.weight for d in deals])
            if abs(mean) > BID_SE * se:
                break
            batch = len(deals)  # double the deals while the two stay close
        ctx.weights = [d.weight for d in deals]
        n = len(deals)
        return [stood.result(stand, n), exchanged.result(exchange, n)]

    def _discards(self, ctx: _Context, rng: random.Random) -> list[ActionEval]:
        """Every plausible discard, raced by successive halving on common deals: the
        better half of the field goes on to twice as many deals, until two are left and
        are told apart (``RACE_SE``) or ``DISCARD_MAX`` deals are spent. Best first:
        those that lasted longest, each round by value."""
        view = ctx.view
        sizes = [a.cards.bit_count() for a in view.legal if a.kind is Kind.DISCARD]
        me = view.hand_mask
        lo, hi = min(sizes), max(sizes)
        cands = plausible_discards(me, ctx.trump, ctx.ace_high, lo, hi)
        base = treatise_discard(me, ctx.trump, ctx.ace_high, lo, hi)
        if base not in cands:
            cands.append(base)  # the treatises' discard is always weighed
        elder = ctx.i_am_elder
        eager = score_eager(ctx.rules, view.scores[0], view.scores[1])
        tallies = {mask: _Tally() for mask in cands}
        cap = max(self._count(DISCARD_MAX, self.discard_effort), 1)
        want = min(self._count(DISCARD_FIRST, self.discard_effort), cap)
        deals: list[Deal] = []
        alive = list(cands)
        dropped: list[list[int]] = []  # the rounds' losers, first round first
        while True:
            new = self.deals(view, rng, want, True)
            deals += new
            for mask in alive:
                tally = tallies[mask]
                for deal in new:
                    if elder:
                        ex = Exchange(me, deal.opp, deal.stock, 0, view.exchanges, None, eager)
                        if not discard_and_draw(ex, 0, mask):
                            play_out(ex, DEALER_DISCARD, ctx.trump, ctx.rules)
                    else:
                        ex = Exchange(deal.opp, me, deal.stock, 0, view.exchanges, None, eager)
                        if not discard_and_draw(ex, 1, mask):
                            play_out(ex, DECIDE, ctx.trump, ctx.rules)
                    ctx.finish(ex, tally, deal.weight)
            alive.sort(key=lambda m: (-tallies[m].mean(), m))
            if len(alive) == 1 or len(new) < want or len(deals) >= cap:
                break
            if len(alive) > 2:
                keep = max(2, (len(alive) + 1) // 2)
                dropped.append(alive[keep:])
                alive = alive[:keep]
            else:
                mean, se = paired_difference(tallies[alive[0]].samples,
                                             tallies[alive[1]].samples,
                                             [d.weight for d in deals])
                if abs(mean) > RACE_SE * se:
                    break
            want = min(len(deals), cap - len(deals))
        ctx.weights = [d.weight for d in deals]
        order = list(alive)
        for losers in reversed(dropped):
            order += sorted(losers, key=lambda m: (-tallies[m].mean(), m))
        return [
            tallies[m].result(discard(m), len(tallies[m].samples)) for m in order
        ]


def mixed(w: float, vals: tuple[float, ...], a: int, b: int
          ) -> tuple[float, float, float, float]:
    """(value, tricks, P(point), P(vole)) of ending with ``a`` tricks with weight ``w`` and
    ``b`` tricks with weight ``1 - w``."""
    return (
        w * vals[a] + (1 - w) * vals[b],
        w * a + (1 - w) * b,
        w * (a >= 3) + (1 - w) * (b >= 3),
        w * (a == 5) + (1 - w) * (b == 5),
    )


def paired_difference(a: list[float], b: list[float], weights: list[float]
                      ) -> tuple[float, float]:
    """Weighted mean of ``a - b`` over the deals both were weighed on, and its standard
    error (the same deals for both: their luck cancels)."""
    n = min(len(a), len(b), len(weights))
    w = weights[:n]
    total = sum(w)
    if n < 2 or total <= 0:
        return 0.0, math.inf
    diffs = [x - y for x, y in zip(a[:n], b[:n], strict=True)]
    mean = sum(wi * d for wi, d in zip(w, diffs, strict=True)) / total
    var = sum(wi * (d - mean) ** 2 for wi, d in zip(w, diffs, strict=True)) / total
    n_eff = total * total / sum(wi * wi for wi in w)
    if n_eff <= 1:
        return mean, math.inf
    return mean, math.sqrt(var / n_eff)


def prefer_unless_clearly_better(
    ranked: list[ActionEval], base: Action | None, weights: list[float], margin: float
) -> ActionEval:
    """``base``'s evaluation, unless another beats it by ``margin`` standard errors of the
    paired (same deals) difference; then the one that beats it by most."""
    by = {e.action: e for e in ranked}
    if base not in by:
        return ranked[0]
    ref = by[base]
    if sum(weights) <= 0 or not ref.samples:
        return ranked[0]
    best, best_gain = ref, 0.0
    for e in ranked:
        if e is ref:
            continue
        mean, se = paired_difference(list(e.samples), list(ref.samples), weights)
        if mean > margin * se and mean > best_gain:
            best, best_gain = e, mean
    return best


def opponent_may_announce(view: SeatView) -> bool:
    """May the opponent still announce a king he holds?"""
    return knowledge_of(view).opp_king_open if view.king is None else False


def plausible_discards(hand: int, trump: int, ace_high: bool, lo: int, hi: int) -> list[int]:
    """The discards worth weighing: never the king of trumps, never a card while keeping a
    worse one (a lower card of its suit, or a plain card below a trump or a king)."""
    strength = STRENGTH[ace_high]
    masters = MASTERS[ace_high]
    king = king_of_trumps(trump)
    cards = cards_of(hand)

    def rank(c: int) -> int:
        if c >> 3 == trump:
            return 2
        return 1 if c in masters else 0

    def worse(d: int, c: int) -> bool:
        """Is ``d`` a card one would throw before ``c``?"""
        if d >> 3 == c >> 3:
            return strength[d] < strength[c]
        return rank(d) == 0 and rank(c) > 0

    out = []
    for sub in range(1 << len(cards)):
        n = sub.bit_count()
        if not lo <= n <= hi:
            continue
        mask = 0
        for j, c in enumerate(cards):
            if sub >> j & 1:
                mask |= 1 << c
        if mask >> king & 1:
            continue
        ok = True
        for c in cards:
            if mask >> c & 1:
                for d in cards:
                    if not mask >> d & 1 and worse(d, c):
                        ok = False
                        break
                if not ok:
                    break
        if ok:
            out.append(mask)
    if not out:
        out.append(treatise_discard(hand, trump, ace_high, lo, hi))
    if len(out) > MAX_DISCARDS:
        base = treatise_discard(hand, trump, ace_high, lo, hi)
        out.sort(key=lambda m: (bin(m ^ base).count("1"), m))
        out = out[:MAX_DISCARDS]
    return out
