"""Textual's edge cases (``textual_guards``), met through the screens a player uses: each
ended the app, or left an error in the server's log, before its guard."""

from __future__ import annotations

import asyncio

from textual import events
from textual.command import CommandList, CommandPalette
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Input, Static

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.screens.help import HelpScreen
from ecarte_tui.ui.screens.home import HomeScreen
from ecarte_tui.ui.settings import Settings
from net.screens.gallery_screens import NOBODY, BackScreen
from net.screens.join_screen import JoinScreen

from .helpers import run, until


def test_text_folded_to_no_width_keeps_its_words_whole():
    lines = Content("Back 6ihelloi7 (seat A)")._wrap_and_format(0, overflow="fold")
    assert len(lines) == 4  # a line for each word, none cut
    folded = Content("Back 6ihelloi7")._wrap_and_format(4, overflow="fold")
    assert [line.content.plain for line in folded] == ["Back", "6ihe", "lloi", "7"]  # as before


@run
async def test_the_backing_choice_in_a_terminal_ten_cells_wide_still_chooses():
    """The watcher's "back a player" list, squeezed to no width in a 10×3 terminal, made
    Textual fold its options into pieces of 0 cells (ValueError)."""
    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    chosen: list[str | None] = []
    async with app.run_test(size=(10, 3)) as pilot:
        app.push_screen(BackScreen(("ann", "bob"), None, True), chosen.append)
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, BackScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("down", "down", "enter")
        await pilot.pause()
    assert chosen == [NOBODY]
    assert app.return_code in (None, 0)


def test_a_palette_whose_widgets_are_gone_shows_no_list_without_failing():
    """The palette's search finished after its session closed, with the palette's widgets
    taken down: showing the list it found raised NoMatches (seen once in a random run)."""
    palette = CommandPalette()  # (never composed: no list, as after being taken down)
    palette._watch__list_visible()
    assert not palette.children


@run
async def test_a_palette_taken_down_as_it_opens_does_not_end_the_app():
    """The palette starts its first search when it is shown; with its widgets taken down
    before the search began (a session closing as the palette opened, seen in a random run
    on two nodes) the search raised NoMatches in a worker, which ended the app."""
    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_command_palette()
        await asyncio.sleep(0)  # the palette is mounted, its search not yet begun
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await palette.remove_children()
        await pilot.pause()
        assert app.is_running
    assert app.return_code in (None, 0)


@run
async def test_the_palette_still_finds_commands():
    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"theme")
        found = app.screen.query_one(CommandList)
        await until(pilot, lambda: found.option_count)
        prompts = [str(found.get_option_at_index(i).prompt) for i in range(found.option_count)]
        assert any("Theme" in p or "theme" in p for p in prompts), prompts


@run
async def test_a_scroll_taken_down_gets_no_scrollbar_left_running():
    """A help page scrolled as its screen closed: the scroll's animation went on after the
    screen's widgets were closed and asked the scroll for its scrollbar, which Textual then
    made and started as a widget of its own, never closed; its task was destroyed pending,
    an error in the server's log (random input on two nodes, seed 319)."""
    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        live = VerticalScroll(Static("\n".join(map(str, range(60)))))
        gone = VerticalScroll(Static("a page"))
        await app.screen.mount(live, gone)
        await pilot.pause()
        assert live._vertical_scrollbar is not None  # (made while it lives, as before)
        assert live._vertical_scrollbar._task is not None
        assert gone._vertical_scrollbar is None  # (nothing to scroll yet)
        await gone.remove()
        bars_before = _scrollbar_tasks()
        gone.scroll_y = 5  # as an animation still running would
        gone.vertical_scrollbar.position = 5
        gone.horizontal_scrollbar.position = 5
        await pilot.pause()
        assert gone._vertical_scrollbar is None and gone._horizontal_scrollbar is None
        assert gone.vertical_scrollbar._task is None  # a spare, never started
        assert _scrollbar_tasks() <= bars_before  # no bar started for it
        assert app.is_running


def _scrollbar_tasks() -> set[asyncio.Task[object]]:
    return {t for t in asyncio.all_tasks() if t.get_name().startswith("message pump ScrollBar")}


@run
async def test_a_dialog_answered_twice_answers_once_and_leaves_the_screen_under_it():
    """The join dialog's code with two Enters in one read (a paste, a key held down): the
    second reached the dialog after the first had closed it, answered again
    (InvalidStateError over SSH, the session ended) and popped the screen under it."""
    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    answers: list[str | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        under = app.screen
        app.push_screen(JoinScreen(), answers.append)
        await pilot.pause()
        for key, char in [("a", "a"), ("b", "b"), ("c", "c"), ("d", "d"), ("enter", "\r"),
                          ("enter", "\r")]:
            app.post_message(events.Key(key, char))  # (in one read: no pause between)
        await until(pilot, lambda: answers)
        await pilot.pause()  # (the second Enter)
        assert answers == ["ABCD"]
        assert app.screen is under
        assert app.is_running
    assert app.return_code in (None, 0)


@run
async def test_a_dialog_answered_under_another_screen_closes_neither():
    """An Enter read just before another screen opened over the dialog: Textual answered for
    the dialog and popped the screen in front (here the help), leaving the dialog open with
    its answer given, and the next Enter ended the session (InvalidStateError)."""
    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    answers: list[str | None] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        join = JoinScreen()
        app.push_screen(join, answers.append)
        await pilot.pause()
        await pilot.press(*"abcd")
        code = join.query_one("#code", Input)
        join.post_message(Input.Submitted(code, code.value))  # (read before the help opened)
        app.push_screen(HelpScreen())
        await pilot.pause()
        assert answers == [] and isinstance(app.screen, HelpScreen)
        await pilot.press("escape")  # the help closes; the dialog is in front again
        await pilot.pause()
        assert app.screen is join
        await pilot.press("enter")
        await pilot.pause()
        assert answers == ["ABCD"] and isinstance(app.screen, HomeScreen)
        assert app.is_running


@run
async def test_a_click_on_a_widget_gone_in_the_same_read_is_a_click_on_nothing():
    """A click on a widget taken down since the last layout (a notification timed out or a
    box closed, in the same read as the click): Textual's text selection asked its parent
    for a region and it had none (AttributeError: the session ended; random input against a
    club, seed 1115)."""
    from textual.widgets import Label

    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        label = home.query(Label).first()
        x, y = label.region.x + 1, label.region.y
        await label.remove()  # (the layout still has it where it was)
        assert label.parent is None
        click = events.MouseDown(None, x, y, 0, 0, 1, False, False, False, screen_x=x,
                                 screen_y=y)
        home._forward_event(click)  # (as the app forwards a click to its screen)
        assert home.get_widget_and_offset_at(x, y) == (None, None)
        await pilot.pause()
        assert app.is_running and app.screen is home
    assert app.return_code in (None, 0)


@run
async def test_the_palette_opened_again_as_the_last_one_closes_opens_once_it_is_gone():
    """ctrl+p, Escape, ctrl+p in one read: the second palette was made while the first was
    still being taken down, under the same id (DuplicateIds: the session ended; random
    input on two nodes, seed 2134). The key does nothing until the first is gone."""
    from textual.command import CommandPalette

    app = EcarteApp(home=True, settings=Settings(bot_speed="instant"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_command_palette()
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
        app.pop_screen()  # (Escape: taken down in a moment)
        app.action_command_palette()  # (ctrl+p before it is gone)
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, HomeScreen)
        app.action_command_palette()  # (pressed again)
        await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    assert app.return_code in (None, 0)
