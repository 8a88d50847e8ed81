"""The trick on the table, and the last one: who led, who won.

A finished trick stays in the middle until the next card is led, so that a person sees the
card that completed it even when the opponent plays fast.
"""

from __future__ import annotations

from rich.style import Style

from ...engine.view import Trick
from ..card_art import MINI, Canvas, draw_face, draw_slot
from .felt_part import FeltPart


def fit_name(name: str, room: int) -> str:
    """A name in ``room`` columns: whole, else its last word (a pool's "Bot Henri" is
    "Henri"), else cut with an ellipsis: never a name cut mid-letter without a sign."""
    if len(name) <= room:
        return name
    words = name.split()
    if words and len(words[-1]) <= room:
        return words[-1]
    return name[: max(0, room - 1)] + "…" if room > 0 else ""


def lead_tag(name: str, room: int) -> str:
    """The caption over the card led: "Bot led", or the name alone (bold says it led)."""
    short = fit_name(name, room - 4)
    for tag in (f"{name} led", f"{short} led" if short and "…" not in short else ""):
        if tag and len(tag) <= room:
            return tag
    return fit_name(name, room)


class TrickView(FeltPart):
    ROWS = (6, 8)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[tuple[int, int], ...] = ()  # (seat, card) in the order played
        self.winner: int | None = None
        self.last: Trick | None = None
        self.names: tuple[str, str] = ("A", "B")
        self.number = 0

    def show(
        self,
        cards: tuple[tuple[int, int], ...],
        winner: int | None,
        last: Trick | None,
        names: tuple[str, str],
        number: int,
    ) -> None:
        state = (cards, winner, last, names, number)
        if state != (self.cards, self.winner, self.last, self.names, self.number):
            self.cards, self.winner, self.last, self.names, self.number = state
            self.refresh()

    def render_canvas(self) -> Canvas:
        width, height = self.size
        c = Canvas(width, height)
        p = self.palette()
        g = self.look.glyphs
        size = self.card_size(height - 1)
        w = size[0]
        bold = p.label + Style(bold=True)
        for i in range(2):
            x = i * (w + 2)
            if i < len(self.cards):
                seat, card = self.cards[i]
                frame = p.highlight + Style(bold=True) if self.winner == seat else None
                draw_face(c, x, 1, card, size, p, g, four_colour=self.look.four_colour,
                          frame=frame)
                name = self.names[seat]
                tag = lead_tag(name, w + 1) if i == 0 else fit_name(name, w + 1)
                c.put(x, 0, tag, bold if i == 0 else p.label)
            else:
                draw_slot(c, x, 1, size, g, p.label)
        lx = 2 * (w + 2) + 8
        shows_last = self.last is not None and lx + 2 * MINI[0] + 1 <= width
        if self.winner is not None:
            room = (lx - 1 if shows_last else width) - 2 * (w + 2) - 2
            msg = f"→ {fit_name(self.names[self.winner], room)}"
            c.put(2 * (w + 2), 1 + size[1] // 2, msg, bold)
        if self.last is not None and shows_last:
            c.put(lx, 0, "Last trick", p.label)
            t = self.last
            pair = ((t.leader, t.lead), (1 - t.leader, t.follow))
            for j, (seat, card) in enumerate(pair):
                frame = p.highlight if seat == t.winner else None
                draw_face(c, lx + j * (MINI[0] + 1), 1, card, MINI, p, g,
                          four_colour=self.look.four_colour, frame=frame)
            c.put(lx, 1 + MINI[1], f"to {fit_name(self.names[t.winner], width - lx - 3)}",
                  p.label)
        return c
