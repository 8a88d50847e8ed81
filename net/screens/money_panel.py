"""The table's money in the side panel (stake, the session's purse, the public pot), and the
news of a settlement for this session ("You won 40 chips on ANNA").

The house calls its listeners from whichever session's app moved the table: the panel only
queues a message to itself there, and reads the ledger in its own app.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widgets import Static

from net.club.clubhouse.purse import Settlement, game_id
from net.screens.money_text import current_game, money_lines, names_of, pot_text, settlement_lines
from net.screens.wager_screen import WagerScreen, place_wager

if TYPE_CHECKING:
    from net.club import LiveTable
    from net.club.house import House
    from net.screens.club_table_screen import ClubTableScreen


class MoneyChanged(Message, bubble=False):
    """A wager was placed, a game opened, its betting closed or it was settled."""


class Settled(Message, bubble=False):
    def __init__(self, settlement: Settlement) -> None:
        super().__init__()
        self.settlement = settlement


class MoneyPanel(Static):
    DEFAULT_CSS = """
    MoneyPanel { height: auto; background: $felt-edge; color: $foreground; padding: 0 0 1 0; }
    """

    def __init__(self, house: House, lt: LiveTable, me: str | None) -> None:
        super().__init__(id="money", markup=False)
        self.text = ""
        self.house = house
        self.lt = lt
        self.me = me
        self._pending = False

    def on_mount(self) -> None:
        self.house.listeners.append(self._moved)
        self.house.settlement_listeners.append(self._settled)
        self.show_money()

    def on_unmount(self) -> None:
        for listeners, cb in ((self.house.listeners, self._moved),
                              (self.house.settlement_listeners, self._settled)):
            if cb in listeners:
                listeners.remove(cb)  # type: ignore[arg-type]

    def _moved(self, code: str, _what: str) -> None:
        if code == self.lt.code and not self._pending:
            self._pending = True
            self.post_message(MoneyChanged())

    def _settled(self, code: str, settlement: Settlement) -> None:
        if code == self.lt.code:
            self.post_message(Settled(settlement))

    def on_money_changed(self, _message: MoneyChanged) -> None:
        self._pending = False
        self.show_money()

    def on_settled(self, message: Settled) -> None:
        if self.me is not None:
            lines = settlement_lines(message.settlement, self.me, names_of(self.lt),
                                     self.lt.options.club.stake)
            for line in lines:
                self.app.notify(line, title="Chips", timeout=12)
        self.show_money()

    def show_money(self) -> None:
        """Repaint when the lines change; lay the screen out again only when their number
        does (a layout reflows every widget of the screen, for every player at the table)."""
        try:
            lines = money_lines(self.house, self.lt, self.me)
        except sqlite3.OperationalError:  # the store away: the last lines stay until back
            return
        text = "\n".join(lines)
        if text != self.text:
            width = self.content_size.width
            layout = (text.count("\n") != self.text.count("\n") or not self.text
                      or any(len(line) >= width for line in lines))  # (a line may wrap)
            self.text = text
            self.update(text, layout=layout)


def mount_money_panel(screen: ClubTableScreen) -> None:
    """Add the panel to a table screen's side (a table with a stake or wagers)."""
    house = screen.club.house
    opts = screen.lt.options.club
    if house is None or not (opts.stake or opts.wagers) or not screen.query("#side"):
        return
    if screen.query("#money") or not screen.is_attached:
        return  # mounted already (a deferred call after a quick replacement), or replaced
    side = screen.query_one("#side")
    if not side.is_attached:
        # the screen was replaced as soon as it was made (a new round): try once it is drawn
        screen.call_after_refresh(mount_money_panel, screen)
        return
    player = getattr(screen.app, "player", None)
    panel = MoneyPanel(house, screen.lt, player.id if player is not None else None)
    side.mount(panel, before="#log")


def may_wager_here(screen: ClubTableScreen) -> bool:
    """The wager key: for watchers at a table that takes wagers."""
    return (screen.seat is None and screen.club.house is not None
            and screen.lt.options.club.wagers)


def open_wager(screen: ClubTableScreen) -> None:
    """The wager dialog, or the reason there can be none now (nothing is changed)."""
    house = screen.club.house
    lt = screen.lt
    player = getattr(screen.app, "player", None)
    if house is None or player is None or lt.table is None or screen.seat is not None:
        return
    gallery = house.gallery(lt)
    why = house.wager_refusal(lt, player.id, gallery.view_seat(player.id) is not None)
    if why is not None:
        screen.notify(why[0].upper() + why[1:], severity="warning")
        return
    a, b = lt.seats[0].player_id, lt.seats[1].player_id
    assert a is not None and b is not None
    n = current_game(lt.table)
    pot = pot_text(house.ledger.wagers(game_id(lt.record_id, n)), (a, b), names_of(lt))
    names = (lt.seats[0].name or a, lt.seats[1].name or b)

    def place(seat: int, amount: int) -> str:
        return place_wager(house, lt, player.id, seat, amount)

    def done(what: str | None) -> None:
        if what:
            screen.notify(what)

    screen.app.push_screen(WagerScreen(names, n, house.ledger.purse(player.id), pot, place),
                           done)
