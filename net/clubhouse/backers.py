"""The gallery: watchers who back a player, advise him, and (French rule) take his seat.

Sources (RULES.md §9 "Bystanders"): 001, "in 19th-century Paris, onlookers bet on the
players and could advise them"; 003, "In French ecarte, bystanders are permitted to advise,
and the player losing leaves the table, his adviser taking his place"; 004, "Écarté au
Cercle": the gallery ("galerijen") wagers on the outcome.

- A watcher backs at most one player. His advice goes to that player and to nobody else:
  ``advise`` returns the deliveries, and the only recipient it ever names is the backed
  player (the player sees it marked as advice and may ignore it).
- Like a bystander standing behind a chair, a backer may see his player's hand
  (``view_seat``; the table option ``backers_see_hand``). A watcher backing no one sees
  only the public table. A watcher cannot change sides during a game, so nobody sees both
  hands of one game.
- French rule (003, a table option): when a player loses a game, his adviser (the first of
  his backers still in the gallery) is offered the seat; he may take it or let it go to the
  next adviser. Without the option the seat is never offered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .talk import TokenBucket, clean_line

if TYPE_CHECKING:
    from ecarte_tui.engine import Action

MAX_NOTE = 80
ADVICE_BURST = 3
ADVICE_RATE = 0.5  # pieces of advice per second, sustained


class GalleryError(ValueError):
    """A gallery request refused, with a message for the watcher."""


@dataclass(frozen=True, slots=True)
class Advice:
    """A backer's suggestion, to be delivered to ``recipient`` only."""

    recipient: str  # the backed player: the only one who may be sent this
    seat: int  # his seat (0 = A, 1 = B)
    adviser: str
    adviser_name: str
    action: Action | None  # the suggested action, if any
    note: str  # a short remark (clean, at most MAX_NOTE characters)

    def text(self, ascii_only: bool = False) -> str:
        """How the player reads it, marked as advice."""
        parts = []
        if self.action is not None:
            parts.append(self.action.label(ascii_only))
        if self.note:
            parts.append(self.note)
        return f"advice from {self.adviser_name}: " + " - ".join(parts)


@dataclass(frozen=True, slots=True)
class SeatOffer:
    """Under the French rule: ``adviser`` may take the seat ``loser`` just lost."""

    seat: int
    loser: str
    adviser: str


@dataclass(frozen=True, slots=True)
class Seating:
    """A seat changed hands: ``taking`` sits down, ``leaving`` joins the gallery."""

    seat: int
    leaving: str
    taking: str


