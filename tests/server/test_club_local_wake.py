"""Nodes of one SQLite club wake each other after writing, instead of reading the store
50 times a second (net/club_sync/local_wake.py)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest
from test_club_nodes import ANNA, make_node

from net.club import TableOptions
from net.club_sync import node as node_module
from net.club_sync.local_wake import LocalWake


async def test_a_ping_reaches_the_other_processes_of_the_club_not_itself(tmp_path):
    woken: list[str] = []
    a = LocalWake.open(str(tmp_path / "club.db"), lambda: woken.append("a"))
    b = LocalWake.open(str(tmp_path / "club.db"), lambda: woken.append("b"))
    other = LocalWake.open(str(tmp_path / "other.db"), lambda: woken.append("other"))
    assert a is not None and b is not None and other is not None
    try:
        a.ping()
        async with asyncio.timeout(10):
            while "b" not in woken:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        assert woken == ["b"], "only the other node of the same club"
        assert oct(a.folder.stat().st_mode & 0o777) == "0o700"
    finally:
        a.close()
        other.close()
    assert b.folder.exists(), "a folder stays while a process of the club is in it"
    b.close()
    assert not b.folder.exists(), "the last process removes it"


async def test_the_socket_of_a_process_gone_is_removed_by_the_next_ping(tmp_path):
    wake = LocalWake.open(str(tmp_path / "club.db"), lambda: None)
    assert wake is not None
    stale = wake.folder / "999999-1"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as dead:
        dead.bind(str(stale))  # bound, then closed: what a killed process leaves
    try:
        assert stale.exists()
        wake.ping()
        assert not stale.exists()
        assert wake.path.exists(), "its own socket is left alone"
    finally:
        wake.close()


async def test_sockets_of_processes_killed_before_go_when_the_club_starts_again(tmp_path):
    """A club killed with -9 leaves its sockets; the next start unlinks them (without waking
    anyone), so the folder goes with its last process."""
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    first = LocalWake.open(str(tmp_path / "club.db"), lambda: None)
    assert first is not None
    stale = first.folder / f"{int(gone.stdout)}-1"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as dead:
        dead.bind(str(stale))  # bound, then closed: what a killed process leaves
    woken: list[str] = []
    second = LocalWake.open(str(tmp_path / "club.db"), lambda: woken.append("first"))
    assert second is not None
    assert not stale.exists() and first.path.exists() and second.path.exists()
    await asyncio.sleep(0.05)
    assert woken == []
    first.close()
    second.close()
    assert not second.folder.exists()


async def test_a_folder_another_user_could_write_is_not_used(tmp_path, monkeypatch):
    short = Path(tempfile.mkdtemp(prefix="ew"))  # (a socket's path has at most 107 bytes)
    try:
        monkeypatch.setattr("tempfile.gettempdir", lambda: str(short))
        wake = LocalWake.open(str(tmp_path / "club.db"), lambda: None)
        assert wake is not None
        folder = wake.folder
        wake.close()
        folder.mkdir()
        os.chmod(folder, 0o777)
        assert LocalWake.open(str(tmp_path / "club.db"), lambda: None) is None
    finally:
        shutil.rmtree(short, ignore_errors=True)


async def test_a_socket_path_too_long_leaves_the_node_polling(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path / ("x" * 120)))
    (tmp_path / ("x" * 120)).mkdir()
    assert LocalWake.open(str(tmp_path / "club.db"), lambda: None) is None
    assert list((tmp_path / ("x" * 120)).iterdir()) == [], "nothing left behind"


@pytest.mark.parametrize("wake_ups", [True, False])
async def test_a_quiet_node_sees_another_nodes_table_when_woken(tmp_path, monkeypatch,
                                                                 wake_ups):
    """With the safety-net poll made an hour long, only a wake-up can tell node two that
    node one opened a table; without wake-ups (where sockets fail) it polls as before."""
    monkeypatch.setattr(node_module, "IDLE_POLL_SECONDS", 3600.0)
    if not wake_ups:
        monkeypatch.setattr(LocalWake, "open", classmethod(lambda cls, *a: None))
    one = make_node(tmp_path / "club.db", "one", 1, tmp_path)
    two = make_node(tmp_path / "club.db", "two", 2, tmp_path)
    for club in (one, two):
        club.node.start()  # type: ignore[union-attr]
    try:
        await asyncio.sleep(node_module.WAKE_WINDOW + 0.3)  # both quiet now
        lt, _ = one.create(ANNA, TableOptions())
        async with asyncio.timeout(10):
            while lt.code not in two.tables:
                await asyncio.sleep(0.01)
    finally:
        for club in (one, two):
            await club.node.stop()  # type: ignore[union-attr]
