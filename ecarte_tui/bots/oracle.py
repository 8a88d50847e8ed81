"""The ``oracle``: the expert's search fed the true deal. It SEES ALL CARDS.

A ceiling for measuring (how far the expert is from perfect information), so it lacks no
knowledge and keeps no caution:

- its one "sample" is the real deal: the opponent's hand and the stock in its real order,
  read from the ``Match`` (so it is never offered as an opponent);
- it takes the best action outright (margin 0): the treatises' choice has no say, since
  the margin only guards against the noise of sampling, and one true deal has none;
- the hand's outcome before the play is the exact result (blend 1): the plain play-out
  models a player who cannot see the cards, and the oracle plays the tricks exactly.

What it does not know is what the opponent will decide later: the search plays the future
exchanges out by the treatises' rules, as the expert's does.
"""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.cards import cards_of
from ..engine.match import Match, Phase
from ..engine.view import SeatView
from .expert import BLEND, ExpertBot
from .knowledge import knowledge_of
from .sampler import Deal

ORACLE_MARGIN = 0.0  # pure arg-max: never defer to the treatises
ORACLE_BLEND = 1.0  # the exact result only


class OracleBot(ExpertBot):
    """Cheats by design: its "samples" are the one real deal, read from the match."""

    name = "oracle (sees all cards; benchmark only)"

    def __init__(
        self,
        match: Match,
        seat: int,
        seed: int | None = None,
        blend: float = ORACLE_BLEND,
    ) -> None:
        super().__init__(seed, 1.0, blend, ORACLE_MARGIN, exact_replies=True)
        self._match = match
        self._seat = seat

    def deals(self, view: SeatView, rng: random.Random, count: int, stock: bool) -> list[Deal]:
        """The truth, once: more copies of one deal would add no information."""
        m = self._match
        seat = self._seat if view.seat is None else view.seat
        if m.hands[seat] != view.hand_mask:
            # asked about a position that is not the match's present one: the truth read
            # from the match would be another deal's
            raise RuntimeError("the oracle was asked about a position its match is not in")
        opp = m.hands[1 - seat]
        return [Deal(opp, tuple(m.stock[m.stock_pos :]) if stock else (), 1.0)]


PARTIAL_SIGHTS: dict[str, str] = {
    "oracle-hand": "sees the opponent's hand, so what the stock holds, not its order",
    "oracle-preplay": "sees all cards before the play, none during it",
    "oracle-cards": "sees all cards during the play, none before it",
}
"""The partial oracles: where perfect information pays (benchmarks only, like ``oracle``)."""


class PartialOracle(OracleBot):
    """The expert's search given one part of the truth: what that part is worth is how much
    better it does than the expert, whose search is the same."""

    def __init__(self, match: Match, seat: int, sight: str, seed: int | None = None) -> None:
        if sight not in PARTIAL_SIGHTS:
            raise ValueError(f"unknown partial oracle {sight!r}")
        # the oracle's choices (no margin) and, where a side stays hidden, the expert's
        # model of the play (its blend); the exact result where it sees everything
        whole = sight != "oracle-hand"
        super().__init__(match, seat, seed, ORACLE_BLEND if whole else BLEND)
        self.exact_replies = whole
        self.sight = sight
        self.name = f"{sight} ({PARTIAL_SIGHTS[sight]}; benchmark only)"
        self._expert = ExpertBot(seed)

    def choose(self, view: SeatView) -> Action | None:
        in_play = view.phase is Phase.TRICKS
        if (self.sight == "oracle-preplay" and in_play) or (
                self.sight == "oracle-cards" and not in_play):
            return self._expert.choose(view)
        return super().choose(view)

    def deals(self, view: SeatView, rng: random.Random, count: int, stock: bool) -> list[Deal]:
        truth = super().deals(view, rng, 1, stock)[0]
        if self.sight != "oracle-hand":
            return [truth]
        know = knowledge_of(view)
        if not stock or not know.stock_size:
            return [truth]
        rest = cards_of(know.unseen & ~truth.opp)  # the stock and his discards
        return [Deal(truth.opp, tuple(rng.sample(rest, know.stock_size)), 1.0)
                for _ in range(count)]
