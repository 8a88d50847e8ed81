"""Cap the length of a bracketed paste before Textual's parser buffers it.

Textual's XTermParser collects a bracketed paste one character at a time until the
end marker arrives. A client that sends the start marker and then streams forever
would grow that buffer without bound, so the input stream is filtered here: a paste
longer than the limit is cut (an end marker is inserted) and the rest of it dropped.
Markers split across reads are recognised.
"""

from __future__ import annotations

from enum import Enum

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
_MARKER_LEN = len(PASTE_START)


class _State(Enum):
    OUTSIDE = "outside"
    INSIDE = "inside"
    DISCARDING = "discarding"


class PasteLimiter:
    """Stateful filter over decoded input text."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.truncated = 0
        """How many pastes were cut (diagnostics)."""
        self._state = _State.OUTSIDE
        self._count = 0
        self._tail = ""
        self._carry = ""

    @property
    def held(self) -> str:
        """Input held back inside a paste because it may be the start of the end marker."""
        return self._carry

    def filter(self, text: str) -> str:
        """Return what the parser should see for this chunk of input."""
        text, self._carry = self._carry + text, ""
        window = self._tail + text
        offset = len(self._tail)
        out: list[str] = []
        pos = offset
        while pos < len(window):
            marker = PASTE_START if self._state is _State.OUTSIDE else PASTE_END
            idx = window.find(marker, max(0, pos - (_MARKER_LEN - 1)))
            found = idx >= 0
            end = idx + _MARKER_LEN if found else len(window)
            if self._state is _State.OUTSIDE:
                out.append(window[pos:end])
                if found:
                    self._state = _State.INSIDE
                    self._count = 0
            elif self._state is _State.INSIDE:
                if not found:
                    # Hold back what may be the start of the end marker: counting it as
                    # pasted text could cut the paste in the middle of its own marker.
                    held = _partial_marker_len(window[pos:], PASTE_END)
                    end -= held
                    self._carry = window[end:]
                self._inside(window, pos, idx if found else end, end, found, out)
                if not found:
                    break
            elif found:  # discarding up to and including the end marker
                self._state = _State.OUTSIDE
            pos = end
        processed = window[: len(window) - len(self._carry)]
        self._tail = processed[-(_MARKER_LEN - 1) :]
        return "".join(out)

    def _inside(
        self, window: str, pos: int, content_end: int, end: int, found: bool, out: list[str]
    ) -> None:
        content = window[pos : max(pos, content_end)]
        room = self.limit - self._count
        if len(content) > room:
            out.append(content[:room])
            out.append(PASTE_END)
            self.truncated += 1
            self._state = _State.OUTSIDE if found else _State.DISCARDING
            return
        self._count += len(content)
        out.append(window[pos:end])
        if found:
            self._state = _State.OUTSIDE


def _partial_marker_len(text: str, marker: str) -> int:
    """Length of the longest proper prefix of `marker` that `text` ends with."""
    for size in range(min(len(text), len(marker) - 1), 0, -1):
        if text.endswith(marker[:size]):
            return size
    return 0
