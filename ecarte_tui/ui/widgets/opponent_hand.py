"""The opponent's hand: backs only, fanned, fewer as cards are played. Never a face."""

from __future__ import annotations

from ..card_art import Canvas, draw_back
from .felt_part import FeltPart


class OpponentHand(FeltPart):
    ROWS = (4, 6)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count = 0
        self.deck = 0

    def show(self, count: int, deck: int) -> None:
        if (count, deck) != (self.count, self.deck):
            self.count, self.deck = count, deck
            self.refresh()

    def render_canvas(self) -> Canvas:
        width, height = self.size
        c = Canvas(width, height)
        if self.count:
            p = self.palette()
            w = 9 if height >= 6 else 7
            size = (w, min(height, 6 if height >= 6 else 4))
            step = 4 if height >= 6 else 3
            total = (self.count - 1) * step + w
            left = max(0, (width - total) // 2)
            for i in range(self.count):
                draw_back(c, left + i * step, 0, size, self.deck, p, self.look.glyphs)
        return c
