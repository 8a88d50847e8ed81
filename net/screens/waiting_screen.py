"""An open table waiting for its second player: the code to share, and the way out."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ecarte_tui.ui.widgets.key_bar import KeyBar
from net.club import LiveTable
from net.screens.table_rows import table_rules_text

if TYPE_CHECKING:
    from net.screens.club_app import ClubApp  # or HostApp: both show_table and close_open_table


LOBBY_HINT = ("They can pick this table in the lobby, type its code there (j), or sit down "
              "directly with:")


class OpponentArrived(Message):
    """The club started the game at this table."""


class WaitingScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close the table"),
        Binding("q", "close", "Back to the lobby"),
    ]

    def __init__(self, lt: LiveTable, join_command: str, hint: str = LOBBY_HINT,
                 close: str = "close the table and go back to the lobby",
                 fingerprint: str = "") -> None:
        super().__init__()
        self.lt = lt
        self.join_command = join_command
        self.hint = hint
        self.close = close
        self.fingerprint = fingerprint

    @property
    def club_app(self) -> ClubApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        lt = self.lt
        with Vertical(id="waiting-box", classes="club-box"):
            yield Static(f"Table {lt.code}", classes="club-title", id="waiting-code")
            yield Static(table_rules_text(lt), classes="club-text")
            yield Static("Waiting for an opponent…", classes="club-text club-strong")
            yield Static(self.hint, classes="club-text")
            yield Static(self.join_command, classes="club-command", id="waiting-command")
            if self.fingerprint:
                # ssh asks a first-time guest to trust this key: the host reads it out to him
                yield Static(f"The first time, ssh asks them to trust this computer's key: "
                             f"it is {self.fingerprint}", classes="club-text",
                             id="waiting-fingerprint")
            yield Static(f"esc {self.close}", classes="club-keys")
        yield KeyBar()

    def on_mount(self) -> None:
        self.lt.listeners.append(self._table_changed)
        if self.lt.table is not None:
            self.post_message(OpponentArrived())

    def on_unmount(self) -> None:
        if self._table_changed in self.lt.listeners:
            self.lt.listeners.remove(self._table_changed)

    def _table_changed(self, lt: LiveTable) -> None:
        """Called by the club from another player's app: only queue a message."""
        if lt.table is not None:
            self.post_message(OpponentArrived())

    def on_opponent_arrived(self, _message: OpponentArrived) -> None:
        if self.lt.table is not None and self.is_current:
            self.club_app.show_table(self.lt, 0)

    def action_close(self) -> None:
        self.club_app.close_open_table(self.lt)
