"""Tables played in rounds: pool écarté (001, 003) and the French adviser rule (003).

Such a table plays one game at a time, each as its own match (``games_to_win`` forced to 1),
so a round has its own record id (``CODE`` for the first, ``CODE.2``, ``CODE.3``... after)
and the ledger and the ratings treat it like any match. When a round's game is over the
result is recorded before anyone is shown it (the pool's rotation; under the French rule an
offer of the seat to the loser's adviser), and the next round starts after a short pause so
everybody can read the result.

A pool table has a third seat (index 2 in ``LiveTable.seats``): the first two to sit play
the first game, the third waits and watches the public table. When the loser gives up his
seat the ``SeatState`` objects move with the people, so each session finds its new place by
its player id (``ClubApp.follow_round``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ecarte_tui.engine import Rules
from net.club.clubhouse.backers import GalleryError
from net.club.clubhouse.pool import Pool, PoolError
from net.club.model import ClubError, LiveTable, SeatState, TableOptions
from net.store.club_store import RoundRecord, RoundStore

if TYPE_CHECKING:
    from ecarte_tui.table import Table
    from net.club.live_club import Club

log = logging.getLogger(__name__)

ROUND_PAUSE = 4.0  # seconds to read a round's result before the next one starts
OFFER_SECONDS = 30.0  # French rule: how long the adviser has to take the seat
WAITING_SEAT = 2  # a pool table's third seat
STATE_VERSION = 1


def plays_in_rounds(options: TableOptions) -> bool:
    return options.club.pool is not None or options.club.french_rule


def round_rules(rules: Rules) -> Rules:
    """A round is one game."""
    return replace(rules, games_to_win=1)




@dataclass(frozen=True, slots=True)
class Offer:
    """French rule: ``adviser`` may take ``loser``'s ``seat`` until ``deadline`` (club clock)."""

    seat: int
    loser: str
    adviser: str
    deadline: float


@dataclass
class RoundState:
    """Where a rounds table is: the round being played, the pool, a pending offer."""

    number: int = 1
    pool: Pool | None = None
    first_winner: str | None = None  # round 1's winner, if it ended before the pool had three
    recorded: int = 0  # the last round whose result is recorded
    last: str = ""  # the last round's result, in words
    offer: Offer | None = None
    forfeit: int | None = None  # the round's winning seat, when the other did not come back
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)  # the club's

    def to_json(self, lt: LiveTable) -> dict[str, Any]:
        waiting = lt.seats[WAITING_SEAT] if len(lt.seats) > WAITING_SEAT else None
        return {
            "version": STATE_VERSION,
            "number": self.number,
            "pool": self.pool.to_json() if self.pool is not None else None,
            "first_winner": self.first_winner,
            "recorded": self.recorded,
            "last": self.last,
            "forfeit": self.forfeit,
            "waiting": [waiting.player_id, waiting.name] if waiting is not None else None,
            # the French rule's offer, its deadline in epoch seconds (other nodes read it)
            "offer": [self.offer.seat, self.offer.loser, self.offer.adviser,
                      time.time() + self.offer.deadline - self.clock()]
            if self.offer is not None else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any],
                  clock: Callable[[], float] = time.monotonic) -> RoundState:
        """ValueError (PoolError) if the saved state is broken: the table is not restored."""
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"unknown round state {data.get('version')!r}")
        pool = data.get("pool")
        first = data.get("first_winner")
        offer = data.get("offer")
        return cls(
            offer=Offer(int(offer[0]), str(offer[1]), str(offer[2]),
                        clock() + float(offer[3]) - time.time()) if offer else None,
            clock=clock,
            number=int(data["number"]),
            pool=Pool.from_json(pool) if pool else None,
            first_winner=str(first) if first else None,
            recorded=int(data.get("recorded", 0)),
            last=str(data.get("last", "")),
            forfeit=int(data["forfeit"]) if data.get("forfeit") is not None else None,
        )


# ---------------------------------------------------------------------- the club's hooks


def setup(lt: LiveTable) -> None:
    """A new rounds table: round 1, and a pool's third seat."""
    lt.rounds = RoundState()
    if lt.options.club.pool is not None:
        lt.seats.append(SeatState())


def follow(club: Club, lt: LiveTable, seats: list[tuple[str | None, str | None]]) -> bool:
    """Another node moved the rounds table on (a result, the next round, a third player):
    read its state and seats again; True if a new round began (its table is to be started).
    The same people keep their ``SeatState`` (and sessions) wherever they sit now."""
    data = RoundStore(club.store).state(lt.code)
    old = lt.rounds
    if data is None or old is None:
        return False
    new = RoundState.from_json(data, club.clock)
    new.timer, old.timer = old.timer, None
    waiting = data.get("waiting") or [None, None]
    if lt.options.club.pool is not None:
        seats = [*seats[:2], (waiting[0], waiting[1])]
    by_id = {s.player_id: s for s in lt.seats if s.player_id is not None}
    lt.seats[:] = [by_id.get(pid) or SeatState(pid, name) if pid else SeatState()
                   for pid, name in seats]
    lt.rounds = new
    return new.number != old.number or lt.table is None


