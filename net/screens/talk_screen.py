"""The table talk, opened large: the recent lines and a line to type in.

Lines are drawn as plain ``Text`` (never markup). A refused line (too long, too fast,
empty) is told in a notification and stays in the input, so nothing is lost or sent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ecarte_tui.ui.widgets.ordered_input import OrderedInput
from net.club.clubhouse.talk import ChatLine
from net.screens.talk_panel import chat_text

HISTORY_ROWS = 10

Send = Callable[[str], str | None]
"""Say a line; returns why it was refused, or None when it was sent."""


class TalkScreen(ModalScreen[None]):
    AUTO_FOCUS = "#talk-input"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]
    DEFAULT_CSS = """
    TalkScreen .dialog { width: 72; }
    #talk-scroll { height: auto; max-height: 10; margin-bottom: 1; }
    #talk-history { height: auto; color: $foreground; }
    #talk-muted { color: $warning; text-style: bold; }
    """

    def __init__(self, lines: Sequence[ChatLine], send: Send, muted: str = "") -> None:
        super().__init__()
        self.lines = list(lines)
        self.send = send
        self.muted = muted

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Table talk", classes="title")
            with VerticalScroll(id="talk-scroll"):  # the newest line in sight, wrapped or not
                yield Static(self._history(), id="talk-history")
            if self.muted:  # (what is muted, in words)
                yield Static(self.muted, id="talk-muted", markup=False)
            yield OrderedInput(placeholder="Say something to the table", id="talk-input")
            yield Static("enter send · esc close", classes="line club-keys")

    def _history(self) -> Text:
        if not self.lines:
            return Text("Nobody has spoken yet.", style="italic")
        shown = [chat_text(line) for line in self.lines[-HISTORY_ROWS:]]
        for t in shown:
            t.no_wrap = False  # the large view wraps long lines
        return Text("\n").join(shown)

    def show_lines(self, lines: Sequence[ChatLine]) -> None:
        """New lines arrived while the talk is open."""
        self.lines = list(lines)
        if self.is_mounted:
            self.query_one("#talk-history", Static).update(self._history())
            self._to_newest()

    def on_mount(self) -> None:
        self._to_newest()

    def _to_newest(self) -> None:
        scroll = self.query_one("#talk-scroll", VerticalScroll)
        self.call_after_refresh(scroll.scroll_end, animate=False, immediate=True)

    @on(Input.Submitted, "#talk-input")
    def _submitted(self, event: Input.Submitted) -> None:
        why = self.send(event.value)
        if why is not None:
            self.notify(why[0].upper() + why[1:], severity="error", timeout=4, markup=False)
            return
        event.input.value = ""

    def action_close(self) -> None:
        self.dismiss(None)
