"""The felt: the other seat's bar and hand, the stock and the trick, this seat's hand and bar,
drawn by one Line-API widget.

Each part draws on a canvas of its own size; the board keeps the strips of every part and
the assembled strip of every row. When a part changes it is drawn again at once and only
the rows whose strips differ are marked dirty, so Textual repaints (and a server sends)
those rows alone. The layout is the one the stylesheet gave the widgets the parts replace:
fixed heights for the bars, hands and middle, the rest shared by two spacers as Textual
shares ``1fr`` (cumulative floors), the stock a fixed width and the trick the rest.
"""

from __future__ import annotations

from fractions import Fraction

from textual import events
from textual.geometry import Region, Size
from textual.strip import Strip

from ..card_art import Canvas, Palette
from ..theme_styles import ThemeStyled
from .felt import Look, palette_for
from .felt_part import FeltPart
from .plain_lines import PlainLines
from .seat_bar import SeatBar
from .stock import TurnUpStock
from .trick import TrickView


class FeltBoard(PlainLines, ThemeStyled, can_focus=False):
    def __init__(self, top: FeltPart, hand: FeltPart, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.opp_bar = SeatBar(id="opp-bar")
        self.top = top
        self.stock = TurnUpStock(id="stock")
        self.trick = TrickView(id="trick")
        self.hand = hand
        self.my_bar = SeatBar(id="my-bar")
        self.parts: tuple[FeltPart, ...] = (
            self.opp_bar, self.top, self.stock, self.trick, self.hand, self.my_bar)
        for part in self.parts:
            part.board = self
        self._layout_key: tuple[int, int, bool, object] | None = None
        self._laid_for: Size | None = None  # the outer size the parts were placed for
        self._strips: dict[int, list[Strip]] = {}  # id(part) -> its rows
        self._canvases: dict[int, Canvas] = {}  # id(part) -> what its strips were made of
        self._rows: list[Strip | None] = []
        self._bands: list[tuple[FeltPart, ...]] = []  # the parts drawn on each row

    def on_unmount(self) -> None:
        """The parts point back at the board: cut, so a closed table is freed at once."""
        for part in self.parts:
            part.board = None

    # ------------------------------------------------------------------ looks

    def set_look(self, look: Look) -> None:
        for part in self.parts:
            part.set_look(look)

    def palette(self) -> Palette:
        return palette_for(self)

    def part_at(self, x: int, y: int) -> FeltPart | None:
        for part in self.parts:
            if part.region.contains(x, y):
                return part
        return None

    # ------------------------------------------------------------------ layout

    def _tall(self) -> bool:
        return self.is_attached and self.screen.has_class("-tall")

    def _lay_out(self) -> bool:
        """Place the parts for the current size; True when anything moved."""
        width, height = self.content_size
        tall = self._tall()
        base = self.visual_style
        key = (width, height, tall, base)
        self._laid_for = self._size
        if key == self._layout_key:
            return False
        self._layout_key = key
        t = int(tall)
        fixed = [1, self.top.ROWS[t], None, self.trick.ROWS[t], None, self.hand.ROWS[t], 1]
        spare = Fraction(max(0, height - sum(h for h in fixed if h is not None)), 2)
        y = Fraction(0)
        spans: list[tuple[int, int]] = []
        for h in fixed:
            nxt = y + (spare if h is None else h)
            spans.append((y.__floor__(), nxt.__floor__() - y.__floor__()))
            y = nxt
        stock_w = min(width, self.stock.COLUMNS[t])
        place = {
            id(self.opp_bar): Region(0, *spans[0][:1], width, spans[0][1]),
            id(self.top): Region(0, spans[1][0], width, spans[1][1]),
            id(self.stock): Region(0, spans[3][0], stock_w, spans[3][1]),
            id(self.trick): Region(stock_w, spans[3][0], width - stock_w, spans[3][1]),
            id(self.hand): Region(0, spans[5][0], width, spans[5][1]),
            id(self.my_bar): Region(0, spans[6][0], width, spans[6][1]),
        }
        for part in self.parts:
            part.region = place[id(part)]
        self._bands = [()] * height
        for part in self.parts:
            r = part.region
            if not r:  # (no width left for it: nothing of it is drawn)
                continue
            for row in range(r.y, min(height, r.bottom)):
                self._bands[row] = (*self._bands[row], part)
        self._strips.clear()
        self._canvases.clear()
        self._rows = [None] * height
        return True

    def on_resize(self, event: events.Resize) -> None:
        if self._lay_out():
            self.refresh()

    # ------------------------------------------------------------------ drawing

    def _part_strips(self, part: FeltPart) -> list[Strip]:
        strips = self._strips.get(id(part))
        if strips is None:
            if not part.region:
                return []
            canvas = self._canvases[id(part)] = part.render_canvas()
            strips = self._strips[id(part)] = canvas.to_strips(self.visual_style)
        return strips

    def part_changed(self, part: FeltPart) -> None:
        """Draw ``part`` again now; mark dirty only the cells that came out different."""
        if not self.is_attached or not part.region:
            return
        if self._layout_key is None:  # placed and drawn again at the next paint
            self.refresh()
            return
        if self._laid_for != self._size and self._lay_out():  # (styles: notify_style_update)
            self.refresh()
            return
        old = self._canvases.get(id(part))
        old_strips = self._strips.pop(id(part), None)
        new = part.render_canvas()
        r = part.region
        if old is None or old_strips is None or (old.width, old.height) != (
                new.width, new.height):
            spans = [(y, 0, new.width) for y in range(new.height)]
            strips = new.to_strips(self.visual_style)
        else:
            spans = new.changed_spans(old)
            strips = new.to_strips(self.visual_style, old_strips, {y for y, _, _ in spans})
        self._canvases[id(part)] = new
        self._strips[id(part)] = strips
        regions = []
        for y, first, end in spans:
            row = r.y + y
            if row < len(self._rows):
                self._rows[row] = None
                regions.append(Region(r.x + first, row, end - first, 1))
        if regions:
            self.repaint_cells(regions)

    def notify_style_update(self) -> None:
        # the theme, or the screen's size classes (-tall): placed and drawn again
        self._layout_key = None
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        # (the size Textual's layout gave: ``content_size`` asks the compositor)
        if self._layout_key is None or self._laid_for != self._size:
            self._lay_out()
        assert self._layout_key is not None
        width = self._layout_key[0]
        if not 0 <= y < len(self._rows):
            return Strip.blank(width, self.visual_style.rich_style)
        row = self._rows[y]
        if row is None:
            parts = self._bands[y]
            if not parts:
                row = Strip.blank(width, self.visual_style.rich_style)
            else:
                row = Strip.join(self._part_strips(p)[y - p.region.y] for p in parts)
            self._rows[y] = row
        return row

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        part = self.part_at(offset.x, offset.y)
        if part is not None:
            part.click(offset.x - part.region.x, offset.y - part.region.y)
