"""Shown instead of a broken table when the terminal is smaller than the table needs."""

from __future__ import annotations

from textual.widgets import Static

MIN_WIDTH = 80
MIN_HEIGHT = 24


def too_small_text(width: int, height: int, keys: str = "") -> str:
    """The message, and ``keys``: what still works while the table is hidden."""
    text = (
        f"Please enlarge your terminal to at least {MIN_WIDTH}×{MIN_HEIGHT}.\n\n"
        f"It is {width}×{height} now: the table comes back as soon as it fits."
    )
    return f"{text}\n\n{keys}" if keys else text


class TooSmall(Static):
    """A plain message; the screen keeps its text up to date on every resize."""

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(text, id=id)
        self._text = text

    def show_size(self, width: int, height: int, keys: str = "") -> None:
        """The message for this size. The same text is not set again: an update lays the
        whole screen out again, hidden as the message is while the table fits (one
        layout more for every table a server opened)."""
        text = too_small_text(width, height, keys)
        if text != self._text:
            self._text = text
            self.update(text)
