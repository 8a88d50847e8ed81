"""The talk box opened large keeps the newest line in sight: long lines wrap there, and a
history taller than the box used to cut off the last lines said."""

from __future__ import annotations

from textual.app import App

from net.club.clubhouse.talk import ChatLine
from net.screens.talk_screen import TalkScreen


def lines(first: int, last: int) -> list[ChatLine]:
    """Every third line long enough to wrap in the box."""
    out = []
    for i in range(first, last + 1):
        words = "a long line that wraps in the box " * (4 if i % 3 == 0 else 0)
        out.append(ChatLine(i, "ben", "ben", "player", f"{words}LINE{i:02d}"))
    return out


def screen_text(app: App[None]) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_the_newest_line_is_in_sight_however_long_the_history():
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = TalkScreen(lines(1, 10), lambda _text: None)
        await app.push_screen(screen)
        for _ in range(3):
            await pilot.pause()
        text = screen_text(app)
        assert "LINE10" in text and "Say something" in text
        assert "LINE01" not in text  # (the box is shorter than the history: the old scroll)

        screen.show_lines(lines(1, 14))  # lines said while it is open
        for _ in range(3):
            await pilot.pause()
        text = screen_text(app)
        assert "LINE14" in text and "LINE13" in text
