"""The new-table dialog as a keyboard user meets it (issue 14, item 9): focus starts on the
first field and can be seen, Tab walks the fields, Enter creates from any field, an open
list takes Enter for itself, and the Cancel button is only pressed when it is focused."""

from __future__ import annotations

from test_club_money_units import DialogHost
from textual.color import Color
from textual.widgets import Button, Select
from textual.widgets._select import SelectCurrent

from net.club import TableOptions
from net.screens.new_table_screen import NewTableScreen


def _reversed(select: Select) -> bool:
    """Drawn as focused: a bar of the theme's primary colour (app.tcss), which no other
    field of the dialog has (within a unit of rounding)."""
    bg = select.query_one(SelectCurrent).styles.background
    primary = Color.parse(select.app.current_theme.primary)
    return max(abs(a - b) for a, b in zip(bg.rgb, primary.rgb, strict=True)) <= 2


async def test_focus_starts_on_the_first_field_and_is_drawn():
    screen = NewTableScreen()
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        opponent = screen.query_one("#opponent", Select)
        preset = screen.query_one("#preset", Select)
        assert app.focused is opponent
        assert _reversed(opponent) and not _reversed(preset)
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is preset
        assert _reversed(preset) and not _reversed(opponent)


async def test_tab_then_enter_creates_the_table():
    app = DialogHost(NewTableScreen())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("tab", "enter")
        await pilot.pause()
    assert isinstance(app.result, TableOptions)


async def test_an_open_list_takes_enter_and_the_dialog_stays():
    screen = NewTableScreen()
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("tab", "space")  # open the rules list
        await pilot.pause()
        preset = screen.query_one("#preset", Select)
        assert preset.expanded
        await pilot.press("down", "enter")  # pick the next preset
        await pilot.pause()
        assert app.result == "not dismissed" and not preset.expanded
        assert preset.value == "academie"
        await pilot.press("enter")  # now Enter creates, with the rules picked
        await pilot.pause()
    assert isinstance(app.result, TableOptions) and app.result.preset == "academie"


async def test_enter_on_a_focused_cancel_cancels():
    screen = NewTableScreen()
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("shift+tab")  # backwards from the first field: Cancel
        await pilot.pause()
        assert isinstance(app.focused, Button) and app.focused.id == "cancel"
        await pilot.press("enter")
        await pilot.pause()
    assert app.result is None
