"""The log of the hand: what was asked, how many cards each took, tricks and points.

Rebuilt from the seat's view on every update, so a resumed game shows its whole hand.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class HandLog(VerticalScroll, can_focus=False):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="log-text")

    def show(self, lines: list[str]) -> None:
        if lines == self.lines:
            return
        self.lines = list(lines)
        self.query_one("#log-text", Static).update("\n".join(lines))
        self.call_after_refresh(self.scroll_end, animate=False)
