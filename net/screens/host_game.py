"""``ecarte host``: one table in one process; seat A is this terminal, seat B a friend over SSH.

The local app is an ordinary (not served) ``EcarteApp`` in the same event loop as the SSH
server; the friend's session runs a served app on the same ``Table``. A small in-memory club
keeps the bookkeeping the server has too: who is away (with the countdown), taking the win or
letting the bot play on, and the finished game archived as ECN.
"""

from __future__ import annotations

import getpass
import re
import sys
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.binding import BindingType
from textual.message import Message

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.screens.ask import AskScreen
from ecarte_tui.ui.settings import Settings
from net.club import Club, ClubError, LiveTable, SeatState, TableOptions
from net.club.identity import GUEST_ID_PREFIX, Identities, is_guest
from net.screens.club_app import CLUB_CSS_PATH
from net.screens.club_table_screen import CLAIM_BINDINGS, ClaimKeys, ClubTableScreen
from net.screens.waiting_screen import WaitingScreen
from net.ssh.server import GameSSHServer
from net.ssh.session_info import SessionInfo
from net.store.club_store import NAME_RE, Player, Store

LOCAL_ID = "host:local"
HOST_HINT = "Your friend sits down at this table with:"
HOST_LEFT = "\r\nThe host stopped hosting: the game ends here.\r\n"


def local_name(wanted: str | None = None) -> str:
    """The host's name at the table: given, else the login name, made valid."""
    name = wanted or getpass.getuser() or "host"
    name = re.sub(r"[^A-Za-z0-9_.-]", "", name)[:16]
    return name if NAME_RE.match(name) else "host"


class FriendArrived(Message):
    """The friend sat down: the game starts."""


class HostTable:
    """The one table of ``ecarte host`` and who may sit at it."""

    def __init__(self, options: TableOptions, name: str, archive_dir: Path | None,
                 reconnect_timeout: float = 300.0, bot_delay: float = 0.8) -> None:
        self.store = Store(Path(":memory:"))
        self.club = Club(self.store, archive_dir=archive_dir,
                         reconnect_timeout=reconnect_timeout, bot_delay=bot_delay)
        self.identities = Identities(self.store)
        self.local = self.store.register(LOCAL_ID, name)
        self.lt, _ = self.club.create(self.local, options)
        self.join_command = ""
        self.fingerprint = ""  # the SSH host key's, for the friend to check

    def _remote_player(self, info: SessionInfo) -> Player:
        if info.key_fingerprint is None:
            return self.identities.guest()
        return Player(info.key_fingerprint, self.identities.suggest(info.username))

    def seat_for(self, player: Player) -> int | None:
        """Seat B for the friend (and for the friend coming back); None: watch."""
        lt = self.lt
        seat = lt.seat_of(player.id)
        if seat is not None:
            return seat
        friend = lt.seats[1]
        if friend.player_id is None:
            return self.club.sit(lt.code, player)[1]
        if (friend.player_id.startswith(GUEST_ID_PREFIX) and is_guest(player)
                and not friend.sessions):
            # a guest has no key to prove who they are: any guest may take the empty seat
            lt.seats[1] = SeatState(player.id, friend.name)
            return 1
        return None

    def make_app(self, info: SessionInfo) -> EcarteApp:
        """The app for one SSH session: the friend's seat, or a watcher's."""
        player = self._remote_player(info)
        try:
            seat = self.seat_for(player)
        except ClubError:  # the match is over: whoever comes now may look at it
            seat = None
        return FriendApp(self, player, seat)


HOST_HELP = """
## At a hosted table

| key | what it does |
|---|---|
| `w` / `b` | when the other player has not come back in time: take the win, or let a bot play on |
| `R` | resign: the other player wins the match at once, after you confirm |
"""


