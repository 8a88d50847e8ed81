"""The base of every widget that draws cards: its colours come from CSS component classes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.widget import Widget

from ..card_art import LARGE, SMALL, Glyphs, Palette, glyphs


@dataclass(frozen=True)
class Look:
    """How cards are drawn, from the player's settings."""

    four_colour: bool = False
    ascii_cards: bool = False

    @property
    def glyphs(self) -> Glyphs:
        return glyphs(self.ascii_cards)


class FeltWidget(Widget):
    """A widget drawn on the felt with a character canvas."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "card--face", "card--red", "card--black", "card--blue", "card--green", "card--edge",
        "card--back-a", "card--back-b", "card--highlight", "card--faded", "card--label",
        "chip--won", "chip--left", "seat--name", "seat--role", "seat--risk", "seat--speech",
        "seat--king",
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.look = Look()

    def set_look(self, look: Look) -> None:
        if look != self.look:
            self.look = look
            self.refresh()

    def palette(self) -> Palette:
        get = self.get_component_rich_style
        return Palette(
            face=get("card--face"),
            red=get("card--red", partial=True),
            black=get("card--black", partial=True),
            blue=get("card--blue", partial=True),
            green=get("card--green", partial=True),
            edge=get("card--edge", partial=True),
            back_a=get("card--back-a"),
            back_b=get("card--back-b"),
            highlight=get("card--highlight", partial=True),
            faded=get("card--faded"),
            label=get("card--label"),
        )

    def card_size(self, rows: int) -> tuple[int, int]:
        """Large cards when the widget has room for them (a big terminal), else small."""
        return LARGE if rows >= LARGE[1] else SMALL
