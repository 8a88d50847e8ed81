"""Every key of the game on one page; the footer shows only those that matter now."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Markdown, Static

from ..widgets.steady_footer import SteadyFooter

HELP = """\
# How to play at this table

You sit at the bottom; your opponent's cards are at the top, face down. The turn-up shows
**trumps**, half covered by the **stock** with the number of cards left in it. Your chips
and the log of the hand are on the right. The line above the keys always says what the
table is waiting for.

| key | what it does |
|---|---|
| `1`–`5` | play that card (or, when exchanging, mark it for the discard) |
| `←` `→`, `enter` | move along your hand, play the card (or confirm the discard) |
| `space` | mark or unmark the card for the discard |
| mouse click | play or mark a card; click buttons in the dialogs |
| `p` | **“We play!”** — play the hand without proposing (the elder) |
| `c` | **“Cards!”** — propose an exchange (the elder) |
| `a` / `r` | accept or refuse a proposal (the dealer) |
| `k` | **“I have the king!”** — announce the king of trumps |
| `x` | keep the king of trumps quiet: not announced, its point is lost (asked once) |
| `enter` / `n` | next hand, once a hand is over |
| `h` | a hint: what the expert would do, and why (your marks stay as they are) |
| `u` | use the hint: mark its discards, or put the cursor on its card (`enter` confirms) |
| `?` / `f1` | this help |
| `f2` | the rules of the game in play |
| `f3` | settings: theme, four-colour deck, ASCII cards, king, bot speed |
| `ctrl+p` | the command palette: every command, searchable |
| `q`, `ctrl+q` | quit (a game in progress is saved and offered at the next start) |

A card you may not play is faded; try it anyway and the table tells you why. **At risk**
marks the player who insisted on the hand as dealt (see the rules, `f2`).
"""


class HelpScreen(Screen[None]):
    AUTO_FOCUS = "#help-scroll"  # not on_mount: a screen closed at once has no children
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Back"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("Help  ·  esc to go back", classes="bar")
        with VerticalScroll(id="help-scroll"):
            # an app adds its own keys (the club's talk, backing, wagers...)
            yield Markdown(HELP + getattr(self.app, "help_extra", ""))
        yield SteadyFooter()


    def action_close(self) -> None:
        self.dismiss(None)
