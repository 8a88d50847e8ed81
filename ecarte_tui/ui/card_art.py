"""Cards drawn in box frames on a character canvas, so that cards can overlap as on a table.

Everything here works on card ids and styles; nothing knows about seats or the match, so the
same drawing serves the player's hand, the trick, the turn-up and the replay.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.filter import dim_color
from textual.strip import Strip
from textual.style import Style as TextualStyle

from ..engine.cards import FACES, SUIT_SYMBOLS, SUITS

# Card sizes (width, height) including the frame.
MINI = (5, 3)
SMALL = (7, 5)
LARGE = (9, 7)


@dataclass(frozen=True)
class Glyphs:
    """Frame and suit characters: Unicode, or plain ASCII for terminals without it."""

    tl: str
    tr: str
    bl: str
    br: str
    h: str
    v: str
    suits: str
    back_a: str
    back_b: str
    chip: str
    spent: str

    def suit(self, card: int) -> str:
        return self.suits[card >> 3]


UNICODE = Glyphs("╭", "╮", "╰", "╯", "─", "│", SUIT_SYMBOLS, "░", "▒", "●", "○")
ASCII = Glyphs("+", "+", "+", "+", "-", "|", SUITS, "#", "%", "o", ".")


def glyphs(ascii_only: bool) -> Glyphs:
    return ASCII if ascii_only else UNICODE


def rank_text(card: int) -> str:
    return "10" if card & 7 == 3 else FACES[card & 7]


def short_label(card: int, g: Glyphs) -> str:
    """``K♠``, ``10♥``: a card in running text."""
    return rank_text(card) + g.suit(card)


@dataclass(frozen=True)
class Palette:
    """Rich styles for drawing cards, read from the widget's CSS component classes."""

    face: Style
    red: Style
    black: Style
    blue: Style
    green: Style
    edge: Style
    back_a: Style
    back_b: Style
    highlight: Style  # frame of the card under the cursor / a legal card
    faded: Style  # a card that may not be played now
    label: Style  # text on the felt

    def suit_style(self, card: int, four_colour: bool) -> Style:
        suit = card >> 3
        if four_colour:
            return (self.black, self.red, self.blue, self.green)[suit]
        return self.red if suit in (1, 2) else self.black