def restore(club: Club, lt: LiveTable) -> None:
    """Bring back the round state (and the waiting seat) stored with the table."""
    data = RoundStore(club.store).state(lt.code)
    lt.rounds = (RoundState.from_json(data, club.clock) if data
                 else RoundState(clock=club.clock))
    if lt.options.club.pool is not None:
        waiting = (data or {}).get("waiting") or [None, None]
        seat = SeatState(waiting[0], waiting[1])
        if seat.player_id is not None:
            seat.dropped_at = club.clock()  # away until he reconnects, like the others
        lt.seats.append(seat)


def save_state(club: Club, lt: LiveTable) -> None:
    assert lt.rounds is not None
    RoundStore(club.store).save_state(lt.code, lt.rounds.to_json(lt))
    club._announce(lt.code, "rounds")


def persist(club: Club, lt: LiveTable, table: Table) -> None:
    """``Club._persist`` for a rounds table: the round, its result and the state, stored
    before anyone is shown the change; then the house, the archive and the next round."""
    rounds = lt.rounds
    assert rounds is not None
    if (club.node is not None and table.journal is not None
            and not club.node.sync.is_current(lt.record_id, table.seq)):
        return  # a later step is in the log: its writer stores the round
    m = table.match
    won_by = rounds.forfeit if rounds.forfeit is not None else m.match_winner
    over = won_by is not None and (m.is_over or rounds.forfeit is not None)
    winner = lt.seats[won_by].player_id if over else None  # type: ignore[index]
    if over and rounds.recorded < rounds.number:
        _record(club, lt, won_by)  # type: ignore[arg-type]
    ecn = table.record_text()
    club.store.save_table(lt.code, ecn=ecn, status="playing")
    RoundStore(club.store).save_round(
        RoundRecord(lt.record_id, lt.code, rounds.number,
                    (lt.seats[0].player_id, lt.seats[1].player_id), ecn,
                    "finished" if over else "playing", winner),
        rounds.to_json(lt),
    )
    club._announce(lt.code, "rounds")
    if club.house is not None:
        club.house.table_moved(lt, table)
    if over and rounds.timer is None:
        club._archive(lt, table)
        schedule_next(club, lt)
        lt.notify()  # the pool board shows the result
        club._lobby_changed()


def round_over(lt: LiveTable) -> bool:
    rounds, table = lt.rounds, lt.table
    return (rounds is not None and table is not None and rounds.recorded >= rounds.number
            and (table.match.is_over or rounds.forfeit is not None))


def schedule_next(club: Club, lt: LiveTable) -> None:
    """After a round's result: the next round (after the pause, or the French rule's
    offer), started by the one node in charge of the table (its lease)."""
    rounds = lt.rounds
    if rounds is None or rounds.timer is not None or not club._in_charge(lt):
        return
    if rounds.offer is not None:
        _schedule(club, lt, max(0.0, rounds.offer.deadline - club.clock()))
    elif lt.options.club.pool is None or rounds.pool is not None:
        _schedule(club, lt, club.round_pause)


def forfeit_round(club: Club, lt: LiveTable, winner_seat: int, resigned: bool = False
                  ) -> None:
    """The opponent did not come back in time (or ``resigned``): ``winner_seat`` wins this
    round by forfeit (``Table.forfeit``: the record says it, at the score on the table); the
    other player is the loser (in a pool he waits, and may come back)."""
    rounds = lt.rounds
    table = lt.table
    assert rounds is not None and table is not None
    if rounds.forfeit is not None or table.match.is_over:
        raise ClubError("this game is over already")
    for b in lt.bots:
        if b is not None:
            b.stop()
    rounds.forfeit = winner_seat
    try:  # recorded, stored and settled before anyone is shown it
        (table.resign if resigned else table.forfeit)(1 - winner_seat)
    except BaseException:  # (refused: the table's log away) the round goes on as it was
        rounds.forfeit = None
        raise


def _record(club: Club, lt: LiveTable, winner_seat: int) -> None:
    """The round's result: the pool's rotation, or the French rule's offer."""
    rounds = lt.rounds
    assert rounds is not None
    winner = lt.seats[winner_seat].player_id
    loser = lt.seats[1 - winner_seat].player_id
    assert winner is not None and loser is not None
    rounds.recorded = rounds.number
    rounds.last = f"{name_of(lt, winner)} beat {name_of(lt, loser)}"
    if lt.options.club.pool is not None:
        if rounds.pool is None:
            rounds.first_winner = winner
            rounds.last += ": waiting for a third player"
        else:
            _record_pool(lt, winner)
    if lt.options.club.french_rule and club.house is not None:
        offer = club.house.gallery(lt).game_over(loser)
        rounds.clock = club.clock  # the offer's deadline is on the club's clock
        if offer is not None:
            rounds.offer = Offer(offer.seat, offer.loser, offer.adviser,
                                 club.clock() + club.offer_seconds)


