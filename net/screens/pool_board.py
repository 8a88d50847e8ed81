"""The pool board (RULES.md §9, 001 and 003): who plays, who waits, the games won in a row and
the pools taken, as everybody at a pool table reads it beside the felt. The drawing is the
local game's (``ecarte_tui.ui.widgets.pool_board``); this module reads a club table."""

from __future__ import annotations

from ecarte_tui.ui.widgets.pool_board import (
    NAME,
    WIDTH,
    header_line,
    pool_lines,
    row_line,
    rule_line,
)
from ecarte_tui.ui.widgets.pool_board import PoolBoard as BoardPanel
from net.club import LiveTable

__all__ = ["NAME", "WIDTH", "PoolBoard", "board_lines", "rule_line"]


def board_lines(lt: LiveTable) -> list[str]:
    """The board as text lines (at most ``WIDTH`` wide): plain data, easy to test."""
    rule = lt.options.club.pool or "two_in_row"
    lines = [rule_line(rule), header_line()]
    rounds = lt.rounds
    pool = rounds.pool if rounds is not None else None
    names = {s.player_id: s.name or "?" for s in lt.seats if s.player_id}
    if pool is None:
        for i, s in enumerate(lt.seats):
            now = "free" if s.player_id is None else ("plays" if i < 2 else "waits")
            lines.append(row_line(s.name or "—", now, 0, 0))
    else:
        lines += pool_lines(pool, lambda p: names.get(p, p))
    if rounds is not None and rounds.last:
        lines.append(rounds.last)
    return lines


class PoolBoard(BoardPanel):
    """The board; ``show()`` redraws it from the table (after each round, each rotation)."""

    def __init__(self, lt: LiveTable, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.lt = lt

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        self.show_lines(board_lines(self.lt))
