"""The club's leaderboard: the best-rated players, and the reader's own place below them.

Opened from the lobby with ``l``. It follows the ratings while it is open: the house calls
its listeners (possibly from another player's app) when a match is rated, and the screen
only queues a message then, redrawing itself in its own app.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ecarte_tui.ui.widgets.key_bar import KeyBar
from net.screens.standings import LeaderRow, leaderboard_rows
from net.screens.store_trouble import say_store_down

if TYPE_CHECKING:
    from net.screens.club_app import ClubApp

log = logging.getLogger(__name__)
COLUMNS = ("Rank", "Player", "Rating", "Matches", "Won")
FORMULA = "Elo: everyone starts at 1500; after a rated match the winner takes K·(1 − E) = " \
    "32·(1 − E) points from the loser, E = 1 / (1 + 10^((Rb − Ra)/400))."
EMPTY = ("No rated match yet. A match between two players who connect with an SSH key is "
         "rated when it ends (guests and the bot are not rated).")


class RatingsChanged(Message):
    """A match was rated somewhere on the server."""


class LeaderboardScreen(Screen[None]):
    AUTO_FOCUS = "#leaders"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,l", "back", "Back"),
    ]
    DEFAULT_CSS = """
    LeaderboardScreen { background: $felt; align: center top; }
    LeaderboardScreen #board { width: 100%; max-width: 100; height: 1fr; padding: 0 1; }
    LeaderboardScreen .standings-title {
        width: 1fr; text-align: center; text-style: bold; color: $primary; padding: 1 0 0 0;
    }
    LeaderboardScreen .standings-note { width: 1fr; color: $foreground; padding: 1 0; }
    LeaderboardScreen #leaders { height: auto; max-height: 1fr; background: $felt-edge; }
    LeaderboardScreen #leaders-empty { color: $foreground; text-style: italic; padding: 1 0; }
    """

    def __init__(self, rows: Callable[[], list[LeaderRow]],
                 listeners: list[Callable[[str, str], None]] | None = None) -> None:
        """``rows`` is asked again after every rating; ``listeners``: where to hear of one
        (the house's listeners, called with a table code and what happened)."""
        super().__init__()
        self.rows = rows
        self.listeners = listeners
        self._pending = False

    def compose(self) -> ComposeResult:
        with Vertical(id="board"):
            yield Static("L E A D E R B O A R D", classes="standings-title")
            yield Static(FORMULA, classes="standings-note")
            yield DataTable(id="leaders", cursor_type="row", zebra_stripes=True)
            yield Static(EMPTY, id="leaders-empty")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one("#leaders", DataTable)
        for name in COLUMNS:
            table.add_column(name, key=name)
        if self.listeners is not None:
            self.listeners.append(self._heard)
        self.fill()

    def on_unmount(self) -> None:
        if self.listeners is not None and self._heard in self.listeners:
            self.listeners.remove(self._heard)

    def _heard(self, _code: str, what: str) -> None:
        """Possibly called from another app: only queue a message."""
        if what == "rated" and not self._pending:
            self._pending = True
            self.post_message(RatingsChanged())

    def on_ratings_changed(self, _message: RatingsChanged) -> None:
        self._pending = False
        if self.is_attached:
            self.fill()

    def fill(self) -> None:
        try:
            rows = self.rows()
        except sqlite3.OperationalError as e:  # the store away: the last rows stay
            say_store_down(self.app)
            log.debug("the leaderboard was not read: %s", e)
            return
        table = self.query_one("#leaders", DataTable)
        table.clear()
        mine = None
        for i, r in enumerate(rows):
            name = f"▶ {r.name} (you)" if r.mine else r.name
            gap = i > 0 and r.rank != rows[i - 1].rank + 1
            rank = f"… {r.rank}" if gap else str(r.rank)
            table.add_row(rank, name, str(r.rating), str(r.matches), str(r.wins),
                          key=f"{r.rank}")
            if r.mine:
                mine = i
        if mine is not None:
            table.move_cursor(row=mine)
        table.display = bool(rows)
        self.query_one("#leaders-empty", Static).display = not rows

    def action_back(self) -> None:
        self.dismiss(None)


def leaderboard_for(app: ClubApp) -> LeaderboardScreen:
    """The leaderboard of ``app``'s club, seen by ``app``'s player."""
    house = app.club.house
    store = app.club.store
    viewer = app.player.id if app.player is not None else None
    if house is None:
        return LeaderboardScreen(list)
    return LeaderboardScreen(lambda: leaderboard_rows(store, house.ratings, viewer),
                             house.listeners)
