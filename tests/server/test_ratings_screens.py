"""The leaderboard, record and replay screens on their own, with fixed data: Pilot tests
and snapshots at 80x24 and 120x40 (update with ``--snapshot-update`` and look at them)."""

from __future__ import annotations

import pytest
from playouts import random_match
from textual.app import App
from textual.screen import Screen
from textual.widgets import DataTable

from ecarte_tui.engine import Record
from ecarte_tui.ui.themes import DEFAULT_THEME, TABLE_VARIABLES, load_themes
from net.club.clubhouse.ratings import PlayerRecord
from net.screens.leaderboard_screen import LeaderboardScreen
from net.screens.record_screen import RecordScreen
from net.screens.served_replay import ServedReplayScreen
from net.screens.standings import LeaderRow, MatchRow, record_text

STYLES = ["../../ecarte_tui/ui/styles/app.tcss", "../../ecarte_tui/ui/styles/table.tcss"]

LEADERS = [
    LeaderRow(1, "margot", 1588, 14, 10, False),
    LeaderRow(2, "bertrand", 1541, 9, 6, False),
    LeaderRow(3, "anna", 1516, 1, 1, False),
    LeaderRow(4, "chevalier_d", 1502, 22, 11, False),
    LeaderRow(5, "lou", 1493, 3, 1, False),
    LeaderRow(12, "ben", 1431, 6, 1, True),
]
RECORD = PlayerRecord("SHA256:ben", 1431.2, 6, 8, 2, 11, 4, 57, 3, 9, 96)
MATCHES = [
    MatchRow("ABCD", 1, "2025-03-02", "margot", "classic · to 5", "lost", "-9.3"),
    MatchRow("EFGH", 0, "2025-03-01", "anna", "classic · to 5 · best of 3", "won", "+16.0"),
    MatchRow("IJKL", 0, "2025-02-27", "Bot (expert)", "academie · to 5", "lost", "unrated"),
    MatchRow("MNOP", 1, "2025-02-20", "guest-42", "nl · to 7", "won", "unrated"),
]


def played_record(seed: int = 4) -> Record:
    """A whole match (target 3) played with seeded random moves."""
    return Record(random_match(seed), {"A": "anna", "B": "ben", "Date": "2025-03-01"})


class Host(App[None]):
    """The club's look (themes, felt variables) around one screen."""

    CSS_PATH = STYLES

    def __init__(self, screen: Screen[None]) -> None:
        super().__init__()
        self.first = screen
        for t, _title in load_themes().values():
            self.register_theme(t)
        self.theme = DEFAULT_THEME

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(TABLE_VARIABLES)

    def on_mount(self) -> None:
        self.push_screen(self.first)


def record_screen(replays: dict[str, Record] | None = None) -> RecordScreen:
    found = replays or {}
    return RecordScreen("ben", record_text(RECORD), MATCHES, found.get)


SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_leaderboard_snapshot(snap_compare, size):
    assert snap_compare(Host(LeaderboardScreen(lambda: LEADERS)), terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_record_snapshot(snap_compare, size):
    assert snap_compare(Host(record_screen()), terminal_size=size)


def test_guest_record_snapshot(snap_compare):
    screen = RecordScreen("guest-42", None, [], lambda _code: None)
    assert snap_compare(Host(screen), terminal_size=(80, 24))


def test_served_replay_snapshot(snap_compare):
    from ecarte_tui.ui.widgets.felt import Look

    screen = ServedReplayScreen(played_record(), Look(), seat=1)
    assert snap_compare(Host(screen), press=["right"] * 6, terminal_size=(80, 24))


async def test_leaderboard_lists_the_rows_and_follows_new_ratings():
    rows = list(LEADERS[:2])
    listeners: list = []
    app = Host(LeaderboardScreen(lambda: rows, listeners))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#leaders", DataTable)
        assert table.row_count == 2 and len(listeners) == 1
        assert table.get_row_at(0) == ["1", "margot", "1588", "14", "10"]
        rows.append(LEADERS[-1])
        listeners[0]("ABCD", "open")  # not a rating: nothing to redraw
        await pilot.pause()
        assert table.row_count == 2
        listeners[0]("ABCD", "rated")
        await pilot.pause()
        assert table.row_count == 3
        # the reader's own row, below a gap in the ranks, marked and under the cursor
        assert table.get_row_at(2) == ["… 12", "▶ ben (you)", "1431", "6", "1"]
        assert table.cursor_row == 2
        await pilot.press("escape")
        await pilot.pause()
        assert listeners == []  # left when the screen closed


async def test_enter_replays_a_match_from_the_readers_seat_and_esc_comes_back():
    record = played_record()
    app = Host(record_screen({"EFGH": record}))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RecordScreen)
        table = screen.query_one("#matches", DataTable)
        assert table.row_count == 4
        await pilot.press("down", "enter")  # the second row: EFGH, ben sat in seat A
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ServedReplayScreen) and replay.me == 0
        # at every step: the reader's own cards face up, never a face of the other's
        top, bottom = replay.top_hand, replay.hand
        for i in range(len(replay.steps)):
            replay.index = i
            replay.redraw()
            view = replay.steps[i][0]
            assert top.face_down and set(top.cards) <= {-1}
            assert bottom.cards == view.hand
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("up", "enter")  # the first row has no record: a message, no move
        await pilot.pause()
        assert app.screen is screen


async def test_a_record_that_cannot_be_read_now_is_said_and_the_list_stays():
    """The store away when a finished match is chosen: said, and the list stays (choosing a
    row is no key's action, so the session used to end with the store's error)."""
    import sqlite3

    from net.screens.store_trouble import STORE_DOWN

    def away(_code: str) -> None:
        raise sqlite3.OperationalError("database is locked")

    app = Host(RecordScreen("ben", record_text(RECORD), MATCHES, away))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.screen is screen
        assert [n.message for n in app._notifications] == [STORE_DOWN]


async def test_a_guest_has_no_table_of_matches():
    app = Host(RecordScreen("guest-42", None, [], lambda _code: None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#matches")
        text = str(app.screen.query_one("#record-numbers").render())
        assert "no rating and no record" in text
