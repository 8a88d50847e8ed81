"""``ecarte backup`` while the real server plays, ``ecarte restore`` into a new data directory:
the club comes back as the backup had it (the same host key, the game at the same trick,
its players welcomed back by their keys); a restore never runs under a live server, never
takes a file that is not a backup's, and keeps what it replaces."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import asyncssh
import pytest
from server_harness import Seat, new_key, registered_pair
from server_process import REPO, ServerProcess, free_port
from test_server_restart import own_cards, top_line, welcomed_back

from net.commands.backup import BackupError, write_backup
from net.commands.restore import restore
from net.ssh.host_key import HOST_KEY_FILENAME
from net.store import Store


def ecarte(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "ecarte_tui", *args], capture_output=True,
                          text=True, env=env, timeout=60)


def fingerprint(banner: str) -> str:
    return banner.split("host key fingerprint: ", 1)[1].split()[0]


async def at_trick_two(port: int, keys: dict[str, asyncssh.SSHKey]
                       ) -> tuple[Seat, Seat, str, dict[str, list[str]]]:
    """Two registered players at one table, at its second trick: (anna, ben, the table's
    code, each one's cards)."""
    anna, ben, code = await registered_pair(port, keys)
    await asyncio.gather(anna.play(until=lambda s: "trick 2/5" in top_line(s)),
                         ben.play(until=lambda s: "trick 2/5" in top_line(s)))
    await asyncio.gather(anna.quiet(), ben.quiet())
    return anna, ben, code, {"anna": own_cards(anna.text()), "ben": own_cards(ben.text())}


async def play_on_and_leave(anna: Seat, ben: Seat) -> None:
    """The game goes on after the backup (the restored club must be the backup's), then
    both leave."""
    await asyncio.gather(anna.play(until=lambda s: "trick 3/5" in top_line(s)),
                         ben.play(until=lambda s: "trick 3/5" in top_line(s)))
    for seat in (anna, ben):
        await seat.close()


async def test_a_backup_taken_while_a_game_is_played_restores_that_game(tmp_path):
    data, elsewhere = tmp_path / "data", tmp_path / "restored"
    backup = tmp_path / "club.tar.gz"
    server = ServerProcess(data, free_port(), "--bot-delay", "0.05")
    banner = await server.start()
    assert "a backup while it runs: `ecarte backup`" in banner  # (how an operator learns it)
    keys = {"anna": new_key(), "ben": new_key()}
    try:
        anna, ben, code, cards = await at_trick_two(server.port, keys)
        store = Store(data / "club.db")
        ecn = store.table(code).ecn  # type: ignore[union-attr]
        store.close()

        made = ecarte("backup", str(backup), "--data-dir", str(data))
        assert made.returncode == 0, made.stderr
        assert "club.db: 1 table, 2 players" in made.stdout
        assert f"the host key, {fingerprint(banner)}" in made.stdout  # as players know it
        assert backup.stat().st_mode & 0o777 == 0o600, "it holds the host's private key"

        refused = ecarte("restore", str(backup), "--data-dir", str(data))
        assert refused.returncode == 1
        assert f"a server is using {data / 'club.db'}: stop it first" in refused.stderr
        assert not list(data.glob("before-restore-*")), "nothing was changed"

        # the game goes on after the backup: the restored club is the backup's
        await play_on_and_leave(anna, ben)
    finally:
        await server.stop()

    done = ecarte("restore", str(backup), "--data-dir", str(elsewhere))
    assert done.returncode == 0, done.stderr
    assert "club.db: 1 table, 2 players" in done.stdout
    assert f"the host key, {fingerprint(banner)}" in done.stdout
    store = Store(elsewhere / "club.db")
    assert store.table(code).ecn == ecn  # type: ignore[union-attr]
    store.close()
    await back_at_trick_two(ServerProcess(elsewhere, free_port(), "--bot-delay", "0.05"),
                            banner, keys, cards)


async def back_at_trick_two(again: ServerProcess, banner: str,
                            keys: dict[str, asyncssh.SSHKey],
                            cards: dict[str, list[str]]) -> None:
    """The restored club started: the same host key as ``banner``'s, the table back, and
    both players welcomed back at its second trick with ``cards``."""
    restarted = await again.start()
    try:
        assert fingerprint(restarted) == fingerprint(banner), "players' ssh knows this host"
        assert "restored 1 table" in restarted
        anna, ben, back = await welcomed_back(again.port, keys, "trick 2/5")
        assert back == cards
        for seat in (anna, ben):
            await seat.close()
    finally:
        await again.stop()


KEY = new_key().export_private_key()


def _club(data: Path) -> None:
    """A data directory as a stopped server leaves it (a host key, a database, a record)."""
    data.mkdir()
    Store(data / "club.db").close()
    (data / HOST_KEY_FILENAME).write_bytes(KEY)
    (data / "notice").write_text("closing at ten\n")
    (data / "archive").mkdir()
    (data / "archive" / "ABCD-1.ecn").write_text("[A \"anna\"]\n")


def test_a_restore_keeps_what_it_replaces_and_no_old_log_is_applied(tmp_path):
    data, backup = tmp_path / "data", tmp_path / "b.tar.gz"
    _club(data)
    lines = write_backup(data, backup)
    assert any("archive/: 1 finished game" in line for line in lines)
    (data / "notice").write_text("a newer notice\n")
    (data / HOST_KEY_FILENAME).write_bytes(new_key().export_private_key())  # made since
    (data / "club.db-wal").write_bytes(b"an old server's log")
    restore(backup, data)
    assert (data / "notice").read_text() == "closing at ten\n"
    aside = next(data.glob("before-restore-*"))
    assert (aside / "notice").read_text() == "a newer notice\n"
    assert not (data / "club.db-wal").exists()
    assert (data / "archive" / "ABCD-1.ecn").read_text() == "[A \"anna\"]\n"
    assert (data / HOST_KEY_FILENAME).read_bytes() == KEY
    assert (data / HOST_KEY_FILENAME).stat().st_mode & 0o777 == 0o600
    assert (aside / HOST_KEY_FILENAME).read_bytes() != KEY


@pytest.mark.skipif(os.geteuid() != 0, reason="giving files to another user takes root")
def test_a_restore_run_as_root_leaves_every_file_to_the_services_user(tmp_path):
    """The service runs as its own user; its operator restores as root: what is restored
    and what is kept aside are the service's, not root's (it could not open its key)."""
    data, backup = tmp_path / "data", tmp_path / "b.tar.gz"
    _club(data)
    write_backup(data, backup)
    (data / "notice").write_text("a newer notice\n")
    nobody = 65534
    for path in (data, *data.rglob("*")):
        os.chown(path, nobody, nobody)
    restore(backup, data)
    aside = next(data.glob("before-restore-*"))
    for path in (data / HOST_KEY_FILENAME, data / "notice", aside, aside / "notice"):
        assert (path.stat().st_uid, path.stat().st_gid) == (nobody, nobody), path


def _tar_with(path: Path, name: str, data: bytes = b"x") -> None:
    with tarfile.open(path, "w:gz") as tar:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))


