"""The gallery: watchers who back a player, advise him, and (French rule) take his seat.

Sources (RULES.md §9 "Bystanders"): 001, "in 19th-century Paris, onlookers bet on the
players and could advise them"; 003, "In French ecarte, bystanders are permitted to advise,
and the player losing leaves the table, his adviser taking his place"; 004, "Écarté au
Cercle": the gallery ("galerijen") wagers on the outcome.

- A watcher backs at most one player. His advice goes to that player and to nobody else:
  ``advise`` returns the deliveries, and the only recipient it ever names is the backed
  player (the player sees it marked as advice and may ignore it).
- A backer sees his player's hand only when that player shows it to him (``grant``): the
  player decides, backer by backer, and may take it back at any moment. The table option
  ``backers_see_hand`` is the upper bound: off, no player may show his hand. Backing alone
  shows nothing; a watcher backing no one sees only the public table.
- What a backer has seen stays between him and his player: while he sees the hand, and for
  the rest of a game in which he saw it, his table talk goes to that player only
  (``talk_only_to``), as his advice always does.
- A watcher cannot change sides during a game (nor back the player he did not wager on),
  so nobody sees both hands of one game.
- Backing, grants and sides outlive a watcher's session and a restart of the server
  (``state`` / ``restore``; every change calls ``on_change``, which the house stores).
- French rule (003, a table option): when a player loses a game, his adviser (the first of
  his backers still in the gallery) is offered the seat; he may take it or let it go to the
  next adviser. Without the option the seat is never offered.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from net.club.clubhouse.talk import TokenBucket, clean_line

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


@dataclass(slots=True)
class Backing:
    """One watcher's side: whom he backs (``order``: who backed first, for the French rule),
    his name as the player's dialog shows it, and whether that player shows him his hand."""

    order: int
    player: str
    name: str
    granted: bool = False


