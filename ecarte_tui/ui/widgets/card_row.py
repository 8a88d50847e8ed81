"""A few cards face up in a row, with a caption under each: the draw for the deal."""

from __future__ import annotations

from rich.style import Style

from ..card_art import SMALL, Canvas, draw_face
from .felt import FeltWidget


class CardRow(FeltWidget):
    def __init__(
        self, cards: tuple[int, ...], captions: tuple[str, ...], *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.cards = cards
        self.captions = captions

    def render_canvas(self) -> Canvas:
        width, height = self.size
        c = Canvas(width, height)
        p = self.palette()
        w = SMALL[0] + 6
        left = max(0, (width - len(self.cards) * w) // 2)
        for i, (card, caption) in enumerate(zip(self.cards, self.captions, strict=True)):
            x = left + i * w
            c.put(x + (SMALL[0] - len(caption)) // 2, 0, caption, p.label + Style(bold=True))
            draw_face(c, x, 1, card, SMALL, p, self.look.glyphs,
                      four_colour=self.look.four_colour)
        return c
