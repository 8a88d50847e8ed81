"""Two apps, one table: the server's way, each app bound to one seat in the same loop."""

from __future__ import annotations

import asyncio

from ecarte_tui.engine import Phase
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings

from .helpers import make_table, run


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
