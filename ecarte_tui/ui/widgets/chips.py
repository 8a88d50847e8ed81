"""Chips: each player starts with as many as the target, to the right, and moves one to the
left for every point (RULES.md §7); the games won below."""

from __future__ import annotations

from rich.style import Style
from textual.geometry import Size

from ..card_art import Canvas
from ..theme_styles import theme_style
from .felt import FeltWidget, Runs


class ChipsPanel(FeltWidget):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.state: tuple[object, ...] = ()

    def show(
        self,
        names: tuple[str, str],
        scores: tuple[int, int],
        games_won: tuple[int, int],
        target: int,
        games_to_win: int,
        order: tuple[int, int],
    ) -> None:
        state = (names, scores, games_won, target, games_to_win, order)
        if state != self.state:
            self.state = state
            self.changed()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """``height: auto`` in the stylesheet: as many rows as there are lines."""
        return max(1, len(self._rows(width)))

    def render_canvas(self) -> Canvas:
        return self.text_canvas(self._rows(self.size.width))

    def _rows(self, panel_width: int) -> list[Runs]:
        if not self.state:
            return []
        names, scores, games_won, target, games_to_win, order = self.state  # type: ignore[misc]
        g = self.look.glyphs
        label = theme_style(self, "card--label")
        won = theme_style(self, "chip--won")
        left = theme_style(self, "chip--left")
        bold = label + Style(bold=True)
        match = "one game" if games_to_win == 1 else f"best of {2 * games_to_win - 1}"
        rows: list[Runs] = [[(f"Game to {target}", bold), (f" · {match}", label)]]
        width = max(len(n) for n in names)
        track = 2 * target + 2 <= panel_width - width - 5
        for seat in order:
            score = scores[seat]
            moved = min(score, target)
            row: Runs = [(f"{names[seat]:<{width}} ", bold)]
            if track:  # chips leave the right-hand stack for the left as points are scored
                row += [(f"{g.chip * moved:<{target}}", won), ("  ", None),
                        (f"{g.chip * (target - moved):>{target}}", left)]
            else:
                row += [(f"{moved}{g.chip}", won), (" │ ", None),
                        (f"{g.chip}{target - moved}", left)]
            # the score itself, past the target too (6 when a vole of 2 takes 4 to 6): the
            # chips stop at the target, the number does not ("6+1" read as 7)
            row.append((f" {score}", bold))
            rows.append(row)
        if games_to_win > 1:
            rows.append([("Games ", label),
                         (" · ".join(f"{names[s]} {games_won[s]}" for s in order), bold)])
        else:
            rows.append([])  # the panel keeps its height whether or not games are counted
        return rows