class Canvas:
    """A grid of characters with styles; later drawing covers earlier drawing."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: Style | None = None) -> None:
        if not 0 <= y < self.height:
            return
        row, srow = self.chars[y], self.styles[y]
        for i, ch in enumerate(text):
            cx = x + i
            if 0 <= cx < self.width:
                row[cx] = ch
                srow[cx] = style

    def fill(self, x: int, y: int, w: int, h: int, ch: str, style: Style | None) -> None:
        for yy in range(y, y + h):
            self.put(x, yy, ch * w, style)

    def changed_spans(self, before: Canvas) -> list[tuple[int, int, int]]:
        """Where this canvas differs from ``before`` (same size): (row, first column, end
        column) per row that changed, so that only those cells are repainted and sent."""
        spans = []
        for y in range(self.height):
            chars, styles = self.chars[y], self.styles[y]
            old_chars, old_styles = before.chars[y], before.styles[y]
            if chars == old_chars and styles == old_styles:
                continue
            first, end = 0, self.width
            while first < end and chars[first] == old_chars[first] and (
                    styles[first] == old_styles[first]):
                first += 1
            while end > first and chars[end - 1] == old_chars[end - 1] and (
                    styles[end - 1] == old_styles[end - 1]):
                end -= 1
            spans.append((y, first, end))
        return spans

    def to_strips(self, base: TextualStyle, reuse: list[Strip] | None = None,
                  rows: set[int] | None = None) -> list[Strip]:
        """The canvas as Textual strips, each cell's style over ``base`` (the widget's).

        The same result as rendering ``to_text()`` in the widget, without the round trip
        through Rich text and Textual content: on a server that draws every move for every
        player, that round trip was most of the cost of a move. With ``reuse`` (the strips
        of the previous drawing, same size and base) only ``rows`` are made again.
        """
        styles: dict[Style | None, Style] = {}
        strips = []
        for y in range(self.height):
            if reuse is not None and rows is not None and y not in rows:
                strips.append(reuse[y])
                continue
            row, srow = self.chars[y], self.styles[y]
            segments = []
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or srow[x] is not srow[start]:
                    cell = srow[start]
                    style = styles.get(cell)
                    if style is None:
                        style = styles[cell] = (
                            base if cell is None else base + TextualStyle.from_rich_style(cell)
                        ).rich_style
                    segments.append(Segment("".join(row[start:x]), style))
                    start = x
            strips.append(Strip(segments, self.width))
        return strips

    def to_text(self, base: Style | None = None) -> Text:
        out = Text(no_wrap=True, overflow="crop", end="")
        for y in range(self.height):
            if y:
                out.append("\n")
            row, srow = self.chars[y], self.styles[y]
            start = 0
            for x in range(1, self.width + 1):
                if x == self.width or srow[x] is not srow[start]:
                    style = srow[start] or base
                    out.append("".join(row[start:x]), style)
                    start = x
        return out


def faded_ink(face: Style, suit: Style) -> Style:
    """A suit's ink on a card that may not be played: dimmed towards the card's colour here,
    as Textual's truecolor filter would dim it, so that a server need not run that filter
    over every line it sends (only colours with no RGB value are left to ``dim``)."""
    bg, fg = face.bgcolor, suit.color
    if bg is not None and fg is not None and bg.triplet is not None and fg.triplet is not None:
        return Style.from_color(dim_color(bg, fg))
    return Style(color=fg, dim=True)


def draw_frame(
    c: Canvas, x: int, y: int, w: int, h: int, g: Glyphs, style: Style, bottom: str = ""
) -> None:
    """A rounded frame; ``bottom`` is written into the bottom edge (the card's key, "1")."""
    c.put(x, y, g.tl + g.h * (w - 2) + g.tr, style)
    for yy in range(y + 1, y + h - 1):
        c.put(x, yy, g.v, style)
        c.put(x + w - 1, yy, g.v, style)
    edge = g.h * (w - 2)
    if bottom:
        mid = (w - 2 - len(bottom)) // 2
        edge = edge[:mid] + bottom + edge[mid + len(bottom) :]
    c.put(x, y + h - 1, g.bl + edge + g.br, style)


def draw_face(
    c: Canvas,
    x: int,
    y: int,
    card: int,
    size: tuple[int, int],
    p: Palette,
    g: Glyphs,
    *,
    four_colour: bool = False,
    frame: Style | None = None,
    faded: bool = False,
    bottom: str = "",
    both_corners: bool = True,
) -> None:
    """A card face up: rank and suit in the corners, the suit in the middle."""
    w, h = size
    face = p.faded if faded else p.face
    ink = face + p.suit_style(card, four_colour)
    if faded:
        ink = face + faded_ink(face, p.suit_style(card, four_colour))
    c.fill(x + 1, y + 1, w - 2, h - 2, " ", face)
    draw_frame(c, x, y, w, h, g, face + (frame or p.edge), bottom)
    label = short_label(card, g)
    if h <= 3:
        c.put(x + 1, y + 1, label, ink + Style(bold=True))
        return
    c.put(x + 1, y + 1, label, ink + Style(bold=True))
    if both_corners:
        c.put(x + w - 1 - len(label), y + h - 2, label, ink + Style(bold=True))
        c.put(x + (w - 1) // 2, y + h // 2, g.suit(card), ink)
    else:  # half covered (the turn-up under the stock): the suit stays in sight
        c.put(x + 1, y + 2, g.suit(card), ink)


def draw_back(
    c: Canvas,
    x: int,
    y: int,
    size: tuple[int, int],
    deck: int,
    p: Palette,
    g: Glyphs,
    *,
    frame: Style | None = None,
) -> None:
    """A card face down, in the colours of ``deck`` (0 or 1: each player deals his own)."""
    w, h = size
    style = p.back_a if deck == 0 else p.back_b
    pattern = g.back_a if deck == 0 else g.back_b
    c.fill(x + 1, y + 1, w - 2, h - 2, pattern, style)
    draw_frame(c, x, y, w, h, g, style + (frame or Style()))


def draw_slot(c: Canvas, x: int, y: int, size: tuple[int, int], g: Glyphs, style: Style) -> None:
    """An empty place on the felt where a card will go."""
    w, h = size
    dots = "┄" if g is UNICODE else "."
    side = "┆" if g is UNICODE else ":"
    c.put(x, y, dots * w, style)
    for yy in range(y + 1, y + h - 1):
        c.put(x, yy, side, style)
        c.put(x + w - 1, yy, side, style)
    c.put(x, y + h - 1, dots * w, style)
