"""Playing a finished match again at the table, without a trip through the lobby.

Against the server's bot a new match starts at once. Between two players the first to ask
waits; when the other says yes, both are seated at a new table of the same kind (same seats,
same rules and club options) and the asker's screen follows him there, on whichever node he
is. The offer lives in the store (``net.store.rematches``), so two players who ask at the
same instant on two nodes make one table, not two. An offer lapses when its asker leaves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.club.model import ClubError, LiveTable, SeatState
from net.store.rematches import Rematches

if TYPE_CHECKING:
    from net.club.live_club import Club
    from net.store.club_store import Player

REMATCH = "rematch"  # the feed's word: an offer at this finished table changed


def may_ask(lt: LiveTable, seat: int | None) -> bool:
    """Whether the player in ``seat`` (None: a watcher) may ask to play again here."""
    return (seat is not None and seat < 2 and lt.finished and lt.rounds is None
            and lt.forfeit is None and lt.table is not None)


def ask(club: Club, lt: LiveTable, player: Player) -> tuple[LiveTable, int] | None:
    seat = lt.seat_of(player.id)
    if not may_ask(lt, seat):
        raise ClubError("only the two players of a finished match may play it again")
    assert seat is not None
    other = lt.seats[1 - seat]
    if other.is_bot:
        return club.create(player, lt.options)
    offers = Rematches(club.store)
    for _ in range(2):  # a second time if the other's offer lapsed as it was accepted
        offer = lt.rematch = offers.ask(lt.code, player.id)
        if offer.next_code is not None:
            return _seat_at(club, offer.next_code, player)
        if offer.asker == player.id:
            if not other.sessions:
                offers.withdraw(lt.code, player.id)
                lt.rematch = None
                raise ClubError(f"{other.name or 'your opponent'} has left the table")
            _tell(club, lt)
            return None
        _check_stakes(club, lt)
        code = club.new_code()
        if offers.claim(lt.code, offer.asker, code):
            seats = [SeatState(s.player_id, s.name) for s in lt.seats]
            new = club.open_table(code, lt.options, seats)
            lt.rematch = offers.of(lt.code)
            _tell(club, lt)
            return new, seat
    raise ClubError("the other player's offer to play again has lapsed")


def withdraw(club: Club, lt: LiveTable, player: Player) -> None:
    """``player`` left the finished table: his offer, if still unanswered, lapses."""
    offer = lt.rematch
    if offer is None or offer.asker != player.id or offer.next_code is not None:
        return
    Rematches(club.store).withdraw(lt.code, player.id)
    lt.rematch = None
    _tell(club, lt)


def follow(club: Club, lt: LiveTable) -> None:
    """Another node changed the offer at this finished table: read it (listeners are told by
    the caller)."""
    if lt.rounds is None:
        lt.rematch = Rematches(club.store).of(lt.code)


def _tell(club: Club, lt: LiveTable) -> None:
    club.announce(lt.code, REMATCH)  # the other nodes' screens at this table
    lt.notify()


def _seat_at(club: Club, code: str, player: Player) -> tuple[LiveTable, int]:
    new = club.find(code)
    seat = new.seat_of(player.id)
    if seat is None:
        raise ClubError(f"there is no seat for you at table {code}")
    return new, seat


def _check_stakes(club: Club, lt: LiveTable) -> None:
    """Both players must still cover the table's stake (the last match may have cost it)."""
    house = club.house
    if house is None:
        return
    for s in lt.seats[:2]:
        if s.player_id is None:
            continue
        why = house.stake_refusal(s.player_id, lt.options)
        if why is not None:
            raise ClubError(f"{s.name}: {why}")
