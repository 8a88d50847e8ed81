"""The decision in front of the player, with its keys, and the table's last word to them
(why a card was refused, the hint)."""

from __future__ import annotations

from rich.style import Style

from ..card_art import Canvas
from ..narration import Prompt
from ..theme_styles import theme_style
from .felt import FeltWidget, Runs


class PromptBar(FeltWidget):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.prompt = Prompt("")
        self.message = ""
        self.severity = "error"

    def show(self, prompt: Prompt, message: str = "", severity: str = "error") -> None:
        if (prompt, message, severity) != (self.prompt, self.message, self.severity):
            self.prompt, self.message, self.severity = prompt, message, severity
            self.changed()

    def render_canvas(self) -> Canvas:
        def get(name: str) -> Style:
            return theme_style(self, name)

        waiting = self.prompt.mode == "wait"
        text = get("prompt--wait" if waiting else "prompt--text")
        rows: list[Runs] = [[(self.prompt.text, text)]]
        if self.message:
            rows.append([(self.message, get(f"prompt--{self.severity}"))])
        elif self.prompt.keys:
            rows.append([(self.prompt.keys, get("prompt--keys"))])
        return self.text_canvas(rows)