@pytest.mark.parametrize("name", ["../outside", "/etc/cron.d/evil", "archive/../club.db",
                                  "bin/ecarte", ".ssh/authorized_keys"])
def test_an_archive_that_is_not_a_backup_changes_nothing(tmp_path, name):
    data, bad = tmp_path / "data", tmp_path / "bad.tar.gz"
    _club(data)
    before = {p: p.read_bytes() for p in data.rglob("*") if p.is_file()}
    _tar_with(bad, name)
    with pytest.raises(BackupError, match="is not an ecarte backup .* nothing was changed"):
        restore(bad, data)
    assert {p: p.read_bytes() for p in data.rglob("*") if p.is_file()} == before
    assert not (tmp_path / "outside").exists()


@pytest.mark.parametrize(("name", "data", "why"), [
    ("club.db", b"not a database at all", "club.db is not a club's database"),
    (HOST_KEY_FILENAME, b"-----BEGIN NOTHING-----", "is not a private key"),
])
def test_a_backup_whose_database_or_key_is_broken_changes_nothing(tmp_path, name, data, why):
    data_dir, bad = tmp_path / "data", tmp_path / "bad.tar.gz"
    _club(data_dir)
    before = {p: p.read_bytes() for p in data_dir.rglob("*") if p.is_file()}
    _tar_with(bad, name, data)
    with pytest.raises(BackupError, match=f"{why}.*nothing was changed"):
        restore(bad, data_dir)
    assert {p: p.read_bytes() for p in data_dir.rglob("*") if p.is_file()} == before
    assert not list(data_dir.glob("before-restore-*"))


def test_a_backup_never_overwrites_and_names_what_is_missing(tmp_path):
    data = tmp_path / "data"
    _club(data)
    kept = tmp_path / "kept.tar.gz"
    kept.write_bytes(b"last week's")
    with pytest.raises(BackupError, match="exists: name another file"):
        write_backup(data, kept)
    assert kept.read_bytes() == b"last week's"
    with pytest.raises(BackupError, match="no data directory at"):
        write_backup(tmp_path / "nowhere", tmp_path / "x.tar.gz")
    broken = ecarte("restore", str(kept), "--data-dir", str(data))
    assert broken.returncode == 1 and "cannot be read as a backup" in broken.stderr


def test_keep_needs_a_directory_and_a_new_one_is_made_private(tmp_path):
    data = tmp_path / "data"
    _club(data)
    alone = ecarte("backup", "--keep", "3", str(tmp_path / "one.tar.gz"), "--data-dir", str(data))
    assert alone.returncode == 2 and "--keep needs a directory" in alone.stderr
    assert not (tmp_path / "one.tar.gz").exists()
    made = ecarte("backup", "--keep", "3", f"{tmp_path / 'new'}/", "--data-dir", str(data))
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o700
    assert len(list((tmp_path / "new").glob("ecarte-backup-*.tar.gz"))) == 1
