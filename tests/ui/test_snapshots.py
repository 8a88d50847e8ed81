"""Snapshots of every screen and decision prompt, at 80×24 and 120×40, in several themes.

Update them with ``pytest tests/ui --snapshot-update`` and look at the SVGs before keeping.
"""

from __future__ import annotations

import pytest

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.settings import Settings

from .scenes import SCENES

# every scene in the default theme at both sizes; the themed sets check the colours
CASES = [(name, "felt", size) for name in SCENES for size in ((80, 24), (120, 40))]
CASES += [(name, "night", (80, 24)) for name in ("decide", "mid_hand", "hand_over", "home")]
CASES += [(name, "salon", (80, 24)) for name in ("discard", "mid_hand")]
CASES += [(name, "contrast", (80, 24)) for name in ("illegal_card", "mid_hand")]


@pytest.mark.parametrize(
    ("scene", "theme", "size"), CASES, ids=[f"{s}-{t}-{w}x{h}" for s, t, (w, h) in CASES]
)
def test_screen(snap_compare, scene, theme, size):
    app, before = SCENES[scene](theme)
    assert snap_compare(app, run_before=before, terminal_size=size)


def test_too_small(snap_compare):
    from .helpers import make_app, make_table

    app = make_app(make_table(seed=3, first_dealer=1), settings=Settings())
    assert snap_compare(app, terminal_size=(60, 20))


def test_replay(snap_compare):
    from ecarte_tui.engine import read_ecn
    from ecarte_tui.ui.replay_app import ReplayApp

    from .helpers import make_table

    table = make_table(seed=3, first_dealer=1)
    _ = EcarteApp  # the replay is its own small app
    record = read_ecn(_played_record(table))
    assert snap_compare(ReplayApp(record), press=["right"] * 8, terminal_size=(80, 24))


def _played_record(table) -> str:
    """A hand played to its end by first legal moves (a record to replay)."""
    from ecarte_tui.engine import PLAY

    table.submit(0, PLAY)
    while table.status == "play":
        seat = table.waiting_for
        assert seat is not None
        view = table.view(seat)
        table.submit(seat, next(a for a in view.legal if a.kind.name == "CARD"))
    text = table.record_text()
    return "\n".join(line for line in text.splitlines() if not line.startswith("[Date"))
