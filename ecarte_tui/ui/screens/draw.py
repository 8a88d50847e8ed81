"""The draw for the first deal (RULES.md §2): both cards face up, and who deals.

Under ``higher_chooses`` the player who drew higher chooses the dealer here; otherwise the
screen only tells what the cards decided.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...engine.deal import FirstDealDraw
from ..card_art import short_label
from ..widgets.card_row import CardRow
from ..widgets.felt import Look


class DrawScreen(ModalScreen[int | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "deal(0)", "I deal"),
        Binding("o", "deal(1)", "Opponent deals"),
        Binding("enter", "close", "Continue", show=False),
        Binding("escape", "close", "Continue", show=False),
    ]

    def __init__(self, draw: FirstDealDraw, names: tuple[str, str], seat: int, look: Look) -> None:
        super().__init__()
        self.draw = draw
        self.names = names
        self.seat = seat
        self.look = look
        self.choosing = draw.chooser == seat and draw.dealer is None

    def compose(self) -> ComposeResult:
        d = self.draw
        names = self.names
        g = self.look.glyphs
        me, opp = self.seat, 1 - self.seat
        with Vertical(id="dialog", classes="dialog"):
            yield Static("Draw for the deal", classes="title")
            row = CardRow((d.cards[me], d.cards[opp]), (names[me], names[opp]), id="draw-cards")
            row.set_look(self.look)
            yield row
            a, b = short_label(d.cards[me], g), short_label(d.cards[opp], g)
            redraw = f" (after {d.redraws} tie{'s' if d.redraws > 1 else ''})" if d.redraws else ""
            yield Static(f"You drew {a}, {names[opp]} drew {b}{redraw}.", classes="line")
            if self.choosing:
                yield Static("You drew higher: who deals the first hand?", classes="line strong")
                with Horizontal(classes="buttons"):
                    yield Button("I deal  d", id="me", variant="primary")
                    yield Button(f"{names[opp]} deals  o", id="them")
            else:
                yield Static(self._outcome(), classes="line strong")
                with Horizontal(classes="buttons"):
                    yield Button("Continue  ⏎", id="ok", variant="primary")

    def _outcome(self) -> str:
        d = self.draw
        names = self.names
        if d.dealer is None and d.chooser is not None:
            return f"{names[d.chooser]} drew higher and chooses who deals."
        assert d.dealer is not None
        who = "You deal" if d.dealer == self.seat else f"{names[d.dealer]} deals"
        return f"{who} the first hand."

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "deal":
            return self.choosing
        return True

    def action_deal(self, who: int) -> None:
        seat = self.seat if who == 0 else 1 - self.seat
        self.dismiss(seat)

    def action_close(self) -> None:
        if self.choosing:
            self.action_deal(0)
        else:
            self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "me":
            self.action_deal(0)
        elif event.button.id == "them":
            self.action_deal(1)
        else:
            self.dismiss(None)
