"""The decision in front of the player, with its keys, and the table's last word to them
(why a card was refused, the hint).

The last word is wrapped, never cut: a hint's reason and odds are the point of asking for
it. The bar grows by the lines it needs, up to ``max_lines`` (the rows the screen can spare
without squeezing the felt), and shrinks back when the word is gone.
"""

from __future__ import annotations

import textwrap

from rich.style import Style
from textual.geometry import Size

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
        self.max_lines = 3
        """The most lines the last word may take (the screen sets it from its height)."""

    def show(self, prompt: Prompt, message: str = "", severity: str = "error") -> None:
        if (prompt, message, severity) != (self.prompt, self.message, self.severity):
            width = self.size.width
            before = len(self.message_lines(width))
            self.prompt, self.message, self.severity = prompt, message, severity
            if len(self.message_lines(width)) != before:
                self.refresh(layout=True)  # the bar grows or shrinks
            else:
                self.changed()

    def set_max_lines(self, lines: int) -> None:
        lines = max(1, lines)
        if lines != self.max_lines:
            self.max_lines = lines
            self.refresh(layout=True)

    def message_lines(self, width: int) -> list[str]:
        """The last word wrapped to ``width``; past ``max_lines`` the last line ends in an
        ellipsis (only on a screen too short for it)."""
        if not self.message or width <= 0:
            return []
        lines = textwrap.wrap(self.message, width) or [""]
        if len(lines) > self.max_lines:
            lines = lines[: self.max_lines]
            lines[-1] = lines[-1][: width - 1] + "…"
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """``height: auto``: the prompt, then the last word (or the keys); two rows at least."""
        return max(2, 1 + len(self.message_lines(width)))

    def render_canvas(self) -> Canvas:
        def get(name: str) -> Style:
            return theme_style(self, name)

        waiting = self.prompt.mode == "wait"
        text = get("prompt--wait" if waiting else "prompt--text")
        rows: list[Runs] = [[(self.prompt.text, text)]]
        if self.message:
            style = get(f"prompt--{self.severity}")
            rows += [[(line, style)] for line in self.message_lines(self.size.width)]
        elif self.prompt.keys:
            rows.append([(self.prompt.keys, get("prompt--keys"))])
        return self.text_canvas(rows)
