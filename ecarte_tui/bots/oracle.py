"""The ``oracle``: the expert's search fed the true deal. It SEES ALL CARDS.

For measuring only (how far the expert is from perfect information); it reads the full
``Match``, so it is never offered as an opponent.
"""

from __future__ import annotations

import random

from ..engine.match import Match
from ..engine.view import SeatView
from .expert import ExpertBot
from .sampler import Deal


class OracleBot(ExpertBot):
    """Cheats by design: its "samples" are the one real deal, read from the match."""

    name = "oracle (sees all cards; benchmark only)"

    def __init__(self, match: Match, seat: int, seed: int | None = None) -> None:
        super().__init__(seed)
        self._match = match
        self._seat = seat

    def deals(self, view: SeatView, rng: random.Random, count: int, stock: bool) -> list[Deal]:
        m = self._match
        opp = m.hands[1 - self._seat]
        return [Deal(opp, tuple(m.stock[m.stock_pos :]) if stock else (), 1.0)]