class Gallery:
    """The watchers of one table and whom they back. ``players`` in seat order.

    Who is here (``join`` / ``leave``) is presence only: a watcher's backing, his player's
    grant and his side in the game outlive his session (he comes back to them), and
    ``state`` holds all of them for the store.
    """

    def __init__(
        self,
        players: tuple[str | None, str | None],
        french_rule: bool = False,
        backers_see_hand: bool = True,
        clock: Callable[[], float] = time.monotonic,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        self.players: list[str | None] = [players[0], players[1]]
        self.french_rule = french_rule
        self.backers_see_hand = backers_see_hand  # the upper bound: may a player show it?
        self.clock = clock
        self.on_change = on_change  # told after every change worth keeping (the store)
        self.in_game = False
        self.game: str | None = None  # which game the sides are fixed for (its ledger id)
        self._names: dict[str, str] = {}  # watchers here now -> display name
        self._backing: dict[str, Backing] = {}
        self._order = 0
        self._locked: dict[str, str] = {}  # watcher -> the player he backs this game
        self._saw: dict[str, str] = {}  # watcher -> whose hand he was shown this game
        self._buckets: dict[str, TokenBucket] = {}
        self._offers: list[SeatOffer] = []

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    # ------------------------------------------------------------------ watchers

    def join(self, watcher: str, name: str) -> None:
        if watcher in self.players:
            raise GalleryError("you are playing at this table")
        self._names[watcher] = clean_line(name) or "?"
        b = self._backing.get(watcher)
        if b is not None and b.name != self._names[watcher]:
            b.name = self._names[watcher]
            self._changed()

    def leave(self, watcher: str) -> None:
        """His last session went: he is away, but keeps his side and his player's grant."""
        self._names.pop(watcher, None)
        self._offers = [o for o in self._offers if o.adviser != watcher]

    @property
    def watchers(self) -> list[str]:
        return list(self._names)

    def present(self, watcher: str) -> bool:
        return watcher in self._names

    def seat_of(self, player: str) -> int | None:
        return self.players.index(player) if player in self.players else None

    # ------------------------------------------------------------------ backing

    def back(self, watcher: str, player: str, wagered_on: str | None = None) -> None:
        """``watcher`` backs ``player``. ``wagered_on``: whom his wager on this game is on.

        Backing shows nothing by itself: a new side starts without the player's grant."""
        if watcher not in self._names:
            raise GalleryError("join the gallery first")
        if player not in self.players:
            raise GalleryError("you can only back a player seated at this table")
        if wagered_on is not None and wagered_on != player:
            raise GalleryError("you may not back one player after wagering on the other "
                               "in this game")
        locked = self._locked.get(watcher)
        if self.in_game and locked is not None and locked != player:
            raise GalleryError("you back the other player in this game: change after it ends")
        current = self._backing.get(watcher)
        if current is None or current.player != player:
            self._order += 1
            self._backing[watcher] = Backing(self._order, player, self._names[watcher])
        if self.in_game:
            self._locked[watcher] = player
        self._changed()

    def unback(self, watcher: str) -> None:
        if self._backing.pop(watcher, None) is not None:
            self._changed()

    def backing(self, watcher: str) -> str | None:
        b = self._backing.get(watcher)
        return b.player if b else None

    def backers_of(self, player: str) -> list[str]:
        """The watchers backing ``player`` (here or away), the earliest first."""
        found = sorted((b.order, w) for w, b in self._backing.items() if b.player == player)
        return [w for _, w in found]

    def backer_name(self, watcher: str) -> str:
        b = self._backing.get(watcher)
        return self._names.get(watcher) or (b.name if b else "?")

    # ------------------------------------------------------------------ the player's grant

    def grant(self, player: str, watcher: str, see: bool = True) -> bool:
        """``player`` shows (``see``) or stops showing his hand to his backer ``watcher``.

        Returns whether anything changed. Only the player decides; the table option is the
        upper bound (off: nobody may be shown a hand)."""
        if player not in self.players:
            raise GalleryError("only a player seated at this table shows his hand")
        b = self._backing.get(watcher)
        if b is None or b.player != player:
            raise GalleryError("he does not back you")
        if see and not self.backers_see_hand:
            raise GalleryError("this table never shows a backer the hand (a table option)")
        if b.granted == see:
            return False
        b.granted = see
        if see:
            self._saw[watcher] = player  # he keeps it to himself for the rest of the game
        self._changed()
        return True

    def granted(self, watcher: str) -> bool:
        """Whether his player shows him the hand (the table option aside)."""
        b = self._backing.get(watcher)
        return b is not None and b.granted

    def view_seat(self, watcher: str) -> int | None:
        """The seat whose hand this watcher may see, or None for the public table only: the
        table allows it, he backs that player, and the player shows it to him."""
        if not self.backers_see_hand:
            return None
        b = self._backing.get(watcher)
        return None if b is None or not b.granted else self.seat_of(b.player)

    def talk_only_to(self, watcher: str) -> str | None:
        """The one player this watcher's table talk may reach, or None (everybody): while he
        sees a hand, and for the rest of a game in which he was shown one."""
        seat = self.view_seat(watcher)
        if seat is not None:
            return self.players[seat]
        return self._saw.get(watcher)

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
                self._saw.pop(p, None)
        for w, b in list(self._backing.items()):
            if b.player not in self.players:
                del self._backing[w]
        self._saw = {w: p for w, p in self._saw.items() if p in self.players}
        for p in leaving:
            self._names[p] = clean_line((names or {}).get(p, "")) or p
        self._offers = []
        self._changed()

    def new_game(
        self, players: tuple[str | None, str | None] | None = None, game: str | None = None
    ) -> None:
        """A game begins (with these players, if they changed): sides are now fixed, and
        who is shown a hand keeps his talk for his player until the game ends."""
        if players is not None and list(players) != self.players:
            self.set_players(players)
        self.in_game = True
        self.game = game
        self._offers = []
        self._locked = {w: b.player for w, b in self._backing.items()}
        self._saw = {w: b.player for w, b in self._backing.items()
                     if b.granted and self.backers_see_hand}
        self._changed()

    def game_over(self, loser: str | None) -> SeatOffer | None:
        """The game ended; under the French rule, the seat offer to the loser's adviser (the
        first of his backers who is here)."""
        self.in_game = False
        self.game = None
        self._locked = {}
        self._saw = {}
        self._offers = []
        seat = self.seat_of(loser) if loser is not None else None
        if self.french_rule and seat is not None and loser is not None:
            self._offers = [SeatOffer(seat, loser, w) for w in self.backers_of(loser)
                            if w in self._names]
        self._changed()
        return self.pending_offer

    @property
    def pending_offer(self) -> SeatOffer | None:
        return self._offers[0] if self._offers else None

    def decline_seat(self, adviser: str) -> SeatOffer | None:
        """The adviser lets the seat go; returns the offer to the next adviser, if any."""
        self._offers = [o for o in self._offers if o.adviser != adviser]
        self._changed()
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
        self._saw.pop(adviser, None)
        for w in self.backers_of(offer.loser):  # the loser is no longer playing
            self._backing.pop(w, None)
        self._names[offer.loser] = clean_line(loser_name or "") or offer.loser
        self._offers = []
        self._changed()
        return Seating(offer.seat, offer.loser, adviser)

    # ------------------------------------------------------------------ the store

    def state(self) -> dict[str, Any]:
        """Everything worth keeping across a restart (JSON): sides, grants, the game's
        locks and confidences, the French rule's offers. Presence is not kept."""
        return {
            "players": list(self.players),
            "order": self._order,
            "in_game": self.in_game,
            "game": self.game,
            "backing": {w: [b.order, b.player, b.name, b.granted]
                        for w, b in self._backing.items()},
            "locked": dict(self._locked),
            "saw": dict(self._saw),
            "offers": [[o.seat, o.loser, o.adviser] for o in self._offers],
        }

    def restore(self, state: Mapping[str, Any]) -> None:
        """Take back a stored ``state`` (``on_change`` is not told: nothing changed)."""
        players = state.get("players") or [None, None]
        self.players = [players[0], players[1]]
        self._order = int(state.get("order", 0))
        self.in_game = bool(state.get("in_game", False))
        self.game = state.get("game")
        self._backing = {
            str(w): Backing(int(o), str(p), str(n), bool(g))
            for w, (o, p, n, g) in (state.get("backing") or {}).items()
        }
        self._locked = {str(w): str(p) for w, p in (state.get("locked") or {}).items()}
        self._saw = {str(w): str(p) for w, p in (state.get("saw") or {}).items()}
        self._offers = [SeatOffer(int(s), str(lo), str(a))
                        for s, lo, a in (state.get("offers") or [])]
