"""``ecarte status``: how busy the whole club is, read from its store.

SIGUSR1 makes each worker log its own line; a club of several workers or machines is summed
only where they all write, the store. Each server process says there every few seconds
how many sessions it serves (net/store/serving.py); this command reads those rows and the
club's tables, read-only, and exits 0 when some process is serving (3 when none is, 1 when
the club cannot be read), so that it also serves as a check for monitoring.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from net.commands.store_option import add_store_argument, store_url
from net.store.postgres import PgConnection, first_line, is_url
from net.store.serving import ServingRow, read_serving, row_state

DAY = 86400.0
NOT_SERVING, UNREADABLE = 3, 1  # exit statuses (3: "not running", as an init script says)


class StatusError(Exception):
    """Why the club could not be read, said to the operator as is."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from net.commands.serve import default_data_dir

    p.add_argument("--data-dir", type=Path, default=None,
                   help=f"the server's data directory (default: {default_data_dir()})")
    add_store_argument(p, "the club's PostgreSQL (postgresql://...), as given to ecarte serve")
    p.add_argument("--json", action="store_true",
                   help="one JSON object (for monitoring) instead of lines for a person")


@dataclass(frozen=True, slots=True)
class Process:
    row: ServingRow
    state: str  # "serving", "silent" (not heard from lately) or "stopped" (its pid is gone)


@dataclass(frozen=True, slots=True)
class ClubStatus:
    club: str
    processes: list[Process]
    tables: dict[str, int]  # "playing", "open"
    players: int
    players_seen: int  # in the last 24 hours
    finished: int  # matches finished in the last 24 hours

    @property
    def serving(self) -> list[ServingRow]:
        return [p.row for p in self.processes if p.state == "serving"]


def run(args: argparse.Namespace) -> int:
    from net.commands.serve import default_data_dir

    target: Path | str = store_url(args) or (args.data_dir or default_data_dir()) / "club.db"
    try:
        status = read_status(target, time.time())
    except StatusError as e:
        print(f"ecarte status: {e}", file=sys.stderr)
        return UNREADABLE
    print(json.dumps(as_json(status), indent=2) if args.json else report(status, time.time()))
    return 0 if status.serving else NOT_SERVING


def read_status(target: Path | str, now: float) -> ClubStatus:
    """The club's status from its store, opened read-only; StatusError if it cannot be."""
    db = open_readonly(target)
    try:
        return _read(db, club_name(target), now)
    except Exception as e:  # (the database's errors, whichever driver)
        if "no such table: serving" in str(e) or 'relation "serving"' in str(e):
            raise StatusError(f"{club_name(target)} holds no process's status: its server is "
                              "older than this ecarte (restart it)") from e
        raise StatusError(f"cannot read {club_name(target)}: {first_line(e)}") from e
    finally:
        db.close()


def club_name(target: Path | str) -> str:
    """Where the club is kept, for messages: a file, or a database and its host (never
    the password)."""
    if is_url(target):
        try:
            from psycopg.conninfo import conninfo_to_dict

            params = conninfo_to_dict(str(target))  # (never the password)
        except Exception:  # (psycopg missing, or a URL it cannot read)
            return "the PostgreSQL database"
        return (f"PostgreSQL database {params.get('dbname', '?')} on "
                f"{params.get('host', 'localhost')}")
    return str(target)


def open_readonly(target: Path | str, command: str = "status"
                  ) -> sqlite3.Connection | PgConnection:
    """The club's database, never created or changed by this connection (a file opened
    read-only); StatusError, said as is, when it is not there or not readable."""
    if is_url(target):
        try:
            return PgConnection(str(target))
        except Exception as e:  # (psycopg missing, or the database away)
            raise StatusError(f"cannot reach {club_name(target)}: {first_line(e)}") from e
    path = Path(target)
    if not path.is_file():
        raise StatusError(f"no club in {path.parent} (no {path.name}): has `ecarte serve "
                          f"--data-dir {path.parent}` run? (--store for a PostgreSQL club)")
    if not os.access(path, os.R_OK):
        raise StatusError(f"cannot read {path}: run this as the server's user "
                          f"(sudo -u {_owner(path)} ecarte {command} ...)")
    try:  # read-only: a status never creates or changes the club
        return sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True,
                               timeout=5.0)
    except sqlite3.Error as e:
        raise StatusError(f"cannot open {path}: {first_line(e)}") from e


def _owner(path: Path) -> str:
    try:
        return path.owner()
    except (KeyError, OSError):
        return str(path.stat().st_uid)


