"""The lobby: the open tables, a new table, the bot, a table by its code, watching a game."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ecarte_tui.ui.widgets.key_bar import KeyBar
from net.club import BOT_PREFIX
from net.screens.club_notice import TITLE as NOTICE_TITLE
from net.screens.join_screen import JoinScreen
from net.screens.leaderboard_screen import leaderboard_for
from net.screens.money_text import who_with_purse
from net.screens.new_table_screen import HUMAN, NewTableScreen
from net.screens.record_screen import record_for
from net.screens.table_list import TableList
from net.screens.table_rows import TableRow, table_row

if TYPE_CHECKING:
    from net.club import TableOptions
    from net.screens.club_app import ClubApp

COLUMNS = ("Table", "Rules", "Players", "Game", "Watching")
REFILL_SECONDS = 1.0


def _cells(row: TableRow) -> tuple[str, str, str, str, str]:
    """A row's text in the order of COLUMNS."""
    return row.code, row.rules, row.players, row.state, row.watchers


WHO_SECONDS = 60.0
"""The header (record, rating, purse) is read from the store again after this long, or when
told that it changed; not at each change of the list, which on a busy club is every second,
for every lobby, on the event loop (a round trip each on PostgreSQL)."""


class LobbyChanged(Message):
    """Something changed in the club: tables, seats, watchers, who is away."""


