"""The table's layout, shared by the game and the replay: one arrangement to keep in step
with the styles (``#main``, ``#felt``, ``#side`` in table.tcss)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from .chips import ChipsPanel
from .felt_board import FeltBoard


def felt_and_side(felt: FeltBoard, log: Widget) -> ComposeResult:
    """The felt (the other seat above, the stock and the trick, this seat below: one
    ``FeltBoard``) and the side column (chips, then the log). Call with ``yield from``
    inside ``compose``."""
    with Horizontal(id="main"):
        yield felt
        with Vertical(id="side"):
            yield ChipsPanel(id="chips")
            yield log
