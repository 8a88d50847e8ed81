"""Chips: each player starts with as many as the target, to the right, and moves one to the
left for every point (RULES.md §7); the games won below."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ..theme_styles import theme_style
from .felt import FeltWidget


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
            self.refresh()

    def render(self) -> Text:
        if not self.state:
            return Text("")
        names, scores, games_won, target, games_to_win, order = self.state  # type: ignore[misc]
        g = self.look.glyphs
        label = theme_style(self, "card--label")
        won = theme_style(self, "chip--won")
        left = theme_style(self, "chip--left")
        bold = label + Style(bold=True)
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        match = "one game" if games_to_win == 1 else f"best of {2 * games_to_win - 1}"
        out.append(f"Game to {target}", bold)
        out.append(f" · {match}\n", label)
        width = max(len(n) for n in names)
        track = 2 * target + 2 <= self.size.width - width - 5
        for seat in order:
            score = scores[seat]
            moved = min(score, target)
            out.append(f"{names[seat]:<{width}} ", bold)
            if track:  # chips leave the right-hand stack for the left as points are scored
                out.append(f"{g.chip * moved:<{target}}", won)
                out.append("  ")
                out.append(f"{g.chip * (target - moved):>{target}}", left)
            else:
                out.append(f"{moved}{g.chip}", won)
                out.append(" │ ")
                out.append(f"{g.chip}{target - moved}", left)
            extra = f"+{score - target}" if score > target else ""
            out.append(f" {score}{extra}\n", bold)
        if games_to_win > 1:
            out.append("Games ", label)
            out.append(" · ".join(f"{names[s]} {games_won[s]}" for s in order), bold)
        return out

