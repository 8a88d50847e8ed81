"""Shared pieces of the UI tests: seeded tables, scripted opponents, waiting for the table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from ecarte_tui.engine import KING, Action, Kind, Rules, SeatView
from ecarte_tui.table import Table
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings
from ecarte_tui.ui.widgets.box_buttons import BoxButtons
from ecarte_tui.ui.widgets.box_text import BoxText
from ecarte_tui.ui.widgets.hand_log import TailLog
from ecarte_tui.ui.widgets.key_bar import KeyBar
from ecarte_tui.ui.widgets.table_dialog import DialogContent, TableDialog

ME = 0


class ScriptedOpponent:
    """Answers words as told (``propose``/``play``, ``accept``/``refuse``), else plays the
    first legal action: a predictable opponent for forcing proposals and refusals."""

    name = "scripted"

    def __init__(self, decide: str = "play", answer: str = "accept", king: bool = True) -> None:
        self.decide = decide
        self.answer = answer
        self.king = king

    def choose(self, view: SeatView) -> Action | None:
        legal = list(view.legal)
        if not legal:
            return None
        kinds = {a.kind: a for a in legal}
        if KING in legal:
            if self.king:
                return KING
            legal.remove(KING)
            if not legal:
                return None
        if Kind.PROPOSE in kinds:
            return kinds[Kind.PROPOSE if self.decide == "propose" else Kind.PLAY]
        if Kind.ACCEPT in kinds:
            return kinds[Kind.ACCEPT if self.answer == "accept" else Kind.REFUSE]
        return legal[0]


def make_table(seed: int = 3, rules: str = "academie", first_dealer: int | None = 1,
               **overrides: int) -> Table:
    return Table.new(Rules.named(rules, **overrides), ("You", "Bot"), seed, first_dealer)


def make_app(
    table: Table | None = None,
    opponent: object | None = None,
    settings: Settings | None = None,
    **kwargs: object,
) -> EcarteApp:
    table = table or make_table()
    kwargs.setdefault("save", False)
    return EcarteApp(
        table=table, seat=ME, settings=settings or Settings(), opponent=opponent or
        ScriptedOpponent(), bot_delay=0, **kwargs,  # type: ignore[arg-type]
    )


def table_screen(app: EcarteApp) -> TableScreen:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError("no table screen")


def dialog(app: EcarteApp) -> DialogContent | None:
    """What the table's box shows (the draw, a hand's end...), or None when it is closed."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen.dialog
    return None


def dialog_text(app: EcarteApp) -> str:
    """The box's title, lines and buttons as drawn (empty when it is closed)."""
    screen = table_screen(app)
    box = screen.query_one(TableDialog)
    if not box.display:
        return ""
    parts = [str(box.query_one("#dialog-title", BoxText).render()),
             str(box.query_one("#dialog-lines", BoxText).render())]
    parts.append(str(box.query_one(BoxButtons).render()))
    return "\n".join(parts)


def _human_turn(table: Table) -> bool:
    status = table.status
    if status == "over":
        return True
    if status == "between":
        return not table.has_asked_next_hand(ME) or not table.has_asked_next_hand(1 - ME)
    if status == "choose":
        return table.waiting_for == ME
    if table.waiting_for == ME:
        return True
    return False


async def settle(pilot: Pilot[object], until: Callable[[], bool] | None = None,
                 timeout: float = 5.0) -> None:
    """Wait until the table waits for the player (or ``until``), and the screen shows it."""
    app = pilot.app
    assert isinstance(app, EcarteApp)
    table = app.table
    assert table is not None
    steps = int(timeout / 0.02)
    for _ in range(steps):
        await pilot.pause(0.02)
        done = until() if until is not None else _human_turn(table)
        if not done:
            continue
        screen = table_screen(app)
        u = screen.update
        if u is not None and u.view == table.view(ME) and u.status == table.status:
            await pilot.pause()
            return
    raise AssertionError(f"the table did not settle: {table.status} {table.waiting_for}")


async def until(pilot: Pilot[object], check: Callable[[], object], timeout: float = 10.0,
                ) -> None:
    """Wait until ``check()`` holds (a busy machine answers late), then for the app to idle."""
    for _ in range(int(timeout / 0.02)):
        if check():
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("still waiting after the timeout")


def run(coro_fn: Callable[..., object]) -> Callable[..., None]:
    """Run an async test with asyncio (no async plugin is among the test dependencies)."""
    import asyncio
    import functools

    @functools.wraps(coro_fn)
    def wrapper(*args: object, **kwargs: object) -> None:
        asyncio.run(coro_fn(*args, **kwargs))  # type: ignore[arg-type]

    return wrapper


async def caught_up(pilot: Pilot[object], table: Table) -> TableScreen:
    """Wait (in message-loop turns, not time) until the screen shows the table's state."""
    app = pilot.app
    for _ in range(50):
        await pilot.pause()
        screen = app.screen
        if isinstance(screen, TableScreen) and screen.update is not None and (
                screen.update.view == table.view(ME)):
            await pilot.pause()
            return screen
    raise AssertionError("the screen did not catch up with the table")


def served_table_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[Table, EcarteApp]:
    """An academie table drawn as a server draws it (the light key bar, the fixed-box log),
    with the settings and saves under ``tmp_path``."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(TableScreen, "KEY_BAR", KeyBar)
    monkeypatch.setattr(TableScreen, "LOG", TailLog)
    table = Table.new(Rules.named("academie"), ("You", "Bot"), 3, 1)
    return table, EcarteApp(table=table, seat=ME, settings=Settings(), save=False)


async def one_turn(pilot: Pilot[object], table: Table, screen: TableScreen,
                   decide: str = "p") -> bool:
    """One step of a served table's hand: the other seat moves (or asks for the next hand)
    when the table waits for it, else the player closes the box or answers his prompt
    (``decide``: his key at the play-or-propose decision). True when the box was closed."""
    if table.waiting_for == 1 - ME or (table.status == "between" and screen.dialog is None
                                       and table.waiting_for is None):
        legal = table.view(1 - ME).legal
        table.submit(1 - ME, legal[0]) if legal else table.ready(1 - ME)
        return False
    if screen.dialog is not None:
        await pilot.press("enter")
        return True
    mode = screen.current_prompt().mode
    await pilot.press({"decide": decide, "answer": "a", "king_gate": "x",
                       "discard": "1"}.get(mode, "enter"))
    if mode == "discard":
        await pilot.press("enter")
    return False


def screen_text(app: EcarteApp) -> str:
    """What the terminal shows, as text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())
