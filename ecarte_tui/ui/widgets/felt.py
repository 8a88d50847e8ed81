"""The base of a widget that draws cards, and the card colours every drawing shares."""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from ..card_art import LARGE, SMALL, Canvas, Glyphs, Palette, glyphs
from ..theme_styles import ThemeStyled, style_key, theme_style, widget_memo
from .plain_lines import PlainLines


@dataclass(frozen=True)
class Look:
    """How cards are drawn, from the player's settings."""

    four_colour: bool = False
    ascii_cards: bool = False

    @property
    def glyphs(self) -> Glyphs:
        return glyphs(self.ascii_cards)


class FeltWidget(PlainLines, ThemeStyled):
    """A widget drawn on a character canvas, its lines kept as strips until it changes.

    A subclass draws in ``render_canvas``; the canvas goes straight to strips
    (``Canvas.to_strips``), rebuilt only after a refresh, a resize or a change of styles,
    without the round trip through Rich text and Textual content that a table redrawn after
    every move for every player could not afford.
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.look = Look()
        self._strips: list[Strip] | None = None
        self._strips_size: Size | None = None
        self._canvas: Canvas | None = None

    def render_canvas(self) -> Canvas:
        raise NotImplementedError

    def render(self) -> Text:
        """The drawing as text (what tests and ``str`` read; the screen uses the strips)."""
        return self.render_canvas().to_text()

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> FeltWidget:
        self._strips = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def changed(self) -> None:
        """What the widget shows has changed: draw it now and repaint only the cells that
        came out different (nothing at all when none did). Textual's own ``refresh``
        stays a full repaint."""
        old = self._canvas
        if not self.is_mounted or old is None or self._strips is None or (
                self._strips_size != self._size):
            self.refresh()
            return
        new = self.render_canvas()
        if (new.width, new.height) != (old.width, old.height):
            self.refresh()
            return
        spans = new.changed_spans(old)
        if not spans:
            return
        self._canvas = new
        self._strips = new.to_strips(self.visual_style, self._strips, {y for y, _, _ in spans})
        self.repaint_cells([Region(first, y, end - first, 1) for y, first, end in spans])

    def notify_style_update(self) -> None:
        self._strips = None
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        # (the size Textual's layout gave: ``self.size`` asks the compositor at every line)
        strips = self._strips
        if strips is None or self._strips_size != self._size:
            self._canvas = self.render_canvas()
            strips = self._strips = self._canvas.to_strips(self.visual_style)
            self._strips_size = self._size
        if 0 <= y < len(strips):
            return strips[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def set_look(self, look: Look) -> None:
        if look != self.look:
            self.look = look
            self.refresh()

    def palette(self) -> Palette:
        return palette_for(self)

    def text_canvas(self, rows: list[list[tuple[str, Style | None]]]) -> Canvas:
        """Lines of styled runs, one per row, cut at the width with an ellipsis (the
        ellipsis keeps the style of the cell it replaces, as Rich's does)."""
        return text_canvas(self.size.width, self.size.height, rows)

    def card_size(self, rows: int) -> tuple[int, int]:
        """Large cards when the widget has room for them (a big terminal), else small."""
        return LARGE if rows >= LARGE[1] else SMALL


PALETTE_PARTS = (
    ("face", "card--face", False), ("red", "card--red", True), ("black", "card--black", True),
    ("blue", "card--blue", True), ("green", "card--green", True), ("edge", "card--edge", True),
    ("back_a", "card--back-a", False), ("back_b", "card--back-b", False),
    ("highlight", "card--highlight", True), ("faded", "card--faded", False),
    ("label", "card--label", False),
)
"""Palette field, CSS class (app.tcss), and whether it is drawn over another colour."""


_PALETTES: dict[tuple[object, ...], Palette] = {}


def palette_for(widget: Widget) -> Palette:
    """The card colours on ``widget``'s background, resolved once per process and theme."""
    memo = widget_memo(widget)
    found = memo.get("palette")
    if found is None:
        key = style_key(widget)
        found = _PALETTES.get(key)
        if found is None:
            if len(_PALETTES) > 256:
                _PALETTES.clear()
            found = _PALETTES[key] = Palette(**{
                field: theme_style(widget, name, partial=partial)
                for field, name, partial in PALETTE_PARTS})
        memo["palette"] = found
    assert isinstance(found, Palette)
    return found


Runs = list[tuple[str, "Style | None"]]


def text_canvas(width: int, height: int, rows: list[Runs]) -> Canvas:
    """See ``FeltWidget.text_canvas``."""
    c = Canvas(width, height)
    for y, runs in enumerate(rows[:height]):
        x = 0
        for text, style in runs:
            c.put(x, y, text, style)
            x += len(text)
        if x > width > 0:
            c.put(width - 1, y, "…", c.styles[y][width - 1])
    return c
