"""Table talk and the gallery on a club table screen: the keys, the panel, the deliveries.

A base of ``ClubTableScreen``: its screen joins the table's room (``net/table_room``) when
mounted and takes the deliveries addressed to its player. Keys: ``/`` talk, ``m`` (players)
mute the gallery, ``v`` (a player with backers) show each backer his hand or take it back,
``g`` (watchers) back a player, ``s`` (a backer) advise him. Advice arrives only on the
backed player's screen, marked apart (the suggested card raised in his hand) until his next
action; he may ignore it.

A backer's screen shows a hand only while the player shows it to him: when the player takes
it back, the table's updates stop reaching the old view at once (``_on_table`` asks the
gallery before passing one on) and the screen is rebuilt on the public table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.notifications import SeverityLevel

from ecarte_tui.engine import KING, Action, Kind
from ecarte_tui.ui.screens.table import TableChanged, TableScreen
from net.club.clubhouse.backers import Advice
from net.club.clubhouse.talk import HEAR_ALL, MUTE_ALL, MUTE_GALLERY, MUTINGS, ChatLine
from net.club.table_room import GalleryError, GalleryNotice, News, TableRoom, TalkError, room_for
from net.screens.backers_screen import BackersScreen
from net.screens.gallery_screens import NOBODY, AdviceScreen, BackScreen
from net.screens.talk_panel import KEEP, TalkPanel, advice_line, suggestion_words
from net.screens.talk_screen import TalkScreen

if TYPE_CHECKING:
    from ecarte_tui.table import Update
    from net.club import Club, LiveTable
    from net.store.club_store import Player

TALK_BINDINGS: list[BindingType] = [
    Binding("slash", "talk", "Talk", key_display="/"),
    Binding("m", "mute_gallery", "Mute"),
    Binding("g", "back_player", "Back"),
    Binding("s", "advise", "Advise"),
    Binding("v", "backers", "Backers"),
]
MUTE_MARKS = {HEAR_ALL: "", MUTE_GALLERY: "gallery muted", MUTE_ALL: "talk muted"}
MUTE_TOASTS = {
    MUTE_GALLERY: "Gallery muted: the watchers' lines are not shown to you (m: all talk).",
    MUTE_ALL: "Talk muted: nobody's lines are shown to you (m: hear everyone).",
    HEAR_ALL: "You hear everyone again, from now on.",
}
MUTE_NOTES = {  # in the talk box
    HEAR_ALL: "",
    MUTE_GALLERY: "The gallery is muted: you do not see the watchers' lines.",
    MUTE_ALL: "The talk is muted: you see only your own lines.",
}
TALK_ACTIONS = frozenset({"talk", "mute_gallery", "back_player", "advise", "backers"})


class TalkArrived(Message):
    """A chat line or a piece of advice for this session (posted from another app's task)."""

    def __init__(self, item: News) -> None:
        super().__init__()
        self.item = item


class TalkControls(TableScreen):
    """What a club table screen adds for the talk and the gallery (see the module doc)."""

    BINDINGS: ClassVar[list[BindingType]] = TALK_BINDINGS
    club: Club
    lt: LiveTable

    talk_lines: list[ChatLine]
    advice: Advice | None = None

    # ------------------------------------------------------------------ the room

    @property
    def room(self) -> TableRoom | None:
        return room_for(self.club, self.lt)

    @property
    def member(self) -> Player | None:
        return getattr(self.app, "player", None)

    def on_mount(self) -> None:
        self.talk_lines = []
        self._sink = self._deliver  # one bound method: ``unlisten`` compares identity
        room, me = self.room, self.member
        self._member_id = me.id if me is not None else None  # read from other apps' tasks
        if room is None or me is None or not self.query("#side") or not self.is_attached:
            return  # (not attached: replaced as it was made, a new round in a burst)
        room.enter(self.app, me.id, me.name)
        room.listen(self.app, self._sink)
        self.talk_lines = room.talk.history_for(me.id)[-KEEP:]
        self.query_one("#side").mount(TalkPanel(id="talk"))
        self.call_after_refresh(self._show_talk)

    def on_unmount(self) -> None:
        room = self.room
        if room is not None and hasattr(self, "_sink"):
            room.unlisten(self.app, self._sink)
        if hasattr(self, "_sink"):
            del self._sink  # (a bound method of this screen kept on it: a cycle otherwise)

    def _deliver(self, item: News) -> None:
        """Called by the room from the speaker's app: only queue a message."""
        self.post_message(TalkArrived(item))

    def _on_table(self, update: Update) -> None:
        """Called by the table from whichever app moved it (so no ``self.app`` here): a
        backer's view of a hand is passed on only while his player still shows it."""
        if self.watching and self.view_seat is not None:
            room, member = self.room, getattr(self, "_member_id", None)
            if room is None or member is None or room.view_seat(member) != self.view_seat:
                return  # taken back: the notice that rebuilds this screen is on its way
        super()._on_table(update)

    def on_talk_arrived(self, message: TalkArrived) -> None:
        item = message.item
        if isinstance(item, GalleryNotice):
            self._gallery_news(item)
            return
        if isinstance(item, ChatLine):
            self.talk_lines = [*self.talk_lines, item][-KEEP:]
            if isinstance(self.app.screen, TalkScreen):
                self.app.screen.show_lines(self.talk_lines)
        else:
            self.advice = item
            self.app.bell()
            self.redraw()  # the suggested card, raised in the hand
        self._show_talk()

    @on(TableChanged)
    def _acted(self, message: TableChanged) -> None:
        """Advice holds until the player's next action (or the next hand)."""
        u = message.update
        prev = self.update
        new_hand = prev is not None and prev.view.hand_number != u.view.hand_number
        if self.advice is not None and (
            new_hand or (u.event is not None and u.event.seat == self.seat)
        ):
            self.advice = None
            self._show_talk()

    def _show_talk(self) -> None:
        panels = self.query(TalkPanel)
        if not panels:
            return
        me = self.member
        room = self.room
        muted = MUTE_MARKS[room.talk.muting(me.id)] if me and room else ""
        advice = advice_line(self.advice, self._label) if self.advice is not None else None
        panels.first().show(self.talk_lines, advice, muted, self._talk_keys())

    def _gallery_news(self, notice: GalleryNotice) -> None:
        """A backer came (for a player), or the player showed or took back his hand (for
        his backer: rebuilt on what he may see now)."""
        self.app.notify(notice.text, timeout=5, markup=False)
        room, me = self.room, self.member
        if notice.view_changed and room is not None and me is not None and self.seat is None:
            if room.view_seat(me.id) != self.view_seat:
                open_table = getattr(self.app, "open_table", None)
                if open_table is not None:
                    open_table(self.lt.code, watch=True)
                    return
        self.refresh_bindings()
        self._show_talk()
        self._refresh_banner()

    def _talk_keys(self) -> str:
        if self.seat is not None:
            return "/ talk · m mute"  # (``v Backers`` is in the keys line when he has any)
        if self._backed_seat() is None:
            return "/ talk · g back"
        room, me = self.room, self.member
        only = room.talk_only_to(me.id) if room is not None and me is not None else None
        if only is not None:
            seat = self.lt.seat_of(only)
            return f"/ talk to {self.table.names[seat] if seat is not None else only} · s advise"
        return "/ talk · s advise"

    def _my_backers(self) -> bool:
        room, me = self.room, self.member
        return bool(room and me and self.seat is not None and room.gallery.backers_of(me.id))

    def advised_cards(self) -> frozenset[int]:
        a = self.advice
        view = self.view
        if a is None or a.action is None or a.action.kind is not Kind.CARD or view is None:
            return frozenset()
        return frozenset({a.action.card}) & frozenset(view.hand)

    def watch_note(self) -> str:
        """The end of a watcher's banner: whether a hand is shown, and whose."""
        seat = self._backed_seat()
        if seat is None:
            return " — no hidden card is ever shown here"
        name = self.table.names[seat]
        if self.view_seat == seat:
            return f" — you back {name}, whose hand you see"
        return f" — you back {name} (hand not shown)"

    def _backed_seat(self) -> int | None:
        room, me = self.room, self.member
        if room is None or me is None or self.seat is not None:
            return None
        player = room.gallery.backing(me.id)
        return None if player is None else self.lt.seat_of(player)

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in TALK_ACTIONS:
            return super().check_action(action, parameters)
        if self.room is None or self.member is None:
            return False
        if action == "talk":
            return True
        if action == "mute_gallery":
            return self.seat is not None
        if action == "back_player":
            return self.seat is None
        if action == "backers":
            return self._my_backers()
        return self._backed_seat() is not None  # advise

    def action_talk(self) -> None:
        room, me = self.room, self.member
        if room is None or me is None:
            return

        def send(text: str) -> str | None:
            try:
                room.say(me.id, text)
            except TalkError as e:
                return str(e)
            return None

        self.app.push_screen(TalkScreen(self.talk_lines, send,
                                        MUTE_NOTES[room.talk.muting(me.id)]))

    def action_mute_gallery(self) -> None:
        """``m`` goes round: the gallery muted, then all the talk, then everyone heard."""
        room, me = self.room, self.member
        if room is None or me is None or self.seat is None:
            return
        level = MUTINGS[(MUTINGS.index(room.talk.muting(me.id)) + 1) % len(MUTINGS)]
        room.set_muting(me.id, level)
        self.talk_lines = room.talk.history_for(me.id)[-KEEP:]
        self.notify(MUTE_TOASTS[level], timeout=4, markup=False)
        self._show_talk()

    def action_back_player(self) -> None:
        room, me = self.room, self.member
        if room is None or me is None or self.seat is not None:
            return
        self.app.push_screen(
            BackScreen(self.table.names, self._backed_seat(), room.gallery.backers_see_hand),
            self._backed,
        )

    def _backed(self, choice: str | None) -> None:
        room, me = self.room, self.member
        if choice is None or room is None or me is None:
            return
        seat = None if choice == NOBODY else int(choice)
        try:
            room.back(me.id, seat)
        except GalleryError as e:
            self._tell(str(e)[0].upper() + str(e)[1:], "error")
            return
        who = "nobody" if seat is None else self.table.names[seat]
        shown = seat is not None and room.view_seat(me.id) == seat
        self._tell(f"You back {who}." if seat is None or shown
                   else f"You back {who}: {who} decides whether you see the hand.")
        if room.view_seat(me.id) != self.view_seat:
            open_table = getattr(self.app, "open_table", None)
            if open_table is not None:  # rebuilt on the view this watcher may now see
                open_table(self.lt.code, watch=True)
                return
        self._show_talk()
        self._refresh_banner()

    def action_backers(self) -> None:
        """A player's backers: show each one the hand, or take it back (at once)."""
        room, me = self.room, self.member
        if room is None or me is None or self.seat is None:
            return

        def toggle(watcher: str, see: bool) -> str | None:
            try:
                room.grant(me.id, watcher, see)
            except GalleryError as e:
                return str(e)
            return None

        self.app.push_screen(BackersScreen(lambda: room.backers(me.id), toggle,
                                           room.gallery.backers_see_hand))

    def _tell(self, text: str, severity: SeverityLevel = "information") -> None:
        """A notification from a dialog's answer: after the dialog is gone (a toast posted
        while it closes lands on the closing dialog and is never seen)."""
        self.app.call_after_refresh(self.app.notify, text, severity=severity,
                                    timeout=5 if severity == "error" else 3, markup=False)

    def _refresh_banner(self) -> None:
        refresh = getattr(self, "_refresh_presence", None)
        if refresh is not None:
            refresh()

    def action_advise(self) -> None:
        room, me = self.room, self.member
        seat = self._backed_seat()
        if room is None or me is None or seat is None:
            return
        found = room.legal_for(me.id)
        legal = found[1] if found is not None else ()
        if self.view_seat != seat:  # his hand is not shown here: no card, no king to name
            legal = tuple(a for a in legal
                          if a.kind not in (Kind.CARD, Kind.DISCARD) and a != KING)
        choices = [(a, suggestion_words(a, self._label)) for a in legal]
        self.app.push_screen(AdviceScreen(self.table.names[seat], choices), self._advised)

    def _advised(self, result: tuple[Action | None, str] | None) -> None:
        room, me = self.room, self.member
        seat = self._backed_seat()
        if result is None or room is None or me is None or seat is None:
            return
        action, note = result
        try:
            room.advise(me.id, action, note)
        except GalleryError as e:
            self._tell(str(e)[0].upper() + str(e)[1:], "error")
            return
        self._tell(f"Advice sent to {self.table.names[seat]}.")
