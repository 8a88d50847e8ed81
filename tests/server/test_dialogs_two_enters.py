"""Two Enters in one read (a key held down, a paste ending in a newline): the second reaches a
dialog after the first has acted and closed it. A dialog that acts before closing (places a
wager, takes a name) acted twice."""

from __future__ import annotations

from dialog_host import DialogHost, answered
from textual import events

from ecarte_tui.ui.app import EcarteApp
from net.screens.name_screen import NameScreen
from net.screens.wager_screen import WagerScreen

KEYS = {"\r": "enter"}


def one_read(app: EcarteApp, text: str) -> None:
    """Keys as a terminal sends them in one read: posted together, none waited for."""
    for char in text:
        app.post_message(events.Key(KEYS.get(char, char), char))


async def test_a_wager_sent_with_two_enters_is_placed_once():
    placed: list[tuple[int, int]] = []

    def place(seat: int, amount: int) -> str:
        placed.append((seat, amount))
        return f"You wagered {amount} chips"

    app = DialogHost(WagerScreen(("anna", "ben"), 1, 1000, "wagers: none yet", place))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        one_read(app, "50\r\r")
        await answered(pilot, app)
        assert app.is_running
    assert placed == [(0, 50)] and app.results == ["You wagered 50 chips"]


async def test_a_name_sent_with_two_enters_is_taken_once():
    """(Taking a name counts against the address's quota of new names, and a key's second
    registration is refused: the second Enter did both.)"""
    asked: list[str] = []

    def register(name: str) -> str | None:
        asked.append(name)
        return None if len(asked) == 1 else "this key has a name already"

    app = DialogHost(NameScreen("", register))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        one_read(app, "anna\r\r")
        await answered(pilot, app)
        assert app.is_running
    assert asked == ["anna"] and app.results == ["anna"]
