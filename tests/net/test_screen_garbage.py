"""A closed screen and its widgets are freed by their reference count, not left in cycles
for the garbage collector (``net.ssh.screen_garbage``), and the app goes on working."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Footer, Input, Label, Select

from net.ssh import component_style_garbage, screen_garbage


class Dialog(ModalScreen[str]):
    """The kind of dialog the club opens and closes all day: a form, a list, a footer."""

    BINDINGS = [("escape", "dismiss('gone')", "Close")]

    def compose(self) -> ComposeResult:
        yield Label("Open a table")
        yield Select([("classic", "classic"), ("nl", "nl")], value="classic")
        yield Input(placeholder="stake")
        table: DataTable[str] = DataTable()
        table.add_columns("code", "players")
        table.add_rows([("ABC", "2"), ("DEF", "1")])
        yield table
        yield Button("Open", id="open")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(0.5, lambda: None)  # (a timer calls back into its screen)


class Club(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.answers: list[str | None] = []

    def compose(self) -> ComposeResult:
        yield Label("lobby", id="lobby")
        yield Footer()

    def answered(self, answer: str | None) -> None:
        self.answers.append(answer)


async def garbage_per_round(rounds: int) -> list[int]:
    """Cyclic garbage found after each open-and-close of the dialog (collector off)."""
    app = Club()
    found: list[int] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(rounds):
            gc.collect()
            was = gc.isenabled()
            gc.disable()
            try:
                app.push_screen(Dialog(), callback=app.answered)
                await pilot.pause()
                await pilot.click("#open")  # (a widget that was used, not just drawn)
                await pilot.press("s", "escape")
                await pilot.pause()
                await pilot.pause()
                assert not isinstance(app.screen, Dialog)
                found.append(gc.collect())
            finally:
                if was:
                    gc.enable()
        assert app.answers == ["gone"] * rounds
        assert app.query_one("#lobby", Label).render() == "lobby"
    return found


@contextmanager
def textual_alone() -> Iterator[None]:
    """Textual's own removal and caches, with the rest of the server's changes kept."""
    component_style_garbage.free_component_styles_at_once()
    screen_garbage.free_closed_screens_at_once()
    installed = (Widget._message_loop_exit, LRUCache.clear, LRUCache.discard)
    textual = screen_garbage.replaced
    Widget._message_loop_exit = textual["loop_exit"]  # type: ignore[method-assign]
    LRUCache.clear = textual["clear"]  # type: ignore[method-assign]
    LRUCache.discard = textual["discard"]  # type: ignore[method-assign]
    try:
        yield
    finally:
        (Widget._message_loop_exit, LRUCache.clear, LRUCache.discard) = installed  # type: ignore[method-assign]


async def test_a_closed_dialog_leaves_no_cycle_and_the_app_goes_on():
    screen_garbage.free_closed_screens_at_once()  # (the SSH fixture does too)
    found = await garbage_per_round(4)
    # The first round warms Textual's own caches (styles, bindings); after it, nothing.
    assert found[1:] == [0, 0, 0], f"a closed dialog left cycles: {found}"


async def test_without_the_change_a_closed_dialog_is_left_to_the_collector():
    """What the change is for: each closed dialog is hundreds of objects in cycles."""
    with textual_alone():
        found = await garbage_per_round(3)
    assert min(found[1:]) >= 500, found


def test_a_cleared_cache_keeps_working():
    screen_garbage.free_closed_screens_at_once()
    cache: LRUCache[str, int] = LRUCache(2)
    cache["a"], cache["b"] = 1, 2
    cache.discard("a")
    assert cache.get("a") is None and cache["b"] == 2
    cache["c"], cache["d"] = 3, 4  # (over the size: the oldest goes)
    assert cache.get("b") is None and cache["c"] == 3 and cache["d"] == 4
    cache.clear()
    assert len(cache) == 0 and cache.get("c") is None
    cache["e"] = 5
    assert cache["e"] == 5 and len(cache) == 1


def nodes_in_cycles() -> list[str]:
    """The Textual nodes (screens, widgets) and styles the collector finds in cycles."""
    from textual.css.styles import StylesBase
    from textual.dom import DOMNode

    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = [type(o).__name__ for o in gc.garbage if isinstance(o, DOMNode | StylesBase)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


async def test_a_finished_table_screen_is_freed_when_the_next_game_starts():
    """The table's felt, its box and prompt (whose parts and answers point back at them)
    go with it. (The game's own engine objects may still wait for the collector.)"""
    from ecarte_tui.ui.app import EcarteApp
    from ecarte_tui.ui.local_game import GameOptions
    from ecarte_tui.ui.screens.table import TableScreen
    from ecarte_tui.ui.settings import Settings

    screen_garbage.free_closed_screens_at_once()
    app = EcarteApp(settings=Settings(), options=GameOptions(), bot_delay=0, save=False)
    found: list[list[str]] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(3):
            gc.collect()
            was = gc.isenabled()
            gc.disable()
            try:
                first = app.screen
                assert isinstance(first, TableScreen) and first.dialog is not None  # the draw
                app.start_game(GameOptions())
                await pilot.pause()
                await pilot.pause()
                assert isinstance(app.screen, TableScreen) and app.screen is not first
                found.append(nodes_in_cycles())
            finally:
                if was:
                    gc.enable()
    assert found[1:] == [[], []], f"a closed table screen was left in cycles: {found}"
