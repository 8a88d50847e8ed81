"""A very small terminal emulator: just enough to read what a Textual app drew.

The benchmark runs hundreds of clients in one process; pyte would spend more time than the
server being measured. Textual positions every run of text with a cursor move (CSI row;col
H), so text runs, cursor moves and ignoring every other sequence is enough to read it.
"""

from __future__ import annotations

import codecs
import re

_TOKEN = re.compile(
    r"\x1b\[([0-9;?<>=$]*)[ -/]*([@-~])"  # CSI: parameters, final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC, ended by BEL or ST
    r"|\x1b[P^_][^\x1b]*\x1b\\"  # DCS/PM/APC strings
    r"|\x1b[^\[\]P^_]"  # two-character escapes
    r"|([^\x1b\r\n]+)"  # text
    r"|(\r)|(\n)"
)
_INCOMPLETE = re.compile(r"\x1b(\[[0-9;?<>=$]*[ -/]*|\][^\x07]*|[P^_][^\x1b]*)?")
"""A sequence cut at the end of a chunk: kept until the rest arrives."""


class LiteScreen:
    """Rows of characters, written by the text runs between cursor moves."""

    def __init__(self, columns: int, lines: int) -> None:
        self.columns = columns
        self.lines = lines
        self.rows = [[" "] * columns for _ in range(lines)]
        self.x = 0
        self.y = 0
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._pending = ""

    def feed(self, data: bytes) -> None:
        text = self._pending + self._decode(data)
        self._pending = ""
        last = text.rfind("\x1b")
        if last >= 0 and _INCOMPLETE.fullmatch(text, last):
            self._pending, text = text[last:], text[:last]
        for m in _TOKEN.finditer(text):
            run = m.group(3)
            if run is not None:
                self._write(run)
            elif m.group(2) is not None:
                if m.group(2) in "Hf":
                    self._move(m.group(1))
                elif m.group(2) == "J" and m.group(1) in ("2", "3"):
                    self.rows = [[" "] * self.columns for _ in range(self.lines)]
            elif m.group(4) is not None:
                self.x = 0
            elif m.group(5) is not None:
                self.y = min(self.lines - 1, self.y + 1)

    def _move(self, params: str) -> None:
        parts = params.split(";") if params else []
        try:
            row = int(parts[0]) if parts and parts[0] else 1
            col = int(parts[1]) if len(parts) > 1 and parts[1] else 1
        except ValueError:
            return
        self.y = min(max(row - 1, 0), self.lines - 1)
        self.x = min(max(col - 1, 0), self.columns)

    def _write(self, run: str) -> None:
        """Write at the cursor; without auto-wrap (Textual turns it off) the last column
        takes whatever is written past the edge, as in a terminal."""
        row = self.rows[self.y]
        x = min(self.x, self.columns - 1)
        end = min(x + len(run), self.columns)
        row[x:end] = run[: end - x]
        if x + len(run) > self.columns:
            row[-1] = run[-1]
        self.x = min(x + len(run), self.columns)

    def text(self) -> str:
        return "\n".join("".join(r) for r in self.rows)
