"""The one-line choice field of the club's dialogs: keys and clicks step through its values,
each change is announced once, and a value it does not hold is refused."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from ecarte_tui.ui.widgets.choice import Choice

OPTIONS = [("one", 1), ("two", 2), ("three", 3)]


class ChoiceApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[int] = []

    def compose(self) -> ComposeResult:
        yield Choice(OPTIONS, value=2, id="n")

    def on_choice_changed(self, event: Choice.Changed) -> None:
        self.seen.append(event.value)


async def test_keys_step_wrap_and_jump_and_each_change_is_told_once():
    app = ChoiceApp()
    async with app.run_test(size=(30, 3)) as pilot:
        choice = app.query_one(Choice)
        assert app.focused is choice and choice.value == 2 and app.seen == []
        await pilot.press("right", "right", "left", "space", "o", "x", "t")
        await pilot.pause()
        # 2 → 3 → 1 (wraps) → 3 → 1 → "o": one (already) → "x": nothing → "t": two
        assert app.seen == [3, 1, 3, 1, 2]
        assert choice.value == 2 and str(choice.render()) == "◂ two ▸"


async def test_a_click_on_the_left_half_steps_back_and_on_the_right_forward():
    app = ChoiceApp()
    async with app.run_test(size=(30, 3)) as pilot:
        choice = app.query_one(Choice)
        await pilot.click(Choice, offset=(1, 0))
        assert choice.value == 1
        await pilot.click(Choice, offset=(choice.size.width - 1, 0))
        await pilot.click(Choice, offset=(choice.size.width - 1, 0))
        await pilot.pause()
        assert choice.value == 3 and app.seen == [1, 2, 3]


def test_a_value_not_among_the_options_is_refused():
    with pytest.raises(ValueError, match="not one of the choices"):
        Choice(OPTIONS, value=4)
    choice = Choice(OPTIONS, value=1)
    with pytest.raises(ValueError):
        choice.value = 9
    assert choice.value == 1


class RowApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[bool] = []

    def compose(self) -> ComposeResult:
        yield Choice([("no", False), ("yes", True)], value=False, caption="Wagers",
                     caption_width=10, note="the gallery bets", id="w")

    def on_choice_changed(self, event: Choice.Changed) -> None:
        self.seen.append(event.value)


def _line(choice: Choice) -> str:
    return "".join(seg.text for seg in choice.render_line(0))


async def test_a_captioned_choice_is_a_whole_row_and_its_note_never_moves():
    app = RowApp()
    async with app.run_test(size=(50, 3)) as pilot:
        choice = app.query_one(Choice)
        assert _line(choice).startswith("Wagers    ◂ no ▸   the gallery bets")
        await pilot.press("y")
        await pilot.pause()
        # the value is as wide as the widest label: the note stays in its column
        assert _line(choice).startswith("Wagers    ◂ yes ▸  the gallery bets")
        assert choice.value is True and app.seen == [True]


async def test_a_click_on_a_caption_only_focuses_the_row():
    app = RowApp()
    async with app.run_test(size=(50, 3)) as pilot:
        choice = app.query_one(Choice)
        await pilot.click(Choice, offset=(2, 0))  # "Wagers"
        await pilot.pause()
        assert choice.value is False and app.seen == []
        await pilot.click(Choice, offset=(10, 0))  # ◂
        await pilot.click(Choice, offset=(15, 0))  # ▸
        await pilot.click(Choice, offset=(15, 0))
        await pilot.pause()
        assert app.seen == [True, False, True]
