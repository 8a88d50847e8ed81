"""``ecarte backup --store`` and ``ecarte restore --store``: a club kept in PostgreSQL goes in
and out of the archive with its database (pg_dump, pg_restore in one transaction), never
while a node serves it, never into a store of the other kind, on a real PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import tarfile
import time
from pathlib import Path
from typing import Any

import pytest
from server_harness import new_key
from server_process import ServerProcess, free_port
from test_backup import (
    KEY,
    _tar_with,
    at_trick_two,
    back_at_trick_two,
    ecarte,
    play_on_and_leave,
)

from net.commands import pg_backup
from net.commands.backup import BackupError, write_backup
from net.commands.restore import restore
from net.ssh.host_key import HOST_KEY_FILENAME
from net.store import Store
from net.store.serving import Serving, ServingRow, machine_id


def _players(url: str) -> list[str]:
    store = Store(url)
    try:
        return sorted(r[0] for r in store._db.execute("SELECT name FROM players").fetchall())
    finally:
        store.close()


def _club(url: str, data: Path, *names: str) -> None:
    store = Store(url)
    for n, name in enumerate(names):
        store.register(f"SHA256:{name}{n}", name)
    store.close()
    data.mkdir(exist_ok=True)
    (data / HOST_KEY_FILENAME).write_bytes(KEY)


def test_a_restore_puts_the_database_back_and_keeps_what_it_replaced(postgres_url, tmp_path):
    data, backup = tmp_path / "data", tmp_path / "b.tar.gz"
    _club(postgres_url, data, "anna")
    lines = write_backup(data, backup, postgres_url)
    assert any("club.pgdump: 0 tables, 1 player (pg_dump" in line for line in lines)
    assert lines[-1].endswith("--store URL")
    with tarfile.open(backup) as tar:
        member = tar.getmember("club.pgdump")
        assert member.mode == 0o600 and "club.db" not in tar.getnames()
    _club(postgres_url, data, "bob", "cleo")  # the club goes on after the backup
    assert _players(postgres_url) == ["anna", "bob", "cleo"]

    said = restore(backup, data, postgres_url)
    assert _players(postgres_url) == ["anna"]
    assert any("club.pgdump into PostgreSQL database" in line and "1 player" in line
               for line in said), said
    aside = next(data.glob("before-restore-*"))
    assert (aside / "club.pgdump").stat().st_mode & 0o777 == 0o600
    pg_backup.check_dump(aside / "club.pgdump")  # (what it replaced, whole)


def test_no_restore_while_a_node_serves_the_club(postgres_url, tmp_path):
    data, backup = tmp_path / "data", tmp_path / "b.tar.gz"
    _club(postgres_url, data, "anna")
    write_backup(data, backup, postgres_url)
    _club(postgres_url, data, "bob")
    store = Store(postgres_url)
    Serving(store).say(ServingRow(f"{socket.gethostname()}:{os.getpid()}",
                                  socket.gethostname(), machine_id(), os.getpid(), 2222, "0.1.0",
                                  time.time(), time.time(), 1, 0, 0))
    store.close()
    with pytest.raises(BackupError, match=r"1 process serve this club .* stop every node"):
        restore(backup, data, postgres_url)
    assert _players(postgres_url) == ["anna", "bob"]
    assert not list(data.glob("before-restore-*"))


def test_a_database_of_the_other_kind_or_a_broken_dump_changes_nothing(postgres_url,
                                                                      tmp_path):
    data = tmp_path / "data"
    _club(postgres_url, data, "anna")
    sqlite_backup, pg_only, broken = (tmp_path / n for n in ("s.tar.gz", "p.tar.gz",
                                                             "x.tar.gz"))
    sqlite_dir = tmp_path / "sqlite"
    sqlite_dir.mkdir()
    Store(sqlite_dir / "club.db").close()
    write_backup(sqlite_dir, sqlite_backup)
    with pytest.raises(BackupError, match="an SQLite club's database .* without --store"):
        restore(sqlite_backup, data, postgres_url)
    write_backup(data, pg_only, postgres_url)
    with pytest.raises(BackupError, match="PostgreSQL club's database: give its URL"):
        restore(pg_only, sqlite_dir)
    _tar_with(broken, "club.pgdump", b"PGDMP but not really")
    with pytest.raises(BackupError, match="pg_restore failed.*nothing was changed"):
        restore(broken, data, postgres_url)
    assert _players(postgres_url) == ["anna"]
    assert not list(data.glob("before-restore-*"))
    assert not list(sqlite_dir.glob("before-restore-*"))


def test_a_backup_of_a_database_that_cannot_be_reached_writes_nothing(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    port = free_port()  # (nothing listens there)
    with pytest.raises(BackupError, match="cannot reach PostgreSQL database club") as caught:
        write_backup(data, tmp_path / "b.tar.gz", f"postgresql://u:secret@127.0.0.1:{port}/club")
    assert "secret" not in str(caught.value)
    assert list(tmp_path.glob("*.tar.gz")) == [] and list(tmp_path.glob(".*part")) == []


def test_the_password_goes_to_pg_dump_in_its_environment_not_its_command_line(
        postgres_url, tmp_path, monkeypatch):
    """Every local user can read a process's command line (ps); only its user its
    environment. (The test cluster trusts local connections: the password is not checked,
    only where it is put.)"""
    data = tmp_path / "data"
    _club(postgres_url, data, "anna")
    url = postgres_url.replace("postgresql://postgres@", "postgresql://postgres:hunter2@")
    runs: list[tuple[list[str], dict[str, str]]] = []
    real_run = subprocess.run

    def spy(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        runs.append((argv, kwargs["env"]))
        return real_run(argv, **kwargs)

    monkeypatch.setattr(pg_backup.subprocess, "run", spy)
    write_backup(data, tmp_path / "b.tar.gz", url)
    [(argv, env)] = runs
    assert argv[0].endswith("pg_dump") and not any("hunter2" in a for a in argv), argv
    assert env["PGPASSWORD"] == "hunter2"


async def test_a_postgresql_clubs_game_comes_back_from_its_backup(postgres_url, tmp_path):
    """The real server on PostgreSQL: a backup mid-game, restore refused while it serves,
    then after the game went on and the server stopped, the backup's trick is back."""
    data, backup = tmp_path / "data", tmp_path / "club.tar.gz"
    server = ServerProcess(data, free_port(), "--bot-delay", "0.05", "--store", postgres_url)
    banner = await server.start()
    keys = {"anna": new_key(), "ben": new_key()}
    try:
        anna, ben, _, cards = await at_trick_two(server.port, keys)
        made = ecarte("backup", str(backup), "--data-dir", str(data), "--store", postgres_url)
        assert made.returncode == 0, made.stderr
        assert "club.pgdump: 1 table, 2 players" in made.stdout
        for _ in range(100):  # (the node says it serves within a few seconds of its start)
            refused = ecarte("restore", str(backup), "--data-dir", str(data), "--store",
                             postgres_url)
            if refused.returncode == 1 and "serve this club" in refused.stderr:
                break
            await asyncio.sleep(0.1)
        assert "stop every node first" in refused.stderr, refused.stderr
        await play_on_and_leave(anna, ben)
    finally:
        await server.stop()

    done = ecarte("restore", str(backup), "--data-dir", str(data), "--store", postgres_url)
    assert done.returncode == 0, done.stderr
    await back_at_trick_two(ServerProcess(data, free_port(), "--bot-delay", "0.05",
                                          "--store", postgres_url), banner, keys, cards)