class FriendApp(EcarteApp):
    """The served app of a session at the host's table (seat B, or watching)."""

    CSS_PATH: ClassVar[list[str | Path]] = CLUB_CSS_PATH
    help_extra = HOST_HELP

    def __init__(self, host: HostTable, player: Player, seat: int | None) -> None:
        super().__init__(settings=Settings(), served=True)
        self.host = host
        self.player = player
        self.club_seat = seat
        self._present = False
        self.farewell: str | None = None  # why the session ended (the host left)

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()
        club, lt = self.host.club, self.host.lt
        try:
            if self.club_seat is None:
                club.watch(lt.code)
            else:
                club.connected(lt, self.club_seat)
        except ClubError:
            self.notify("The game has not started yet: try again in a moment.",
                        severity="warning")
            self.set_timer(3, self.exit)
            return
        self._present = True
        self.table = lt.table
        self.push_screen(ClubTableScreen(club, lt, self.club_seat, self.look))

    async def run_async(self, *args: Any, **kwargs: Any) -> int | None:
        try:
            return await super().run_async(*args, **kwargs)
        finally:
            if self._present:
                club, lt = self.host.club, self.host.lt
                if self.club_seat is None:
                    club.unwatch(lt)
                else:
                    club.disconnected(lt, self.club_seat)
            if is_guest(self.player):
                self.host.identities.release(self.player)


class HostApp(ClaimKeys, EcarteApp):
    """This terminal's app: waits for the friend, then plays seat A of the host's table."""

    CSS_PATH: ClassVar[list[str | Path]] = CLUB_CSS_PATH
    BINDINGS: ClassVar[list[BindingType]] = CLAIM_BINDINGS
    help_extra = HOST_HELP

    def __init__(self, host: HostTable, settings: Settings | None = None) -> None:
        super().__init__(settings=settings, served=False, save=False)
        self.host = host

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not EcarteApp's game against the bot
        lt = self.host.lt
        lt.listeners.append(self._table_changed)
        self.host.club.connected(lt, 0)
        self.push_screen(WaitingScreen(lt, self.host.join_command, HOST_HINT,
                                       "stop hosting and quit", self.host.fingerprint))
        self.notify(f"A friend joins with: {self.host.join_command}", timeout=15)

    def action_quit(self) -> None:
        """Leaving ends the friend's game too, and a game not finished is not kept: asked
        first while one is being played."""
        lt = self.host.lt
        if lt.table is None or lt.finished or lt.table.match.is_over:
            self.exit(0)
            return
        if isinstance(self.screen, AskScreen):
            return  # (asked already: ctrl+q again)
        friend = lt.seats[1].name or "your friend"
        self.push_screen(AskScreen(
            "Stop hosting?",
            f"The game with {friend} ends here, and an unfinished game is not kept.\n"
            "Esc: back to the game.",
            [("stop", "Stop hosting", "y"), ("stay", "Play on", "n")],
        ), lambda answer: self.exit(0) if answer == "stop" else None)

    def _table_changed(self, lt: LiveTable) -> None:
        """Called by the club, possibly from the friend's app: only queue a message."""
        if lt.table is not None and self.table is None:
            self.post_message(FriendArrived())

    def on_friend_arrived(self, _message: FriendArrived) -> None:
        self.show_table(self.host.lt, 0)

    def show_table(self, lt: LiveTable, seat: int) -> None:
        if self.table is not None or lt.table is None:
            return
        self.table, self.seat = lt.table, seat
        friend = lt.seats[1].name or "your friend"
        screen = ClubTableScreen(self.host.club, lt, seat, self.look,
                                 self.settings.auto_announce)
        self.switch_screen(screen)
        self.notify(f"{friend} sat down at your table.")

    def close_open_table(self, _lt: LiveTable) -> None:
        self.exit(0)


async def stop_hosting(server: GameSSHServer) -> None:
    """The host left: every session (the friend's, the watchers') is told why it ends."""
    for session in server.sessions:
        if isinstance(session.app, FriendApp) and session.app.farewell is None:
            session.app.farewell = HOST_LEFT
    await server.aclose()
    # A session's app that ends after the host's puts back the stdout it found, the host
    # app's capture: the host's last lines would go nowhere (net/ssh/served_app.py).
    if sys.__stdout__ is not None and sys.__stderr__ is not None:
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