class LobbyScreen(Screen[None]):
    AUTO_FOCUS = "#tables"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_table", "New table"),
        Binding("b", "play_bot", "Play the bot"),
        Binding("j", "join_code", "Join by code"),
        Binding("w", "watch", "Watch"),
        Binding("l", "leaderboard", "Leaderboard", show=False),
        Binding("r", "record", "My record", show=False),
        Binding("f2", "app.rules", "Rules", show=False),
        Binding("f3", "app.settings", "Settings", show=False),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.exit_club", "Quit"),
    ]

    def __init__(self, offer: TableOptions | None = None) -> None:
        """``offer``: open the new-table dialog at once, with these options (a rematch)."""
        super().__init__()
        self.offer = offer
        self._pending = False
        self._filled_at = 0.0
        self._shown = False  # between ScreenResume and ScreenSuspend
        self._left = False  # suspended once (another screen was shown over it)
        self._rows: list[TableRow] | None = None  # as the list shows them
        self._who = ""
        self._who_read_at = -WHO_SECONDS  # (monotonic) the header's record and purse, read
        self._empty: str | None = None  # the line under an empty list, as shown

    @property
    def club_app(self) -> ClubApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with Vertical(id="lobby"):
            yield Static("♠ ♥  É C A R T É   C L U B  ♦ ♣", id="lobby-title")
            yield Static(id="lobby-who")
            yield Static(id="lobby-notice", markup=False)
            yield TableList(id="tables", cursor_type="row", zebra_stripes=True)
            yield Static(id="lobby-empty")
            yield Static(
                "enter sit down (or watch a full table) · n new table · b play the bot · "
                "j join by code · w watch · l leaderboard · r my record", id="lobby-keys")
        yield KeyBar()

    def on_mount(self) -> None:
        if not self.query("#tables"):
            return  # closed before it was composed (a burst of keys): nothing to set up
        table = self.query_one("#tables", DataTable)
        for name in COLUMNS:
            table.add_column(name, key=name)
        self.show_notice()
        self.club_app.club.lobby_listeners.append(self._club_changed)
        self._fill()
        if self.offer is not None:
            offer, self.offer = self.offer, None
            self.call_after_refresh(self.app.push_screen, NewTableScreen(like=offer),
                                    self._create)

    def show_notice(self) -> None:
        """The operator's notice under the title (nothing, and no line, without one)."""
        if not self.query("#lobby-notice"):
            return
        notice = self.club_app.ctx.notice
        text = notice.text if notice is not None else ""
        line = self.query_one("#lobby-notice", Static)
        line.display = bool(text)
        line.update(f"{NOTICE_TITLE}: {text}" if text else "")

    def on_unmount(self) -> None:
        self.club_app.ctx.empty_lobbies.discard(self._club_changed)
        listeners = self.club_app.club.lobby_listeners
        if self._club_changed in listeners:
            listeners.remove(self._club_changed)

    def on_screen_resume(self) -> None:
        if not self.is_current:
            return  # popped on the way to a table: never shown again
        if not self.query("#lobby-who"):
            return  # taken down (the session closing) before a late resume reached it
        if self._left:  # (back from a match or a dialog: his record may have moved)
            self._who_read_at = -WHO_SECONDS
        self._shown = True
        self._fill()

    def who_changed(self) -> None:
        """His purse, record or name changed (a settlement, the operator): the header is
        read again at the next fill, at once if the list is shown."""
        self._who_read_at = -WHO_SECONDS
        if self._shown:
            self._club_changed()

    def on_screen_suspend(self) -> None:
        self._shown, self._left = False, True

    def _club_changed(self) -> None:
        """Called by the club, possibly from another player's app: only queue a message.
        A lobby under a dialog (a new table, a code to join) is not refilled until it comes
        back: on a busy server the list changes every second, and it is the session's
        costliest redraw."""
        if self._shown and not self._pending:
            self._pending = True
            self.post_message(LobbyChanged())

    def on_lobby_changed(self, _message: LobbyChanged) -> None:
        # at most one refill a second: on a busy server tables change all the time, and
        # every player in the lobby would redraw the whole list for each change
        wait = REFILL_SECONDS - (time.monotonic() - self._filled_at)
        if wait > 0:
            self.set_timer(wait, self._refill)
        else:
            self._refill()

    def _refill(self) -> None:
        self._pending = False
        if self.is_attached and self._shown and self.query("#lobby-who"):
            self._fill()

    def _fill(self) -> None:
        self._filled_at = now = time.monotonic()
        if now - self._who_read_at >= WHO_SECONDS:  # (not at every change of the list)
            self._who_read_at = now
            who = who_with_purse(self.club_app)
            if who != self._who:
                self._who = who
                self.query_one("#lobby-who", Static).update(who)
        app = self.club_app
        player_id = app.player.id if app.player else None
        rows = [table_row(app.club, lt, player_id)
                for lt in app.club.lobby_tables(player_id)]
        rows.sort(key=lambda r: (not r.mine, not r.joinable, r.code))
        self._say_empty(not rows)
        if rows == self._rows:
            return  # (a lobby comes back, or a change it does not show: nothing to draw)
        table = self.query_one("#tables", DataTable)
        if self._rows is not None and [r.code for r in rows] == [r.code for r in self._rows]:
            # the same tables in the same order: only the cells that changed (clearing and
            # adding every row again measured every cell of a lobby of a hundred tables)
            for old, new in zip(self._rows, rows, strict=True):
                for column, before, after in zip(COLUMNS, _cells(old), _cells(new),
                                                 strict=True):
                    if before != after:
                        table.update_cell(new.code, column, after, update_width=True)
            self._rows = rows
            return
        self._rows = rows
        keep = self._cursor_code()
        table.clear()
        for r in rows:
            table.add_row(*_cells(r), key=r.code)
        if keep is not None:
            for i, r in enumerate(rows):
                if r.code == keep:
                    table.move_cursor(row=i)
                    break

    def _say_empty(self, empty: bool) -> None:
        """Under an empty list: how to begin, and whether anyone is here to join a table
        (a newcomer to a quiet club would otherwise wait for nobody)."""
        text = ""
        if empty:
            connected = self.club_app.ctx.connected
            others = connected() - 1 if connected is not None else 0
            text = "No table is open yet: press n to open one, or b to play the bot."
            if others > 0:
                who = "1 other player is" if others == 1 else f"{others} other players are"
                text += f"\n{who} here: they will see the table you open."
        listening = self.club_app.ctx.empty_lobbies
        if empty:
            listening.add(self._club_changed)
        else:
            listening.discard(self._club_changed)
        line = self.query_one("#lobby-empty", Static)
        if text != self._empty:
            self._empty = text
            line.update(text)
        line.display = empty

    def _cursor_code(self) -> str | None:
        table = self.query_one("#tables", DataTable)
        if not table.row_count:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:  # no cursor row (an empty table)
            return None
        return str(key.value) if key.value is not None else None

    @on(DataTable.RowSelected, "#tables")
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.club_app.open_table(str(event.row_key.value))

    def action_watch(self) -> None:
        code = self._cursor_code()
        if code is None:
            self.app.push_screen(JoinScreen("watch"), self._watch_code)
        else:
            self.club_app.open_table(code, watch=True)

    def _watch_code(self, code: str | None) -> None:
        if code:
            self.club_app.open_table(code, watch=True)

    def action_new_table(self, opponent: str = HUMAN) -> None:
        self.app.push_screen(NewTableScreen(opponent), self._create)

    def action_play_bot(self) -> None:
        self.action_new_table(f"{BOT_PREFIX}{self.club_app.default_bot_level}")

    def _create(self, options: TableOptions | None) -> None:
        if options is not None:
            self.club_app.create_table(options)

    def action_leaderboard(self) -> None:
        self.app.push_screen(leaderboard_for(self.club_app))

    def action_record(self) -> None:
        self.app.push_screen(record_for(self.club_app))

    def action_join_code(self) -> None:
        self.app.push_screen(JoinScreen(), self._join_code)

    def _join_code(self, code: str | None) -> None:
        if code:
            self.club_app.open_table(code)
