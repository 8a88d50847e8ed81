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
        # (text, style, what it is): what does not fit goes whole, never cut mid-word
        runs: list[tuple[str, Style | None, str]] = [(f" {name} ", get("seat--name"), "name")]
        if role:
            runs += [(" ", None, "role"), (f" {role} ", get("seat--role"), "role")]
        if leads:
            runs.append((" leads", label + Style(bold=True), "leads"))
        if tricks:
            runs.append((f" · {tricks} trick{'s' if tricks != 1 else ''}", label, "tricks"))
        if king:
            runs += [(" ", None, "king"),
                     (" king ♔ " if not self.look.ascii_cards else " king ", get("seat--king"),
                      "king")]
        if at_risk:
            runs += [(" ", None, "risk"), (" AT RISK ", get("seat--risk"), "risk")]
        if said:
            runs += [("  ", None, "said"),
                     (f" “{said}” " if not self.look.ascii_cards else f' "{said}" ',
                      get("seat--speech"), "said")]
        # a narrow felt (80 columns, a long name) drops what the rest of the table also
        # says: the words spoken (in the log), then "leads" (the prompt says whose lead)
        for what in ("said", "leads"):
            if sum(len(text) for text, _, _ in runs) <= width:
                break
            runs = [run for run in runs if run[2] != what]
        x = 0
        for text, style, _ in runs:
            c.put(x, 0, text, style)
            x += len(text)
        if x > width > 0 and height > 0:
            c.put(width - 1, 0, "…", c.styles[0][width - 1])
        return c
