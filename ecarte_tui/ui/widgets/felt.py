"""The base of a widget that draws cards, and the card colours every drawing shares."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from ..card_art import LARGE, SMALL, Canvas, Glyphs, Palette, glyphs
from ..theme_styles import style_key, theme_style


@dataclass(frozen=True)
class Look:
    """How cards are drawn, from the player's settings."""

    four_colour: bool = False
    ascii_cards: bool = False

    @property
    def glyphs(self) -> Glyphs:
        return glyphs(self.ascii_cards)


class FeltWidget(Widget):
    """A widget drawn on the felt with a character canvas."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.look = Look()
        self._strips: list[Strip] | None = None
        self._strips_key: tuple[Size, object] | None = None

    # ------------------------------------------------------------------ drawing
    # A widget drawn on a Canvas overrides ``render_canvas``. In a served app its lines go
    # straight from the canvas to strips (``Canvas.to_strips``), rebuilt only after a
    # refresh, a resize or a change of styles: the same cells and colours as the Rich text
    # path a local app keeps (whose segments also carry mouse offsets, which the snapshot
    # tests see). Others override ``render`` as any Textual widget does.

    def render_canvas(self) -> Canvas | None:
        return None

    def _draws_on_canvas(self) -> bool:
        return type(self).render_canvas is not FeltWidget.render_canvas

    def _fast_strips(self) -> bool:
        return self._draws_on_canvas() and bool(getattr(self.app, "served", False))

    def render(self) -> Text:
        canvas = self.render_canvas()
        return canvas.to_text() if canvas is not None else Text("")

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> FeltWidget:
        self._strips = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def render_line(self, y: int) -> Strip:
        if not self._fast_strips():
            return super().render_line(y)
        base = self.visual_style
        key = (self.size, base)
        if self._strips is None or self._strips_key != key:
            canvas = self.render_canvas()
            self._strips = canvas.to_strips(base) if canvas is not None else []
            self._strips_key = key
        if 0 <= y < len(self._strips):
            return self._strips[y]
        return Strip.blank(self.size.width, base.rich_style)

    def set_look(self, look: Look) -> None:
        if look != self.look:
            self.look = look
            self.refresh()

    def palette(self) -> Palette:
        return palette_for(self)

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
    key = style_key(widget)
    found = _PALETTES.get(key)
    if found is None:
        if len(_PALETTES) > 256:
            _PALETTES.clear()
        found = _PALETTES[key] = Palette(**{
            field: theme_style(widget, name, partial=partial)
            for field, name, partial in PALETTE_PARTS})
    return found
