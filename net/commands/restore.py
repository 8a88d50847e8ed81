"""``ecarte restore``: put an ``ecarte backup`` archive back into a data directory.

Unpacking by hand can go wrong in ways that lose a club: a ``club.db-wal`` left by the
replaced database is applied to the restored one, a server still running keeps writing to
the file it has open, files unpacked by root are no longer the service's. This command
refuses while a server uses the database, takes only the files a backup holds (no path
leaves the directory), keeps everything it replaces in ``before-restore-DATE-TIME/``,
and gives the files the data directory's owner.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sqlite3
import tarfile
import tempfile
import time
from pathlib import Path

import asyncssh

from net.commands.backup import (
    ARCHIVE_DIR,
    DATABASE,
    OPERATOR_FILES,
    BackupError,
    club_counts,
    counted,
    report,
)
from net.commands.pg_backup import PG_DUMP_FILE
from net.commands.status import club_name
from net.commands.store_option import add_store_argument, store_url
from net.ssh.host_key import HOST_KEY_FILENAME, fingerprint_of
from net.ssh.private_file import write_private

TOP_FILES = frozenset((DATABASE, PG_DUMP_FILE, HOST_KEY_FILENAME, *OPERATOR_FILES))
RECORD_NAME = re.compile(rf"{ARCHIVE_DIR}/[A-Za-z0-9][A-Za-z0-9._-]*\.ecn")
SQLITE_SIDE_FILES = (f"{DATABASE}-wal", f"{DATABASE}-shm")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from net.commands.serve import default_data_dir

    p.add_argument("file", type=Path, metavar="FILE", help="an archive ecarte backup wrote")
    p.add_argument("--data-dir", type=Path, default=None,
                   help=f"the server's data directory, the server stopped (default: "
                        f"{default_data_dir()})")
    add_store_argument(p, "the club's PostgreSQL (postgresql://...), every node stopped: "
                          "its database is replaced by the backup's (one taken with --store)")


def run(args: argparse.Namespace) -> int:
    from net.commands.serve import default_data_dir

    return report("restore", lambda: restore(args.file, args.data_dir or default_data_dir(),
                                             store_url(args)))


def restore(archive: Path, data_dir: Path, store: str | None = None) -> list[str]:
    """Unpack ``archive`` into ``data_dir`` (its database into ``store``, a PostgreSQL URL,
    if it holds one); what was done, in lines. Nothing is changed when it refuses (a
    running server, an archive that is not a backup, a database of the other kind)."""
    members = _read_members(archive)
    _check_kind(archive, members, store)
    aside = data_dir / time.strftime("before-restore-%Y%m%d-%H%M%S")
    moved: list[str] = []
    if store is not None:  # (first: refused, or failed in its one transaction, it is
        moved += _restore_pg(store, members.pop(PG_DUMP_FILE), aside)  # all that changed)
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    if DATABASE in members:
        _release_database(data_dir)
    for name, data in members.items():
        path = data_dir / name
        if path.exists() and path.read_bytes() == data:
            continue
        if path.exists():
            _move_aside(path, aside / name)
            moved.append(name)
        _write(path, data, data_dir)
    if DATABASE in members:
        for side in SQLITE_SIDE_FILES:  # (never applied to the restored database)
            if (data_dir / side).exists():
                _move_aside(data_dir / side, aside / side)
                moved.append(side)
    if aside.exists():
        _give_to_owner(aside, data_dir)
    return _summary(archive, data_dir, members, aside if moved else None, store)


def _check_kind(archive: Path, members: dict[str, bytes], store: str | None) -> None:
    """The database a backup holds goes where its kind is kept, or nowhere."""
    if store is None and PG_DUMP_FILE in members:
        raise BackupError(f"{archive} holds a PostgreSQL club's database: give its URL with "
                          "--store (nothing was changed)")
    if store is not None and PG_DUMP_FILE not in members:
        kind = ("an SQLite club's database (club.db): restore it without --store"
                if DATABASE in members else "no database (taken without --store)")
        raise BackupError(f"{archive} holds {kind}; nothing was changed")


def _restore_pg(url: str, dump: bytes, aside: Path) -> list[str]:
    from net.commands import pg_backup

    with tempfile.TemporaryDirectory(prefix="ecarte-restore-") as tmp:
        path = Path(tmp) / PG_DUMP_FILE
        path.write_bytes(dump)
        return pg_backup.restore(url, path, aside)


def _read_members(archive: Path) -> dict[str, bytes]:
    """Every file of the archive by name, checked before anything is written."""
    try:
        with tarfile.open(archive, mode="r:gz") as tar:
            members: dict[str, bytes] = {}
            for info in tar:
                name = info.name.removeprefix("./")
                if not info.isfile() or not (name in TOP_FILES or RECORD_NAME.fullmatch(name)):
                    raise BackupError(f"{archive} is not an ecarte backup (it holds "
                                      f"{info.name!r}): nothing was changed")
                handle = tar.extractfile(info)
                assert handle is not None  # (a regular file)
                members[name] = handle.read()
    except FileNotFoundError:
        raise BackupError(f"no file {archive}") from None
    except (tarfile.TarError, EOFError, OSError) as e:
        raise BackupError(f"{archive} cannot be read as a backup ({e}): nothing was "
                          "changed") from e
    if not members:
        raise BackupError(f"{archive} is empty: nothing was changed")
    _check_contents(archive, members)
    return members


def _check_contents(archive: Path, members: dict[str, bytes]) -> None:
    """A database that is not a club's, or a host key that is not a key, would leave a
    server that cannot start: refused before anything is written."""
    if HOST_KEY_FILENAME in members:
        try:
            asyncssh.import_private_key(members[HOST_KEY_FILENAME])
        except (asyncssh.KeyImportError, ValueError) as e:
            raise BackupError(f"{archive}: its {HOST_KEY_FILENAME} is not a private key "
                              f"({e}): nothing was changed") from e
    if DATABASE in members:
        with tempfile.TemporaryDirectory(prefix="ecarte-restore-") as tmp:
            copy = Path(tmp) / DATABASE
            copy.write_bytes(members[DATABASE])
            try:
                club_counts(copy)
            except BackupError as e:
                raise BackupError(f"{archive}: {e}: nothing was changed") from e
    if PG_DUMP_FILE in members:
        from net.commands import pg_backup

        with tempfile.TemporaryDirectory(prefix="ecarte-restore-") as tmp:
            copy = Path(tmp) / PG_DUMP_FILE
            copy.write_bytes(members[PG_DUMP_FILE])
            try:
                pg_backup.check_dump(copy)
            except BackupError as e:
                raise BackupError(f"{archive}: {e}: nothing was changed") from e


def _release_database(data_dir: Path) -> None:
    """Refuse while a server has the database open; otherwise fold its write-ahead log into
    it (the files kept aside are then whole on their own)."""
    db = data_dir / DATABASE
    if not db.exists():
        return
    conn = sqlite3.connect(db, timeout=0)
    try:
        conn.execute("PRAGMA journal_mode=DELETE")  # only possible with no other connection
    except sqlite3.OperationalError as e:
        if "locked" in str(e) or "busy" in str(e):
            raise BackupError(f"a server is using {db}: stop it first (nothing was "
                              "changed)") from e
    except sqlite3.DatabaseError:
        pass  # a broken database (why it is restored): it is kept aside as it is
    finally:
        conn.close()


def _move_aside(path: Path, to: Path) -> None:
    to.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.replace(path, to)


def _give_to_owner(tree: Path, data_dir: Path) -> None:
    """What restore kept aside, made by root, given to the data directory's owner (the
    service's user), as the files it restores are: his to read, and to clean up."""
    st = data_dir.stat()
    if os.geteuid() != 0 or (st.st_uid, st.st_gid) == (0, 0):
        return
    for path in (tree, *tree.rglob("*")):
        with contextlib.suppress(OSError):
            os.chown(path, st.st_uid, st.st_gid, follow_symlinks=False)


