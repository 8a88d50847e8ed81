"""pyte's screen with a quicker path for the common case, for the SSH tests' clients.

pyte writes each character through its width lookup and a fresh cell (``_replace``) and
builds ``display`` through a generator that looks up every cell's width again; reading
the screens of the server tests was about a quarter of their time. Here a run of
single-width characters in replace mode (all a Textual frame writes) goes
straight into the buffer with one cell per (attributes, character) kept, and ``display``
joins a row at once unless it holds a character that may be wide. Everything else is
pyte's own code; ``test_fast_screen.py`` holds the two to the same screens.
"""

from __future__ import annotations

from typing import Any

import pyte
from pyte import modes as mo
from pyte.screens import wcwidth  # pyte's own (cached) width function

_WIDE_FROM = "\u1100"  # no character below this is two cells wide
_width: dict[str, int] = {}


def _all_single_width(text: str) -> bool:
    if text.isascii():
        return text.isprintable()
    for ch in set(text):
        w = _width.get(ch)
        if w is None:
            w = _width[ch] = wcwidth(ch)
        if w != 1:
            return False
    return True


class FastScreen(pyte.Screen):
    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self._cells: dict[Any, dict[str, Any]] = {}

    def draw(self, data: str) -> None:
        text = data.translate(self.g1_charset if self.charset else self.g0_charset)
        mode = self.mode
        if mo.IRM in mode or not _all_single_width(text):
            super().draw(data)
            return
        cursor, columns = self.cursor, self.columns
        attrs = cursor.attrs
        known = self._cells.get(attrs)
        if known is None:
            if len(self._cells) > 256:
                self._cells.clear()
            known = self._cells[attrs] = {}
        cells = [known.get(ch) or known.setdefault(ch, attrs._replace(data=ch)) for ch in text]
        if mo.DECAWM not in mode:  # (Textual turns autowrap off) the last column is rewritten
            line = self.buffer[cursor.y]
            x = cursor.x
            for cell in cells:
                if x == columns:
                    x -= 1
                line[x] = cell
                x += 1
            cursor.x = x
            self.dirty.add(cursor.y)
            return
        i, n = 0, len(cells)
        while i < n:
            if cursor.x == columns:
                self.dirty.add(cursor.y)
                self.carriage_return()
                self.linefeed()
            line = self.buffer[cursor.y]
            x = cursor.x
            chunk = cells[i:i + columns - x]
            line.update(zip(range(x, x + len(chunk)), chunk, strict=True))
            cursor.x = x + len(chunk)
            i += len(chunk)
        self.dirty.add(cursor.y)

    @property
    def display(self) -> list[str]:
        columns = self.columns
        rows = []
        for y in range(self.lines):
            line = self.buffer[y]
            row = "".join([line[x].data for x in range(columns)])
            if row and max(row) >= _WIDE_FROM:
                row = "".join(self._row_with_wide_characters(line))
            rows.append(row)
        return rows

    def _row_with_wide_characters(self, line: Any) -> list[str]:
        """pyte's ``display`` for one row: the cell after a wide character is skipped."""
        out = []
        skip = False
        for x in range(self.columns):
            if skip:
                skip = False
                continue
            char = line[x].data
            skip = bool(char) and wcwidth(char[0]) == 2
            out.append(char)
        return out
