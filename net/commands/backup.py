"""``ecarte backup``: a club's data directory in one archive, taken while the server runs.

Copying ``club.db`` by hand while the server writes can catch it half written (SQLite in WAL
mode keeps recent pages in a second file); SQLite's online backup copies one consistent
state. The host key goes with it: a club restored without it is a new server to every
player's ssh ("REMOTE HOST IDENTIFICATION HAS CHANGED"). Paths in the archive are relative
to the data directory; ``ecarte restore`` puts them back (net/commands/restore.py).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sqlite3
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ecarte_tui.commands.arg_types import count
from net.commands.backup_words import BackupError, counted
from net.commands.store_option import add_store_argument, store_url
from net.ssh.host_key import HOST_KEY_FILENAME, fingerprint_of

PREFIX, SUFFIX = "ecarte-backup-", ".tar.gz"  # what a backup is named in a directory
BACKUP_NAME = re.compile(rf"{PREFIX}\d{{8}}-\d{{6}}{re.escape(SUFFIX)}")
DATABASE = "club.db"
OPERATOR_FILES = ("blocklist", "notice", "authorized_keys")  # what an operator wrote there
ARCHIVE_DIR = "archive"  # finished games as ECN


def add_arguments(p: argparse.ArgumentParser) -> None:
    from net.commands.serve import default_data_dir

    p.add_argument("file", nargs="?", metavar="FILE",
                   help="the archive to write, never overwritten; a directory (or a name "
                        "ending in /) gets ecarte-backup-DATE-TIME.tar.gz (default: here)")
    p.add_argument("--data-dir", type=Path, default=None,
                   help=f"the server's data directory (default: {default_data_dir()})")
    add_store_argument(p, "the club's PostgreSQL (postgresql://...), as given to ecarte "
                          "serve: its database goes in the archive too (by pg_dump)")
    p.add_argument("--keep", type=count(), metavar="N",
                   help="with a directory: then delete all but its N newest backups (a daily "
                        "timer's, net/deploy/ecarte-backup.timer)")


def run(args: argparse.Namespace) -> int:
    from net.commands.serve import default_data_dir

    data_dir = args.data_dir or default_data_dir()
    named = Path(args.file) if args.file else None  # (Path drops a trailing "/")
    into = named is None or args.file.endswith("/") or named.is_dir()
    if args.keep is not None and not into:
        print("ecarte backup: --keep needs a directory to keep the backups in",
              file=sys.stderr)
        return 2

    def backup() -> list[str]:
        if into:
            folder = named or Path(".")
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            target = folder / time.strftime(f"{PREFIX}%Y%m%d-%H%M%S{SUFFIX}")
        else:
            assert named is not None
            folder, target = named.parent, named
        summary = write_backup(data_dir, target, store_url(args))
        if args.keep is not None:
            summary += [f"deleted {p} (older than the {args.keep} newest)"
                        for p in prune(folder, args.keep)]
        return summary

    return report("backup", backup)


def report(command: str, work: Callable[[], list[str]]) -> int:
    """Run ``work`` and print what it did; a refusal (or a file that cannot be written)
    is one line on stderr and exit status 1."""
    try:
        lines = work()
    except BackupError as e:
        print(f"ecarte {command}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"ecarte {command}: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest backups this command named in ``folder`` (its names
    sort by their time); nothing else there is touched. The deleted, oldest first."""
    ours = sorted(p for p in folder.glob(f"{PREFIX}*{SUFFIX}")
                  if BACKUP_NAME.fullmatch(p.name) and p.is_file())
    old = ours[:-keep]
    for path in old:
        path.unlink()
    return old


