"""A settlement told to a player who is not at its table any more (in the lobby, or at
another table): "Table KXRT: you won 40 chips on anna". At the table itself the money
panel tells it.

The house calls ``SettlementNews.heard`` from whichever session's app moved the table; it
only queues a message to its own app, which words it with names from the store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from net.club.clubhouse.purse import Settlement
from net.screens.money_text import settlement_lines

if TYPE_CHECKING:
    from net.screens.club_app import ClubApp


class SettledElsewhere(Message, bubble=False):
    def __init__(self, code: str, settlement: Settlement) -> None:
        super().__init__()
        self.code = code
        self.settlement = settlement


class SettlementNews:
    """One per session: listens to the house while the session lasts."""

    def __init__(self, app: ClubApp) -> None:
        self.app = app
        self.house = app.club.house

    def start(self) -> None:
        if self.house is not None:
            self.house.settlement_listeners.append(self.heard)

    def stop(self) -> None:
        if self.house is not None and self.heard in self.house.settlement_listeners:
            self.house.settlement_listeners.remove(self.heard)

    def heard(self, code: str, settlement: Settlement) -> None:
        player = self.app.player
        if player is None or player.id not in settlement.credits:
            return
        if self.app.at_table_code() == code:
            return  # the table's money panel tells it
        self.app.post_message(SettledElsewhere(code, settlement))

    def lines(self, message: SettledElsewhere) -> list[str]:
        """The news in the player's words (names from the store: the table may be gone)."""
        player = self.app.player
        if player is None or self.house is None:
            return []
        s = message.settlement
        store = self.app.club.store
        names: dict[str, str] = {}
        for pid in {*s.credits, *(w.on_player for w in s.wagers)}:
            known = store.player(pid)
            names[pid] = known.name if known is not None else pid
        game = self.house.ledger.game(s.game_id)
        stake = game.stake if game is not None else 0
        return [f"Table {message.code}: {line[0].lower()}{line[1:]}"
                for line in settlement_lines(s, player.id, names, stake)]
