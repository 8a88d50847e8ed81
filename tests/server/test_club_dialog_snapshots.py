"""Snapshots of the club's dialogs: the new table with its club options, and a wager (80x24,
where the new-table dialog scrolls, and 120x40). Update with ``--snapshot-update`` and look
at the SVGs before keeping them."""

from __future__ import annotations

import pytest
from test_club_money_units import DialogHost

from net.screens.new_table_screen import NewTableScreen
from net.screens.wager_screen import WagerScreen

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_new_table_dialog(snap_compare, size):
    assert snap_compare(DialogHost(NewTableScreen()), terminal_size=size)


def test_new_table_dialog_scrolled_to_the_club_options(snap_compare):
    async def to_stake(pilot):
        await pilot.pause()
        for _ in range(6):  # from the first field (Opponent) to the stake
            await pilot.press("tab")
        await pilot.pause()

    assert snap_compare(DialogHost(NewTableScreen()), run_before=to_stake,
                        terminal_size=(80, 24))


def _wager() -> DialogHost:
    def place(seat: int, amount: int) -> str:
        raise AssertionError("not placed in a snapshot")

    return DialogHost(WagerScreen(("anna", "ben"), 1, 1000, "wagers: 120 on anna, 40 on ben",
                                  place))


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_wager_dialog(snap_compare, size):
    assert snap_compare(_wager(), terminal_size=size)
