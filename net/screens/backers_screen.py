"""A player's backers, and whether each sees his hand: the player shows it, backer by backer.

Seeing a hand is the player's to give, never a watcher's to take: on a public server a
backer is a stranger's key. Enter shows the highlighted backer the hand or takes it back, at
once; the list is read again after every change. Names are drawn as plain ``Text`` (a name
is another person's input).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from net.club.table_room import BackerRow

Rows = Callable[[], Sequence[BackerRow]]
Toggle = Callable[[str, bool], str | None]
"""Show (True) or stop showing the hand to a backer; returns why not, or None when done."""


def row_text(row: BackerRow) -> Text:
    """"wil · sees your hand" (or "does not see it"), and "away" for one not here now."""
    out = Text(row.name)
    out.append(" · sees your hand" if row.sees_hand else " · does not see your hand",
               style="bold" if row.sees_hand else "")
    if not row.here:
        out.append(" (away)", style="italic")
    return out


class BackersScreen(ModalScreen[None]):
    """The list of the player's backers; enter toggles the highlighted one's view."""

    AUTO_FOCUS = "#backers-list"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]
    DEFAULT_CSS = """
    #backers-list { height: auto; max-height: 8; margin-bottom: 1; }
    """

    def __init__(self, rows: Rows, toggle: Toggle, table_allows: bool) -> None:
        super().__init__()
        self.rows = rows
        self.toggle = toggle
        self.table_allows = table_allows
        self._shown: list[BackerRow] = []

    def compose(self) -> ComposeResult:
        why = ("A backer sees your hand only if you show it to him; while he sees it (and "
               "until the game ends) his table talk goes to you alone. Enter shows it or "
               "takes it back, at once." if self.table_allows
               else "This table never shows a backer the hand (a table option): your "
               "backers advise you from the public table.")
        with Vertical(classes="dialog"):
            yield Static("Your backers", classes="title")
            yield Static(why, classes="line", markup=False)
            yield Static("", classes="line")
            yield OptionList(id="backers-list")
            yield Static("enter show / take back · esc close", classes="line club-keys")

    def on_mount(self) -> None:
        self.refresh_rows()

    def refresh_rows(self) -> None:
        """Read the backers again (one came, one left, a grant changed)."""
        rows = list(self.rows())
        listing = self.query_one("#backers-list", OptionList)
        keep = listing.highlighted
        self._shown = rows
        listing.clear_options()
        if rows:
            listing.add_options([Option(row_text(r), id=r.watcher) for r in rows])
            listing.highlighted = min(keep or 0, len(rows) - 1)
        else:
            listing.add_option(Option(Text("Nobody backs you now."), id="", disabled=True))

    @on(OptionList.OptionSelected, "#backers-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        row = next((r for r in self._shown if r.watcher == event.option.id), None)
        if row is None:
            return
        why = self.toggle(row.watcher, not row.sees_hand)
        if why is not None:
            self.notify(why[0].upper() + why[1:], severity="error", timeout=5, markup=False)
        self.refresh_rows()

    def action_close(self) -> None:
        self.dismiss(None)