def _write(path: Path, data: bytes, data_dir: Path) -> None:
    """Atomically, 0600, owned as the data directory is (a service's user, not root)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    st = data_dir.stat()
    owner = (st.st_uid, st.st_gid)
    if os.geteuid() != 0 or owner == (0, 0):
        write_private(path, data)
        return
    write_private(path, data, owner)
    with contextlib.suppress(OSError):
        os.chown(path.parent, *owner)


def _summary(archive: Path, data_dir: Path, members: dict[str, bytes],
             aside: Path | None, store: str | None) -> list[str]:
    lines = [f"restored {archive} into {data_dir}"]
    if DATABASE in members:
        tables, players = club_counts(data_dir / DATABASE)
        lines.append(f"  {DATABASE}: {counted(tables, players)}")
    if store is not None:
        from net.commands import pg_backup

        tables, players = pg_backup.club_counts(store)
        lines.append(f"  {PG_DUMP_FILE} into {club_name(store)}: "
                     f"{counted(tables, players)}")
    if HOST_KEY_FILENAME in members:
        lines.append(f"  {HOST_KEY_FILENAME}: the host key, "
                     f"{fingerprint_of(members[HOST_KEY_FILENAME])}")
    kept = [name for name in OPERATOR_FILES if name in members]
    if kept:
        lines.append(f"  {', '.join(kept)}")
    records = sum(1 for name in members if name.startswith(f"{ARCHIVE_DIR}/"))
    lines.append(f"  {ARCHIVE_DIR}/: {records} finished {'game' if records == 1 else 'games'}")
    if aside is not None:
        lines.append(f"what it replaced is kept in {aside}")
    lines.append("start the server: every table comes back where the backup had it")
    return lines
