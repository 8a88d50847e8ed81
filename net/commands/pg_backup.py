"""A club kept in PostgreSQL, in and out of an ``ecarte backup`` archive, by PostgreSQL's
own tools: ``pg_dump`` takes one consistent snapshot while the nodes write, ``pg_restore``
puts it back in one transaction.

The URL's password never goes on a command line (``ps`` shows those to every local user):
it is handed to the tools in their environment.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from net.commands.backup_words import BackupError, counted
from net.commands.status import StatusError, club_name, read_status
from net.store.postgres import first_line

PG_DUMP_FILE = "club.pgdump"  # the database in the archive (pg_dump's custom format)
TOOL_TIMEOUT = 600.0  # seconds a dump or a restore may take before it is given up


def dump(url: str, target: Path) -> str:
    """Write the club's database to ``target``; what it holds, in a line."""
    tables, players = club_counts(url)
    _pg_dump(url, target)
    return (f"{PG_DUMP_FILE}: {counted(tables, players)} (pg_dump of {club_name(url)}, one "
            "consistent snapshot taken while the nodes may be writing)")


def _pg_dump(url: str, target: Path) -> None:
    _run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--file",
                     str(target)], url)


def check_dump(path: Path) -> None:
    """BackupError unless ``path`` is a dump of a club's database (before anything is
    changed)."""
    listing = _run("pg_restore", ["--list", str(path)], None)
    # "222; 1259 16435 TABLE public players postgres" (not "... TABLE DATA public ...")
    entries = [line.split() for line in listing.splitlines() if not line.startswith(";")]
    names = {e[5] for e in entries if len(e) > 5 and e[3] == "TABLE" and e[4] != "DATA"}
    if not {"tables", "players"} <= names:
        raise BackupError(f"its {PG_DUMP_FILE} is not a club's database")


def restore(url: str, path: Path, aside: Path) -> list[str]:
    """Replace the club's database by the dump at ``path``, in one transaction, the
    database as it was dumped first into ``aside``; what was done, in lines."""
    refuse_if_serving(url)
    said = []
    try:
        club_counts(url)
    except BackupError:
        pass  # an empty database (a new one, or one whose club was lost): nothing to keep
    else:
        aside.parent.mkdir(parents=True, exist_ok=True, mode=0o700)  # (the data directory)
        aside.mkdir(exist_ok=True, mode=0o700)
        _pg_dump(url, aside / PG_DUMP_FILE)
        (aside / PG_DUMP_FILE).chmod(0o600)  # (every hidden card of the games in play)
        said.append(PG_DUMP_FILE)
    _run("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges",
                        "--single-transaction", "--exit-on-error", str(path)], url)
    return said


def refuse_if_serving(url: str) -> None:
    """A node writing while the database is replaced would write into the old club."""
    try:
        serving = read_status(url, time.time()).serving
    except StatusError:
        return  # (no club there yet, or one whose nodes predate the status: said by none)
    if serving:
        nodes = ", ".join(r.node for r in serving)
        raise BackupError(f"{len(serving)} process{'' if len(serving) == 1 else 'es'} serve "
                          f"this club ({nodes}; `ecarte status --store URL`): stop every "
                          "node first (nothing was changed)")


def club_counts(url: str) -> tuple[int, int]:
    """(tables, players) in the club's database; BackupError if it cannot be read."""
    from net.store.postgres import PgConnection

    try:
        db = PgConnection(url)
    except Exception as e:
        raise BackupError(f"cannot reach {club_name(url)}: {first_line(e)}") from e
    try:
        tables = db.execute("SELECT count(*) FROM tables").fetchone()
        players = db.execute("SELECT count(*) FROM players").fetchone()
    except Exception as e:
        raise BackupError(f"{club_name(url)} holds no club: {first_line(e)}") from e
    finally:
        db.close()
    assert tables is not None and players is not None
    return int(tables[0]), int(players[0])


def _run(tool: str, args: list[str], url: str | None) -> str:
    """Run one of PostgreSQL's tools; its output, or BackupError with its first complaint."""
    path = shutil.which(tool)
    if path is None:
        raise BackupError(f"{tool} not found: install PostgreSQL's client tools "
                          "(Debian: apt install postgresql-client)")
    env = dict(os.environ)
    if url is not None:
        from psycopg.conninfo import conninfo_to_dict, make_conninfo

        params = conninfo_to_dict(url)
        password = params.pop("password", None)
        if password is not None:
            env["PGPASSWORD"] = str(password)
        env.setdefault("PGCONNECT_TIMEOUT", "10")
        args = [*args, "--dbname", make_conninfo(**params)]
    try:
        done = subprocess.run([path, *args], capture_output=True, text=True, env=env,
                              timeout=TOOL_TIMEOUT, check=False)
    except subprocess.TimeoutExpired as e:
        raise BackupError(f"{tool} did not finish in {TOOL_TIMEOUT:.0f} s") from e
    if done.returncode != 0:
        complaint = next((line for line in done.stderr.splitlines() if line.strip()),
                         f"exit status {done.returncode}")
        raise BackupError(f"{tool} failed: {complaint.removeprefix(f'{tool}: ')}")
    return done.stdout
