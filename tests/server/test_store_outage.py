"""The club while its PostgreSQL is restarted or down: the store's connection is made again
by itself, a step that needs the database tells the player and changes nothing, a move made
meanwhile is kept and shown when the database is back, and the log says so once.

Real PostgreSQL clusters only: the shared one of the test run for a connection the server
ends, and one of this module's own (``own_cluster``) to stop and start."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pg_cluster
import psycopg
import pytest
from server_harness import Seat, club_server, open_table, pair_at_the_draw

from ecarte_tui.table import NOT_YET_LOGGED
from net.club_sync.outage import OutageLog
from net.screens.club_table_screen import STALLED
from net.screens.store_trouble import FAREWELL_STORE_DOWN, STORE_DOWN
from net.store.postgres import PgConnection, StoreUnavailable, with_timeouts


@pytest.fixture
def own_cluster() -> Iterator[tuple[Path, int, str]]:
    """A cluster this test may stop and start: (its directory, port, URL)."""
    if pg_cluster.pg_bin("initdb") is None:
        if os.environ.get("ECARTE_REQUIRE_SERVICES") == "1":
            pytest.fail("PostgreSQL is required here (apt-get install postgresql)")
        pytest.skip("PostgreSQL is not installed")
    base = Path(os.environ["ECARTE_TEST_RUN_DIR"]) / f"outage-{uuid.uuid4().hex[:8]}"
    port = pg_cluster.free_port()
    url = pg_cluster.start(base, port)
    try:
        yield base, port, url
    finally:
        pg_cluster.stop(base)


def _terminate(url: str, pid: int) -> None:
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    time.sleep(0.2)  # (the backend's last word on its socket)


def test_a_connection_the_server_ended_is_made_again_and_no_write_is_lost_or_doubled(
        postgres_url):
    conn = PgConnection(postgres_url)
    conn.execute("CREATE TABLE moves (n INTEGER)")
    _terminate(postgres_url, conn._conn.info.backend_pid)
    conn.execute("INSERT INTO moves (n) VALUES (?)", (1,))  # on a new connection, once
    assert conn.execute("SELECT COUNT(*) FROM moves").fetchone() == (1,)

    # ended in the middle of a transaction: the transaction is lost and the caller told
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO moves (n) VALUES (?)", (2,))
    _terminate(postgres_url, conn._conn.info.backend_pid)
    with pytest.raises(StoreUnavailable):
        conn.execute("INSERT INTO moves (n) VALUES (?)", (3,))
    conn.execute("ROLLBACK")  # (what a caller does then: no second error)
    assert not conn.in_transaction
    assert conn.execute("SELECT n FROM moves ORDER BY n").fetchall() == [(1,)]


def test_a_database_that_is_down_fails_fast_with_one_message_and_is_used_again(
        own_cluster, caplog):
    base, port, url = own_cluster
    conn = PgConnection(url)
    conn.execute("CREATE TABLE t (n INTEGER)")
    pg_cluster.stop(base)
    caplog.set_level(logging.INFO, logger="net.store.postgres")
    for _ in range(3):  # (how fast: the silent host's test counts the tries instead)
        with pytest.raises(sqlite3.OperationalError, match="cannot be reached"):
            conn.execute("SELECT COUNT(*) FROM t")
    down = [r for r in caplog.records if "cannot be reached" in r.getMessage()]
    assert len(down) == 1, "an outage is logged once, not at every statement"
    pg_cluster.restart(base, port)
    deadline = time.monotonic() + 30
    while True:  # (no reconnection is tried for a moment after one failed)
        try:
            conn.execute("INSERT INTO t (n) VALUES (?)", (7,))
            break
        except StoreUnavailable:
            assert time.monotonic() < deadline, "the store never used the database again"
            time.sleep(0.2)
    assert conn.execute("SELECT n FROM t").fetchall() == [(7,)]
    assert any("answers again" in r.getMessage() for r in caplog.records)


def test_a_database_host_gone_silent_holds_the_caller_once_not_at_every_statement(
        postgres_url):
    """A host that takes the connection and never answers (a partition, a hung server):
    the first statement waits for the connect timeout; the next ones fail at once while a
    thread tries again in the background."""
    tries: list[socket.socket] = []
    silent = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def accept() -> None:
        silent.settimeout(0.1)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                tries.append(silent.accept()[0])  # (kept open, never answered)

    listener = threading.Thread(target=accept, daemon=True)
    listener.start()
    conn = PgConnection(postgres_url)
    try:
        conn._conninfo = with_timeouts(
            f"postgresql://x@127.0.0.1:{silent.getsockname()[1]}/x?connect_timeout=2")
        _terminate(postgres_url, conn._conn.info.backend_pid)
        for _ in range(6):
            with pytest.raises(StoreUnavailable):
                conn.execute("SELECT 1")
        assert 1 <= len(tries) <= 2, "one try by the caller, at most one by the thread"
    finally:
        conn.close()
        stop.set()
        listener.join()
        for s in (silent, *tries):
            s.close()


def test_an_outage_is_logged_when_it_begins_and_ends_and_a_bug_keeps_its_traceback(caplog):
    log = logging.getLogger("test.outage")
    outage = OutageLog("reading the feed", log)
    caplog.set_level(logging.INFO, logger="test.outage")
    for _ in range(5):
        outage.failed(psycopg.OperationalError("server closed the connection unexpectedly"))
    outage.worked()
    outage.worked()
    lines = [(r.levelname, r.getMessage(), r.exc_info is not None) for r in caplog.records]
    assert lines == [
        ("WARNING", "reading the feed failed: server closed the connection unexpectedly "
                    "(the club's database; trying again)", False),
        ("WARNING", "reading the feed works again (after 0 s)", False),
    ]
    caplog.clear()
    outage.failed(KeyError("code"))
    assert [(r.levelname, r.exc_info is not None) for r in caplog.records] == [("ERROR", True)]


async def test_players_are_told_while_the_database_is_away_and_play_on_when_it_is_back(
        own_cluster, tmp_path):
    base, port, url = own_cluster
    async with club_server(tmp_path / "data", store=url, shared=True) as server:
        chooser, other = await pair_at_the_draw(server.port)

        pg_cluster.stop(base, mode="fast")  # an administrator restarts the database
        await chooser.wait_for("I deal")  # (the draw's box asks him)
        chooser.press(b"d")  # a move while the database is away: kept, and said so
        await chooser.wait_for(STALLED[:40])
        assert "chooses who deals" in other.text()

        other.press(b"q")  # to the lobby, and a new table: refused, the session goes on
        await other.wait_for("C L U B")
        other.press(b"n")
        await other.wait_for("A new table")
        other.press(b"\r")
        await other.wait_for(STORE_DOWN[9:33])  # (a toast: its lines wrap at 80 columns)
        assert "Waiting for an opponent" not in other.text()
        await other.dismiss_toast(STORE_DOWN[:20])
        other.press(b"\r")  # back to his seat: the deal is not in the log, so not shown
        await other.wait_for(NOT_YET_LOGGED[:40])
        assert "propose an exchange" not in other.text() and "Hand 1" not in other.text()

        late = await Seat.connect(server.port, "cleo")  # who he is cannot be read: later
        await late.wait_for(FAREWELL_STORE_DOWN[9:33])
        await late.close()

        pg_cluster.restart(base, port)
        await chooser.wait_for("decides: play or propose")  # he deals: the move counted
        await other.wait_for("propose an exchange")  # and his seat is shown it now
        assert NOT_YET_LOGGED[:40] not in other.text()
        assert STALLED[:40] not in chooser.text()
        other.press(b"q")
        await open_table(other)  # (its code on the screen: the table is open)
        cleo = await Seat.connect(server.port, "cleo")
        await cleo.wait_for("C L U B")
        for seat in (chooser, other, cleo):
            await seat.close()
