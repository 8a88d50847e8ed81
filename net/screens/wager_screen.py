"""A watcher's wager on a game's winner (004: the gallery wagers on the outcome).

The dialog asks the ledger through ``place``; a refusal (too late, an overdraft, backing the
other player...) is shown in the dialog and nothing is changed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ecarte_tui.ui.widgets.choice import Choice
from ecarte_tui.ui.widgets.ordered_input import OrderedInput
from net.club.clubhouse.purse import LedgerError
from net.screens.money_text import chips

if TYPE_CHECKING:
    from net.club import LiveTable
    from net.club.house import House

WAGER_NOT_PLACED = ("the club cannot reach its records just now, so no chip was wagered: "
                    "try again in a moment")
Place = Callable[[int, int], str]  # (seat, amount) -> what was done; LedgerError: why not


def place_wager(house: House, lt: LiveTable, bettor: str, seat: int, amount: int) -> str:
    """Wager ``amount`` on the player in ``seat`` for ``bettor``; LedgerError says why not.

    A backer may not bet against the player he advises, and one who sees a hand must wager
    before the deal (``House.wager_refusal``).
    """
    gallery = house.gallery(lt)
    on = lt.seats[seat].player_id
    if on is None:
        raise LedgerError("that seat is empty")
    why = gallery.may_wager(bettor, on)
    if why is not None:
        raise LedgerError(why)
    try:
        house.place_wager(lt, bettor, seat, amount,
                          sees_hand=gallery.view_seat(bettor) is not None)
    except sqlite3.OperationalError:  # (the ledger's transaction did nothing)
        raise LedgerError(WAGER_NOT_PLACED) from None
    return f"You wagered {chips(amount)} on {lt.seats[seat].name or on}"


class WagerScreen(ModalScreen[str | None]):
    """Returns what was wagered (for a notification), or None if cancelled."""

    AUTO_FOCUS = "#wager-amount"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, names: tuple[str, str], game: int, purse: int, pot: str,
                 place: Place) -> None:
        super().__init__()
        self.names = names
        self.game = game
        self.purse = purse
        self.pot = pot
        self.place = place

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wager"):
            yield Static(f"A wager on game {self.game}", classes="title")
            yield Static(f"Your purse: {chips(self.purse)} · {self.pot}", classes="line")
            yield Static("Bets close when the game's first hand begins. The winner's backers "
                         "share the pot in proportion to their wagers (004).",
                         classes="line wager-note")
            with Horizontal(classes="row"):
                yield Label("On", classes="name")
                yield Choice([(n, i) for i, n in enumerate(self.names)], value=0,
                             id="wager-on")
            with Horizontal(classes="row"):
                yield Label("Chips", classes="name")
                yield OrderedInput(type="integer", max_length=6, compact=True, placeholder="amount",
                            id="wager-amount")
            yield Static(id="wager-error", classes="club-error")
            with Horizontal(classes="buttons"):
                yield Button("Wager  ⏎", id="wager", variant="primary")
                yield Button("Cancel  esc", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#wager-error", Static).display = False

    def _show_error(self, text: str) -> None:
        error = self.query_one("#wager-error", Static)
        error.update(text[0].upper() + text[1:])
        error.display = True

    def action_wager(self) -> None:
        if self.app.screen is not self:
            return  # a second Enter read with the first: the wager is placed, the dialog gone
        text = self.query_one("#wager-amount", Input).value.strip()
        try:
            amount = int(text)
        except ValueError:
            self._show_error("type how many chips to wager")
            return
        seat = self.query_one("#wager-on", Choice).value
        try:
            done = self.place(seat, amount)
        except LedgerError as e:
            self._show_error(str(e))
            return
        self.dismiss(done)

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted, "#wager-amount")
    def _entered(self, _event: Input.Submitted) -> None:
        self.action_wager()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "wager":
            self.action_wager()
        else:
            self.action_cancel()
