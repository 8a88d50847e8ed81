"""The player's own hand: five cards face up, chosen by number, arrows, Enter or a click.

For a watcher the same place shows the bottom seat's cards face down (``show_backs``): a
watcher's view holds no hand, so there is no face to draw.
"""

from __future__ import annotations

from rich.style import Style
from textual.message import Message

from ..card_art import Canvas, draw_back, draw_face, draw_slot
from .felt_part import FeltPart

GAP = 1


class HandView(FeltPart):
    """Cards in a row; a raised card is marked for the discard, a faded one may not be played."""

    ROWS = (6, 8)

    class Clicked(Message):
        """A card was clicked (index in the hand)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[int, ...] = ()
        self.playable: frozenset[int] = frozenset()  # cards that may be played now
        self.marked: frozenset[int] = frozenset()  # cards chosen for the discard
        self.cursor: int | None = None
        self.active = False  # the player has a choice to make with these cards
        self.face_down = False
        self.deck = 0

    def show(
        self,
        cards: tuple[int, ...],
        *,
        playable: frozenset[int] = frozenset(),
        marked: frozenset[int] = frozenset(),
        cursor: int | None = None,
        active: bool = False,
    ) -> None:
        state = (cards, playable, marked, cursor, active)
        if state != (self.cards, self.playable, self.marked, self.cursor, self.active):
            self.cards, self.playable, self.marked, self.cursor, self.active = state
            self.refresh()

    def show_backs(self, count: int, deck: int) -> None:
        """A watcher's view of the bottom seat: ``count`` cards face down, never a face."""
        if (self.face_down, len(self.cards), self.deck) != (True, count, deck):
            self.face_down, self.deck = True, deck
            self.cards = (-1,) * count  # placeholders: no card id is ever held here
            self.playable, self.marked, self.cursor, self.active = (
                frozenset(), frozenset(), None, False)
            self.refresh()

    def _layout(self) -> tuple[tuple[int, int], int]:
        size = self.card_size(self.size.height - 1)
        total = len(self.cards) * (size[0] + GAP) - GAP
        return size, max(0, (self.size.width - total) // 2)

    def render_canvas(self) -> Canvas:
        width, height = self.size
        c = Canvas(width, height)
        p = self.palette()
        g = self.look.glyphs
        size, left = self._layout()
        if not self.cards:
            draw_slot(c, max(0, (width - size[0]) // 2), 1, size, g, p.label)
            return c
        if self.face_down:
            for i in range(len(self.cards)):
                draw_back(c, left + i * (size[0] + GAP), 1, size, self.deck, p, g)
            return c
        for i, card in enumerate(self.cards):
            x = left + i * (size[0] + GAP)
            raised = card in self.marked
            y = 0 if raised else 1
            frame: Style | None = None
            if self.active and i == self.cursor:
                frame = p.highlight + Style(bold=True)
            faded = self.active and bool(self.playable) and card not in self.playable
            draw_face(
                c, x, y, card, size, p, g, four_colour=self.look.four_colour, frame=frame,
                faded=faded, bottom=str(i + 1),
            )
        return c

    def click(self, x: int, y: int) -> None:
        if self.face_down or self.board is None:
            return
        size, left = self._layout()
        x -= left
        if x < 0:
            return
        index, within = divmod(x, size[0] + GAP)
        if within < size[0] and index < len(self.cards):
            self.board.post_message(self.Clicked(index))
