"""A question with a few answers, each a button and a key: asked before a saved game is
pushed out or forgotten, since nothing the player kept may go without his say-so."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from ..widgets.steady_footer import SteadyFooter


class AskScreen(ModalScreen[str | None]):
    """Dismissed with the chosen answer's name, or None for Esc (nothing happens)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "answer('')", "Cancel")]

    def __init__(self, title: str, text: str, answers: list[tuple[str, str, str]]) -> None:
        """``answers``: (name, button label, key); the first is the default button."""
        super().__init__()
        self.title_text = title
        self.text = text
        self.answers = answers
        for name, label, key in answers:
            self._bindings.bind(key, f"answer('{name}')", label)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog ask"):
            yield Label(self.title_text, classes="title")
            yield Static(self.text, classes="line")
            with Horizontal(classes="buttons"):
                for i, (name, label, key) in enumerate(self.answers):
                    yield Button(f"{label}  {key}", id=f"answer-{name}",
                                 variant="primary" if i == 0 else "default")
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one(Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.action_answer((event.button.id or "").removeprefix("answer-"))

    def action_answer(self, name: str) -> None:
        self.dismiss(name or None)
