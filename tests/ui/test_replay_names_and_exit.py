"""A record's names are text, not markup: "Eve [/]" (valid ECN) crashed the replay viewer
with a MarkupError, and "[bold red]Mallory[/bold red] [link=x]" was drawn in red with a
hyperlink, in the status line and in the log. And a program that fails exits 1, not 0."""

from __future__ import annotations

from ecarte_tui.engine import read_ecn, write_ecn
from ecarte_tui.ui.replay_app import ReplayApp
from ecarte_tui.ui.widgets.hand_log import HandLog

from .helpers import make_table, run
from .test_snapshots import _played_record


def _text(app: ReplayApp) -> str:
    update = app.screen._compositor.render_update(full=True)
    return "".join(s.text for line in update.strips for strip in line  # type: ignore[attr-defined]
                   for s in strip if not s.control)


@run
async def test_names_with_brackets_are_shown_as_written():
    played = read_ecn(_played_record(make_table(seed=3, first_dealer=1)))
    for name in ("Eve [/]", "[bold red]Mallory[/bold red] [link=x]"):
        record = read_ecn(write_ecn(played.match, {**played.tags, "A": name}))
        assert record.names[0] == name
        app = ReplayApp(record)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press(*["right"] * 4)
            await pilot.pause()
            status = str(app.screen.query_one("#replay-status").render())
            assert f"{name} " in status
            assert any(name in line for line in app.screen.query_one(HandLog).lines)
            assert "Mallory[/bold red]" in _text(app) or name == "Eve [/]"
        assert app.return_code in (None, 0)


@run
async def test_a_names_escape_sequences_never_reach_the_terminal():
    """A name that retitled the terminal and cleared it did so from the replay viewer (the
    characters went out as they were); they are drawn as escapes."""
    played = read_ecn(_played_record(make_table(seed=3, first_dealer=1)))
    name = "Eve\x1b]0;owned\x07\x1b[2J\u202e"
    app = ReplayApp(read_ecn(write_ecn(played.match, {**played.tags, "A": name})))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*["right"] * 4)
        await pilot.pause()
        text = _text(app)
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
        assert "Eve\\x1b]0;owned" in text
    assert app.return_code in (None, 0)


def test_a_replay_that_fails_says_so_in_its_exit_status(monkeypatch, tmp_path):
    """It exited 0 after the MarkupError's traceback: a script could not tell."""
    from textual.app import App

    from ecarte_tui.ui import replay_app

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # (default settings)
    record = read_ecn(_played_record(make_table(seed=3, first_dealer=1)))

    def broken(self: ReplayApp) -> None:
        raise RuntimeError("a drawing that fails")

    monkeypatch.setattr(replay_app.ReplayScreen, "redraw", broken)
    monkeypatch.setattr(ReplayApp, "run", lambda self: App.run(self, headless=True))
    assert replay_app.run_replay_app(record) == 1


def test_a_game_that_fails_says_so_in_its_exit_status(monkeypatch, tmp_path):
    from textual.app import App

    from ecarte_tui.cli import main
    from ecarte_tui.ui.app import EcarteApp

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))

    def broken(self: EcarteApp) -> None:
        raise RuntimeError("a screen that fails")

    monkeypatch.setattr(EcarteApp, "on_mount", broken)
    monkeypatch.setattr(EcarteApp, "run", lambda self: App.run(self, headless=True))
    assert main(["play"]) == 1
