"""``ecarte serve``: the SSH game server (lobby, tables, bots, watchers) for anyone with ssh.

One process serves the club by default (every session's app, table and bot in one event
loop); ``--workers N`` runs N such processes on the port under a supervisor, and
``--shared``/``--store`` make processes on other ports or machines one club (net/club_sync).
The store keeps every table, so a killed server comes back with every game where it was.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from platformdirs import user_data_dir

from ecarte_tui.commands.arg_types import count, port_number, positive_seconds, seconds
from net.commands.store_option import PASSWORD_SHOWN, add_store_argument, shown_password, store_url
from net.commands.workers import LISTENING

if TYPE_CHECKING:
    from net.game_server import ServerConfig

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def default_data_dir() -> Path:
    return Path(user_data_dir("ecarte", appauthor=False)) / "server"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (0.0.0.0)")
    p.add_argument("--port", type=port_number, default=2222,
                   help="port to listen on (2222; 0: one the system picks)")
    p.add_argument("--data-dir", type=Path, default=None,
                   help=f"host key, database and archive (default: {default_data_dir()})")
    p.add_argument("--public-host", metavar="NAME",
                   help="the name players type in the join command (default: this machine's)")
    p.add_argument("--private", action="store_true",
                   help="only keys listed in --authorized-keys may log in (no guests)")
    p.add_argument("--authorized-keys", type=Path, metavar="FILE",
                   help="authorized_keys file for --private (default: DATA_DIR/authorized_keys)")
    p.add_argument("--reconnect-timeout", type=seconds, default=300.0, metavar="SECONDS",
                   help="how long a dropped player keeps the seat (300)")
    p.add_argument("--max-games-per-player", type=count(0), default=5, metavar="N",
                   help="unfinished games one player (a key, or a guest) may sit at, all "
                        "at once: waiting, playing or away; 0: no bound (5)")
    p.add_argument("--abandon-after", type=positive_seconds, default=3600.0,
                   metavar="SECONDS",
                   help="a game against the bot whose player has been away this long is "
                        "won by the bot; one whose two players both have is closed without "
                        "a result (chips back); either is let go (3600)")
    p.add_argument("--lobby-idle-timeout", type=seconds, default=600.0, metavar="SECONDS",
                   help="disconnect a session idle in the lobby after this long (600)")
    p.add_argument("--idle-timeout", type=seconds, default=1800.0, metavar="SECONDS",
                   help="disconnect a session with no input and no game moving (1800)")
    p.add_argument("--max-connections", type=count(), default=None, metavar="N",
                   help="concurrent connections, all clients together (200)")
    p.add_argument("--max-connections-per-ip", type=count(), default=None, metavar="N",
                   help="concurrent connections from one address (10)")
    p.add_argument("--max-new-names-per-ip", type=count(0), default=None, metavar="N",
                   help="new players (a new key choosing a name) from one address in an hour, "
                        "in the whole club; 0: no bound (5)")
    p.add_argument("--bot-delay", type=seconds, default=0.8, metavar="SECONDS",
                   help="the server's bots wait this long before each move (0.8)")
    p.add_argument("--bot-effort", type=positive_effort, default=1.0, metavar="SCALE",
                   help="the expert's search size at the server's tables: 1 = its full "
                        "strength (about 17 ms of CPU per decision at the median, 150 ms at "
                        "the 99th percentile), 0.33 = a third of the deals for a third of the "
                        "time and a slightly weaker bot (1)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="worker processes accepting on the one port, sharing the club through "
                        "the store, under a supervisor that restarts a worker that dies "
                        f"(default: the number of cores, {default_workers()} here; 1 with --port "
                        "0; 1: this process alone)")
    p.add_argument("--shared", action="store_true",
                   help="this process is one node of a club shared with other processes "
                        "or machines through the same store (set for each worker)")
    add_store_argument(p, "keep the whole club in PostgreSQL (postgresql://...; implies "
                          "--shared: every node with the same URL is the same club), not in "
                          "SQLite in the data directory")
    p.add_argument("--blocklist", type=Path, metavar="FILE",
                   help="who may not come in: addresses, networks, keys (SHA256:... or "
                        "public key lines) and name:NAME, one a line; read again whenever "
                        "it changes, and sessions it refuses are ended (default: "
                        "DATA_DIR/blocklist)")
    p.add_argument("--notice", type=Path, metavar="FILE",
                   help="a word to every player (\"restarting at 22:00 UTC; your game is "
                        "kept\"): shown in the lobby and, when it changes, to every session "
                        "(default: DATA_DIR/notice; an empty or missing file says nothing)")
    p.add_argument("--proxy-protocol", action="store_true",
                   help="behind HAProxy (send-proxy-v2) or another balancer that speaks the "
                        "PROXY protocol: every connection must begin with its header, whose "
                        "address is the player's (for the limits per address, the block list "
                        "and the lockout); only where the balancer alone can reach this port")
    p.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--log-level", default="WARNING", type=str.upper, choices=LOG_LEVELS,
                   help="WARNING (the default): problems only; INFO: logins, tables opened "
                        "and finished, and how busy the process is every ten minutes; "
                        "DEBUG: also every SSH exchange")


CLUB_LIST = "; with every other machine's, the whole club's list"
CLUB_NOTICE = "; the latest written on any machine is the club's"


def status_command(config: ServerConfig, command: str = "status") -> str:
    """How the operator asks the club's store (how busy it is, who its players are); the
    store's URL is not printed: it may hold a password."""
    here = "" if config.data_dir == default_data_dir() else f" --data-dir {config.data_dir}"
    return f"ecarte {command}" + here + (" --store URL" if config.store else "")


