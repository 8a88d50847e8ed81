"""Join a table by its four-letter code (the one a friend read out from their screen)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ecarte_tui.ui.widgets.ordered_input import OrderedInput


class JoinScreen(ModalScreen[str | None]):
    AUTO_FOCUS = "#code"  # not on_mount: a screen closed at once has no children
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, verb: str = "join") -> None:
        super().__init__()
        self.verb = verb

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            title = "Join a table" if self.verb == "join" else "Watch a table"
            yield Static(title, classes="title")
            yield Static("The table's four-letter code:", classes="line")
            yield OrderedInput(placeholder="KXRT", max_length=4, restrict=r"[A-Za-z]*", id="code")
            yield Static("enter go · esc cancel", classes="line club-keys")

    @on(Input.Submitted, "#code")
    def _submitted(self, event: Input.Submitted) -> None:
        code = event.value.strip().upper()
        self.dismiss(code or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
