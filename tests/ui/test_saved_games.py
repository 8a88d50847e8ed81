"""The saved games (issue 12, item 13): one file per game, the last ten listed on the home
screen with their rules, bot, score and date, none replaced or forgotten without asking,
the single ``saved.ecn`` of earlier versions moved in, a broken file reported and left."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList

from ecarte_tui.engine import PLAY
from ecarte_tui.table import Table
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.local_game import GameOptions, new_table
from ecarte_tui.ui.saved_games import MAX_SAVED, list_saved, saves_dir, write_game
from ecarte_tui.ui.screens.ask import AskScreen
from ecarte_tui.ui.screens.home import HomeScreen
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings, save_path

from .helpers import ScriptedOpponent, make_app, make_table, run, settle

NOON = 1764590400  # 2025-12-01 12:00 UTC: saved files get fixed dates, so labels are fixed
HOUR = 3600


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    """Dates on the home screen are local time: the tests read them in UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def played(table: Table, hands: int) -> Table:
    """``hands`` hands played out by first legal moves (a score to show)."""
    for _ in range(hands):
        table.submit(table.waiting_for or 0, PLAY)
        while table.status == "play":
            seat = table.waiting_for
            assert seat is not None
            view = table.view(seat)
            table.submit(seat, next(a for a in view.legal if a.kind.name == "CARD"))
        if table.status != "hand_over":
            break
        table.ready(0)
        table.ready(1)
    return table


def save_game(name: str, table: Table, when: float) -> Path:
    path = saves_dir() / f"{name}.ecn"
    write_game(path, table.record_text())
    os.utime(path, (when, when))
    return path


def a_game(level: str = "expert", rules: str = "classic", seed: int = 1, hands: int = 0,
           **options: int) -> Table:
    table = new_table(GameOptions(level, rules, seed=seed, first_dealer=1, **options))
    return played(table, hands)


def home_app() -> EcarteApp:
    return EcarteApp(home=True, settings=Settings(bot_speed="instant"),
                     opponent=ScriptedOpponent(), bot_delay=0)


async def proposed_then_quit(pilot: Pilot[object]) -> None:
    """A game in progress (the player proposed), then q."""
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)
    await pilot.press("q")


def words(text: str) -> str:
    """The label without its column padding."""
    return " ".join(text.split())


def listed(app: EcarteApp) -> list[str]:
    options = app.screen.query_one("#saved-list", OptionList)
    return [words(str(options.get_option_at_index(i).prompt))
            for i in range(options.option_count)]


def test_a_saved_game_says_what_it_is():
    save_game("a", a_game("classic", "regles", hands=2), NOON)
    save_game("b", a_game("easy", "academie", target=3), NOON - 2 * HOUR)
    first, second = list_saved()
    assert words(first.label()).startswith("1 Dec 12:00 regles Classic bot you")
    assert "(games 0–0)" in first.label()
    assert sum(first.score) > 0 and f"you {first.score[0]}–{first.score[1]}" in first.label()
    assert words(second.label()) == "1 Dec 10:00 academie (to 3) Easy bot you 0–0"


def test_a_saved_files_bot_tag_is_shown_as_text():
    """The Bot tag comes from the file: escape sequences in it are shown, not sent."""
    path = saves_dir() / "odd.ecn"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_game(path, a_game().record_text().replace('[Bot "expert"]', '[Bot "x\x1b]0;t\x07"]'))
    [game] = list_saved()
    assert game.level == "x\x1b]0;t\x07" and "\x1b" not in game.label()
    assert "X\\x1b]0;t\\x07 bot" in game.label()


@run
async def test_quitting_keeps_each_game_in_its_own_file():
    kept = save_game("kept", a_game(), NOON)
    before = kept.read_bytes()
    app = make_app(make_table(seed=3, first_dealer=1), save=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await proposed_then_quit(pilot)
    games = list_saved()
    assert len(games) == 2 and kept.read_bytes() == before  # the new game took a new file
    assert "A propose" in games[0].path.read_text(encoding="utf-8")


@run
async def test_a_game_that_cannot_be_saved_is_not_left_unasked(private_dirs, monkeypatch):
    """The data folder cannot be written (here: a file stands where it should be): quitting
    said so in a toast that vanished with the program, and the game was lost. Now it asks;
    Esc goes back to the game, y leaves without it."""
    blocker = private_dirs / "blocker"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker / "data"))
    app = make_app(make_table(seed=3, first_dealer=1), save=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await proposed_then_quit(pilot)
        await pilot.pause()
        assert isinstance(app.screen, AskScreen) and "Not a directory" in app.screen.text
        await pilot.press("ctrl+q")  # (again: the question stays, one of it)
        await pilot.pause()
        assert sum(isinstance(s, AskScreen) for s in app.screen_stack) == 1
        await pilot.press("escape")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, TableScreen)
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running


@run
async def test_home_lists_the_games_and_continues_the_one_chosen():
    save_game("new", a_game("expert", "classic", seed=1), NOON)
    older = save_game("old", a_game("easy", "nl", seed=2, hands=1), NOON - 30 * HOUR)
    app = home_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lines = listed(app)
        assert lines[0].startswith("1 Dec 12:00 classic") and "Expert bot" in lines[0]
        assert lines[1].startswith("30 Nov 06:00 nl") and "Easy bot" in lines[1]
        app.screen.query_one("#saved-list", OptionList).focus()
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.table is not None and app.table.rules.preset == "nl"
        assert app.local is not None and app.local.saved_as == older
        await pilot.press("q")
    assert sorted(p.name for p in saves_dir().iterdir()) == ["new.ecn", "old.ecn"]