def _record_pool(lt: LiveTable, winner: str) -> None:
    rounds = lt.rounds
    assert rounds is not None and rounds.pool is not None
    result = rounds.pool.record_game(winner)
    rounds.last = (f"{name_of(lt, winner)} beat {name_of(lt, result.loser)}"
                   f"{' and takes the pool' if result.pool_taken else ''}; "
                   f"{name_of(lt, result.entering)} comes in")


def third_sat(club: Club, lt: LiveTable, state: SeatState) -> None:
    """The pool's third player takes the waiting seat and the pool begins (with round 1's
    result, if it is over). Stored before anything is kept: a store away leaves the seat
    and the pool as they were, and the next try seats him (he was found seated, the pool
    never begun)."""
    rounds = lt.rounds
    assert rounds is not None
    before = (lt.seats[WAITING_SEAT], rounds.pool, rounds.first_winner, rounds.last)
    lt.seats[WAITING_SEAT] = state
    ids = [s.player_id for s in lt.seats]
    first_result = False
    if rounds.pool is None and all(ids):
        rounds.pool = Pool(ids, lt.options.club.pool or "two_in_row")  # type: ignore[arg-type]
        if rounds.first_winner is not None:
            _record_pool(lt, rounds.first_winner)
            rounds.first_winner, first_result = None, True
    try:
        RoundStore(club.store).save_state(lt.code, rounds.to_json(lt))
    except BaseException:
        lt.seats[WAITING_SEAT], rounds.pool, rounds.first_winner, rounds.last = before
        raise
    if first_result:
        _schedule(club, lt, club.round_pause)
    club._announce(lt.code, "rounds")


def take_seat(club: Club, lt: LiveTable, adviser: str, name: str) -> None:
    """French rule (003): the adviser sits down in the loser's place for the next round."""
    rounds = lt.rounds
    offer = rounds.offer if rounds is not None else None
    if offer is None or offer.adviser != adviser or club.house is None:
        raise ClubError("the seat is not offered to you")
    if club.clock() > offer.deadline:
        raise ClubError("too late: the seat was offered for "
                        f"{club.offer_seconds:g} seconds")
    try:
        club.house.gallery(lt).take_seat(adviser, name_of(lt, offer.loser))
    except GalleryError as e:
        raise ClubError(str(e)) from e
    assert rounds is not None
    rounds.last = f"{name} takes {name_of(lt, offer.loser)}'s seat (French rule)"
    lt.seats[offer.seat] = SeatState(adviser, name)
    rounds.offer = None
    start_next(club, lt)


def _schedule(club: Club, lt: LiveTable, delay: float) -> None:
    rounds = lt.rounds
    assert rounds is not None
    if rounds.timer is not None:
        rounds.timer.cancel()
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return  # no loop (a unit test calling the club directly): start_next by hand
    rounds.timer = loop.call_later(delay, _start_next_safely, club, lt)


def _start_next_safely(club: Club, lt: LiveTable) -> None:
    try:
        start_next(club, lt)
    except Exception:  # a timer must never take the server down
        log.exception("starting the next round at table %s", lt.code)


def start_next(club: Club, lt: LiveTable) -> None:
    """The next round: the pool's pairing (or the same two, or the adviser), a new game."""
    rounds = lt.rounds
    assert rounds is not None
    if rounds.timer is not None:
        rounds.timer.cancel()
        rounds.timer = None
    if lt.finished or club.tables.get(lt.code) is not lt or lt.table is None:
        return
    if (not lt.table.match.is_over and rounds.forfeit is None
            or rounds.recorded < rounds.number):
        return  # the round is still being played
    if rounds.offer is not None:  # nobody took the seat in time: the loser plays on
        rounds.offer = None
    if rounds.pool is not None:
        by_id = {s.player_id: s for s in lt.seats}
        order = [*rounds.pool.pairing, rounds.pool.waiting]
        lt.seats[:] = [by_id[p] for p in order]
    elif lt.options.club.pool is not None:
        return  # the pool waits for its third player
    for b in lt.bots:
        if b is not None:
            b.stop()
    lt.bots = [None, None]
    rounds.number += 1
    rounds.forfeit = None
    club.store.save_table(
        lt.code, seats=(lt.seats[0].player_id, lt.seats[1].player_id),
        names=(lt.seats[0].name, lt.seats[1].name),
    )
    club._start(lt)
    lt.notify()
    club._lobby_changed()


def cancel_timers(club: Club) -> None:
    """The server stops: no round may start on a closed store."""
    for lt in club.tables.values():
        if lt.rounds is not None and lt.rounds.timer is not None:
            with contextlib.suppress(Exception):
                lt.rounds.timer.cancel()
            lt.rounds.timer = None


# ---------------------------------------------------------------------- reading


def name_of(lt: LiveTable, player_id: str | None) -> str:
    for s in lt.seats:
        if s.player_id == player_id and player_id is not None:
            return s.name or player_id
    return player_id or "?"


def stored_round(club: Club, record_id: str) -> RoundRecord | None:
    return RoundStore(club.store).round(record_id)


__all__ = ["OFFER_SECONDS", "ROUND_PAUSE", "Offer", "PoolError", "RoundState"]
