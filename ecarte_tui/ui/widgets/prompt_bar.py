"""The decision in front of the player, with its keys, and the table's last word to them
(why a card was refused, the hint)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ..narration import Prompt
from ..theme_styles import theme_style


class PromptBar(Widget):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.prompt = Prompt("")
        self.message = ""
        self.severity = "error"

    def show(self, prompt: Prompt, message: str = "", severity: str = "error") -> None:
        if (prompt, message, severity) != (self.prompt, self.message, self.severity):
            self.prompt, self.message, self.severity = prompt, message, severity
            self.refresh()

    def render(self) -> Text:
        def get(name: str) -> Style:
            return theme_style(self, name)

        out = Text(no_wrap=True, overflow="ellipsis", end="")
        waiting = self.prompt.mode == "wait"
        out.append(self.prompt.text, get("prompt--wait" if waiting else "prompt--text"))
        out.append("\n")
        if self.message:
            out.append(self.message, get(f"prompt--{self.severity}"))
        elif self.prompt.keys:
            out.append(self.prompt.keys, get("prompt--keys"))
        return out
