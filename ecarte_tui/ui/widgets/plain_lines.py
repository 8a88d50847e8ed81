"""A widget whose styles are only a background, padding and perhaps a top or bottom border
has its lines finished here, not by Textual's ``StylesCache.render_line``.

Textual finishes every line a widget draws (borders, outline, padding, hatch, tint,
opacity), reading a dozen style rules for each line: on a served table that was a tenth of
a move, for lines that only need their padding added. Here the same lines are made the same
way (the same segments, kept in the widget's own ``StylesCache`` with its dirty lines, so a
refresh or a resize works as before) when the styles have nothing else; otherwise, and for
a border's own row, Textual does it.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual._styles_cache import StylesCache
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from ..theme_styles import widget_memo


class PlainLines(Widget):
    """A widget whose lines are finished by ``render_lines`` below when its styles allow."""

    def notify_style_update(self) -> None:
        self.__dict__.pop("_plain_gutter", None)
        widget_memo(self).pop("plain_inner", None)
        super().notify_style_update()

    def _inner(self) -> Style | None:
        """The style of the padding (Textual's inner background), or None when the widget
        or an ancestor is translucent. Walking the ancestors for it cost more than the
        rest of ``render_lines``; kept until the styles or the theme change."""
        memo = widget_memo(self)
        found = memo.get("plain_inner", False)
        if found is False:
            found = None
            if self.opacity == 1.0:
                base_background, background = self.background_colors
                found = StylesCache.get_inner_outer(
                    self._styles_cache, base_background, background)[0].rich_style
            memo["plain_inner"] = found
        return found  # type: ignore[return-value]

    def _plain(self) -> tuple[int, int, int, int, bool, bool] | None:
        """(rows above, rows below, padding left, right, border top, bottom) when only those
        and a background shape the lines; None when Textual must finish them."""
        found = self.__dict__.get("_plain_gutter", False)
        if found is not False:
            return found  # type: ignore[no-any-return]
        styles = self.styles
        (top, _), (right, _), (bottom, _), (left, _) = styles.border
        outline = [edge for edge, _ in styles.outline if edge]
        simple = not (
            right or left or outline or self.BLANK
            or self._border_title is not None or self._border_subtitle is not None
            or (styles.has_rule("hatch") and styles.hatch != "none")
            or styles.tint.a or styles.text_opacity != 1.0)
        result = None
        if simple:
            gutter = styles.gutter
            pad = styles.padding
            result = (gutter.top, gutter.bottom, pad.left, pad.right, bool(top), bool(bottom))
        self.__dict__["_plain_gutter"] = result
        return result

    def repaint_cells(self, regions: list[Region]) -> None:
        """Repaint ``regions`` (content coordinates; not empty) of a widget whose size and
        styles have not changed, telling the screen at once.

        ``refresh`` gets there through two messages, an idle prompt to the widget and then
        an ``Update`` to the screen, each a turn of a message loop: for every widget that
        changed at every move, for every player. The screen's part is what its
        ``_on_update`` does (Textual 8.2.x, pinned, like the private state used here)."""
        screen = self.screen if self.is_attached and self.is_mounted else None
        if screen is None or self._layout_required or not self.display or (
                screen not in screen._compositor):
            self.refresh(*regions)
            return
        self._layout_cache.clear()
        self._set_dirty(*regions)
        screen._dirty_widgets.add(self)
        screen.check_idle()

    def _hovered_link(self) -> bool:
        """The pointer is over a link (Textual then styles it in the lines it returns)."""
        if not self.auto_links:
            return False
        hover = self.hover_style
        return bool(hover._link_id and hover._meta and "@click" in hover.meta)

    def render_lines(self, crop: Region) -> list[Strip]:
        plain = self._plain()
        width, height = self._size  # (what Textual's layout gave; ``region`` asks the map)
        inner = self._inner() if plain is not None else None
        if (inner is None or not width or not height
                or self.get_line_filters() or self._hovered_link()):
            return super().render_lines(crop)
        above, below, pad_left, pad_right, border_top, border_bottom = plain
        lines = crop.line_range
        if (border_top and 0 in lines) or (border_bottom and height - 1 in lines):
            return super().render_lines(crop)  # (a border's row: Textual's own)
        cache = self._styles_cache
        if width != cache._width:
            cache.clear()
            cache._width = width
        content_width = max(0, width - pad_left - pad_right)  # (no side borders here)
        content_height = max(0, height - above - below)
        dirty, stored = cache._dirty_lines, cache._cache
        blank_row: Strip | None = None
        strips: list[Strip] = []
        for y in lines:
            strip = None if y in dirty else stored.get(y)
            if strip is None:
                if y < above or y >= height - below:  # a padding row
                    if blank_row is None:
                        blank_row = Strip([Segment(" " * width, inner)], width)
                    strip = blank_row
                else:
                    content_y = y - above
                    if content_y < content_height:
                        line = self.render_line(content_y).adjust_cell_length(
                            content_width, inner)
                    else:
                        line = Strip.blank(content_width, inner)
                    if pad_left or pad_right:
                        segments = list(line)
                        if pad_left:
                            segments.insert(0, Segment(" " * pad_left, inner))
                        if pad_right:
                            segments.append(Segment(" " * pad_right, inner))
                        strip = Strip(segments, width)
                    else:  # the line as it is: one strip fewer for the collector to walk
                        strip = line
                stored[y] = strip
            strips.append(strip)
        dirty.difference_update(lines)
        if crop.column_span != (0, width):
            x1, x2 = crop.column_span
            strips = [strip.crop(x1, x2) for strip in strips]
        return strips
