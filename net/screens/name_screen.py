"""The first visit with a new key: the player chooses the name everybody will see."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from ecarte_tui.ui.widgets.key_bar import KeyBar
from ecarte_tui.ui.widgets.ordered_input import OrderedInput

NameCheck = Callable[[str], str | None]
"""Registers the name; returns why it was refused, or None once it is the player's."""


class NameScreen(Screen[str]):
    AUTO_FOCUS = "#name"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "app.exit_club", "Quit", priority=True),
    ]

    def __init__(self, suggestion: str, register: NameCheck) -> None:
        super().__init__()
        self.suggestion = suggestion
        self.register = register

    def compose(self) -> ComposeResult:
        with Vertical(id="name-box", classes="club-box"):
            yield Static("Welcome to the Écarté club", classes="club-title")
            yield Static(
                "This is your first visit with this key. Choose the name the other players "
                "will see: 2 to 16 letters, digits, '.', '_' or '-'. Come back with the same "
                "key and you are this player again, with your games and record.",
                classes="club-text",
            )
            yield OrderedInput(self.suggestion, max_length=16, id="name")
            yield Static("", id="name-error", classes="club-error")
            yield Static("enter take this name · ctrl+q quit", classes="club-keys")
        yield KeyBar()

    @on(Input.Submitted, "#name")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.app.screen is not self:
            return  # a second Enter read with the first: the name is taken, the screen gone
        name = event.value.strip()
        problem = self.register(name)
        if problem:
            self.query_one("#name-error", Static).update(problem[0].upper() + problem[1:])
            return
        self.dismiss(name)
