"""The log of the hand: what was asked, how many cards each took, tricks and points.

Rebuilt from the seat's view on every update, so a resumed game shows its whole hand.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..card_art import Canvas
from .felt import FeltWidget


class HandLog(VerticalScroll, can_focus=False):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="log-text", markup=False)  # (names from a record are not markup)

    def show(self, lines: list[str]) -> None:
        if lines == self.lines:
            return
        self.lines = list(lines)
        self.query_one("#log-text", Static).update("\n".join(lines))
        self.call_after_refresh(self.scroll_end, animate=False)


class TailLog(FeltWidget, can_focus=False):
    """The same log in a fixed box: the last lines that fit, the wheel scrolls back.

    HandLog grows a text inside a scrolling container, and every new line makes Textual lay
    the whole screen out again; a server that redraws every move for every player uses this
    one instead (``TableScreen.LOG``), which only repaints its own box.
    """

    DEFAULT_CSS = "TailLog { height: 1fr; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []
        self.back = 0  # lines scrolled back from the end
        self._wrapped: dict[str, list[str]] = {}
        self._wrap_width = 0

    def show(self, lines: list[str]) -> None:
        if lines == self.lines:
            return
        self.lines = list(lines)
        self.back = 0
        self.changed()

    def render_canvas(self) -> Canvas:
        width, height = self.size
        if width <= 0 or height <= 0:
            return Canvas(max(0, width), max(0, height))
        if self._wrap_width != width:
            self._wrapped.clear()
            self._wrap_width = width
        wrapped: list[str] = []
        for line in self.lines:
            lines = self._wrapped.get(line)
            if lines is None:  # each line is wrapped once: a move adds one line to the log
                lines = self._wrapped[line] = [
                    t.plain for t in Text(line).wrap(self.app.console, width)]
            wrapped.extend(lines)
        if len(self._wrapped) > 4 * len(self.lines) + 64:
            self._wrapped.clear()
        self.back = min(self.back, max(0, len(wrapped) - height))
        end = len(wrapped) - self.back
        shown = wrapped[max(0, end - height):end]
        return self.text_canvas([[(line, None)] for line in shown])

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self.back += 1
        self.changed()
        event.stop()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self.back = max(0, self.back - 1)
        self.changed()
        event.stop()
