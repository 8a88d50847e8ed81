"""One served dialog on its own, for tests of what the dialog does with keys."""

from __future__ import annotations

from textual import events
from textual.pilot import Pilot
from textual.screen import Screen

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.settings import Settings
from net.screens.club_app import LOBBY_STYLES


class DialogHost(EcarteApp):
    """The served app's styles around one dialog (no club behind it); every answer the
    dialog gives is kept, so a test sees one given twice."""

    CSS_PATH = [*EcarteApp.CSS_PATH, LOBBY_STYLES]

    def __init__(self, screen: Screen[object]) -> None:
        super().__init__(settings=Settings(), served=True)
        self.dialog = screen
        self.results: list[object] = []

    @property
    def result(self) -> object:
        """The dialog's last answer, or "not dismissed"."""
        return self.results[-1] if self.results else "not dismissed"

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()
        self.push_screen(self.dialog, self.results.append)


async def answered(pilot: Pilot[object], host: DialogHost, timeout: float = 10.0) -> None:
    """Wait for the dialog's first answer (a busy machine gives it late), then for the keys
    read with it to be handled too."""
    for _ in range(int(timeout / 0.02)):
        if host.results:
            await pilot.pause()
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("the dialog did not answer")