class Gallery:
    """The watchers of one table and whom they back. ``players`` in seat order."""

    def __init__(
        self,
        players: tuple[str | None, str | None],
        french_rule: bool = False,
        backers_see_hand: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.players: list[str | None] = [players[0], players[1]]
        self.french_rule = french_rule
        self.backers_see_hand = backers_see_hand
        self.clock = clock
        self.in_game = False
        self._names: dict[str, str] = {}  # watcher -> display name
        self._backing: dict[str, tuple[int, str]] = {}  # watcher -> (order, player)
        self._order = 0
        self._locked: dict[str, str] = {}  # watcher -> the player he backs this game
        self._buckets: dict[str, TokenBucket] = {}
        self._offers: list[SeatOffer] = []

    # ------------------------------------------------------------------ watchers

    def join(self, watcher: str, name: str) -> None:
        if watcher in self.players:
            raise GalleryError("you are playing at this table")
        self._names[watcher] = clean_line(name) or "?"

    def leave(self, watcher: str) -> None:
        self._names.pop(watcher, None)
        self._backing.pop(watcher, None)
        self._offers = [o for o in self._offers if o.adviser != watcher]

    @property
    def watchers(self) -> list[str]:
        return list(self._names)

    def seat_of(self, player: str) -> int | None:
        return self.players.index(player) if player in self.players else None

    # ------------------------------------------------------------------ backing

    def back(self, watcher: str, player: str, wagered_on: str | None = None) -> None:
        """``watcher`` backs ``player``. ``wagered_on``: whom his wager on this game is on."""
        if watcher not in self._names:
            raise GalleryError("join the gallery first")
        if player not in self.players:
            raise GalleryError("you can only back a player seated at this table")
        if wagered_on is not None and wagered_on != player:
            raise GalleryError("you cannot back one player after wagering on the other")
        locked = self._locked.get(watcher)
        if self.in_game and locked is not None and locked != player:
            raise GalleryError("you back the other player in this game: change after it ends")
        current = self._backing.get(watcher)
        if current is None or current[1] != player:
            self._order += 1
            self._backing[watcher] = (self._order, player)
        if self.in_game:
            self._locked[watcher] = player

    def unback(self, watcher: str) -> None:
        self._backing.pop(watcher, None)

    def backing(self, watcher: str) -> str | None:
        b = self._backing.get(watcher)
        return b[1] if b else None

    def backers_of(self, player: str) -> list[str]:
        """The watchers backing ``player``, the earliest first."""
        found = sorted((o, w) for w, (o, p) in self._backing.items() if p == player)
        return [w for _, w in found]

    def view_seat(self, watcher: str) -> int | None:
        """The seat whose hand this watcher may see, or None for the public table only."""
        if not self.backers_see_hand:
            return None
        player = self.backing(watcher)
        return None if player is None else self.seat_of(player)

    def may_wager(self, watcher: str, on_player: str) -> str | None:
        """Why ``watcher`` may not wager on ``on_player``, or None: a backer may not bet
        against the player he advises."""
        player = self.backing(watcher)
        if player is not None and player != on_player:
            return "you back the other player: you may not wager against him"
        return None

    # ------------------------------------------------------------------ advice

    def advise(
        self,
        adviser: str,
        action: Action | None = None,
        note: str = "",
        legal: Sequence[Action] | None = None,
    ) -> list[Advice]:
        """Advice for the player ``adviser`` backs: the deliveries to send (exactly one).

        ``legal`` is that player's ``view.legal``: a suggested action must be one of them.
        """
        if adviser not in self._names:
            raise GalleryError("only a watcher in the gallery may advise")
        player = self.backing(adviser)
        if player is None:
            raise GalleryError("you back no one: back a player to advise him")
        seat = self.seat_of(player)
        if seat is None:
            raise GalleryError("the player you back is not playing now")
        text = clean_line(note)
        if len(text) > MAX_NOTE:
            raise GalleryError(f"advice is at most {MAX_NOTE} characters")
        if action is None and not text:
            raise GalleryError("advise an action or say something")
        if action is not None and legal is not None and action not in legal:
            raise GalleryError(f"{action.label()} is not something your player may do now")
        bucket = self._buckets.get(adviser)
        if bucket is None:
            bucket = self._buckets[adviser] = TokenBucket(ADVICE_BURST, ADVICE_RATE, self.clock)
        wait = bucket.take()
        if wait > 0:
            raise GalleryError(f"let him think: you may advise again in {max(1, round(wait))} s")
        return [Advice(player, seat, adviser, self._names[adviser], action, text)]

    # ------------------------------------------------------------------ games and seats

    def set_players(
        self,
        players: tuple[str | None, str | None],
        names: Mapping[str, str] | None = None,
    ) -> None:
        """The seats changed (the pool's rotation, 001): who sits down leaves the gallery,
        who stands up joins it (as ``names[p]``), and backing a player who left lapses."""
        leaving = [p for p in self.players if p is not None and p not in players]
        self.players = [players[0], players[1]]
        for p in players:
            if p is not None:
                self._names.pop(p, None)
                self._backing.pop(p, None)
        for w, (_, p) in list(self._backing.items()):
            if p not in self.players:
                del self._backing[w]
        for p in leaving:
            self._names[p] = clean_line((names or {}).get(p, "")) or p
        self._offers = []

    def new_game(self, players: tuple[str | None, str | None] | None = None) -> None:
        """A game begins (with these players, if they changed): sides are now fixed."""
        if players is not None and list(players) != self.players:
            self.set_players(players)
        self.in_game = True
        self._offers = []
        self._locked = {w: p for w, (_, p) in self._backing.items()}

    def game_over(self, loser: str) -> SeatOffer | None:
        """The game ended; under the French rule, the seat offer to the loser's adviser."""
        self.in_game = False
        self._locked = {}
        self._offers = []
        seat = self.seat_of(loser)
        if not self.french_rule or seat is None:
            return None
        self._offers = [SeatOffer(seat, loser, w) for w in self.backers_of(loser)]
        return self.pending_offer

    @property
    def pending_offer(self) -> SeatOffer | None:
        return self._offers[0] if self._offers else None

    def decline_seat(self, adviser: str) -> SeatOffer | None:
        """The adviser lets the seat go; returns the offer to the next adviser, if any."""
        self._offers = [o for o in self._offers if o.adviser != adviser]
        return self.pending_offer

    def take_seat(self, adviser: str, loser_name: str | None = None) -> Seating:
        """The adviser takes the loser's seat (French rule, 003); the loser joins the gallery
        (as ``loser_name``). The server then seats ``taking`` at the table for the next game.
        """
        if not self.french_rule:
            raise GalleryError(
                "the adviser takes the loser's place only under the French rule (003), "
                "and this table does not play it"
            )
        offer = self.pending_offer
        if offer is None or offer.adviser != adviser:
            raise GalleryError("the seat is not offered to you")
        if self.players[offer.seat] != offer.loser:
            raise GalleryError("that seat has changed hands already")
        self.players[offer.seat] = adviser
        self._names.pop(adviser, None)
        self._backing.pop(adviser, None)
        for w in self.backers_of(offer.loser):  # the loser is no longer playing
            self._backing.pop(w, None)
        self._names[offer.loser] = clean_line(loser_name or "") or offer.loser
        self._offers = []
        return Seating(offer.seat, offer.loser, adviser)
