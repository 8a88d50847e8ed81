"""Two apps, one table: the server's way, each app bound to one seat in the same loop."""

from __future__ import annotations

import asyncio

from textual.pilot import Pilot

from ecarte_tui.engine import Phase
from ecarte_tui.table import NOT_YET_LOGGED, Table
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings

from .helpers import make_table, run, screen_text


async def _play_seat(app: EcarteApp, seat: int, hands_over: list[int]) -> None:
    table = app.table
    assert table is not None
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await pilot.pause(0.01)
            if table.status in ("between", "over"):
                break
            screen = app.screen
            if not isinstance(screen, TableScreen) or screen.update is None:
                continue
            if screen.update.view != table.view(seat):
                continue  # this app has not drawn the latest update yet
            view = table.view(seat)
            if table.waiting_for != seat:
                continue
            if view.phase is Phase.DECIDE:
                await pilot.press("p")
            elif view.phase is Phase.TRICKS and view.to_move == seat:
                await pilot.press("enter")
            elif view.phase is Phase.TRICKS:
                await pilot.press("x")
        await pilot.pause(0.05)
        hands_over.append(seat)
        # each screen saw only its own seat's cards
        screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        assert screen.update is not None and screen.update.view.seat == seat


@run
async def test_two_served_apps_play_a_hand_at_one_table():
    table = make_table(seed=3, first_dealer=1)
    apps = [EcarteApp(table=table, seat=s, settings=Settings(), served=True) for s in (0, 1)]
    done: list[int] = []
    await asyncio.wait_for(
        asyncio.gather(*(_play_seat(app, s, done) for s, app in enumerate(apps))), 30
    )
    assert sorted(done) == [0, 1]
    assert table.status in ("between", "over")
    assert sum(table.view(0).tricks_won) == 5


async def _waiting_screen(pilot: Pilot[object], app: EcarteApp, pause: float = 0.05
                          ) -> TableScreen:
    """The table screen, not yet shown the table: it says the records do not answer."""
    await pilot.pause(pause)
    screen = app.screen
    assert isinstance(screen, TableScreen) and screen.update is None
    assert NOT_YET_LOGGED[:30] in screen_text(app)
    return screen


class _SlowLog:
    """A shared log that has not yet written a step applied at this table."""

    pending = 1
    asked = False  # a step was submitted

    def catch_up(self, table: object) -> None:
        self.asked = True
        raise OSError("nothing may be submitted while the table waits for its log")

    append = rebuild = catch_up


@run
async def test_a_screen_opened_while_a_step_waits_for_the_log_shows_the_table_once_written():
    table = make_table(seed=3, first_dealer=1)
    log = _SlowLog()
    table.journal = log  # type: ignore[assignment]
    app = EcarteApp(table=table, seat=0, settings=Settings(), served=True, save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _waiting_screen(pilot, app)
        before = table.record_text()
        for key in ("p", "c", "h", "1", "space", "enter", "right", "a", "r", "k", "x"):
            await pilot.press(key)  # none of them acts on a table it has not been shown
        await pilot.pause(0.05)
        assert table.record_text() == before and screen.update is None and not log.asked
        assert NOT_YET_LOGGED[:30] in screen_text(app)
        log.pending = 0
        table.confirm([None], stored=True)  # the log has it: the table is shown
        await pilot.pause(0.05)
        assert screen.update is not None and screen.update.view == table.view(0)
        assert NOT_YET_LOGGED[:30] not in screen_text(app)
        assert "propose" in screen_text(app)


class _RefusedLog:
    """A shared log that refused this table's last step and cannot be read until ``down``
    is False; then it gives the state before that step."""

    pending = 0

    def __init__(self, before: Table) -> None:
        self.before, self.down = before, True

    def rebuild(self, table: Table) -> None:
        if self.down:
            raise OSError("the club's records do not answer")
        table.reset_from(self.before)


@run
async def test_a_screen_waiting_for_a_refused_step_reads_the_log_again_until_it_can(
        monkeypatch):
    monkeypatch.setattr("ecarte_tui.ui.screens.table.LOG_RETRY_SECONDS", 0.05)
    table, before = make_table(seed=3, first_dealer=1), make_table(seed=3, first_dealer=1)
    log = _RefusedLog(before)
    table.journal = log  # type: ignore[assignment]
    table.apply_entry(("submit", 0, str(table.match.legal_actions(0)[0])))  # not in the log
    table.unwritten = True
    app = EcarteApp(table=table, seat=0, settings=Settings(), served=True, save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _waiting_screen(pilot, app, 0.3)  # (some tries to read the log)
        log.down = False  # the records answer again: the screen is shown the log's table
        for _ in range(100):
            await pilot.pause(0.02)
            if screen.update is not None:
                break
        assert screen.update is not None and not table.unwritten
        assert screen.update.view == before.view(0), "the log's state, not the refused step"
        assert "propose" in screen_text(app) and screen._log_timer is None
