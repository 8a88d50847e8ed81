"""The new-table dialog as a keyboard user meets it (issue 14, item 9): focus starts on the
first field and can be seen, Tab walks the fields, ← → and a first letter change a field,
Enter creates from any field, and the Cancel button is only pressed when it is focused."""

from __future__ import annotations

from test_club_money_units import DialogHost
from textual.color import Color
from textual.widgets import Button

from ecarte_tui.ui.widgets.choice import Choice
from net.club import TableOptions
from net.screens.new_table_screen import NewTableScreen


def _reversed(choice: Choice) -> bool:
    """Drawn as focused: its value (``◂ … ▸``, as the widget draws its line) on a bar of
    the theme's primary colour, which no other field of the dialog has (within a unit of
    rounding)."""
    primary = Color.parse(choice.app.current_theme.primary)
    value = next(seg for seg in choice.render_line(0) if "◂" in seg.text)
    assert value.style is not None and value.style.bgcolor is not None
    bg = Color.from_rich_color(value.style.bgcolor)
    return max(abs(a - b) for a, b in zip(bg.rgb, primary.rgb, strict=True)) <= 2


async def test_focus_starts_on_the_first_field_and_is_drawn():
    screen = NewTableScreen()
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        opponent = screen.query_one("#opponent", Choice)
        preset = screen.query_one("#preset", Choice)
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


async def test_arrows_change_the_rules_and_enter_creates_with_them():
    screen = NewTableScreen()
    app = DialogHost(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("tab", "right")  # the rules: the next preset
        await pilot.pause()
        preset = screen.query_one("#preset", Choice)
        assert app.result == "not dismissed" and preset.value == "academie"
        assert "academie" in str(preset.render())
        await pilot.press("left", "left")  # back past the first: the last
        await pilot.pause()
        assert preset.value == "nl"
        await pilot.press("r")  # a first letter jumps to it
        await pilot.pause()
        assert preset.value == "regles"
        # the fields that follow the rules show the preset's own values
        assert screen.query_one("#games", Choice).value == 2
        await pilot.press("enter")
        await pilot.pause()
    assert isinstance(app.result, TableOptions) and app.result.preset == "regles"
    assert app.result.rules().games_to_win == 2


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
