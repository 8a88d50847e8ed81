"""The table as the club serves it: the game screen plus who is away, with a live countdown.

When the opponent's time to come back is out, the player may take the win or let the
server's bot play on (``Club.take_win`` / ``Club.replace_with_bot``); a player may resign
(``Club.resign``), the only way to leave a lost game at once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input

from ecarte_tui.table import TableError, Update
from ecarte_tui.ui.narration import Prompt
from ecarte_tui.ui.screens.ask import AskScreen
from ecarte_tui.ui.screens.table import GAME_ACTIONS, TableChanged
from ecarte_tui.ui.widgets.felt import Look
from ecarte_tui.ui.widgets.hand_log import TailLog
from ecarte_tui.ui.widgets.key_bar import KeyBar
from net.club import Club, ClubError, LiveTable
from net.club.play_again import may_ask
from net.club_sync.journal import DeferredStoreJournal
from net.screens import gallery_share, money_panel, round_screen
from net.screens.presence import away_banner, counting_down, may_claim, seat_name
from net.screens.store_trouble import say_store_down
from net.screens.table_talk import TalkControls

if TYPE_CHECKING:
    from textual.timer import Timer

    from net.screens.club_app import ClubApp

REPLACEMENT_BOT = "expert"
STALLED_SECONDS = 2.0  # a move not yet in the club's log this long after it was made ...
STALLED = ("The club's records do not answer just now: your move is kept, and shown to "
           "both of you as soon as they do.")  # ... is said to be waiting


CLAIM_BINDINGS: list[BindingType] = [
    # on the app, with priority: the keys must work while a dialog (the draw, a hand's end)
    # is open; they are disabled (and the key goes on its way) unless there is a claim
    Binding("w", "claim_win", "Take the win", show=False, priority=True),
    Binding("b", "claim_bot", "Bot plays on", show=False, priority=True),
]


def table_screen_of(app: App[Any]) -> ClubTableScreen | None:
    """The club table screen under whatever dialog is open, if the app is at a table."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, ClubTableScreen):
            return screen
    return None


def check_claim(app: App[Any], action: str) -> bool | None:
    """``check_action`` for the app's claim keys; None when ``action`` is not one of them."""
    if action not in ("claim_win", "claim_bot"):
        return None
    if isinstance(app.focused, Input):
        return False  # a "w" or "b" typed in the talk is a letter, not a claim
    screen = table_screen_of(app)
    return screen is not None and may_claim(screen.club, screen.lt, screen.seat,
                                            bot=action == "claim_bot")


def claim(app: App[Any], what: str) -> None:
    screen = table_screen_of(app)
    if screen is not None:
        screen.action_take_win() if what == "win" else screen.action_call_bot()


