"""The line above the table: the rules, the hand, the trumps, the trick.

A ``Static`` parsed its text as markup and laid it out through Textual's content pipeline
each time it was painted: on a served table, where the trick number changes every move,
that was a tenth of the cost of drawing a frame. The line is drawn on a canvas instead,
cut at a word as the ``Static`` cut it (its one row showed the first wrapped line).
"""

from __future__ import annotations

from rich.text import Text

from ..card_art import Canvas
from .felt import FeltWidget


class TopBar(FeltWidget, can_focus=False):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = ""

    def show(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self.changed()

    def first_line(self, width: int) -> str:
        """What a one-row ``Static`` showed: the first line of the text wrapped at words."""
        if width <= 0 or not self.text:
            return ""
        if len(self.text) <= width:
            return self.text
        return Text(self.text).wrap(self.app.console, width)[0].plain.rstrip()

    def render_canvas(self) -> Canvas:
        width, height = self.size
        return self.text_canvas([[(self.first_line(width), None)]] if height else [])
