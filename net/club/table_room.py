"""Who is in the room at one table, and how talk and advice reach exactly the right sessions.

``TableTalk`` and ``Gallery`` (``net/club/clubhouse``) decide *who* may read a line or a piece of
advice; this module knows *which sessions* that is. A session enters the room when its app
attaches to the table (as a player or a watcher) and leaves when it goes. A delivery names a
recipient (a player id); the item is handed only to the sinks of that recipient's sessions,
so advice is never even encoded for anybody but the backed player.

Sinks are set by each session's table screen and only post a message into their own app
(every app runs in the server's one event loop, but each draws in its own task).

A player shows his hand to a backer (``grant``) or takes it back; the backer's sessions are
told at once (a ``GalleryNotice`` with ``view_changed``) and rebuild on what they may now
see. While a backer sees a hand (and for the rest of that game) ``say`` sends his lines to
his player alone.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ecarte_tui.engine import Action
from net.club.clubhouse.backers import Advice, Gallery, GalleryError
from net.club.clubhouse.talk import ChatLine, TableTalk, TalkError
from net.club.house import House

if TYPE_CHECKING:
    from net.club.live_club import Club
    from net.club.model import LiveTable



@dataclass(frozen=True, slots=True)
class GalleryNotice:
    """News of the gallery for one member: a new backer, a hand shown or taken back
    (``view_changed``: the backer's screen must be rebuilt on what he may see now)."""

    text: str
    view_changed: bool = False


@dataclass(frozen=True, slots=True)
class BackerRow:
    """One backer as his player's dialog lists him."""

    watcher: str
    name: str
    sees_hand: bool
    here: bool


News = ChatLine | Advice | GalleryNotice
Sink = Callable[[News], None]

__all__ = ["BackerRow", "GalleryError", "GalleryNotice", "News", "Sink", "TableRoom",
           "TalkError", "room_for"]


@dataclass
class _Session:
    member: str
    sink: Sink | None = None


class TableRoom:
    """The sessions attached to one live table, and its talk and gallery."""

    def __init__(self, house: House, lt: LiveTable, club: Club | None = None) -> None:
        self.house = house
        self.lt = lt
        self.club = club  # its other nodes get what this room sends (net/club_sync)
        self._sessions: dict[object, _Session] = {}  # session token -> who, where to deliver

    @property
    def talk(self) -> TableTalk:
        return self.house.talk(self.lt.code)

    @property
    def gallery(self) -> Gallery:
        return self.house.gallery(self.lt)

    # ------------------------------------------------------------------ sessions

    def enter(self, token: object, member: str, name: str) -> None:
        """A session attaches to the table: a player if ``member`` is seated, else a watcher.

        Called again when the session's screen is rebuilt (a backer now sees a hand, the
        pool's rotation seated him): the role is brought up to date, his backing is kept."""
        s = self._sessions.get(token)
        if s is not None and s.member != member:
            self.leave(token)
            s = None
        seated = self.lt.seat_of(member) is not None
        self.talk.join(member, name, "player" if seated else "watcher")
        if not seated:
            try:
                self.gallery.join(member, name)
            except GalleryError:
                pass  # seated after all (the gallery follows the seats): talk only
        if s is None:
            self._sessions[token] = _Session(member)

    def leave(self, token: object) -> None:
        """A session goes; the member leaves the talk and the gallery with his last one."""
        s = self._sessions.pop(token, None)
        if s is None or self.sessions_of(s.member):
            return
        self.talk.leave(s.member)
        self.gallery.leave(s.member)

    def listen(self, token: object, sink: Sink) -> None:
        """Where this session's deliveries go (its table screen)."""
        s = self._sessions.get(token)
        if s is not None:
            s.sink = sink

    def unlisten(self, token: object, sink: Sink) -> None:
        """Stop delivering to ``sink`` (a screen closing; a newer screen may have taken over)."""
        s = self._sessions.get(token)
        if s is not None and s.sink is sink:
            s.sink = None

    def sessions_of(self, member: str) -> list[object]:
        return [t for t, s in self._sessions.items() if s.member == member]

    @property
    def empty(self) -> bool:
        return not self._sessions

    def _deliver(self, recipient: str, item: News) -> None:
        for s in list(self._sessions.values()):
            if s.member == recipient and s.sink is not None:
                s.sink(item)

    def _send(self, recipient: str, item: Advice | GalleryNotice) -> None:
        """To the recipient's sessions here, and on every other node of the club."""
        self._deliver(recipient, item)
        if self.club is not None:
            self.club.relay(self.lt.code, {"kind": "news", "to": recipient,
                                           "item": _encode(item)})

    def receive(self, mail: dict[str, Any]) -> None:
        """Another node's delivery: a line said there (each node addresses it to its own
        sessions, by its own members' mutes), or advice and notices for one member."""
        kind = mail.get("kind")
        if kind == "talk":
            for d in self.talk.hear(ChatLine(**mail["line"])):
                self._deliver(d.recipient, d.line)
        elif kind == "news":
            item = _decode(mail["item"])
            if item is not None:
                self._deliver(str(mail["to"]), item)

    # ------------------------------------------------------------------ talk

    def say(self, member: str, text: str) -> None:
        """TalkError (nothing sent) if the line is refused. A backer who sees (or saw, this
        game) his player's hand talks to that player only."""
        only_to = None if self.lt.seat_of(member) is not None else self.talk_only_to(member)
        to_name = ""
        if only_to is not None:
            seat = self.lt.seat_of(only_to)
            to_name = (self.lt.seats[seat].name or "") if seat is not None else ""
        deliveries = self.talk.say(member, text, only_to, to_name)
        for d in deliveries:
            self._deliver(d.recipient, d.line)
        if deliveries and self.club is not None:
            self.club.relay(self.lt.code, {"kind": "talk", "line": asdict(deliveries[0].line)})

    def talk_only_to(self, member: str) -> str | None:
        """The one player a watcher's lines may reach now, or None (the whole table)."""
        return self.gallery.talk_only_to(member)

    def mute_gallery(self, member: str, muted: bool) -> None:
        self.talk.mute_gallery(member, muted)

    def set_muting(self, member: str, level: str) -> None:
        self.talk.set_muting(member, level)

    # ------------------------------------------------------------------ the gallery

    def back(self, watcher: str, seat: int | None) -> None:
        """Back the player in ``seat`` (None: nobody); GalleryError says why not. Not after
        wagering on the other player in this game; the player is told he has a backer."""
        g = self.gallery
        if seat is None:
            if g.in_game and g.backing(watcher) is not None:
                raise GalleryError("you back a player in this game: change after it ends")
            g.unback(watcher)
            return
        player = self.lt.seats[seat].player_id
        if player is None:
            raise GalleryError("nobody sits in that seat")
        before = g.backing(watcher)
        g.back(watcher, player, wagered_on=self.house.wager_side(self.lt, watcher))
        if before != player:
            name = g.backer_name(watcher)
            how = (": v to show him your hand" if g.backers_see_hand
                   else " (this table shows no backer a hand)")
            self._send(player, GalleryNotice(f"{name} backs you{how}."))

    def backers(self, player: str) -> list[BackerRow]:
        """``player``'s backers, the earliest first (for his dialog)."""
        g = self.gallery
        return [BackerRow(w, g.backer_name(w), g.view_seat(w) is not None, g.present(w))
                for w in g.backers_of(player)]

    def grant(self, player: str, watcher: str, see: bool) -> None:
        """``player`` shows his hand to his backer ``watcher`` (or takes it back): at once,
        the backer's sessions rebuild on what they may see. GalleryError says why not."""
        if not self.gallery.grant(player, watcher, see):
            return
        seat = self.lt.seat_of(player)
        name = (self.lt.seats[seat].name if seat is not None else None) or "your player"
        text = (f"{name} shows you the hand: your talk now goes to {name} only." if see
                else f"{name} no longer shows you the hand.")
        self._send(watcher, GalleryNotice(text, view_changed=True))

    def view_seat(self, watcher: str) -> int | None:
        """The seat whose hand this watcher sees (his player shows it to him), else None."""
        return self.gallery.view_seat(watcher)

    def legal_for(self, watcher: str) -> tuple[int, tuple[Action, ...]] | None:
        """The backed player's seat and what he may do now (what a backer may suggest)."""
        g = self.gallery
        player = g.backing(watcher)
        seat = None if player is None else g.seat_of(player)
        table = self.lt.table
        if seat is None or table is None:
            return None
        return seat, tuple(table.update(seat).view.legal)

    def advise(self, watcher: str, action: Action | None, note: str) -> None:
        """Send advice to the backed player's sessions only; GalleryError says why not."""
        found = self.legal_for(watcher)
        legal = found[1] if found is not None else None
        for advice in self.gallery.advise(watcher, action, note, legal):
            self._send(advice.recipient, advice)


class _Rooms:
    def __init__(self) -> None:
        self.by_code: dict[str, TableRoom] = {}


_ROOMS: weakref.WeakKeyDictionary[House, _Rooms] = weakref.WeakKeyDictionary()


def room_for(club: Club, lt: LiveTable) -> TableRoom | None:
    """The room of a live table (None on a club without a house: no talk, no gallery)."""
    house = club.house
    if house is None:
        return None
    rooms = _ROOMS.setdefault(house, _Rooms())
    room = rooms.by_code.get(lt.code)
    if room is None or room.lt is not lt:
        room = rooms.by_code[lt.code] = TableRoom(house, lt, club)
    return room


def watcher_view_seat(club: Club, lt: LiveTable, member: str) -> int | None:
    """The seat whose hand a watcher may see (he backs its player), else None."""
    room = room_for(club, lt)
    return None if room is None else room.view_seat(member)


def forget_empty(club: Club, lt: LiveTable) -> None:
    """Drop the room of a table nobody is attached to any more."""
    house = club.house
    rooms = _ROOMS.get(house) if house is not None else None
    if rooms is not None:
        room = rooms.by_code.get(lt.code)
        if room is not None and room.empty:
            del rooms.by_code[lt.code]


def leave_room(club: Club, lt: LiveTable, token: object) -> None:
    """A session left the table (``ClubApp._leave``): out of its talk and gallery."""
    room = room_for(club, lt)
    if room is not None:
        room.leave(token)
        forget_empty(club, lt)


def receive_mail(club: Club, lt: LiveTable, mail: dict[str, Any]) -> None:
    """``Club.on_mail``: deliver another node's talk and news to this node's sessions."""
    rooms = _ROOMS.get(club.house) if club.house is not None else None
    room = rooms.by_code.get(lt.code) if rooms is not None else None
    if room is not None and room.lt is lt:  # nobody here at that table: nothing to deliver
        room.receive(mail)


def _encode(item: Advice | GalleryNotice) -> dict[str, Any]:
    if isinstance(item, Advice):
        return {"advice": [item.recipient, item.seat, item.adviser, item.adviser_name,
                           str(item.action) if item.action is not None else None, item.note]}
    return {"notice": [item.text, item.view_changed]}


def _decode(data: dict[str, Any]) -> Advice | GalleryNotice | None:
    if "advice" in data:
        recipient, seat, adviser, name, action, note = data["advice"]
        return Advice(str(recipient), int(seat), str(adviser), str(name),
                      Action.parse(action) if action else None, str(note))
    if "notice" in data:
        text, changed = data["notice"]
        return GalleryNotice(str(text), bool(changed))
    return None
