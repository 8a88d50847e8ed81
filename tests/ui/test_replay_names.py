"""A record's names are text, not markup: "Eve [/]" (valid ECN) crashed the replay viewer
with a MarkupError, and "[bold red]Mallory[/bold red] [link=x]" was drawn in red with a
hyperlink, in the status line and in the log."""

from __future__ import annotations

from ecarte_tui.engine import read_ecn, write_ecn
from ecarte_tui.ui.replay_app import ReplayApp
from ecarte_tui.ui.widgets.hand_log import HandLog

from .helpers import make_table, run
from .test_snapshots import _played_record


def _text(app: ReplayApp) -> str:
    update = app.screen._compositor.render_update(full=True)
    return "".join(s.text for line in update.strips for strip in line  # type: ignore[attr-defined]
                   for s in strip if not s.control)


@run
async def test_names_with_brackets_are_shown_as_written():
    played = read_ecn(_played_record(make_table(seed=3, first_dealer=1)))
    for name in ("Eve [/]", "[bold red]Mallory[/bold red] [link=x]"):
        record = read_ecn(write_ecn(played.match, {**played.tags, "A": name}))
        assert record.names[0] == name
        app = ReplayApp(record)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press(*["right"] * 4)
            await pilot.pause()
            status = str(app.screen.query_one("#replay-status").render())
            assert f"{name} " in status
            assert any(name in line for line in app.screen.query_one(HandLog).lines)
            assert "Mallory[/bold red]" in _text(app) or name == "Eve [/]"
        assert app.return_code in (None, 0)
