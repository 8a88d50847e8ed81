"""One line per player: name, dealer or elder, tricks, the king, who is at risk, what they say."""

from __future__ import annotations

from rich.style import Style

from ..card_art import Canvas
from .felt_part import FeltPart


class SeatBar(FeltPart):
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.state: tuple[object, ...] = ()

    def show(
        self,
        name: str,
        role: str,
        tricks: int,
        at_risk: bool,
        king: bool,
        said: str | None,
        leads: bool,
    ) -> None:
        state = (name, role, tricks, at_risk, king, said, leads)
        if state != self.state:
            self.state = state
            self.refresh()

    def render_canvas(self) -> Canvas:
        width, height = self.size
        c = Canvas(width, height)
        if not self.state:
            return c
        name, role, tricks, at_risk, king, said, leads = self.state  # type: ignore[misc]
        get = self.style
        label = get("card--label")
        runs: list[tuple[str, Style | None]] = [(f" {name} ", get("seat--name"))]
        if role:
            runs += [(" ", None), (f" {role} ", get("seat--role"))]
        if leads:
            runs.append((" leads", label + Style(bold=True)))
        if tricks:
            runs.append((f" · {tricks} trick{'s' if tricks != 1 else ''}", label))
        if king:
            runs += [(" ", None),
                     (" king ♔ " if not self.look.ascii_cards else " king ", get("seat--king"))]
        if at_risk:
            runs += [(" ", None), (" AT RISK ", get("seat--risk"))]
        if said:
            runs += [("  ", None),
                     (f" “{said}” " if not self.look.ascii_cards else f' "{said}" ',
                      get("seat--speech"))]
        x = 0
        for text, style in runs:
            c.put(x, 0, text, style)
            x += len(text)
        return c
