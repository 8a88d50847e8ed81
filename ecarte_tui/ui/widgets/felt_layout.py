"""The table's layout, shared by the game and the replay: one arrangement to keep in step
with the styles (``#main``, ``#felt``, ``#side`` in app.tcss)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static

from .chips import ChipsPanel
from .seat_bar import SeatBar
from .stock import TurnUpStock
from .trick import TrickView


def felt_and_side(top_hand: Widget, hand: Widget, log: Widget) -> ComposeResult:
    """The felt (the other seat above, the stock and the trick, this seat below) and the
    side column (chips, then the log). Call with ``yield from`` inside ``compose``."""
    with Horizontal(id="main"):
        with Vertical(id="felt"):
            yield SeatBar(id="opp-bar")
            yield top_hand
            yield Static(classes="spacer")
            with Horizontal(id="middle"):
                yield TurnUpStock(id="stock")
                yield TrickView(id="trick")
            yield Static(classes="spacer")
            yield hand
            yield SeatBar(id="my-bar")
        with Vertical(id="side"):
            yield ChipsPanel(id="chips")
            yield log
