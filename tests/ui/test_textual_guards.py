"""Textual's edge cases in a terminal a few cells across (``textual_guards``), met through
the screens a player uses: each ended the app before its guard."""

from __future__ import annotations

import asyncio

from textual.command import CommandList, CommandPalette
from textual.content import Content

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.settings import Settings
from net.screens.gallery_screens import NOBODY, BackScreen

from .helpers import run


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
        await pilot.pause(0.5)
        found = app.screen.query_one(CommandList)
        prompts = [str(found.get_option_at_index(i).prompt) for i in range(found.option_count)]
        assert any("Theme" in p or "theme" in p for p in prompts), prompts