def write_backup(data_dir: Path, target: Path, store: str | None = None) -> list[str]:
    """Write the archive (0600: it holds the host's private key); what it holds, in lines.
    ``store``: the club's PostgreSQL URL, whose database is taken instead of ``club.db``."""
    if not data_dir.is_dir():
        raise BackupError(f"no data directory at {data_dir} (--data-dir names the server's)")
    if target.exists():
        raise BackupError(f"{target} exists: name another file (a backup is never overwritten)")
    if not target.parent.is_dir():
        raise BackupError(f"no directory {target.parent} to write {target.name} in")
    said: list[str] = []
    partial = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as raw:
            with tarfile.open(fileobj=raw, mode="w:gz") as tar:
                said += _add_pg_dump(tar, store) if store else _add_database(tar, data_dir)
                said += _add_files(tar, data_dir)
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(partial, target)
    except OSError as e:
        raise BackupError(f"{target} not written: {e.strerror or e}") from e
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    size = target.stat().st_size
    how = f"ecarte restore {target} --data-dir {data_dir}" + (" --store URL" if store else "")
    return [f"wrote {target} ({_size(size)}, readable by you only: it holds the host key)",
            *(f"  {line}" for line in said),
            f"to restore: stop the server{'s' if store else ''}, then  {how}"]


def _add_pg_dump(tar: tarfile.TarFile, url: str) -> list[str]:
    from net.commands import pg_backup

    with tempfile.TemporaryDirectory(prefix="ecarte-backup-") as tmp:
        dumped = Path(tmp) / pg_backup.PG_DUMP_FILE
        said = pg_backup.dump(url, dumped)
        tar.add(dumped, arcname=pg_backup.PG_DUMP_FILE, filter=_private)
    return [said]


def _add_database(tar: tarfile.TarFile, data_dir: Path) -> list[str]:
    source = data_dir / DATABASE
    if not source.exists():
        return [f"{DATABASE}: none in {data_dir} (a club kept in PostgreSQL: give --store "
                "URL to take its database)"]
    with _consistent_copy(source) as copy:
        tables, players = club_counts(copy)
        tar.add(copy, arcname=DATABASE, filter=_private)
    return [f"{DATABASE}: {counted(tables, players)} (one consistent state, taken "
            "while the server may be writing)"]


@contextlib.contextmanager
def _consistent_copy(source: Path) -> Iterator[Path]:
    """SQLite's online backup of ``source`` into a private temporary file."""
    with tempfile.TemporaryDirectory(prefix="ecarte-backup-") as tmp:
        copy = Path(tmp) / DATABASE
        try:
            src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
            try:
                dst = sqlite3.connect(copy)
                try:
                    src.backup(dst)
                finally:
                    dst.close()
            finally:
                src.close()
        except sqlite3.DatabaseError as e:
            raise BackupError(f"{source} could not be read: {e}") from e
        yield copy


def club_counts(db: Path) -> tuple[int, int]:
    """(tables, players) in a club's SQLite database; BackupError if it is not one."""
    conn = sqlite3.connect(db)
    try:
        tables = conn.execute("SELECT count(*) FROM tables").fetchone()[0]
        players = conn.execute("SELECT count(*) FROM players").fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise BackupError(f"{DATABASE} is not a club's database: {e}") from e
    finally:
        conn.close()
    return int(tables), int(players)


def _add_files(tar: tarfile.TarFile, data_dir: Path) -> list[str]:
    said = []
    key = data_dir / HOST_KEY_FILENAME
    if key.exists():
        tar.add(key, arcname=HOST_KEY_FILENAME, filter=_private)
        said.append(f"{HOST_KEY_FILENAME}: the host key, "
                    f"{fingerprint_of(key.read_bytes())} (what players' ssh trusts)")
    else:
        said.append(f"{HOST_KEY_FILENAME}: none yet (made at the server's first start)")
    kept = [name for name in OPERATOR_FILES if (data_dir / name).is_file()]
    for name in kept:
        tar.add(data_dir / name, arcname=name, filter=_private)
    if kept:
        said.append(", ".join(kept))
    games = sorted((data_dir / ARCHIVE_DIR).glob("*.ecn"))
    for path in games:
        tar.add(path, arcname=f"{ARCHIVE_DIR}/{path.name}", filter=_private)
    said.append(f"{ARCHIVE_DIR}/: {len(games)} finished {'game' if len(games) == 1 else 'games'}")
    return said


def _private(info: tarfile.TarInfo) -> tarfile.TarInfo:
    """Every member 0600 (the database holds every hidden card of the games in play)."""
    info.mode = 0o600
    return info


def _size(n: int) -> str:
    if n < 1000:
        return f"{n} bytes"
    return f"{n / 1000:.1f} kB" if n < 1_000_000 else f"{n / 1_000_000:.1f} MB"
