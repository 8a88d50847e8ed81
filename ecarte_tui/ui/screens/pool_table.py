"""The local pool's table screen: the usual table plus the pool board, a waiting banner and
`s` to skip the bots' game; and the box at the end of each game of the pool (drawn inside
the table, as the table's own boxes are)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual.binding import Binding, BindingType

from ...engine import SeatView
from ..local_pool import LocalPool, PoolRound, result_lines
from ..narration import Prompt, outcome_lines
from ..widgets.felt import Look
from ..widgets.pool_board import PoolBoard, board_lines
from ..widgets.table_dialog import DialogContent, DialogLine
from .table import TableScreen


class PoolTableScreen(TableScreen):
    """One game of the pool, played (your seat) or watched from the public view (you wait)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("s", "skip", "Skip")]

    def __init__(self, local_pool: LocalPool, pool_round: PoolRound, look: Look,
                 auto_announce: bool = False) -> None:
        super().__init__(pool_round.table, pool_round.seat, look, auto_announce,
                         pool_round.start)
        self.local_pool = local_pool
        self.round = pool_round
        self._pool_shown = False
        if pool_round.watching:
            self.banner = (local_pool.waiting_banner(), "watching")

    def on_mount(self) -> None:
        # (TableScreen.on_mount runs too: Textual calls each class's handler)
        self.call_after_refresh(self._mount_board)

    def _mount_board(self) -> None:
        sides = self.query("#side")
        if sides and not self.query(PoolBoard):
            sides.first().mount(PoolBoard(id="pool-board"), before="#log")
            self.call_after_refresh(self.show_board)

    def show_board(self) -> None:
        for board in self.query(PoolBoard):
            board.show_lines(board_lines(self.local_pool.pool, self.local_pool.last_line()))

    def current_prompt(self) -> Prompt:
        u = self.update
        if u is not None and u.status == "over":
            return Prompt(f"Game {self.round.number} of the pool is over.",
                          "⏎ next game · q quit", "over")
        return super().current_prompt()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "skip":
            if self.hidden_by_size:
                return False
            return self.round.watching and self.round.in_progress and not self.round.hurried
        return super().check_action(action, parameters)

    def action_skip(self) -> None:
        self.round.hurry()
        self.set_banner(self.local_pool.waiting_banner(hurried=True), "watching")
        self.refresh_bindings()

    def _check_dialogs(self) -> None:
        u = self.update
        if u is None or u.status != "over":
            super()._check_dialogs()
            return
        result = self.round.result
        if self._pool_shown or result is None or self.dialog is not None:
            return
        self._pool_shown = True
        self.show_board()
        lines = result_lines(result, self.local_pool.pool)
        self.show_dialog(pool_over_dialog(u.view, self.names, lines, self._next))

    def _next(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.action_quit()
        elif choice == "next":
            next_game = getattr(self.app, "next_pool_game", None)
            if next_game is not None:
                next_game()


def pool_over_dialog(view: SeatView, names: tuple[str, str], pool_lines: list[str],
                     done: Callable[[str], None]) -> DialogContent:
    """A game of the pool is over: the last hand, who takes the pool, who comes in. Shown
    to a player who waits too; ``done`` is told "next" (Enter, n) or "quit" (q)."""
    won = view.seat is not None and view.match_winner == view.seat
    lines = [DialogLine("• " + line) for line in outcome_lines(view, names)]
    lines.append(DialogLine(f"Score: {names[0]} {view.scores[0]} · {names[1]} {view.scores[1]}"
                            f"  (game to {view.rules.target})"))
    lines.append(DialogLine(pool_lines[1], strong=True))
    lines += [DialogLine(line) for line in pool_lines[2:]]
    return DialogContent("pool", pool_lines[0], tuple(lines),
                         (("Next game  ⏎", "next"), ("Quit  q", "quit")),
                         {"enter": "next", "n": "next"}, done, win=won)
