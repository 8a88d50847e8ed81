"""The rules of the preset in play, as Markdown, readable in the terminal."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static

from ...engine import Rules
from ..rules_text import rules_markdown
from ..widgets.steady_footer import SteadyFooter


class RulesScreen(Screen[None]):
    AUTO_FOCUS = "#rules-scroll"  # not on_mount: a screen closed at once has no children
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,f2", "close", "Back"),
        Binding("up,k", "scroll(-1)", "Up", show=False),
        Binding("down,j", "scroll(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown,space", "page(1)", "Page down", show=False),
    ]

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        name = self.rules.preset if self.rules else "classic"
        yield Static(f"Rules  ·  {name}  ·  esc to go back", id="rules-title", classes="bar")
        with VerticalScroll(id="rules-scroll"):
            yield Markdown(rules_markdown(self.rules), id="rules-text")
        yield SteadyFooter()


    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, step: int) -> None:
        self.query_one("#rules-scroll", VerticalScroll).scroll_relative(y=step, animate=False)

    def action_page(self, step: int) -> None:
        scroll = self.query_one("#rules-scroll", VerticalScroll)
        if step > 0:
            scroll.scroll_page_down(animate=False)
        else:
            scroll.scroll_page_up(animate=False)