# matches finished since a time: plain tables and the rounds of pool tables (each its own
# match), found through the (status, updated) indexes (schema 13), not every finished match
FINISHED_SINCE = (
    "SELECT (SELECT COUNT(*) FROM tables WHERE status = 'finished' AND updated >= ? "
    "AND code NOT IN (SELECT code FROM rounds)) + (SELECT COUNT(*) FROM rounds "
    "WHERE status = 'finished' AND updated >= ?)")


def _read(db: sqlite3.Connection | PgConnection, club: str, now: float) -> ClubStatus:
    processes = [Process(row, row_state(row, now)) for row in read_serving(db)]
    tables = {str(s): int(n) for s, n in db.execute(
        "SELECT status, COUNT(*) FROM tables WHERE status IN ('open', 'playing') "
        "GROUP BY status").fetchall()}
    since = datetime.fromtimestamp(now - DAY, UTC).isoformat(timespec="seconds")
    players, seen = db.execute(
        "SELECT COUNT(*), COUNT(CASE WHEN last_seen >= ? THEN 1 END) FROM players",
        (since,)).fetchone() or (0, 0)
    finished = db.execute(FINISHED_SINCE, (since, since)).fetchone()
    return ClubStatus(club, processes, {"playing": tables.get("playing", 0),
                                        "open": tables.get("open", 0)},
                      int(players or 0), int(seen or 0), int(finished[0] if finished else 0))


# ---------------------------------------------------------------------- printing


def report(status: ClubStatus, now: float) -> str:
    """What the operator reads."""
    lines = [f"Club: {status.club}"]
    serving = status.serving
    versions = {p.row.version for p in status.processes}
    if serving:
        ports = sorted({r.port for r in serving})
        hosts = {r.machine for r in serving}
        lines.append(
            f"Serving: {_count(len(serving), 'process', 'processes')}"
            + (f" on {_count(len(hosts), 'machine')}" if len(hosts) > 1 else "")
            + f", port {', '.join(map(str, ports))}")
    else:
        lines.append("Serving: no process (is `ecarte serve` running with this "
                     + ("store?)" if status.club.startswith("PostgreSQL") else "data directory?)"))
    lines += ["  " + _process_line(p, now, len(versions) > 1)
              for p in status.processes if p.state == "serving"]
    others = [p for p in status.processes if p.state != "serving"]
    if others:
        lines.append(f"Not serving: {_count(len(others), 'process', 'processes')}")
        lines += ["  " + _process_line(p, now, len(versions) > 1) for p in others]
    sessions = sum(r.sessions for r in serving)
    guests = sum(r.guests for r in serving)
    watching = sum(r.watching for r in serving)
    lines.append(
        f"In all: {_count(sessions, 'session')} ({_count(guests, 'guest')}), "
        f"{watching} watching; {_count(status.tables['playing'], 'table')} in play, "
        f"{status.tables['open']} waiting for a player")
    lines.append(
        f"Players: {status.players} registered, {status.players_seen} seen in the last 24 "
        f"hours; {_count(status.finished, 'match', 'matches')} finished in the last 24 hours")
    return "\n".join(lines)


def _process_line(p: Process, now: float, versions: bool) -> str:
    r = p.row
    name = f"{r.node}" + (f" (ecarte {r.version})" if versions else "")
    if p.state == "serving":
        return (f"{name}  since {_when(r.started, now)} ({_ago(now - r.started)}): "
                f"{_count(r.sessions, 'session')} ({_count(r.guests, 'guest')}), "
                f"{r.watching} watching")
    if p.state == "stopped":
        return (f"{name}  stopped without saying so (killed?): last heard "
                f"{_when(r.said, now)}, {_ago(now - r.said)} ago")
    return (f"{name}  not heard from since {_when(r.said, now)} ({_ago(now - r.said)} ago): "
            "stopped, stuck, or cannot reach the club's database")


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _when(t: float, now: float) -> str:
    at, today = datetime.fromtimestamp(t, UTC), datetime.fromtimestamp(now, UTC)
    return at.strftime("%H:%M UTC" if at.date() == today.date() else "%Y-%m-%d %H:%M UTC")


def _ago(seconds: float) -> str:
    s = max(0, int(seconds))
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    if s < 2 * DAY:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400} days"


def as_json(status: ClubStatus) -> dict[str, Any]:
    serving = status.serving
    return {
        "club": status.club,
        "serving": len(serving),
        "sessions": sum(r.sessions for r in serving),
        "guests": sum(r.guests for r in serving),
        "watching": sum(r.watching for r in serving),
        "tables": status.tables,
        "players": {"registered": status.players, "seen_24h": status.players_seen},
        "finished_24h": status.finished,
        "processes": [{**asdict(p.row), "state": p.state} for p in status.processes],
    }