@run
async def test_an_eleventh_game_asks_before_the_oldest_is_forgotten():
    paths = [save_game(f"g{i}", a_game(seed=i), NOON - i * HOUR) for i in range(MAX_SAVED)]
    oldest = paths[-1]
    app = make_app(make_table(seed=3, first_dealer=1), save=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        assert isinstance(app.screen, AskScreen)
        assert "1 Dec 03:00" in str(app.screen.query_one(".line").render())  # the oldest
        await pilot.press("escape")  # cancel: back at the table, nothing saved or forgotten
        assert isinstance(app.screen, TableScreen) and app.is_running
        assert sorted(saves_dir().iterdir()) == sorted(paths)
        await pilot.press("q")
        await pilot.press("n")  # don't keep it: quits, the ten stay as they were
    assert app.return_code == 0 and sorted(saves_dir().iterdir()) == sorted(paths)

    app = make_app(make_table(seed=4, first_dealer=1), save=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.press("ctrl+q")  # quit again: the question stays and says what to press
        await settle(pilot)
        assert isinstance(app.screen, AskScreen) and app.is_running
        assert any("y keeps it, n leaves without it" in n.message for n in app._notifications)
        assert len(list(saves_dir().iterdir())) == MAX_SAVED
        await pilot.press("y")  # keep it: the oldest goes, and only it
    games = list_saved()
    assert len(games) == MAX_SAVED and not oldest.exists()
    assert set(paths[:-1]) < {g.path for g in games}


@run
async def test_a_broken_saved_file_is_reported_and_left_as_it_is():
    broken = saves_dir() / "broken.ecn"
    broken.parent.mkdir(parents=True)
    broken.write_text('[Rules "classic"]\nhand\ndealer Q\n', encoding="utf-8")
    os.utime(broken, (NOON, NOON))
    app = home_app()
    async with app.run_test(size=(80, 24)) as pilot:
        [line] = listed(app)
        assert line.startswith("1 Dec 12:00 cannot be read: line 3")
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert any("cannot be played" in n.message for n in app._notifications)
    assert broken.read_text(encoding="utf-8") == '[Rules "classic"]\nhand\ndealer Q\n'


@run
async def test_the_single_save_of_earlier_versions_is_offered():
    old = save_path()
    old.parent.mkdir(parents=True)
    text = a_game("easy", "britannica", hands=1).record_text()
    old.write_text(text, encoding="utf-8")
    os.utime(old, (NOON, NOON))
    app = home_app()
    async with app.run_test(size=(80, 24)) as pilot:
        [line] = listed(app)
        assert line.startswith("1 Dec 12:00 britannica") and "Easy bot" in line
        await pilot.press("c")
        await settle(pilot)
        assert app.table is not None and app.table.rules.preset == "britannica"
    assert not old.exists()
    [moved] = saves_dir().iterdir()
    assert moved.read_text(encoding="utf-8").startswith(text.split("hand")[0])


@run
async def test_forgetting_a_saved_game_asks_first():
    path = save_game("only", a_game(), NOON)
    app = home_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, AskScreen)
        await pilot.press("n")
        assert path.exists() and isinstance(app.screen, HomeScreen)
        await pilot.press("d", "y")
        await pilot.pause()
        assert not path.exists() and listed(app) == []
        assert app.screen.query_one("#continue").disabled


@run
async def test_a_new_game_started_as_the_home_screen_comes_back_starts():
    """Back on the home screen (from the rules), it reads the saved games and fits their
    list at its next refresh; "n" before that refresh took the screen down first, and
    fitting a list that was gone ended the program."""
    save_game("kept", a_game(), NOON)
    app = home_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2", "escape")
        home = app.screen
        assert isinstance(home, HomeScreen)
        # what coming back does (the list read again, fitted after the next refresh), and
        # "n" handled before that refresh (keys that came in one read)
        home.on_screen_resume()
        home.action_new()
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, TableScreen)
    assert app.return_code in (None, 0)


@run
async def test_a_finished_game_is_no_longer_a_saved_game():
    path = save_game("done", a_game(), NOON)
    app = home_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await settle(pilot)
        assert app.local is not None and app.local.saved_as == path
        app.table.forfeit(1)  # the match ends (here: the bot's seat gives it up)
        await pilot.pause()
        assert not app.local.in_progress
        await pilot.press("ctrl+q")
    assert not path.exists()


def test_home_screen_with_saved_games(snap_compare):
    save_game("a", a_game("expert", "classic", seed=1, hands=2), NOON)
    save_game("b", a_game("easy", "regles", seed=2, hands=3), NOON - 26 * HOUR)
    save_game("c", a_game("classic", "academie", seed=3, target=3), NOON - 50 * HOUR)
    save_game("d", a_game("random", "nl", seed=4, hands=1), NOON - 75 * HOUR)
    save_game("e", a_game("expert", "britannica", seed=5, hands=1), NOON - 99 * HOUR)
    assert snap_compare(EcarteApp(home=True, settings=Settings()), terminal_size=(80, 24))


def test_home_screen_with_saved_games_large(snap_compare):
    for i, preset in enumerate(("classic", "regles", "academie", "nl", "britannica", "classic")):
        save_game(f"g{i}", a_game("expert", preset, seed=i, hands=i % 3), NOON - i * 25 * HOUR)
    assert snap_compare(EcarteApp(home=True, settings=Settings()), terminal_size=(120, 40))