class ClaimKeys:
    """For an app whose player may claim a forfeit (the club's, the host's): the app-wide
    ``w``/``b`` keys of ``CLAIM_BINDINGS``, enabled only while there is a claim."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = check_claim(self, action)  # type: ignore[arg-type]
        return super().check_action(action, parameters) if allowed is None else allowed  # type: ignore[misc]

    def action_claim_win(self) -> None:
        claim(self, "win")  # type: ignore[arg-type]

    def action_claim_bot(self) -> None:
        claim(self, "bot")  # type: ignore[arg-type]


class PresenceChanged(Message):
    """Someone sat down, left, came back, or the table was closed by a forfeit."""


class ClubTableScreen(TalkControls):  # TableScreen + table talk and the gallery
    KEY_BAR = KeyBar
    LOG = TailLog
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "take_win", "Take the win"),
        Binding("b", "call_bot", "Bot plays on"),
        Binding("t", "take_seat", "Take his seat"),  # French rule (003): an adviser
        Binding("dollar_sign", "wager", "Wager", key_display="$"),  # watchers (004)
        Binding("R", "resign", "Resign", show=False),
    ]

    def __init__(self, club: Club, lt: LiveTable, seat: int | None, look: Look,
                 auto_announce: bool = False, view_seat: int | None = None) -> None:
        assert lt.table is not None
        super().__init__(lt.table, seat, look, auto_announce, view_seat=view_seat)
        self.club = club
        self.lt = lt
        self._timer: Timer | None = None
        self._forfeit_told = False
        self._names = lt.table.names  # as drawn: the operator may rename a player
        self.following = False
        """This session shows another's rendering of the public table
        (``net.screens.gallery_share``): this screen takes no update from the table and draws
        nothing of its own."""
        self.table_updates = 0
        """Table updates this screen drew (a shared rendering draws one per group)."""

    @property
    def club_app(self) -> ClubApp:
        return self.app  # type: ignore[return-value]

    def stepped(self) -> None:
        """If the club's store does not take the step at once: a word that it waits."""
        journal, seq = self.table.journal, self.table.seq
        if isinstance(journal, DeferredStoreJournal) and journal.waiting(seq):
            self.set_timer(STALLED_SECONDS, lambda: self._still_unwritten(journal, seq))

    def _still_unwritten(self, journal: DeferredStoreJournal, seq: int) -> None:
        if journal.waiting(seq) and self.is_attached:
            self._say(STALLED, "warning")

    def on_mount(self) -> None:
        self.lt.listeners.append(self._presence)
        self._timer = self.set_interval(1.0, self._refresh_presence, pause=True)
        round_screen.mount_pool_board(self)
        money_panel.mount_money_panel(self)
        self._refresh_presence()

    def on_unmount(self) -> None:
        gallery_share.leave(self.app, screen_closing=True)
        if self._presence in self.lt.listeners:
            self.lt.listeners.remove(self._presence)

    def on_screen_suspend(self) -> None:
        """Another screen over the table (help, talk...) is this session's own."""
        gallery_share.leave(self.app)

    def on_share_left(self, _message: gallery_share.ShareLeft) -> None:
        """Back from following: the banner and the talk as they are now."""
        self._refresh_presence()
        self._show_talk()

    def _show_talk(self) -> None:
        if not self.following:  # (brought up to date when it stops following)
            super()._show_talk()

    def _presence(self, _lt: LiveTable) -> None:
        """Called by the club from another player's app: only queue a message."""
        self.post_message(PresenceChanged())

    def on_presence_changed(self, _message: PresenceChanged) -> None:
        if self.table.names != self._names:  # (a player renamed: the bars and the score)
            self._names = self.table.names
            if not self.following:
                self.redraw()
                self.rename_open_box()
        self._refresh_presence()

    def on_table_changed(self, _message: TableChanged) -> None:
        note = getattr(self.app, "note_table_activity", None)
        if note is not None:
            note()
        if self.seat is None:
            self.table_updates += 1
            gallery_share.table_drawn(self)

    def _refresh_presence(self) -> None:
        if self.following:
            return  # the leader shows the banner; brought up to date on leaving
        lt = self.lt
        if lt.closed_why is not None:
            self._show_closed(lt.closed_why)
            return
        if round_screen.follow_new_round(self):
            return  # pool / French rule: this session moves to its place in the next round
        round_screen.refresh_board(self)
        if lt.finished and lt.forfeit is not None:
            self._show_forfeit()
            return
        away = away_banner(self.club, lt, self.seat)
        if self.seat is None:
            text = f"Watching table {lt.code}: {seat_name(lt, 0)} vs {seat_name(lt, 1)}"
            text += self.watch_note()
            self.set_banner(f"{text} · {away[0]}" if away else text,
                            away[1] if away else "watching")
        else:
            self.set_banner(*away) if away else self.set_banner(None)
        rounds_banner = round_screen.round_banner(self)
        if rounds_banner is not None and not away:
            self.set_banner(*rounds_banner)
        if lt.finished and lt.rematch is not None:
            if self._show_rematch():
                return
        if self._timer is not None:
            # tick only while a clock counts down on the banner; a seat given up for lost
            # ("did not come back") changes only by someone's action, which is pushed here
            if counting_down(self.club, lt, self.seat):
                self._timer.resume()
            else:
                self._timer.pause()
        self.refresh_bindings()

    def _show_rematch(self) -> bool:
        """The banner says who asked to play again; True if this session left for the new
        table (the other player said yes to its asking)."""
        offer = self.lt.rematch
        assert offer is not None
        if offer.next_code is not None:
            if self.seat is not None:
                self.club_app.follow_rematch(offer.next_code)
                return True
            self.set_banner(f"They play again at table {offer.next_code}: w in the lobby to "
                            "watch", "info")
            return False
        if self.seat is None:
            return False
        other = seat_name(self.lt, 1 - self.seat)
        if offer.asker == self.lt.seats[self.seat].player_id:
            self.set_banner(f"You asked {other} to play again: waiting for an answer", "info")
        else:
            self.set_banner(f"{other} asks to play again: r to say yes", "info")
        return False

    def _show_forfeit(self) -> None:
        if not self._end_shown():
            return
        lt = self.lt
        loser = lt.forfeit
        assert loser is not None
        winner = 1 - loser
        who = "You win" if winner == self.seat else f"{seat_name(lt, winner)} wins"
        assert lt.table is not None
        if not lt.table.match.resigned:
            why = f"{seat_name(lt, loser)} did not come back"
        elif loser == self.seat:
            who, why = "You resigned", f"{seat_name(lt, winner)} wins the match"
        else:
            why = f"{seat_name(lt, loser)} resigned"
        self.set_banner(f"{who}: {why}. q back to the lobby", "info")
        self.refresh_bindings()

    def _prompt_of(self, u: Update) -> Prompt:
        if self.lt.closed_why is not None:  # (not a decision any more: why, and the way out)
            return Prompt(f"{self.lt.closed_why}.", "q back to the lobby")
        return super()._prompt_of(u)

    def _end_shown(self) -> bool:
        """The table ended without a move: whatever is over it goes; False if it was
        shown already."""
        if self._timer is not None:
            self._timer.pause()
        if self._forfeit_told:
            return False
        self._forfeit_told = True
        while self.app.screen is not self and self in self.app.screen_stack:
            self.app.pop_screen()  # a screen over the table (help, talk...) is moot now
        self.close_dialog()  # and so is the table's box (the draw, a hand's end)
        return True

    def _show_closed(self, why: str) -> None:
        if self._end_shown():
            self.set_banner(f"{why}. q back to the lobby", "error")
            self._prompt_memo = None  # (the prompt made before the closing is moot)
            if not self.following:
                self.redraw()
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.hidden_by_size and action in ("take_seat", "wager", "take_win", "call_bot",
                                                 "rematch", "resign"):
            return False  # the table is hidden ("please enlarge"): nothing acts on it blind
        if self.lt.closed_why is not None and (action in GAME_ACTIONS or action in (
                "take_seat", "wager", "take_win", "call_bot", "rematch", "resign",
                "new_match", "dialog_key", "dialog_focus")):
            return False  # closed: the banner says so, and q goes back to the lobby
        if action == "take_seat":
            return round_screen.may_take_seat(self)
        if action == "rematch":
            offer = self.lt.rematch
            mine = offer is not None and offer.asker == self.lt.seats[self.seat or 0].player_id
            if mine or not may_ask(self.lt, self.seat):
                return False  # (asked already: the banner says so)
        if action == "wager":
            return money_panel.may_wager_here(self)
        if action in ("take_win", "call_bot"):
            return may_claim(self.club, self.lt, self.seat, bot=action == "call_bot")
        if action == "resign":
            return self._may_resign()
        if self.lt.forfeit is not None and action in GAME_ACTIONS:
            return False  # the game was ended by a forfeit: nothing more to play
        return super().check_action(action, parameters)

    def action_take_seat(self) -> None:
        round_screen.take_seat(self)

    def _may_resign(self) -> bool:
        """A player in a game being played (not a watcher, not a game over)."""
        lt, table = self.lt, self.lt.table
        return (self.seat is not None and self.seat < 2 and table is not None
                and not lt.finished and lt.forfeit is None and not table.match.is_over
                and (lt.rounds is None or lt.rounds.forfeit is None))

    def action_resign(self) -> None:
        """Asked first: one key must not lose a match."""
        if not self._may_resign():
            return
        other = seat_name(self.lt, 1 - (self.seat or 0))
        what = "this round" if self.lt.rounds is not None else "the match"
        self.app.push_screen(AskScreen(
            "Resign?", f"{other} wins {what} at once, at the score on the table.",
            [("resign", "Resign", "y"), ("play", "Play on", "n")]), self._resign_answered)

    def _resign_answered(self, answer: str | None) -> None:
        if answer != "resign" or not self._may_resign() or self.seat is None:
            return
        seat = self.seat
        self.club_step(lambda: self.club.resign(self.lt, seat))

    def store_unreachable(self, error: Exception) -> None:
        """A request of this screen the store could not take: said, the session goes on."""
        say_store_down(self)

    def club_step(self, step: Callable[[], None]) -> bool:
        """One of the seat's requests to the club (resign, take the win, call the bot):
        refused with a word why, and the session goes on, also when the club's records
        cannot take it just now (the table is then as it was)."""
        try:
            step()
        except (ClubError, TableError) as e:
            self.notify(str(e), severity="warning")
            return False
        except sqlite3.OperationalError as e:
            self.store_unreachable(e)
            return False
        return True

    def action_wager(self) -> None:
        money_panel.open_wager(self)

    def action_take_win(self) -> None:
        if self.seat is None:
            return
        seat = self.seat
        self.club_step(lambda: self.club.take_win(self.lt, seat))

    def action_call_bot(self) -> None:
        if self.seat is None:
            return
        other = 1 - self.seat
        name = seat_name(self.lt, other)
        if not self.club_step(lambda: self.club.replace_with_bot(self.lt, other,
                                                                 REPLACEMENT_BOT)):
            return
        self.notify(f"The bot ({REPLACEMENT_BOT}) takes {name}'s seat; the game goes on.")