def blocklist_note(blocklist: Any, machines: bool = False) -> str:
    """Where the operator writes who is kept out, and how many are; ``machines``: the club
    may be on several machines (PostgreSQL), whose lists are joined."""
    n = len(blocklist.entries)
    if blocklist.path is None or not blocklist.path.exists():
        note = f"{blocklist.path} (none: write addresses, keys or name:NAME there)"
    else:
        note = f"{blocklist.path} ({n} {'entry' if n == 1 else 'entries'}; read again on change)"
    return note + (CLUB_LIST if machines else "")


def notice_note(notice: Any, machines: bool = False) -> str:
    """Where the operator writes his word to everyone, and what it says now."""
    if not notice.text:
        note = f"{notice.path} (none: write there what every player should read)"
    else:
        note = f"{notice.path}: {notice.text!r}"
    return note + (CLUB_NOTICE if machines else "")


def positive_effort(text: str) -> float:
    """``--bot-effort``: a number above 0 (the share of the expert's full search)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value <= 10:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 10, not {text}")
    return value


def config_from(args: argparse.Namespace) -> object:
    from net.game_server import ServerConfig
    from net.ssh.limits import Limits
    from net.ssh.shared_counts import SharedCounts

    changes: dict[str, object] = {"idle_timeout": args.idle_timeout or None}
    if args.max_connections is not None:
        changes["max_connections"] = args.max_connections
    if args.max_connections_per_ip is not None:
        changes["max_connections_per_ip"] = args.max_connections_per_ip
    if args.max_new_names_per_ip is not None:
        changes["max_new_names_per_ip"] = args.max_new_names_per_ip
    limits = dataclasses.replace(Limits(), **changes)  # type: ignore[arg-type]
    return ServerConfig(
        data_dir=(args.data_dir or default_data_dir()).expanduser(),
        host=args.host,
        port=args.port,
        public_host=args.public_host,
        private=args.private,
        authorized_keys=args.authorized_keys,
        reconnect_timeout=args.reconnect_timeout,
        abandon_after=args.abandon_after,
        max_games_per_player=args.max_games_per_player,
        lobby_idle_timeout=args.lobby_idle_timeout or None,
        bot_delay=args.bot_delay,
        bot_effort=args.bot_effort,
        limits=limits,
        shared=args.shared or (args.workers or 1) > 1 or bool(args.store),
        store=args.store,
        reuse_port=args.reuse_port,
        proxy_protocol=args.proxy_protocol,
        # a supervisor's worker: the connection limits count every worker's connections
        connection_counts=SharedCounts.from_env() if args.reuse_port else None,
        blocklist=args.blocklist.expanduser() if args.blocklist else None,
        notice=args.notice.expanduser() if args.notice else None,
    )


async def serve(args: argparse.Namespace) -> int:
    from net.commands.parent_watch import mute_if_orphaned, stop_with_supervisor
    from net.game_server import GameServer, ServerConfig

    if not stop_with_supervisor():
        print("ecarte serve: the worker's supervisor is gone: not starting", file=sys.stderr)
        return 1
    config = config_from(args)
    assert isinstance(config, ServerConfig)
    if config.private:
        keys = config.authorized_keys or config.data_dir / "authorized_keys"
        if not keys.exists():
            print(f"ecarte serve: --private needs an authorized_keys file ({keys})",
                  file=sys.stderr)
            return 2
    from net.ssh.component_style_garbage import free_component_styles_at_once
    from net.ssh.covered_screens import skip_covered_screen_layouts
    from net.ssh.gc_pacing import pace_collections
    from net.ssh.layout_garbage import break_layout_cycles
    from net.ssh.screen_garbage import free_closed_screens_at_once
    from net.ssh.server_tuning import (
        lighten_strips,
        send_changed_cells_only,
        tune_garbage_collector,
    )

    lighten_strips()
    send_changed_cells_only()
    skip_covered_screen_layouts()
    break_layout_cycles()
    free_component_styles_at_once()
    free_closed_screens_at_once()
    try:
        server = GameServer(config)
    except Exception as e:  # a store that cannot be opened: say which and why, nothing else
        where = config.store or config.data_dir / "club.db"
        print(f"ecarte serve: cannot open the club's store {where}: {e}".rstrip(),
              file=sys.stderr)
        return 1
    try:
        await server.start()
    except OSError as e:
        print(f"ecarte serve: cannot listen on {config.host}:{config.port}: {e.strerror or e}",
              file=sys.stderr)
        server.store.close()
        return 1
    assert server.ssh is not None
    tables = len(server.club.tables)
    out = [
        f"{LISTENING} {config.host}:{server.port}",
        f"host key fingerprint: {server.ssh.host_key_fingerprint}",
        f"join with:            {server.join_command()}",
        f"block list:           {blocklist_note(server.blocklist, bool(config.store))}",
        f"notice:               {notice_note(server.notice, bool(config.store))}",
        f"how busy:             `{status_command(config)}` (every process's sessions, "
        "summed)",
        f"players:              `{status_command(config, 'players')}` (who is behind a "
        "name, and his key; --rename NAME NEW)",
        f"tables:               `{status_command(config, 'tables')}` (the unfinished ones "
        "and the chips on them; --close CODE)",
        f"data:                 {config.data_dir} (finished games in archive/: "
        "`ecarte replay FILE`; a backup while it runs: `ecarte backup`)",
    ]
    if tables:
        out.append(f"restored {tables} table{'s' if tables != 1 else ''} from the last run")
    if server.broken:
        out.append(f"could not restore: {', '.join(server.broken)}")
    print("\n".join(out), flush=True)
    tune_garbage_collector()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    pacer = pace_collections(loop)
    if not profile_window(loop):
        status_on_signal(loop, server.status)
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        mute_if_orphaned()  # (its supervisor killed: nobody reads its output any more)
        print("shutting down…", flush=True)
        pacer.stop()
        await server.aclose()
    return 0


STATUS_SIGNAL_GAP = 1.0  # seconds: one SIGUSR1 sent both to a worker and via its supervisor


def status_on_signal(loop: asyncio.AbstractEventLoop, status: Callable[[], str]) -> None:
    """SIGUSR1 prints how busy the process is at once, whatever the log level (the INFO
    log says it only every ten minutes). A second one within a second is the same ask
    (``systemctl kill`` signals the supervisor and its workers alike, and it forwards)."""
    said_at = -STATUS_SIGNAL_GAP

    def say() -> None:
        nonlocal said_at
        if time.monotonic() - said_at >= STATUS_SIGNAL_GAP:
            said_at = time.monotonic()
            print(status(), flush=True)

    with contextlib.suppress(NotImplementedError, AttributeError):
        loop.add_signal_handler(signal.SIGUSR1, say)


def profile_window(loop: asyncio.AbstractEventLoop) -> bool:
    """With ``ECARTE_PROFILE_WINDOW=FILE`` (set by ``ecarte bench ssh --profile``), SIGUSR1
    starts cProfile and SIGUSR2 stops it and writes FILE: the profile of the measured play
    alone, not of the logins and seating around it. Whether it is set."""
    path = os.environ.get("ECARTE_PROFILE_WINDOW")
    if not path:
        return False
    import cProfile

    profiler = cProfile.Profile()

    def stop() -> None:
        profiler.disable()
        profiler.dump_stats(path)

    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGUSR1, profiler.enable)
        loop.add_signal_handler(signal.SIGUSR2, stop)
    return True


def default_workers() -> int:
    """One worker per core the process may use (a served move costs a core's time)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def run(args: argparse.Namespace) -> int:
    if hasattr(signal, "SIGUSR1") and not os.environ.get("ECARTE_PROFILE_WINDOW"):
        # an operator's ask for the status while starting must not end the process
        # (SIGUSR1's default): answered from when the club is up (status_on_signal)
        signal.signal(signal.SIGUSR1, signal.SIG_IGN)
    logging.basicConfig(level=getattr(logging, args.log_level),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.log_level != "DEBUG":  # asyncssh's INFO is ten lines per connection
        logging.getLogger("asyncssh").setLevel(logging.WARNING)
        # and psycopg's pool warns of every try while the database restarts: the store
        # says once that it is down and once that it is back (net/store/postgres.py)
        logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
    if shown_password(args) and not args.reuse_port:  # (said once: not by each worker)
        print(f"ecarte serve: warning: {PASSWORD_SHOWN}", file=sys.stderr)
    args.store = store_url(args)
    if args.workers is None:  # (the workers share one port: a port the system picks is one's)
        args.workers = default_workers() if args.port else 1
    if args.workers < 1:
        print("ecarte serve: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1:
        from net.commands.workers import port_in_use, supervise

        if (why := port_in_use(args.host, args.port)) is not None:
            print(f"ecarte serve: cannot listen on {args.host}:{args.port}: {why}",
                  file=sys.stderr)
            return 1

        data_dir = (args.data_dir or default_data_dir()).expanduser()
        return asyncio.run(supervise(args.workers, data_dir, sys.argv[1:], args.store))
    return asyncio.run(serve(args))
