"""One line per player: name, dealer or elder, tricks, the king, who is at risk, what they say."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from .felt import FeltWidget


class SeatBar(FeltWidget):
    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
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

    def render(self) -> Text:
        if not self.state:
            return Text("")
        name, role, tricks, at_risk, king, said, leads = self.state  # type: ignore[misc]
        get = self.get_component_rich_style
        label = get("card--label")
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        out.append(f" {name} ", get("seat--name"))
        if role:
            out.append(" ")
            out.append(f" {role} ", get("seat--role"))
        if leads:
            out.append(" leads", label + Style(bold=True))
        if tricks:
            out.append(f" · {tricks} trick{'s' if tricks != 1 else ''}", label)
        if king:
            out.append(" ")
            out.append(" king ♔ " if not self.look.ascii_cards else " king ", get("seat--king"))
        if at_risk:
            out.append(" ")
            out.append(" AT RISK ", get("seat--risk"))
        if said:
            out.append("  ")
            out.append(f" “{said}” " if not self.look.ascii_cards else f' "{said}" ',
                       get("seat--speech"))
        return out
