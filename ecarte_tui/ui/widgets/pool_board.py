"""The pool board (RULES.md §9, 001 and 003): who plays, who waits, the games won in a row and
the pools taken, beside the felt. Shared by the local pool against two bots and the club's
pool tables, so both read the same."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Static

from ...pool import POOL_RULES, Pool

WIDTH = 26  # the table screen's side panel, less its padding
NAME = 9


def rule_line(rule: str) -> str:
    if POOL_RULES.get(rule, 1) > 1:
        return f"Pool (003): {POOL_RULES[rule]} in a row"
    return "Pool (001): a win takes it"


def header_line() -> str:
    return f"{'player':<{NAME}} {'now':<5} {'row':>3} {'pool':>4}"


def row_line(name: str, now: str, streak: int, pools: int) -> str:
    return f"{name[:NAME]:<{NAME}} {now:<5} {streak:>3} {pools:>4}"


def pool_lines(pool: Pool, name_of: Callable[[str], str] = str) -> list[str]:
    """The rows of a pool under way, and how far it has gone."""
    lines = [row_line(name_of(r.player), r.status, r.streak, r.pools_won) for r in pool.board()]
    played = len(pool.games)
    lines.append(f"pool {pool.pool_number} · {played} game{'s' if played != 1 else ''} played")
    return lines


def board_lines(pool: Pool, last: str = "", name_of: Callable[[str], str] = str) -> list[str]:
    """The whole board as text lines (at most ``WIDTH`` wide): plain data, easy to test."""
    lines = [rule_line(pool.rule), header_line(), *pool_lines(pool, name_of)]
    if last:
        lines.append(last)
    return lines


class PoolBoard(Static):
    """The board's panel; ``show_lines`` redraws it (after each game, each rotation)."""

    DEFAULT_CSS = """
    PoolBoard {
        height: auto;
        background: $felt-edge;
        color: $foreground;
        border-top: hkey $secondary;
    }
    """

    def show_lines(self, lines: list[str]) -> None:
        self.update("\n".join(lines))
