"""The app every SSH session runs on a club server: name, lobby, tables, watching.

One ``ClubApp`` per session, all in the server's event loop, all sharing the club's tables in
memory. The app never decides a rule (the table does) and never sees a hidden card (its
table screens get one seat's view, or the public view for a watcher).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.binding import BindingType
from textual.notifications import SeverityLevel
from textual.screen import Screen

from ecarte_tui.engine import RulesError
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.settings import Settings, settings_from
from net.club import Club, ClubError, LiveTable, TableOptions
from net.club.identity import Identities, is_guest
from net.club.name_quota import NameQuota
from net.club.play_again import may_ask
from net.club.pool_tables import WAITING_SEAT
from net.club.table_room import leave_room, watcher_view_seat
from net.screens import gallery_share
from net.screens.club_notice import NOTICE_SECONDS, Notice
from net.screens.club_notice import TITLE as NOTICE_TITLE
from net.screens.club_table_screen import CLAIM_BINDINGS, ClaimKeys, ClubTableScreen
from net.screens.lobby_screen import LobbyScreen
from net.screens.name_screen import NameScreen
from net.screens.settlement_news import SettledElsewhere, SettlementNews
from net.screens.store_trouble import (
    FAREWELL_STORE_DOWN,
    STORE_DOWN,
    say_store_down,
    store_guarded,
)
from net.screens.waiting_screen import WaitingScreen
from net.ssh.blocklist import REFUSED, Blocklist
from net.ssh.driver import SSHDriver
from net.ssh.game_commands import parse_command
from net.ssh.host_key import join_command
from net.ssh.served_app import keep_alive
from net.ssh.session_info import SessionInfo
from net.store.club_store import Player, StoreError

log = logging.getLogger(__name__)

LOBBY_STYLES = Path(__file__).parent / "lobby.tcss"
CLUB_CSS_PATH: list[str | Path] = [*EcarteApp.CSS_PATH, LOBBY_STYLES]  # and host_game's apps
CLUB_HELP = """
## At the club

