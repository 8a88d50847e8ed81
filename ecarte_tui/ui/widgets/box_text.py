"""Lines of text in the table's box (its title, what the hand or match came to).

Two ``Static`` widgets laid these out through Textual's content pipeline each time the box
was painted: on a served table, where the box opens and closes at every hand for every
player, that was half the cost of drawing it. The lines are wrapped once per width and
drawn on a canvas; ``text-align: center`` in the stylesheet centres them.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.geometry import Size

from ..card_art import Canvas
from .felt import FeltWidget, Runs

BOLD = Style(bold=True)


class BoxText(FeltWidget, can_focus=False):
    DEFAULT_CSS = "BoxText { height: auto; }"

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lines: tuple[tuple[str, bool], ...] = ()
        """(text, strong): a strong line is bold, after a blank line."""
        self._wrapped: tuple[int, list[tuple[str, bool]]] | None = None

    def show(self, lines: tuple[tuple[str, bool], ...]) -> None:
        if lines != self.lines:
            self.lines = lines
            self._wrapped = None
            self.refresh(layout=True)  # (its height is its lines')

    def rows(self, width: int) -> list[tuple[str, bool]]:
        """The lines wrapped at words to ``width``, a blank row before each strong line."""
        if self._wrapped is not None and self._wrapped[0] == width:
            return self._wrapped[1]
        rows: list[tuple[str, bool]] = []
        for i, (text, strong) in enumerate(self.lines):
            if strong and i:
                rows.append(("", False))
            if width <= 0 or len(text) <= width:
                rows.append((text, strong))
            else:
                rows += [(t.plain.rstrip(), strong)
                         for t in Text(text).wrap(self.app.console, width)]
        self._wrapped = (width, rows)
        return rows

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows(width))

    def render_canvas(self) -> Canvas:
        width = self.size.width
        centre = self.styles.text_align == "center"
        out: list[Runs] = []
        for text, strong in self.rows(width):
            pad = max(0, (width - len(text)) // 2) if centre else 0
            out.append([(" " * pad, None), (text, BOLD if strong else None)])
        return self.text_canvas(out)
