"""The served app's help lists the club's keys; the local game's help does not."""

from __future__ import annotations

import asyncio

from textual.app import App
from textual.widgets import Markdown

from ecarte_tui.ui.screens.help import HelpScreen
from net.screens.club_app import CLUB_HELP, ClubApp


class HelpApp(App[None]):
    def __init__(self, extra: str) -> None:
        super().__init__()
        self.help_extra = extra

    def on_mount(self) -> None:
        self.push_screen(HelpScreen())


def help_source(extra: str) -> str:
    async def run() -> str:
        app = HelpApp(extra)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return app.screen.query_one(Markdown).source

    return asyncio.run(run())


def test_the_club_help_lists_talk_backing_advice_and_wagers():
    assert ClubApp.help_extra == CLUB_HELP
    text = help_source(CLUB_HELP)
    for key in ("`/`", "`m`", "`g`", "`s`", "`$`", "`t`", "leaderboard"):
        assert key in text
    assert "How to play at this table" in text


def test_the_local_help_has_no_club_section():
    assert "At the club" not in help_source("")
