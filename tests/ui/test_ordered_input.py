"""The club's text boxes apply keys in the order typed, even when they arrive at once.

The keys are posted to the app in one go, as the SSH driver does with one read; plain
Textual ``Input`` gets these wrong (the editing keys run last).
"""

from __future__ import annotations

import pytest
from textual import events
from textual.app import App, ComposeResult

from ecarte_tui.ui.widgets.ordered_input import OrderedInput

NAMED = {"\x7f": "backspace", "\x15": "ctrl+u", "\x0b": "ctrl+k", "\x01": "home",
         "\x17": "ctrl+w", "\r": "enter"}


def key_events(text: str) -> list[events.Key]:
    return [events.Key(NAMED[ch], None) if ch in NAMED else events.Key(ch, ch) for ch in text]


class BoxApp(App[None]):
    def __init__(self, value: str, kind: str) -> None:
        super().__init__()
        self.value, self.kind = value, kind
        self.submitted: list[str] = []

    def compose(self) -> ComposeResult:
        yield OrderedInput(self.value, type=self.kind, select_on_focus=False, id="box")

    def on_input_submitted(self, event: OrderedInput.Submitted) -> None:
        self.submitted.append(event.value)


@pytest.mark.parametrize(
    ("start", "kind", "typed", "value", "submitted"),
    [
        ("", "text", "abc\x7fdef", "abdef", []),
        ("old", "text", "\x15abcdef", "abcdef", []),
        ("old", "text", "\x7fabc", "olabc", []),
        ("", "text", "one two\x17three\r", "one three", ["one three"]),
        ("", "text", "tail\x01head \x0bX", "head X", []),  # home, type, kill to the end
        ("", "integer", "12\x7f50\r", "150", ["150"]),  # a wager
    ],
)
async def test_keys_posted_together_apply_in_order(start, kind, typed, value, submitted):
    app = BoxApp(start, kind)
    async with app.run_test() as pilot:
        await pilot.pause()
        for event in key_events(typed):
            app.post_message(event)  # no pause between keys: one read's worth
        await pilot.pause()
        await pilot.pause()
        assert app.query_one("#box", OrderedInput).value == value
        assert app.submitted == submitted
