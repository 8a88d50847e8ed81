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

from ..engine.match import Match
from ..engine.view import SeatView
from .expert import ExpertBot
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
        super().__init__(seed, 1.0, blend, ORACLE_MARGIN)
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
