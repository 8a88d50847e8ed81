"""A whole club server: the store, the club's tables (restored after a restart), the SSH
transport serving one ``ClubApp`` per session, and the club's housekeeping.

``ecarte serve``, the benchmark and the tests all start the server through ``GameServer`` so
they run the very same thing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path

from ecarte_tui.cli import package_version
from net.club import Club, pool_tables
from net.club.house import House
from net.club.identity import Identities, is_guest
from net.club.name_quota import NameQuota
from net.club_sync.node import node_name
from net.club_sync.operator_files import OperatorFiles, machine_name
from net.club_sync.outage import OutageLog
from net.screens.club_app import ClubApp, ClubContext
from net.screens.club_notice import Notice
from net.ssh.blocklist import REFUSED, Blocklist
from net.ssh.game_commands import allow_command
from net.ssh.limits import Limits
from net.ssh.server import GameSSHServer, start_server
from net.ssh.session_info import SessionInfo
from net.ssh.shared_counts import SharedCounts
from net.store.club_store import GalleryStore, Store
from net.store.serving import Serving, ServingRow, machine_id

log = logging.getLogger(__name__)

SWEEP_SECONDS = 5.0
STATUS_SECONDS = 600.0  # how often the INFO log says how busy this process is (if changed)
BLOCKLIST_SECONDS = 2.0  # how often the block list's file is looked at (a stat)


@dataclass
class ServerConfig:
    data_dir: Path
    host: str = "0.0.0.0"
    port: int = 2222
    public_host: str | None = None  # what players type; default: this machine's name
    private: bool = False
    authorized_keys: Path | None = None
    reconnect_timeout: float = 300.0
    lobby_idle_timeout: float | None = 600.0
    abandon_after: float = 3600.0  # a game left this long: the bot's, or closed (Club.sweep)
    max_games_per_player: int = 5  # unfinished tables one player may sit at; 0: no bound
    bot_delay: float = 0.8
    bot_effort: float = 1.0  # the expert's search size at the club's tables (``make_bot``)
    default_bot_level: str = "expert"
    limits: Limits = field(default_factory=Limits)
    seed: int | None = None  # table codes and deals, for tests; None: the OS's generator
    shared: bool = False  # other processes serve the same club from the same store
    reuse_port: bool = False  # workers of one club accept on one port
    proxy_protocol: bool = False  # behind a balancer: each connection says its player's address
    node_name: str | None = None  # this process in the store (default: host:pid)
    store: str | None = None  # a postgresql:// URL; None: SQLite in the data directory
    connection_counts: SharedCounts | None = None  # a supervisor's workers count together
    blocklist: Path | None = None  # who may not come in (default: DATA_DIR/blocklist)
    notice: Path | None = None  # the operator's word to everyone (default: DATA_DIR/notice)

    def store_target(self) -> Path | str:
        return self.store or self.data_dir / "club.db"

    def blocklist_path(self) -> Path:
        return self.blocklist or self.data_dir / "blocklist"

    def notice_path(self) -> Path:
        return self.notice or self.data_dir / "notice"

    def reach_host(self) -> str:
        if self.public_host:
            return self.public_host
        if self.host in ("0.0.0.0", "::", ""):
            return socket.gethostname() or "localhost"
        return self.host


class GameServer:
    """Start with ``await GameServer(config).start()``; stop with ``aclose()``."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store = Store(config.store_target())
        self.serving = Serving(self.store)
        self._elsewhere = 0  # sessions the club's other processes serve (said in the store)
        self._connected = 0  # the club's sessions when its lobbies were last told
        self._renamed, _ = self.store.renames_after(None)  # (earlier ones: in the rows read)
        self.started, self.version = time.time(), package_version()  # (for ``ecarte status``)
        self.club = Club(
            self.store,
            archive_dir=config.data_dir / "archive",
            reconnect_timeout=config.reconnect_timeout,
            bot_delay=config.bot_delay,
            bot_effort=config.bot_effort,
            # no seed: shuffles from the operating system's generator (chips are staked here)
            rng=random.Random(config.seed) if config.seed is not None else None,
        )
        self.house = House(config.store_target(), galleries=GalleryStore(self.store))
        self.club.house = self.house
        self.club.abandon_after = config.abandon_after
        self.club.max_games = config.max_games_per_player
        if config.shared:
            from net.club.table_room import receive_mail
            from net.club_sync.node import ClubNode
            from net.club_sync.sync_store import SyncStore

            self.club.node = ClubNode(self.club, SyncStore(self.store), config.node_name)
            self.club.on_mail = lambda lt, mail: receive_mail(self.club, lt, mail)
            self.house.relay = self.club.relay
        self.identities = Identities(self.store)
        self.blocklist = Blocklist(config.blocklist_path())
        self.blocklist.refresh()
        self._enforced = self.blocklist.version
        self.notice = Notice(config.notice_path(), shared=bool(config.store))
        self.notice.refresh()
        self.operator_files: OperatorFiles | None = None
        if config.store:  # a club that may be on several machines: one list, one notice
            self.operator_files = OperatorFiles(
                self.store, machine_name(config.data_dir), self.blocklist, self.notice)
            self.operator_files.step()
            self._enforced = self.blocklist.version
        self.ssh: GameSSHServer | None = None
        self.broken: list[str] = []
        self._sweeper: asyncio.Task[None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self.ctx: ClubContext | None = None

    async def start(self) -> GameServer:
        """Bring back every unfinished table, then listen."""
        if self.club.node is not None:
            await self.club.node.open()
        self.broken = self.club.restore()
        for code in self.broken:
            log.error("table %s could not be restored: %s", code, self.club.left_out[code][0])
        recovery = self.house.recover(self.club.stored_round)
        if recovery.settled or recovery.voided:
            log.info("after the restart: %d games settled, %d voided",
                     len(recovery.settled), len(recovery.voided))
        self.house.rate_finished(self.club.finished_rounds())
        self.house.live = True
        self.club.start_bots()
        if self.club.node is not None:
            self.club.node.start()
        cfg = self.config
        self.ssh = await start_server(
            self.make_app,
            host=cfg.host,
            port=cfg.port,
            data_dir=cfg.data_dir,
            private=cfg.private,
            authorized_keys=cfg.authorized_keys,
            limits=cfg.limits,
            allow_command=allow_command,
            reuse_port=cfg.reuse_port,
            proxy_protocol=cfg.proxy_protocol,
            counts=cfg.connection_counts,
            blocklist=self.blocklist,
        )
        self.ctx = ClubContext(
            self.club, self.identities, cfg.reach_host(), self.ssh.port,
            cfg.lobby_idle_timeout, cfg.default_bot_level, self.blocklist, self.notice,
            NameQuota(self.store, cfg.limits.max_new_names_per_ip), self.connected,
        )
        self._sweeper = asyncio.create_task(self._sweep(), name="club-sweeper")
        self._keeper = asyncio.create_task(self._watch_files(), name="club-files")
        with contextlib.suppress(Exception):  # (the sweep says it again)
            self.say_serving()
        return self

    @property
    def node_name(self) -> str:
        """This process in the store: its club node's name, or host:pid."""
        return self.club.node.name if self.club.node is not None else node_name()

    @property
    def port(self) -> int:
        assert self.ssh is not None
        return self.ssh.port

    def make_app(self, info: SessionInfo) -> ClubApp:
        assert self.ctx is not None
        return ClubApp(self.ctx, info)

    def join_command(self, command: str | None = None) -> str:
        assert self.ssh is not None
        return self.ssh.join_command(self.config.reach_host(), command)

    async def _watch_files(self) -> None:
        """The operator's files read again when they change: sessions the block list now
        refuses are ended, and a new notice is shown to every session."""
        while True:
            await asyncio.sleep(BLOCKLIST_SECONDS)
            self.blocklist.refresh()
            noticed = self.notice.refresh()
            if self.operator_files is not None:  # (the club's: every machine's files)
                noticed = self.operator_files.step()[1]
            if self.blocklist.version != self._enforced:
                self._enforced = self.blocklist.version
                self.end_refused_sessions()
            if noticed:
                self.tell_notice()

    def tell_notice(self) -> int:
        """Show the notice (or its removal) to every club session; how many."""
        assert self.ssh is not None
        told = 0
        for session in self.ssh.sessions:
            if isinstance(session.app, ClubApp):
                session.app.notice_changed()
                told += 1
        return told

    def end_refused_sessions(self) -> int:
        """End, with a word why, each session the block list refuses; how many."""
        assert self.ssh is not None
        ended = 0
        for session in self.ssh.sessions:
            app, who = session.app, session.identity
            player = app.player if isinstance(app, ClubApp) else None
            if app is None or not self.blocklist.refuses(
                    who.peer_ip, who.key_fingerprint, player.name if player else None):
                continue
            log.info("ending the session of %s from %s: on the block list",
                     player.name if player else who.username, who.peer_ip)
            app.farewell = REFUSED + "\r\n"  # type: ignore[attr-defined]
            session.close()
            ended += 1
        return ended

    async def _sweep(self) -> None:
        outage = OutageLog("the club's sweep", log)
        said, said_at = "", time.monotonic()
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                self.club.sweep()
                self.follow_renames()
                self.say_serving()
                self._count_the_club()
                outage.worked()
            except Exception as e:  # housekeeping must never stop the server
                outage.failed(e)
            if time.monotonic() - said_at >= STATUS_SECONDS:
                said_at = time.monotonic()
                now = self.status()
                if now != said:  # (a quiet club is not logged every ten minutes)
                    said = now
                    log.info("%s", now)

    def follow_renames(self) -> int:
        """The operator's renamings since the last look (``ecarte players --rename``, run
        anywhere): the player's tables here and his sessions say the new name (within a
        sweep); how many sessions were told."""
        assert self.ssh is not None
        self._renamed, players = self.store.renames_after(self._renamed)
        told = 0
        for player in players:
            log.info("the operator renamed %s: now %s", player.id, player.name)
            self.club.renamed(player)
            for session in self.ssh.sessions:
                app = session.app
                if (isinstance(app, ClubApp) and app.player is not None
                        and app.player.id == player.id):
                    app.renamed(player)
                    told += 1
        if players:
            self.club.lobby_changed()  # (the lobbies' headers: who each player is)
        return told

    def _counts(self) -> tuple[int, int, int]:
        """This process's sessions, how many of them are guests', how many watch a table."""
        assert self.ssh is not None
        apps = [s.app for s in self.ssh.sessions if isinstance(s.app, ClubApp)]
        guests = sum(1 for a in apps if a.player is not None and is_guest(a.player))
        return len(apps), guests, sum(lt.watchers for lt in self.club.tables.values())

    def connected(self) -> int:
        """Sessions in the whole club now: this process's, and the others' as they last
        said (within a sweep or two)."""
        return self._counts()[0] + self._elsewhere

    def _count_the_club(self) -> None:
        """Read the other processes' sessions; the lobbies showing an empty list, which
        says who is here, redraw when the club's count changed (the others have nothing
        to redraw)."""
        if self.club.node is not None:  # (alone, this process serves the whole club)
            self._elsewhere = self.serving.elsewhere(self.node_name, time.time())
        now = self.connected()
        if now != self._connected and self.ctx is not None:
            self._connected = now
            for told in list(self.ctx.empty_lobbies):
                told()

    def say_serving(self) -> None:
        """Tell the store how busy this process is (for ``ecarte status``); raised if the
        store cannot be reached."""
        assert self.ssh is not None
        sessions, guests, watching = self._counts()
        self.serving.say(ServingRow(
            self.node_name, socket.gethostname(), machine_id(), os.getpid(), self.ssh.port,
            self.version, self.started, time.time(), sessions, guests, watching))

    def status(self) -> str:
        """How busy this process is, for the operator's log: its sessions (how many are
        guests) and the tables it holds, by state."""
        sessions, guests, watchers = self._counts()
        tables = list(self.club.tables.values())
        playing = sum(1 for lt in tables if lt.table is not None and not lt.finished)
        waiting = sum(1 for lt in tables if lt.table is None)
        return (f"now: {sessions} session{'' if sessions == 1 else 's'} ({guests} "
                f"guest{'' if guests == 1 else 's'}), {playing} table"
                f"{'' if playing == 1 else 's'} in play, {waiting} waiting for a player, "
                f"{watchers} watching")

    async def aclose(self) -> None:
        for task in (self._sweeper, self._keeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        pool_tables.cancel_timers(self.club)  # no round may start on a closed store
        with contextlib.suppress(Exception):  # (else the next start's recovery does it)
            self.club.follow_closings()  # a table closed since the last sweep: chips back
        with contextlib.suppress(Exception):  # (gone from ``ecarte status`` in an hour)
            self.serving.gone(self.node_name)
        if self.club.node is not None:
            await self.club.node.stop()  # its leases go to the other nodes at once
        if self.ssh is not None:
            for session in self.ssh.sessions:  # told why, and whether they may come back
                if isinstance(session.app, ClubApp) and session.app.farewell is None:
                    session.app.farewell = session.app.stopping_farewell()
            await self.ssh.aclose()
        for lt in self.club.tables.values():
            for bot in lt.bots:
                if bot is not None:
                    bot.stop()
        self.house.close()
        self.store.close()

    async def __aenter__(self) -> GameServer:
        return await self.start()

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()
