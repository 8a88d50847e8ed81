"""The turn-up, face up and partly covered by the stock, as on a real table; trumps always shown."""

from __future__ import annotations

from rich.style import Style

from ...engine.cards import SUIT_NAMES
from ..card_art import Canvas, draw_back, draw_face, draw_slot
from .felt_part import FeltPart


class TurnUpStock(FeltPart):
    COLUMNS = (14, 18)
    """Its width on a normal terminal and on a tall one; the trick has the rest."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.turn_up: int | None = None
        self.stock = 0
        self.deck = 0

    def show(self, turn_up: int | None, stock: int, deck: int) -> None:
        if (turn_up, stock, deck) != (self.turn_up, self.stock, self.deck):
            self.turn_up, self.stock, self.deck = turn_up, stock, deck
            self.refresh()

    def render_canvas(self) -> Canvas:
        width, height = self.size
        c = Canvas(width, height)
        p = self.palette()
        g = self.look.glyphs
        size = self.card_size(height - 1)
        w, h = size
        if self.turn_up is None:
            draw_slot(c, 0, 0, size, g, p.label)
            return c
        draw_face(c, 0, 0, self.turn_up, size, p, g, four_colour=self.look.four_colour,
                  both_corners=not self.stock)
        if self.stock:
            x = w - 3
            draw_back(c, x, 0, size, self.deck, p, g)
            count = f" {self.stock} "
            c.put(x + (w - len(count)) // 2, h // 2, count, p.face + Style(bold=True))
        suit = g.suit(self.turn_up)
        trumps = f"{suit} {SUIT_NAMES[self.turn_up >> 3]}"
        c.put(0, h, trumps[: width], p.label + Style(bold=True))
        if not self.stock and h + 1 < height:
            c.put(0, h + 1, "stock empty", p.label)
        return c
