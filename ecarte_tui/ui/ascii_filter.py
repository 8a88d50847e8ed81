"""The ASCII setting, for terminals without Unicode: every cell the app draws becomes ASCII.

The cards' own glyphs (frames, suits, backs, chips) are chosen at the source (``Look``,
``card_art.ASCII``), but text reaches the screen from many places: the log and prompts,
the bot's hints, dialogs, Textual's own borders, buttons, scrollbars, key names and
notices. Rather than hunting each one, a Textual line filter, applied to every line of
every widget after it is drawn, replaces each non-ASCII character by an ASCII one of the
same width: box drawing by ``+ - |``, suits by their letters, curly quotes by straight
ones, accents dropped, a solid block by a space of its colour.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from ..engine.cards import SUIT_SYMBOLS, SUITS

FALLBACK = "?"

# characters whose ASCII form is chosen here rather than derived from their Unicode name
_TABLE: dict[str, str] = {
    **dict(zip(SUIT_SYMBOLS, SUITS, strict=True)),
    "♤": "S", "♡": "H", "♢": "D", "♧": "C",
    "♔": "K", "♚": "K", "♕": "Q", "♛": "Q", "♘": "N", "♞": "N",
    "“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "‚": "'",
    "…": ".", "–": "-", "—": "-", "‒": "-", "−": "-", "‐": "-", "‑": "-",
    "·": "-", "•": "*", "∙": "*", "×": "x", "÷": "/", "±": "+",
    "←": "<", "→": ">", "↑": "^", "↓": "v", "⏎": "<", "↵": "<", "⇥": ">", "⌫": "<",
    "≤": "<", "≥": ">", "≠": "#", "≈": "~", "°": "o", "§": "S", "¶": "P", "©": "c",
    "●": "o", "○": ".", "◉": "o", "◦": ".", "■": "#", "□": "#", "▪": "#", "▫": ".",
    "◆": "*", "◇": "*", "★": "*", "☆": "*", "✓": "v", "✔": "v", "✗": "x", "✘": "x",
    "▲": "^", "▼": "v", "▶": ">", "◀": "<", "►": ">", "◄": "<", "△": "^", "▽": "v",
    "▸": ">", "◂": "<", "▴": "^", "▾": "v",
    "▔": "-", "▁": "_", "▏": "|", "▕": "|", "░": ":", "▒": "%", "▓": "#",
    "\u00a0": " ", "\u2009": " ", "\u202f": " ",
}

# blocks that fill (most of) their cell: drawn as a space in their colour
_SOLID = frozenset("█▇▆▅▄▀▌▐▉▊▋▙▛▜▟")


@lru_cache(maxsize=4096)
def ascii_char(ch: str) -> str:
    """One character's ASCII form, as many cells wide as it is ("?" when there is none)."""
    if ch.isascii():
        return ch
    found = _TABLE.get(ch)
    if found is not None:
        return found
    if ch in _SOLID:
        return " "
    name = unicodedata.name(ch, "")
    if name.startswith("BOX DRAWINGS"):
        return _box(name)
    if 0x2580 <= ord(ch) <= 0x259F:  # the other block elements: shading, quadrants
        return " "
    width = cell_len(ch)
    if width == 0:  # a combining mark, a joiner: nothing to draw
        return ""
    plain = "".join(c for c in unicodedata.normalize("NFKD", ch)
                    if c.isascii() and not unicodedata.combining(c))
    if len(plain) == 1:  # É -> E, a full-width Ａ -> "A "; ﬁ stays unknown
        return plain.ljust(width)
    return FALLBACK * width


def _box(name: str) -> str:
    """A box-drawing character by its name: lines become ``-`` and ``|``, the rest ``+``."""
    if "DIAGONAL" in name:
        return "X" if "CROSS" in name else ("/" if "UPPER RIGHT" in name else "\\")
    horizontal = "HORIZONTAL" in name or name.endswith((" LEFT", " RIGHT"))
    vertical = "VERTICAL" in name or name.endswith((" UP", " DOWN"))
    if " AND " in name or "ARC" in name or horizontal == vertical:
        return "+"
    return "-" if horizontal else "|"


def to_ascii(text: str) -> str:
    """``text`` with every character in its ASCII form (same width on the screen)."""
    if text.isascii():
        return text
    return "".join(ascii_char(ch) for ch in text)


KEY_NAMES = {"⏎": "enter", "←": "left", "→": "right", "↑": "up", "↓": "down", "⇥": "tab",
             "⌫": "backspace", "⇧": "shift", "⌃": "ctrl", "␣": "space"}


def ascii_key(shown: str) -> str:
    """A key's name as the key bar shows it, in words where its symbol is not ASCII."""
    for symbol, name in KEY_NAMES.items():
        shown = shown.replace(symbol, name)
    return to_ascii(shown)


class AsciiFilter(LineFilter):
    """Every line drawn, in ASCII (see the module). ``unmapped``: characters that had no
    ASCII form of their own and became "?", for tests to hold at zero."""

    def __init__(self, enabled: bool = True) -> None:
        super().__init__(enabled=enabled)
        self.unmapped: set[str] = set()

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        if all(s.text.isascii() for s in segments):
            return segments
        out: list[Segment] = []
        for segment in segments:
            text, style, control = segment
            if control or text.isascii():
                out.append(segment)
                continue
            run: list[str] = []
            for ch in text:
                if ch in _SOLID:  # a solid block: a space with its colour as background
                    if run:
                        out.append(Segment("".join(run), style))
                        run = []
                    out.append(Segment(" ", _filled(style)))
                    continue
                plain = ascii_char(ch)
                if FALLBACK in plain and ch != FALLBACK:
                    self.unmapped.add(ch)
                run.append(plain)
            if run:
                out.append(Segment("".join(run), style))
        return out


def _filled(style: Style | None) -> Style | None:
    if style is None or style.color is None:
        return style
    color: RichColor = style.color
    return style + Style(bgcolor=color)
