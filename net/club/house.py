"""The club house of a server: purses, stakes and wagers, ratings, table talk and galleries.

``net/club/clubhouse`` holds the rules of each system without any table; the house binds them to
the live tables of a ``Club``. The club calls ``table_moved`` after every accepted action
(before anyone is shown it, like the store): the house opens each game for wagers (and
escrows its stake), closes the betting when the game's first hand is under way, settles the
game the moment it has a winner, and rates the match when it ends. After a restart
``recover`` settles what ended while the server was down and leaves the rest in escrow.

Who takes part: a guest (no SSH key) has no purse and no rating, since nothing of a guest
is kept; bots play for no stake and are not rated, so the leaderboard is people only.
"""

from __future__ import annotations

import logging
import sqlite3
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ecarte_tui.engine import EcnError, read_ecn
from net.club.clubhouse.backers import Gallery
from net.club.clubhouse.purse import (
    VOIDED,
    Game,
    Ledger,
    LedgerError,
    Outcome,
    Recovery,
    Settlement,
    game_id,
)
from net.club.clubhouse.ratings import RatingBook
from net.club.clubhouse.talk import TableTalk
from net.club.identity import GUEST_ID_PREFIX
from net.club.model import BOT_PREFIX
from net.store.ledger_db import ClubDB

if TYPE_CHECKING:
    from ecarte_tui.table import Table
    from net.club.model import LiveTable, TableOptions
    from net.store.club_store import GalleryStore

log = logging.getLogger(__name__)


def has_purse(player_id: str | None) -> bool:
    """Registered players only: a guest's chips would vanish with the guest."""
    return bool(player_id) and not player_id.startswith((GUEST_ID_PREFIX, BOT_PREFIX))  # type: ignore[union-attr]


def rated_pair(players: tuple[str | None, str | None]) -> bool:
    return all(has_purse(p) for p in players) and players[0] != players[1]


@dataclass
class _Tracked:
    """What the house has done for one round of a table (kept in memory; rebuilt on restart
    by replaying ``table_moved``, which is idempotent)."""

    opened: set[int] = field(default_factory=set)
    closed: set[int] = field(default_factory=set)
    settled: set[int] = field(default_factory=set)
    rated: bool = False
    players: tuple[str, str] | None = None  # the pair its open games were opened for


