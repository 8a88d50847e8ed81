"""The expert's later cards chosen without seeing the opponent's: one plan for all the
sampled deals it cannot yet tell apart.

Scoring a card by the best continuation on each sampled deal separately lets the later
cards see the opponent's hand (strategy fusion): a lead that leaves a guess for the next
trick looks as good as one that leaves none, since on every deal the guess comes out
right. Here the opponent answers by the treatises (``PolicyPlay``), which depends only on
his hand, so after my card his reply splits the deals into the groups I will be able to tell
apart; each group gets the one continuation that is best over its deals, chosen by the
chance of winning the match, not by tricks. A group of one deal is played on by
``PolicyPlay.best_tricks``, which is then exact for it.

The deals are a sample, so the groups thin out after a trick or two and the search sees
no further than that; the next real decision samples again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from .playout import PolicyPlay

Group = list[tuple[int, int]]
"""Deals not told apart yet: (index into the sampled deals, his hand now)."""
Tricks = dict[int, int]
"""Tricks I take from here on, by deal index."""


class InfoSetPlay:
    """The best plan against the treatises' replies over a weighted set of deals."""

    def __init__(
        self,
        policy: PolicyPlay,
        weights: Sequence[float],
        values: Sequence[Sequence[float]],
        tricks_before: int,
    ) -> None:
        self.policy = policy
        self.weights = weights
        self.values = values  # per deal: match value for each number of tricks (0-5)
        self.t0 = tricks_before

    def after(self, me: int, card: int, lead: int | None, group: Group) -> Tricks:
        """Tricks from this one on, per deal, when I play ``card`` from ``me`` (to lead, or
        answering ``lead``) and then follow the best plan."""
        rest = me ^ (1 << card)
        if lead is None:
            return self._after_my_lead(rest, card, group, 0)
        return self._after_my_follow(rest, lead, card, group, 0)

    def _score(self, res: Tricks) -> float:
        w, v, t0 = self.weights, self.values, self.t0
        return sum(w[k] * v[k][t0 + t] for k, t in res.items())

    def _settled(self, me: int, group: Group, won: int, i_lead: bool) -> Tricks | None:
        """The tricks when nothing is left to plan: no card left, or one deal (then seen)."""
        if not me:
            return {k: won for k, _ in group}
        if len(group) == 1:
            k, his = group[0]
            return {k: won + self.policy.best_tricks(me, his, i_lead)}
        return None

    def _i_lead(self, me: int, group: Group, won: int) -> Tricks:
        settled = self._settled(me, group, won, True)
        if settled is not None:
            return settled
        best, best_res = -math.inf, {}
        m = me
        while m:
            cb = m & -m
            m ^= cb
            res = self._after_my_lead(me ^ cb, cb.bit_length() - 1, group, won)
            v = self._score(res)
            if v > best:
                best, best_res = v, res
        return best_res

    def _after_my_lead(self, rest: int, card: int, group: Group, won: int) -> Tricks:
        follow, heads = self.policy.follow, self.policy.heads
        res: Tricks = {}
        for r, sub in split(group, lambda his: follow(his, card)).items():
            if heads(card, r):
                res.update(self._he_leads(rest, sub, won))
            else:
                res.update(self._i_lead(rest, sub, won + 1))
        return res

    def _he_leads(self, me: int, group: Group, won: int) -> Tricks:
        settled = self._settled(me, group, won, False)
        if settled is not None:
            return settled
        played = 5 - me.bit_count()
        lead = self.policy.lead
        res: Tricks = {}
        for card, sub in split(group, lambda his: lead(his, played)).items():
            res.update(self._i_follow(me, card, sub, won))
        return res

    def _i_follow(self, me: int, led: int, group: Group, won: int) -> Tricks:
        best, best_res = -math.inf, {}
        options = self.policy.options(me, led)
        while options:
            cb = options & -options
            options ^= cb
            res = self._after_my_follow(me ^ cb, led, cb.bit_length() - 1, group, won)
            v = self._score(res)
            if v > best:
                best, best_res = v, res
        return best_res

    def _after_my_follow(self, rest: int, led: int, card: int, group: Group, won: int
                         ) -> Tricks:
        if self.policy.heads(led, card):
            return self._i_lead(rest, group, won + 1)
        return self._he_leads(rest, group, won)


def split(group: Group, plays: Callable[[int], int]) -> dict[int, Group]:
    """The deals of ``group`` by the card he plays from each (``plays``), that card gone:
    after it I can tell them apart."""
    parts: dict[int, Group] = {}
    for k, his in group:
        card = plays(his)
        parts.setdefault(card, []).append((k, his ^ (1 << card)))
    return parts
