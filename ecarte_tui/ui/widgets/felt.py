"""The base of every widget that draws cards: its colours come from CSS component classes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from ..card_art import LARGE, SMALL, Canvas, Glyphs, Palette, glyphs


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

    # Only what the card widgets read: Textual keeps a hidden node (styles and all) per
    # component class per widget, and a server holds a table screen per player. The seat
    # bars and the chips declare their own few instead.
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "card--face", "card--red", "card--black", "card--blue", "card--green", "card--edge",
        "card--back-a", "card--back-b", "card--highlight", "card--faded", "card--label",
    }

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
        """The card colours, shared by every card widget of the app on the same background.

        Textual clears a widget's component-style cache whenever its styles are re-applied
        (after every move at a table), and rebuilding eleven component styles per widget
        per redraw was a tenth of a busy server's time. The colours depend only on the
        theme and the background they are drawn on, so that is the key.
        """
        app = self.app
        cache: dict[tuple[str, object, bool], Palette] | None = getattr(
            app, "_ecarte_palettes", None)
        if cache is None:
            cache = {}
            app._ecarte_palettes = cache  # type: ignore[attr-defined]
        key = (app.theme, self.rich_style, app.has_pseudo_class("nocolor"))
        found = cache.get(key)
        if found is None:
            if len(cache) > 64:
                cache.clear()
            found = cache[key] = self._make_palette()
        return found

    def _make_palette(self) -> Palette:
        get = self.get_component_rich_style
        return Palette(
            face=get("card--face"),
            red=get("card--red", partial=True),
            black=get("card--black", partial=True),
            blue=get("card--blue", partial=True),
            green=get("card--green", partial=True),
            edge=get("card--edge", partial=True),
            back_a=get("card--back-a"),
            back_b=get("card--back-b"),
            highlight=get("card--highlight", partial=True),
            faded=get("card--faded"),
            label=get("card--label"),
        )

    def card_size(self, rows: int) -> tuple[int, int]:
        """Large cards when the widget has room for them (a big terminal), else small."""
        return LARGE if rows >= LARGE[1] else SMALL
