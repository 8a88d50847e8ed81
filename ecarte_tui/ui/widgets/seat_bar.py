"""One line per player: name, dealer or elder, tricks, the king, who is at risk, what they say."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text

from .felt import FeltWidget


class SeatBar(FeltWidget):
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "card--label", "seat--name", "seat--role", "seat--risk", "seat--speech", "seat--king",
    }

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


# Not the card classes of FeltWidget, only its own (Widget.__init_subclass__ does not pass
# ``inherit_component_classes`` on in Textual 8.2, so it is set after the class).
SeatBar._inherit_component_classes = False
