"""The ``random`` player: any legal action, uniformly; a floor for the arena."""

from __future__ import annotations

import random

from ..engine.actions import Action
from ..engine.view import SeatView


class RandomBot:
    """Picks uniformly among ``view.legal``; announces the king (or not) at random too."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action | None:
        legal = view.legal
        if not legal:
            return None
        if view.to_move != view.seat:
            # only the king can be legal here; "not now" is one of the choices
            return legal[0] if self._rng.random() < 0.5 else None
        return legal[self._rng.randrange(len(legal))]
