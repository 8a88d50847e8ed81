"""The pool board: its text from a table's pool, and a pool table's screen as the one
waiting sees it (snapshots at 80x24 and 120x40)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.settings import Settings
from net.club import Club, TableOptions
from net.club.clubhouse.options import ClubOptions
from net.screens.club_app import LOBBY_STYLES
from net.screens.club_table_screen import ClubTableScreen
from net.screens.pool_board import WIDTH, board_lines
from net.store import Player, Store

ANN, BOB, CLEO = Player("k1", "ann"), Player("k2", "bob"), Player("k3", "cleo")


def pool_table(tmp_path: Path, rule: str = "two_in_row"):
    club = Club(Store(tmp_path / "club.db"), rng=random.Random(3), bot_delay=0)
    opts = TableOptions("classic", (("target", "1"),), club=ClubOptions(pool=rule))
    lt, _ = club.create(ANN, opts)
    club.sit(lt.code, BOB)
    return club, lt


def test_the_board_before_and_after_the_third_player(tmp_path):
    club, lt = pool_table(tmp_path)
    lines = board_lines(lt)
    assert lines[0] == "Pool (003): 2 in a row"
    assert lines[2].startswith("ann       plays") and lines[4].startswith("—         free")
    club.sit(lt.code, CLEO)
    lt.rounds.pool.record_game(ANN.id)  # ann beat bob: cleo comes in, bob waits
    lines = board_lines(lt)
    assert "ann       plays   1    0" in lines and "bob       waits   0    0" in lines
    assert "pool 1 · 1 game played" in lines
    lt.rounds.pool.record_game(ANN.id)  # 003: two in a row take the pool
    assert "ann       plays   2    1" in board_lines(lt)
    assert all(len(line) <= WIDTH for line in board_lines(lt))


def test_the_001_board_says_each_win_takes_the_pool(tmp_path):
    _, lt = pool_table(tmp_path, "loser_out")
    assert board_lines(lt)[0] == "Pool (001): a win takes it"
    assert all(len(line) <= WIDTH for line in board_lines(lt))


class WaitingApp(EcarteApp):
    """The one waiting in the pool, at the table screen the server shows him."""

    CSS_PATH = [*EcarteApp.CSS_PATH, LOBBY_STYLES]

    def __init__(self, club: Club, lt) -> None:
        super().__init__(settings=Settings(), served=True)
        self.club, self.lt, self.player = club, lt, CLEO

    def on_mount(self, event) -> None:
        event.prevent_default()
        self.push_screen(ClubTableScreen(self.club, self.lt, None, self.look))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_pool_table_screen(snap_compare, tmp_path, size):
    club, lt = pool_table(tmp_path)
    club.sit(lt.code, CLEO)  # the first game: ann and bob play, cleo waits
    assert lt.seats[2].player_id == CLEO.id
    app = WaitingApp(club, lt)

    async def board_shown(pilot) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ClubTableScreen)
        assert screen.query_one("#pool-board") is not None
        assert "You wait your turn in the pool" in (screen.banner or ("",))[0]

    assert snap_compare(app, run_before=board_shown, terminal_size=size)
