"""The draw for the first deal (RULES.md §2): both cards face up, and who deals.

Under ``higher_chooses`` the player who drew higher chooses the dealer in this box;
otherwise it only tells what the cards decided. The box is drawn inside the table
(``widgets/table_dialog.py``); this module says what it holds.
"""

from __future__ import annotations

from collections.abc import Callable

from ...engine.deal import FirstDealDraw
from ..card_art import short_label
from ..widgets.felt import Look
from ..widgets.table_dialog import DialogContent, DialogLine

HINT = "hint"
"""The choice of ``h`` in the box: the expert's advice, the box left open."""


def choosing(draw: FirstDealDraw, seat: int) -> bool:
    """Whether ``seat`` chooses the dealer in this box."""
    return draw.chooser == seat and draw.dealer is None


def draw_dialog(draw: FirstDealDraw, names: tuple[str, str], seat: int, look: Look,
                done: Callable[[int | None], None]) -> DialogContent:
    """The box of the draw: ``done`` is told the dealer chosen (d, o, Enter or Esc: the
    player himself), or None when there was nothing to choose."""
    d = draw
    g = look.glyphs
    me, opp = seat, 1 - seat
    a, b = short_label(d.cards[me], g), short_label(d.cards[opp], g)
    redraw = f" (after {d.redraws} tie{'s' if d.redraws > 1 else ''})" if d.redraws else ""
    lines = [DialogLine(f"You drew {a}, {names[opp]} drew {b}{redraw}.")]
    cards = ((d.cards[me], names[me]), (d.cards[opp], names[opp]))
    if choosing(d, seat):
        lines.append(DialogLine("You drew higher: who deals the first hand?", strong=True))

        def chosen(choice: str) -> None:
            done(me if choice == "me" else opp)

        return DialogContent(
            "draw", "Draw for the deal", tuple(lines),
            (("I deal  d", "me"), (f"{names[opp]} deals  o", "them")),
            {"d": "me", "o": "them", "enter": "me", "escape": "me", "h": HINT}, chosen,
            cards=cards)
    lines.append(DialogLine(_outcome(d, names, seat), strong=True))
    return DialogContent("draw", "Draw for the deal", tuple(lines), (("Continue  ⏎", "ok"),),
                         {"enter": "ok", "escape": "ok"}, lambda _choice: done(None),
                         cards=cards)


def _outcome(d: FirstDealDraw, names: tuple[str, str], seat: int) -> str:
    if d.dealer is None and d.chooser is not None:
        return f"{names[d.chooser]} drew higher and chooses who deals."
    assert d.dealer is not None
    who = "You deal" if d.dealer == seat else f"{names[d.dealer]} deals"
    return f"{who} the first hand."