@dataclass(frozen=True, slots=True)
class StoredRound:
    """A round as the store keeps it, for ``recover`` (``status``: open, playing, finished,
    cancelled)."""

    ecn: str
    status: str
    players: tuple[str | None, str | None]
    winner: str | None


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A finished match as ``rate_finished`` needs it: its record is read only if it was
    not rated yet (a crash between the end and the rating), by ``ecn_of(record_id)``."""

    players: tuple[str | None, str | None]
    winner: str | None
    ecn_of: Callable[[str], str]


class House:
    """One per server; shares the server's SQLite file (its own ``club_*`` tables)."""

    def __init__(self, db_path: Path | str, galleries: GalleryStore | None = None) -> None:
        self.db = ClubDB(db_path)
        self.galleries = galleries  # where galleries are kept across a restart (the store)
        self.ledger = Ledger(self.db)
        self.ratings = RatingBook(self.db)
        self._talks: dict[str, TableTalk] = {}
        self._galleries: dict[str, Gallery] = {}
        self._unsaved: dict[str, None] = {}  # galleries changed while the store was away
        self._tracked: dict[str, _Tracked] = {}
        self.listeners: list[Callable[[str, str], None]] = []  # (table code, what happened)
        # (table code, what a settlement paid): told once, when the chips move
        self.settlement_listeners: list[Callable[[str, Settlement], None]] = []
        # other nodes of the club (net/club_sync): what happened here is told there too
        self.relay: Callable[[str, dict[str, object]], None] | None = None
        # after the start-up (restore, recover): a game settled by another node is news here
        self.live = False

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ per table

    def talk(self, code: str) -> TableTalk:
        talk = self._talks.get(code)
        if talk is None:
            talk = self._talks[code] = TableTalk()
        return talk

    def gallery(self, lt: LiveTable) -> Gallery:
        """The table's gallery, in step with its seats and its game (sides are fixed while a
        game is played); made from the store after a restart, and stored at every change."""
        g = self._galleries.get(lt.code)
        players = (lt.seats[0].player_id, lt.seats[1].player_id)
        if g is None:
            opts = lt.options.club
            g = Gallery(players, french_rule=opts.french_rule,
                        backers_see_hand=opts.backers_see_hand)
            stored = self.galleries.load(lt.code) if self.galleries is not None else None
            if stored is not None:
                g.restore(stored)
            if self.galleries is not None:
                store, code, held = self.galleries, lt.code, weakref.ref(g)

                def saved(held: weakref.ref[Gallery] = held, code: str = code) -> None:
                    g = held()  # (weak: the gallery holds this function)
                    if g is None:
                        return
                    try:
                        store.save(code, g.state())
                    except sqlite3.OperationalError as e:  # the store away: saved later
                        self._unsaved[code] = None
                        log.debug("the gallery of table %s kept to save later: %s", code, e)
                        return
                    self._unsaved.pop(code, None)
                    if self.relay is not None:
                        self.relay(code, {"kind": "house", "what": "gallery"})

                g.on_change = saved
            self._galleries[lt.code] = g
        elif lt.code in self._unsaved and g.on_change is not None:
            g.on_change()  # (its last change was not saved: the store was away)
        if tuple(g.players) != players:
            g.set_players(players, {s.player_id: s.name or "" for s in lt.seats if s.player_id})
        self._sync_game(lt, g)
        return g

    @staticmethod
    def _sync_game(lt: LiveTable, g: Gallery) -> None:
        """Tell the gallery which game is being played (its ledger id), or that none is."""
        table = lt.table
        if table is None:
            return
        m = table.match
        playing = bool(m.games) and m.games[-1].winner is None and not m.is_over
        key = game_id(lt.record_id, len(m.games)) if playing else None
        if playing and (not g.in_game or g.game != key):
            g.new_game(game=key)
        elif not playing and g.in_game:
            winner = m.games[-1].winner if m.games else None
            g.game_over(g.players[1 - winner] if winner is not None else None)

    def wager_side(self, lt: LiveTable, bettor: str) -> str | None:
        """Whom ``bettor`` wagered on in the game being played or about to be, if anyone."""
        m = lt.table.match if lt.table is not None else None
        if m is None:
            return None
        n = len(m.games) if m.games and m.games[-1].winner is None else len(m.games) + 1
        for w in self.ledger.wagers(game_id(lt.record_id, n)):
            if w.bettor == bettor:
                return w.on_player
        return None

    def forget(self, code: str) -> None:
        """The table left memory (the club's sweep): its talk and gallery go with it."""
        self._talks.pop(code, None)
        self._galleries.pop(code, None)
        self._unsaved.pop(code, None)
        if self.galleries is not None:
            self.galleries.forget(code)

    def _tell(self, code: str, what: str) -> None:
        for cb in list(self.listeners):
            cb(code, what)
        if self.relay is not None:
            self.relay(code, {"kind": "house", "what": what})

    def heard(self, code: str, mail: dict[str, object]) -> None:
        """News of a table from another node: a gallery changed there is read again here;
        listeners (money panels, leaderboards) hear what happened."""
        what = str(mail.get("what", ""))
        if what == "gallery":
            g = self._galleries.get(code)
            stored = self.galleries.load(code) if self.galleries is not None else None
            if g is not None and stored is not None:
                g.restore(stored)
        for cb in list(self.listeners):
            cb(code, what)

    # ------------------------------------------------------------------ the money

    def stake_refusal(self, player_id: str, options: TableOptions) -> str | None:
        """Why ``player_id`` may not sit at a table with these options' stake, or None."""
        stake = options.club.stake
        if not stake:
            return None
        if not has_purse(player_id):
            return "a staked table is for players with a purse: connect with an SSH key"
        return self.ledger.check_stake(player_id, stake, options.rules())

    def betting_game(self, lt: LiveTable) -> str | None:
        """The ledger id of the game the gallery may wager on now, or None."""
        t = self._tracked.get(lt.record_id)
        if t is None or not lt.options.club.wagers:
            return None
        open_ = sorted(t.opened - t.closed - t.settled)
        return game_id(lt.record_id, open_[0]) if open_ else None

    def wager_refusal(self, lt: LiveTable, bettor: str, sees_hand: bool) -> str | None:
        """Why ``bettor`` may not wager at this table now, or None."""
        if not lt.options.club.wagers:
            return "this table takes no wagers"
        if not has_purse(bettor):
            return "wagers are for players with a purse: connect with an SSH key"
        if bettor in (s.player_id for s in lt.seats):
            return "a player does not wager on his own game"
        gid = self.betting_game(lt)
        if gid is None:
            return "no more wagers: bets are taken before a game's first hand"
        if sees_hand and self._dealt(lt):
            return "you see a hand: your wager had to be placed before the deal"
        return None

    def _dealt(self, lt: LiveTable) -> bool:
        m = lt.table.match if lt.table is not None else None
        return bool(m and m.games and m.hand is not None and not m.hand.over)

    def place_wager(self, lt: LiveTable, bettor: str, seat: int, amount: int,
                    sees_hand: bool = False) -> str:
        """Wager ``amount`` chips on the player in ``seat``; LedgerError says why not."""
        why = self.wager_refusal(lt, bettor, sees_hand)
        if why is not None:
            raise LedgerError(why)
        gid = self.betting_game(lt)
        assert gid is not None
        on = lt.seats[seat].player_id
        assert on is not None
        self.ledger.place_wager(gid, bettor, on, amount)
        self._tell(lt.code, "wager")
        return gid

    # ------------------------------------------------------------------ following a table

    def table_moved(self, lt: LiveTable, table: Table) -> None:
        """After every accepted action (and when a table starts or is restored)."""
        players = (lt.seats[0].player_id, lt.seats[1].player_id)
        if players[0] is None or players[1] is None:
            return
        t = self._tracked.setdefault(lt.record_id, _Tracked())
        if t.players != players:
            if t.players is not None:  # a bot took the seat of a player who did not come back
                for n in sorted(t.opened - t.settled):
                    self._void(lt, t, n)
            t.players = players
        m = table.match
        for n, g in enumerate(m.games, start=1):
            if g.winner is not None and n not in t.settled:
                self._open(lt, t, n, players)  # a game restored already over
                if n not in t.settled:
                    self._settle(lt, t, n, players[g.winner], (g.score[0], g.score[1]))
        current = len(m.games)
        if m.is_over:
            # a game opened for wagers but never dealt (a forfeit between games) is not in
            # the record: no result will come, so its chips go back
            for n in sorted(t.opened - t.settled):
                if n > current:
                    self._void(lt, t, n)
            if not t.rated:
                self._rate(lt, t, table, None)
            return
        next_game = current if current and m.games[-1].winner is None else current + 1
        self._open(lt, t, next_game, players)
        hand = m.hand
        if hand is not None and hand.game + 1 == next_game and hand.actions:
            self._close(lt, t, next_game)

    def abandon(self, lt: LiveTable) -> None:
        """A table closed without a result: every chip in escrow goes back."""
        t = self._tracked.get(lt.record_id)
        if t is None:
            return
        for n in sorted(t.opened - t.settled):
            self._void(lt, t, n)

    def _void(self, lt: LiveTable, t: _Tracked, n: int) -> None:
        done: Settlement | None = None
        try:
            done = self.ledger.void(game_id(lt.record_id, n))
        except LedgerError:
            log.exception("voiding %s/%s", lt.record_id, n)
        t.closed.add(n)
        t.settled.add(n)
        self._told(lt, done)

    def _told(self, lt: LiveTable, done: Settlement | None) -> None:
        """Everyone whose chips moved hears it (a void: "Nothing is paid on game 1: ..."),
        once per node: moved here, or (while serving) first seen moved here."""
        if done is not None and (not done.already or self.live):
            for cb in list(self.settlement_listeners):
                cb(lt.code, done)

    def _open(self, lt: LiveTable, t: _Tracked, n: int, players: tuple[str, str]) -> None:
        if n in t.opened:
            return
        stake = lt.options.club.stake if rated_pair(players) else 0
        gid = game_id(lt.record_id, n)
        opened = self.ledger.game(gid)
        if opened is not None and opened.players != players:
            # opened for a player whose seat a bot took (a restart since): the stake and the
            # wagers were for a pair that no longer plays this game, so they went back
            t.opened.add(n)
            if opened.is_open:
                self._void(lt, t, n)  # (closed and settled here too)
            else:
                t.closed.add(n)
                t.settled.add(n)
            return
        try:
            self.ledger.open_game(gid, players, stake, lt.options.rules())
        except LedgerError as e:
            # a purse that cannot cover the escrow any more: the game is played unstaked
            log.warning("game %s opened without its stake: %s", gid, e)
            self.ledger.open_game(gid, players, 0)
            self._tell(lt.code, f"no stake on game {n}: {e}")
        t.opened.add(n)
        self._tell(lt.code, "open")

    def _close(self, lt: LiveTable, t: _Tracked, n: int) -> None:
        if n in t.closed:
            return
        self.ledger.close_betting(game_id(lt.record_id, n))
        t.closed.add(n)
        self._tell(lt.code, "closed")

    def _settle(self, lt: LiveTable, t: _Tracked, n: int, winner: str,
                score: tuple[int, int]) -> None:
        done: Settlement | None = None
        gid = game_id(lt.record_id, n)
        try:
            done = self.ledger.settle(gid, winner, score)
        except LedgerError:
            voided = self.ledger.game(gid)
            if voided is not None and voided.status == "void":  # the table was closed
                log.info("game %s ended after its table was closed: not settled", gid)
            else:
                log.exception("settling %s/%s", lt.record_id, n)
        t.settled.add(n)
        t.closed.add(n)
        self._tell(lt.code, "settled")
        self._told(lt, done)

    def _rate(self, lt: LiveTable, t: _Tracked, table: Table, winner_seat: int | None) -> None:
        players = (lt.seats[0].player_id, lt.seats[1].player_id)
        t.rated = True
        if not all(has_purse(p) for p in players) or players[0] == players[1]:
            return
        try:
            self.ratings.record_match(lt.record_id, players, table.match,  # type: ignore[arg-type]
                                      rated=True, winner_seat=winner_seat)
        except ValueError:
            log.exception("rating %s", lt.record_id)
        self._tell(lt.code, "rated")

    # ------------------------------------------------------------------ after a restart

    def recover(self, find: Callable[[str], StoredRound | None]) -> Recovery:
        """Settle the games that ended while the server was down; void the abandoned ones;
        rate finished matches not yet rated. ``find`` maps a round's record id to what the
        store holds of it."""

        def resolve(g: Game) -> Outcome | None:
            record_id, _, number = g.game_id.rpartition("/")
            stored = find(record_id)
            if stored is None or stored.status not in ("open", "playing", "finished"):
                return VOIDED  # cancelled, closed or abandoned: no result will come
            try:
                match = read_ecn(stored.ecn).match if stored.ecn else None
            except EcnError:
                return VOIDED
            n = int(number)
            if match is not None and n <= len(match.games):
                rec = match.games[n - 1]
                if rec.winner is not None:
                    return Outcome(g.players[rec.winner], (rec.score[0], rec.score[1]))
            if stored.status == "finished":
                # a record from before [Forfeit] whose game was forfeited: the store's winner
                # and the score on the table at the forfeit; a game not in it was never dealt
                in_record = match is not None and n == len(match.games)
                if stored.winner in g.players and in_record:
                    score = match.games[n - 1].score  # type: ignore[union-attr]
                    return Outcome(stored.winner, (score[0], score[1]))
                return VOIDED
            return None  # still being played: its chips stay in escrow

        return self.ledger.recover(resolve)

    def rate_finished(self, matches: list[tuple[str, FinishedMatch]]) -> int:
        """Rate the finished matches a crash left unrated (idempotent); returns how many.
        The rated ones are known by id: only the others' records are read."""
        done = 0
        rated = self.ratings.recorded_ids()
        for record_id, m in matches:
            if record_id in rated or not rated_pair(m.players):
                continue
            try:
                self.ratings.record_ecn(record_id, m.players, m.ecn_of(record_id), True,  # type: ignore[arg-type]
                                        m.winner)
                done += 1
            except (EcnError, ValueError):
                log.exception("rating %s after a restart", record_id)
        return done