| key | what it does |
|---|---|
| `/` | table talk: say a short line to the table (players and watchers) |
| `m` | players: mute the gallery (watchers' lines), then all talk, then hear all (from now) |
| `g` | back a player, or nobody (watchers); fixed for a game, and on your wager's side |
| `s` | advise the player you back: an action and a short note, seen by him only |
| `v` | your backers (players): show one your hand, or take it back, at once |

Nobody sees your hand unless you show it (`v`). A backer who is shown it talks to you
alone (`/`) until the game ends.
| `$` | wager chips on a game's winner, before its first hand (watchers) |
| `t` | take the loser's seat when it is offered to you (French rule) |
| `w` / `b` | when your opponent has not come back in time: take the win, or let a bot play on |
| `r` | after a match: play again (the other's `r` seats you both at a new table) |
| `R` | resign: your opponent wins the match (a pool's round) at once, after you confirm |
| `q` | back to the lobby (your seat is kept for a while) |

In the lobby: `n` new table, `b` play the bot, `j` join by code, `w` watch, `l` the
leaderboard, `r` your record and finished matches (enter replays one).
"""


@dataclass
class ClubContext:
    """What every session's app shares: the club, the names, how players reach the server."""

    club: Club
    identities: Identities
    public_host: str
    port: int
    lobby_idle_timeout: float | None = 600.0
    default_bot_level: str = "expert"
    blocklist: Blocklist | None = None  # names the operator keeps out
    notice: Notice | None = None  # the operator's word to everyone
    new_names: NameQuota | None = None  # new names per address in an hour
    connected: Callable[[], int] | None = None  # sessions in the whole club now
    # the lobbies showing an empty list, which says who is here: told when that changes
    empty_lobbies: set[Callable[[], None]] = field(default_factory=set)

    def join_command(self, verb: str | None = None, code: str | None = None) -> str:
        command = f"{verb} {code}" if verb and code else None
        return join_command(self.public_host, self.port, command)


class ClubApp(ClaimKeys, EcarteApp):
    """The served app: the lobby first, then a table (as a player or a watcher)."""

    CSS_PATH: ClassVar[list[str | Path]] = CLUB_CSS_PATH
    BINDINGS: ClassVar[list[BindingType]] = CLAIM_BINDINGS
    home_title = "Lobby"
    new_game_title = "New table"
    quit_title = "Lobby"  # q at a table (and on the match-over box) goes back to the lobby
    help_extra = CLUB_HELP

    def __init__(self, ctx: ClubContext, info: SessionInfo) -> None:
        super().__init__(settings=Settings(), served=True)
        self.ctx = ctx
        self.club = ctx.club
        self.info = info
        self.player: Player | None = None
        self._kept = Settings()  # the settings as the club keeps them for this player
        self._presence: tuple[LiveTable, int | None] | None = None
        self._last_options: TableOptions | None = None
        self.last_input = time.monotonic()
        self._idle_timer: asyncio.TimerHandle | None = None
        self._news = SettlementNews(self)
        self.farewell: str | None = None  # why the session ended, if not the player's choice

    # ------------------------------------------------------------------ start and end

    @property
    def can_start_games(self) -> bool:
        """At the end of a match: "New table" and "Lobby" (see ``action_new_game``)."""
        return True

    @property
    def default_bot_level(self) -> str:
        return self.ctx.default_bot_level

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not EcarteApp's local game: the lobby instead
        self._news.start()
        self._arm_lobby_idle()
        try:
            self._identify()
        except sqlite3.OperationalError as e:  # who he is cannot be known: come back later
            log.warning("a session ended at login: %s", e)
            self.farewell = FAREWELL_STORE_DOWN
            self.exit(1)

    def notice_changed(self) -> None:
        """The operator's notice changed: shown at once wherever this session is (a player
        at a table would not see the lobby's line before the restart it announces)."""
        notice = self.ctx.notice
        if notice is None or not self.is_running:
            return
        if notice.text:
            self.notify(notice.text, title=NOTICE_TITLE, timeout=NOTICE_SECONDS, markup=False)
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.show_notice()

    def renamed(self, player: Player) -> None:
        """The operator gave this player another name (``ecarte players --rename``): it is
        his from now on, and he is told so wherever he is."""
        self.player = player
        self._lobby_header_changed()
        if self.is_running:
            self.notify(f"The club's operator renamed you: you are {player.name} now.",
                        title="Your name", timeout=NOTICE_SECONDS, markup=False)

    def stopping_farewell(self) -> str:
        """The session's last words when the server stops (a restart, an upgrade): a player
        with a key is back at his seat by connecting again; a guest's place is not kept."""
        stop = "This club's server is stopping (a restart or an upgrade)."
        again = self.ctx.join_command()
        guest = (self.info.key_fingerprint is None if self.player is None
                 else is_guest(self.player))
        if guest:
            return (f"\r\n{stop} A guest's place cannot be kept: connect with an SSH key and "
                    f"your games will be ({again}).\r\n")
        return (f"\r\n{stop} Your games are kept: connect again with the same key, {again}, "
                f"and you are back at your seat.\r\n")

    def store_unreachable(self, error: Exception) -> None:
        """The database is away (the store logs it once per outage): the player is told."""
        log.debug("a session's step failed: %s", error)
        say_store_down(self)

    async def run_action(self, action: str | Any, default_namespace: Any = None) -> bool:
        """Every key's action: a store away fails it with a message, not the session."""
        try:
            return await super().run_action(action, default_namespace)
        except sqlite3.OperationalError as e:
            self.store_unreachable(e)
            return True

    def _identify(self) -> None:
        fingerprint = self.info.key_fingerprint
        if fingerprint is None:
            self.player = self.ctx.identities.guest()
            self._enter()
            return
        player = self.ctx.identities.known(fingerprint)
        if player is not None and self._name_refused(player.name):
            log.info("%s (%s) is on the block list by name", player.name, fingerprint)
            self.farewell = REFUSED + "\r\n"
            self.exit(1)
            return
        if player is not None:
            self.player = player
            self._enter()
            return
        suggestion = self.ctx.identities.suggest(self.info.username)
        self.push_screen(NameScreen(suggestion, self._register_name), self._named)

    @store_guarded(failed=STORE_DOWN)  # (said on the name screen: no name was taken)
    def _register_name(self, name: str) -> str | None:
        assert self.info.key_fingerprint is not None
        if self._name_refused(name):
            return "That name may not be used at this club: choose another."
        quota, address = self.ctx.new_names, self.info.peer_ip
        taken = 0.0
        if quota is not None and (counted := quota.take(address)) is not None:
            taken = counted
        elif quota is not None:
            return (f"{quota.limit} new players came from your address in the last hour, the "
                    "most this club allows: come back later with this key, or play now as a "
                    "guest (connect without a key)")
        try:
            self.player = self.ctx.identities.register(self.info.key_fingerprint, name)
        except BaseException as e:  # (a name taken, or the store away: not counted after all)
            if quota is not None:
                quota.give_back(address, taken)
            if isinstance(e, StoreError):
                return str(e)
            raise
        return None

    def _name_refused(self, name: str) -> bool:
        blocklist = self.ctx.blocklist
        return blocklist is not None and blocklist.name(name)

    def _named(self, _name: str | None) -> None:
        self._enter()

    async def run_async(self, *args: Any, **kwargs: Any) -> int | None:
        """However the session ends (quit, dropped connection, shutdown), leave the table."""
        try:
            return await super().run_async(*args, **kwargs)
        finally:
            if self._idle_timer is not None:
                self._idle_timer.cancel()
                self._idle_timer = None
            self._news.stop()
            gallery_share.leave(self, screen_closing=True)
            try:
                self._leave()
            except sqlite3.OperationalError as e:  # (his presence is written again later)
                log.warning("a session left with the store away: %s", e)
            if self.player is not None and is_guest(self.player):
                self._guest_gone(self.player)
                self.ctx.identities.release(self.player)

    def _guest_gone(self, player: Player) -> None:
        """A guest cannot come back (his next session is another guest): his open table
        closes and his opponents need not wait for him."""
        try:
            for lt, seat in self.club.seats_of(player.id):
                self.club.gone_for_good(lt, seat)
        except (ClubError, sqlite3.OperationalError) as e:
            log.warning("a guest's tables were not let go: %s", e)

    def _enter(self) -> None:
        """After the name: a direct ``join``/``watch``, a game to go back to, or the lobby
        (the lobby, with a message, while the store is away)."""
        try:
            self._own_settings()
            self._enter_club()
        except sqlite3.OperationalError as e:
            self.store_unreachable(e)
            self._go(LobbyScreen())

    def _own_settings(self) -> None:
        """The settings this player kept at his last change (theme, cards, the king): a
        key's, not a guest's."""
        player = self.player
        if player is None or is_guest(player):
            return
        try:
            kept = self.club.store.settings_of(player.id)
        except sqlite3.OperationalError as e:  # (the defaults: not worth keeping him out)
            log.warning("settings of %s not read: %s", player.name, e)
            return
        if kept is not None:
            self._kept = settings_from(kept)
            self.apply_settings(self._kept)

    def keep_settings(self, settings: Settings) -> None:
        """Changed settings are kept with the player's key (a guest's for the session)."""
        player = self.player
        if player is None or is_guest(player) or settings == self._kept:
            return
        try:
            self.club.store.keep_settings(player.id, asdict(settings))
        except sqlite3.OperationalError as e:
            log.warning("settings of %s not kept: %s", player.name, e)
            self.notify("The club cannot reach its records: your settings are kept for this "
                        "session only.", severity="warning", markup=False)
            return
        self._kept = settings

    def apply_settings(self, settings: Settings) -> None:
        super().apply_settings(settings)
        self._pace_bots()

    def _pace_bots(self) -> None:
        """The bot speed of the settings sets the pace of the bots at this player's table:
        "normal" is the club's (``--bot-delay``), the others his own."""
        if self._presence is None:
            return
        lt, seat = self._presence
        if seat is None or seat >= 2:  # (a watcher, or a pool's third player, waiting)
            return
        speed = self.settings.bot_speed
        self.club.pace_bots(lt, None if speed == "normal" else self.settings.bot_delay)

    @property
    def settings_note(self) -> str:
        if self.player is None or is_guest(self.player):
            return "Kept for this session (a guest's; with an SSH key, for your next visits)."
        return "Kept with your key for your next visits."

    def _enter_club(self) -> None:
        player = self.player
        assert player is not None
        command = parse_command(self.info.command)
        if command is not None:
            if self.open_table(command.code, watch=command.verb == "watch"):
                return
        else:
            mine = self.club.seats_of(player.id)
            if mine:
                away = [m for m in mine if self.club.reconnect_left(*m) is not None]
                lt, seat = (away or mine)[0]
                self.notify(f"Welcome back, {player.name}: your game at table {lt.code}.")
                self.show_table(lt, seat)
                return
            for code in self.club.left_out_of(player.id):
                self.notify(f"Your game at table {code} could not be brought back when the "
                            "server started again; its record is kept for the operator.",
                            severity="warning", timeout=20)
        self._go(LobbyScreen())

    def at_table_code(self) -> str | None:
        """The code of the table this session sits at or watches, if any."""
        return self._presence[0].code if self._presence is not None else None

    def on_settled_elsewhere(self, message: SettledElsewhere) -> None:
        for line in self._news.lines(message):
            self.notify(line, title="Chips", timeout=12)
        self._lobby_header_changed()

    def _lobby_header_changed(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.who_changed()

    def who_text(self) -> str:
        player = self.player
        if player is None:
            return ""
        try:
            return self._who_text(player)
        except sqlite3.OperationalError:  # (the store away: his record is shown later)
            return f"You are {player.name}"

    def _who_text(self, player: Player) -> str:
        if is_guest(player):
            # said here, not in a toast: at 80×24 a toast covers the lobby's keys
            return (f"You are {player.name}, a guest: connect with an SSH key "
                    "to keep a name and a record")
        played, won = self.club.store.record_for(player.id)
        record = f"{played} match{'es' if played != 1 else ''} played, {won} won"
        house = self.club.house
        if house is not None:
            record = f"rating {round(house.ratings.rating(player.id))} · {record}"
        return f"You are {player.name} · {record}"

    # ------------------------------------------------------------------ moving around

    def _go(self, screen: Screen[Any]) -> None:
        """Make ``screen`` the only one (the lobby, a table): one heavy screen per session."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)

    @store_guarded(failed=False)
    def open_table(self, code: str, watch: bool = False) -> bool:
        """Sit down at a table (one's own seat, or a free one), else watch it.

        False (and a notification saying why) when there is nothing to sit at or watch.
        """
        player = self.player
        assert player is not None
        try:
            lt = self.club.find(code)
            seat = lt.seat_of(player.id)
            free = any(s.player_id is None for s in lt.seats)
            if seat is None and free and not watch and not lt.finished:
                lt, seat = self.club.sit(code, player)
            if seat is not None:
                self.show_table(lt, seat)
                return True
            if lt.table is None:
                raise ClubError(f"the game at table {lt.code} has not started yet")
            if not watch:
                self.notify(f"Table {lt.code} is full: you are watching.")
            self._watch(lt)
            return True
        except ClubError as e:
            self.notify(str(e)[0].upper() + str(e)[1:], severity="error")
            return False

    def _watch(self, lt: LiveTable) -> None:
        if self._presence != (lt, None):
            self._leave()
            self.club.watch(lt.code)
            self._presence = (lt, None)
        self.table, self.seat = lt.table, 0
        backs = watcher_view_seat(self.club, lt, self.player.id) if self.player else None
        self._go(ClubTableScreen(self.club, lt, None, self.look, False, view_seat=backs))

    def show_table(self, lt: LiveTable, seat: int) -> None:
        """The table at ``seat``: waiting for an opponent, or the game."""
        if self._presence != (lt, seat):
            self._leave()
            self.club.connected(lt, seat)
            self._presence = (lt, seat)
            self._pace_bots()
        keep_alive(self)  # sitting down (or waiting for an opponent) counts as activity
        self._last_options = lt.options
        if lt.table is None:
            self._go(WaitingScreen(lt, self.ctx.join_command("join", lt.code)))
            return
        if seat == WAITING_SEAT:  # a pool's third player watches the public table
            self.table, self.seat = lt.table, 0
            self._go(ClubTableScreen(self.club, lt, None, self.look, False))
            return
        self.table, self.seat = lt.table, seat
        self._go(ClubTableScreen(self.club, lt, seat, self.look, self.settings.auto_announce))

    @store_guarded()
    def follow_round(self, lt: LiveTable) -> None:
        """A new round began (pool, French rule): sit where the rotation put this player,
        or watch. His ``SeatState`` moved with him, so only the index is updated here."""
        player = self.player
        if player is None:
            return
        seat = lt.seat_of(player.id)
        if self._presence is not None and self._presence[0] is lt:
            if seat is not None:
                self._presence = (lt, seat)
            elif self._presence[1] is not None:
                self._presence = None  # his seat went to his adviser (French rule)
                self._arm_lobby_idle()
        if seat is not None:
            self.show_table(lt, seat)
        elif lt.table is not None:
            self._watch(lt)

    @store_guarded()
    def create_table(self, options: TableOptions) -> None:
        player = self.player
        assert player is not None
        try:
            lt, seat = self.club.create(player, options)
        except (ClubError, RulesError) as e:
            self.notify(str(e), severity="error")
            return
        self.show_table(lt, seat)

    @store_guarded()
    def close_open_table(self, lt: LiveTable) -> None:
        """The creator gives up waiting: the table closes (unless someone just sat down)."""
        if lt.table is not None:
            self.show_table(lt, 0)
            return
        self._presence = None
        try:
            self.club.cancel(lt)
        except ClubError:
            pass
        self.to_lobby()

    def to_lobby(self, offer: TableOptions | None = None) -> None:
        if self.player is None:  # (no lobby before a name: every step in it needs one)
            return
        left = self._presence
        try:
            self._leave()
        except sqlite3.OperationalError as e:  # he leaves all the same (presence: see node)
            self.store_unreachable(e)
        self._arm_lobby_idle()
        self.table = None
        if left is not None and left[1] is not None and not left[0].finished:
            lt = left[0]
            if lt.table is not None:
                minutes = self.club.reconnect_timeout / 60
                self.notify(f"Your seat at table {lt.code} is kept for {minutes:g} minutes: "
                            "choose the table in the lobby to go back.", timeout=6)
        self._go(LobbyScreen(offer))

    def _leave(self) -> None:
        presence, self._presence = self._presence, None
        if presence is None:
            return
        lt, seat = presence
        if lt.finished and self.player is not None:
            self.club.withdraw_rematch(lt, self.player)  # an unanswered "play again" lapses
        leave_room(self.club, lt, self)  # out of the table's talk and gallery
        if seat is not None and lt.rounds is not None and self.player is not None:
            seat = lt.seat_of(self.player.id)  # the pool's rotation may have moved him
            if seat is None:
                return  # his seat went to his adviser (French rule)
        if seat is None:
            self.club.unwatch(lt)
        else:
            self.club.disconnected(lt, seat)

    # ------------------------------------------------------------------ actions

    def action_quit(self) -> None:  # type: ignore[override]
        """``q`` at a table goes back to the lobby; in the lobby it ends the session, and
        before a name is chosen too (ctrl+q, as the name screen says: the app's binding
        comes before the screen's)."""
        if self.player is None:
            self.exit(0)
        elif self._presence is not None or not isinstance(self.screen, LobbyScreen):
            self.to_lobby()
        else:
            self.exit(0)

    def action_exit_club(self) -> None:
        self.exit(0)

    def action_home(self) -> None:
        self.to_lobby()

    def action_new_game(self) -> None:
        """After a match: back to the lobby with a new table of the same kind on offer."""
        self.to_lobby(offer=self._last_options)

    @property
    def offers_rematch(self) -> bool:
        """At the end of a match at a two-player table: "Play again" (``action_rematch``)."""
        presence = self._presence
        return presence is not None and may_ask(*presence)

    def action_rematch(self) -> None:
        """Ask to play again, or say yes to the other player's asking: a new match at once."""
        presence, player = self._presence, self.player
        if presence is None or player is None:
            return
        try:
            seat = self.club.rematch(presence[0], player)
        except (ClubError, RulesError) as e:
            self.notify(str(e)[0].upper() + str(e)[1:], severity="warning")
            return
        if seat is not None:
            self.show_table(*seat)

    @store_guarded()
    def follow_rematch(self, code: str) -> None:
        """The other player said yes to this player's "play again": to the new table."""
        player = self.player
        if player is None or self.at_table_code() == code:
            return
        try:
            lt = self.club.find(code)
        except ClubError:
            return
        seat = lt.seat_of(player.id)
        if seat is not None:
            self.show_table(lt, seat)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A toast is this session's own: it stops sharing a rendering first."""
        gallery_share.leave(self)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        if self.is_running:
            gallery_share.hold(self)  # not back in a group before the toast is up

    # ------------------------------------------------------------------ idle time

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self.last_input = time.monotonic()
        await super().on_event(event)

    def note_table_activity(self) -> None:
        """The game moved: a player waiting for the opponent, or a watcher, is not idle.

        It moves the session's idle deadline at once (a float set, no timer), so nothing
        has to poll the table to keep a watcher connected."""
        keep_alive(self)

    def _arm_lobby_idle(self) -> None:
        """Set the lobby's idle check for the moment its limit would fall, unless it is set.

        One one-shot timer rather than a poll, so an idle session has no timer ticking: input
        only moves ``last_input``, and the check that finds it moved sets itself again for
        the time left. Armed on mount and whenever the session leaves a table.

        A loop timer in an empty context, not a Textual timer: asyncio keeps a cancelled
        timer, with its context (Textual's active_app), until it was due, minutes after the
        session ended. The check needs no context: ``cut_off`` only posts the app's exit."""
        limit = self.ctx.lobby_idle_timeout
        if limit is None or self._idle_timer is not None or self._exit or not self.is_running:
            return
        left = max(0.0, self.last_input + limit - time.monotonic())
        self._idle_timer = asyncio.get_running_loop().call_later(
            left, self._idle_check, context=contextvars.Context())

    def _idle_check(self) -> None:
        """The lobby's own idle limit (also on the name screen: anywhere but at a table).

        At a table it lapses: the session's own idle timeout applies there, and the game
        moving counts as activity (``note_table_activity``); going back re-arms it."""
        self._idle_timer = None
        limit = self.ctx.lobby_idle_timeout
        if limit is None or self._presence is not None or self._exit:
            return
        if time.monotonic() - self.last_input >= limit:
            driver = self._driver
            if isinstance(driver, SSHDriver):
                driver.terminal.cut_off("idle timeout", abort=False)
            return
        self._arm_lobby_idle()
