"""A part of the felt (a seat's bar, a hand, the stock, the trick): drawn on a canvas of its
own size, placed by the ``FeltBoard`` that owns it.

Parts are not widgets. A served table is redrawn after every move for every player, and
each widget costs Textual a node to style, a place in the layout and a cut in every line
the compositor assembles; the felt is one widget whose parts only say when they changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.style import Style
from textual.geometry import Region, Size

from ..card_art import LARGE, SMALL, Canvas, Palette
from ..theme_styles import theme_style
from .felt import Look

if TYPE_CHECKING:
    from .felt_board import FeltBoard


class FeltPart:
    """One region of the board. Subclasses draw in ``render_canvas`` and call ``refresh``
    when what they show has changed."""

    ROWS: tuple[int, int] = (1, 1)
    """Rows on a normal terminal and on a tall one (the board's layout)."""

    def __init__(self, *, id: str | None = None) -> None:
        self.id = id
        self.board: FeltBoard | None = None
        self.region = Region(0, 0, 0, 0)
        self.look = Look()

    @property
    def size(self) -> Size:
        return self.region.size

    def refresh(self) -> None:
        if self.board is not None:
            self.board.part_changed(self)

    def set_look(self, look: Look) -> None:
        if look != self.look:
            self.look = look
            self.refresh()

    def palette(self) -> Palette:
        assert self.board is not None
        return self.board.palette()

    def style(self, name: str) -> Style:
        """The colours of CSS class ``name`` (app.tcss) on the felt."""
        assert self.board is not None
        return theme_style(self.board, name)

    def card_size(self, rows: int) -> tuple[int, int]:
        """Large cards when the part has room for them (a big terminal), else small."""
        return LARGE if rows >= LARGE[1] else SMALL

    def render_canvas(self) -> Canvas:
        raise NotImplementedError

    def click(self, x: int, y: int) -> None:
        """A click at (x, y) inside the part."""
