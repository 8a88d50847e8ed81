"""Around the table: home screen, saving and continuing, settings, served mode, mouse, size."""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette

from ecarte_tui.engine.cards import card_label
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.players import hint_for
from ecarte_tui.ui.saved_games import list_saved
from ecarte_tui.ui.screens.home import HomeScreen
from ecarte_tui.ui.screens.rules import RulesScreen
from ecarte_tui.ui.screens.settings import SettingsScreen
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings, load_settings, save_path, settings_path
from ecarte_tui.ui.widgets.too_small import TooSmall

from .helpers import (
    ME,
    ScriptedOpponent,
    make_app,
    make_table,
    run,
    screen_text,
    settle,
    table_screen,
)


def _files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file()]


@run
async def test_home_starts_a_game_with_the_chosen_rules():
    app = EcarteApp(home=True, settings=Settings(bot_level="random", bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, HomeScreen)
        app.screen.query_one("#rules").value = "nl"
        await pilot.pause()
        assert "Dutch" in str(app.screen.query_one("#rules-description").render())
        await pilot.press("n")
        await pilot.pause()
        assert app.table is not None and app.table.rules.preset == "nl"
        assert isinstance(app.screen, TableScreen)  # (the draw's box is drawn inside it)
    assert load_settings().rules == "nl"  # the choice is remembered


@run
async def test_quit_saves_the_game_and_home_continues_it():
    table = make_table(seed=3, first_dealer=1)
    app = make_app(table, save=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        view = table.view(ME)
        await pilot.press("q")
    [saved] = list_saved()
    assert "A propose" in saved.path.read_text(encoding="utf-8")
    assert not save_path().exists()  # each game has its own file now, not the old single one
    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"), opponent=ScriptedOpponent(),
                    bot_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.screen.query_one("#continue").disabled
        await pilot.press("c")
        await settle(pilot)
        assert app.table is not None and app.table.view(ME).hand == view.hand
        assert table_screen(app).current_prompt().mode == "discard"
        await pilot.press("q")
    assert [g.path for g in list_saved()] == [saved.path]  # the same game, the same file


@run
async def test_settings_change_the_cards_at_once_and_are_saved():
    app = make_app(save=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f3")
        assert isinstance(app.screen, SettingsScreen)
        await pilot.click("#ascii_cards")
        await pilot.click("#four_colour")
        await pilot.pause()
        assert app.settings.ascii_cards and app.settings.four_colour
        hand = table_screen(app).hand
        assert hand.look.ascii_cards
        app.screen.query_one("#theme").value = "night"
        await pilot.pause()
        assert app.theme == "night"
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
    saved = settings_path().read_text(encoding="utf-8")
    assert 'theme = "night"' in saved and "ascii_cards = true" in saved


@run
async def test_a_served_app_writes_nothing_and_cannot_suspend_or_screenshot(private_dirs):
    table = make_table(seed=3, first_dealer=1)
    app = EcarteApp(table=table, seat=ME, settings=Settings(theme="salon"), served=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")  # "Cards!": the opponent (nobody here) must answer
        await pilot.press("f3")
        await pilot.click("#four_colour")
        await pilot.press("escape")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles and "New game" not in titles
        assert app.check_action("suspend_process", ()) is False
        await pilot.press("ctrl+z")
        await pilot.press("q")
    assert _files(private_dirs / "config") == [] and _files(private_dirs / "data") == []


@run
async def test_a_card_can_be_played_with_the_mouse():
    table = make_table(seed=3, first_dealer=1)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        hand = table_screen(app).hand
        size, left = hand._layout()
        first = table.view(ME).hand[0]
        felt = table_screen(app).felt
        x, y = felt.content_offset + hand.region.offset
        await pilot.click("#felt", offset=(x + left + 2, y + 3))
        await settle(pilot)
        assert first not in table.view(ME).hand
        assert size[0] == 7


@run
async def test_a_small_terminal_asks_for_more_room_and_reflows():
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        small = screen.query_one(TooSmall)
        assert small.display and "at least 80×24" in str(small.render())
        assert not screen.query_one("#table-root").display
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not small.display and screen.query_one("#table-root").display


@run
async def test_a_terminal_shrunk_to_a_few_cells_keeps_the_game():
    """A window dragged down to a handful of cells left the felt with parts of no width,
    and drawing them ended the program (over SSH: the player's session)."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        hand = list(app.table.view(ME).hand)
        for width, height in [(10, 3), (1, 1), (20, 5), (5, 30), (200, 2), (79, 23)]:
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            assert app.is_running and app.screen is screen
            assert screen.query_one(TooSmall).display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert screen.query_one("#table-root").display
        assert list(app.table.view(ME).hand) == hand
        text = screen_text(app)
        assert all(card_label(card) in text for card in hand)  # the felt is drawn whole again
    assert app.return_code in (None, 0)


@run
async def test_paging_the_palette_in_a_terminal_two_rows_high_keeps_the_app():
    """Textual's list pages by the lines it laid out, and lays none out with no room: a
    PageUp in the command palette of a 200×2 terminal (a size an SSH client may send)
    ended the app with a KeyError."""
    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    async with app.run_test(size=(200, 2)) as pilot:
        await pilot.press("ctrl+p", "pageup", "t", "pagedown", "pageup")
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, CommandPalette)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("backspace")  # every command, with room for them now
        await pilot.pause()
        listing = app.screen.query_one(CommandList)
        listing.highlighted = 0
        await pilot.press("pagedown")  # paging with room still pages
        assert listing.highlighted is not None and listing.highlighted > 0
    assert app.return_code in (None, 0)


@run
async def test_rules_screen_shows_the_preset_in_play():
    table = make_table(seed=10, rules="regles", first_dealer=ME)
    app = make_app(table, ScriptedOpponent(decide="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f2")
        assert isinstance(app.screen, RulesScreen)
        text = app.screen.query_one("#rules-text").source
        assert "regles rules" in text and "before the elder leads" in text
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


@run
async def test_hint_gives_the_experts_advice_with_a_reason():
    app = make_app(make_table(seed=3, first_dealer=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        screen = table_screen(app)
        await settle(pilot, until=lambda: screen.message.startswith("Hint: "))
        assert "—" in screen.message or "No expert" in screen.message


@run
async def test_an_expert_that_fails_says_so_and_the_game_goes_on(monkeypatch):
    """The hint's worker ended the app when the expert raised (Textual's default), so its
    "could not answer" was never shown: over SSH, a session ended by a hint (seen in a
    random run: a hint asked on a view with nothing to decide)."""
    from ecarte_tui.ui.screens import table as table_module

    def failing(view):
        raise ValueError("the expert broke")

    monkeypatch.setattr(table_module, "hint_for", failing)
    app = make_app(make_table(seed=3, first_dealer=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        screen = table_screen(app)
        await settle(pilot, until=lambda: "could not answer" in screen.message)
        assert app.is_running
    assert app.return_code in (None, 0)


def test_a_hint_with_nothing_to_decide_says_so():
    table = make_table(seed=3, first_dealer=1)
    waiting = table.view(1 - table.waiting_for)  # (the seat that waits: no legal action)
    assert not waiting.legal
    hint = hint_for(waiting)
    assert hint.action is None and "Nothing to decide" in hint.reason


@run
async def test_the_palette_offers_the_games_commands():
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Rules", "Settings", "Help", "Hint", "Theme"} <= titles


@run
async def test_no_color_is_respected(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.no_color
        assert app.theme == "felt"  # the theme still loads; Textual strips the colours
