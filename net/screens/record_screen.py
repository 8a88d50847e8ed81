"""A player's record: rating, matches, games, hands, voles, kings, points, and their finished
matches, each replayable with Enter.

Opened from the lobby with ``r``. A guest has nothing kept, so the screen says so and how
to get a record (connect with a key).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ecarte_tui.engine import Record
from ecarte_tui.ui.widgets.felt import Look
from ecarte_tui.ui.widgets.key_bar import KeyBar
from net.club.identity import is_guest
from net.screens.served_replay import ServedReplayScreen, stored_record
from net.screens.standings import MatchRow, match_rows, record_text
from net.screens.store_trouble import say_store_down

if TYPE_CHECKING:
    from net.screens.club_app import ClubApp

COLUMNS = ("Date", "Opponent", "Rules", "Result", "Rating")
GUEST_TEXT = ("You play as a guest: a guest has no rating and no record, since nothing of a "
              "guest is kept. Connect with an SSH key to keep a name, a rating and a record.")
NO_MATCH = "No finished match yet."


class RecordScreen(Screen[None]):
    AUTO_FOCUS = "#matches"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,r", "back", "Back"),
    ]
    DEFAULT_CSS = """
    RecordScreen { background: $felt; align: center top; }
    RecordScreen #record { width: 100%; max-width: 100; height: 1fr; padding: 0 1; }
    RecordScreen .standings-title {
        width: 1fr; text-align: center; text-style: bold; color: $primary; padding: 1 0 0 0;
    }
    RecordScreen #record-numbers { width: 1fr; color: $foreground; padding: 1 0; }
    RecordScreen #matches-title { color: $accent; text-style: bold; }
    RecordScreen #matches { height: 1fr; background: $felt-edge; }
    RecordScreen #matches-empty { color: $foreground; text-style: italic; padding: 1 0; }
    RecordScreen #record-keys { color: $accent; height: auto; padding: 1 0 0 0; }
    """

    def __init__(self, name: str, numbers: str | None, matches: list[MatchRow],
                 replay: Callable[[str], Record | None]) -> None:
        """``numbers``: the record as text, None for a guest; ``replay`` finds a match's
        record by its table code."""
        super().__init__()
        self.player_name = name
        self.numbers = numbers
        self.matches = matches
        self.replay = replay

    def compose(self) -> ComposeResult:
        guest = self.numbers is None
        with Vertical(id="record"):
            yield Static(f"R E C O R D  ·  {self.player_name}", classes="standings-title")
            yield Static(GUEST_TEXT if guest else self.numbers, id="record-numbers")
            if not guest:
                yield Static("Finished matches", id="matches-title")
                yield DataTable(id="matches", cursor_type="row", zebra_stripes=True)
                yield Static(NO_MATCH, id="matches-empty")
                yield Static("enter replay the match · esc back", id="record-keys")
        yield KeyBar()

    def on_mount(self) -> None:
        if self.numbers is None:
            return
        table = self.query_one("#matches", DataTable)
        for name in COLUMNS:
            table.add_column(name, key=name)
        for m in self.matches:
            table.add_row(m.date, m.opponent, m.rules, m.result, m.change, key=m.code)
        table.display = bool(self.matches)
        self.query_one("#matches-empty", Static).display = not self.matches

    @on(DataTable.RowSelected, "#matches")
    def _selected(self, event: DataTable.RowSelected) -> None:
        code = event.row_key.value
        row = next((m for m in self.matches if m.code == code), None)
        if row is None:
            return
        try:
            record = self.replay(row.code)
        except sqlite3.OperationalError:  # (a row chosen: outside the keys' guarded actions)
            say_store_down(self)
            return
        if record is None:
            self.notify("This match's record cannot be read.", severity="error")
            return
        look = getattr(self.app, "look", None)
        self.app.push_screen(ServedReplayScreen(record, look if isinstance(look, Look)
                                                else Look(), row.seat))

    def action_back(self) -> None:
        self.dismiss(None)


def record_for(app: ClubApp) -> RecordScreen:
    """``app``'s player's record and finished matches (a guest's screen says there are none)."""
    player = app.player
    store = app.club.store
    house = app.club.house
    if player is None or is_guest(player):
        name = player.name if player is not None else "guest"
        return RecordScreen(name, None, [], lambda _code: None)
    book = house.ratings if house is not None else None
    numbers = record_text(book.record(player.id)) if book is not None else ""
    return RecordScreen(player.name, numbers, match_rows(store, book, player.id),
                        lambda code: stored_record(store, code))
