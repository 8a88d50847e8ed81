"""``ecarte status``: every server process says in the store how busy it is, and the command
sums the processes that serve, names those that stopped or went silent, and exits 0 only
when one serves, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from server_harness import Seat, club_server, play_the_bot
from server_process import REPO, ServerProcess, free_port

from ecarte_tui.cli import main
from net import game_server
from net.commands import status as status_command
from net.commands.status import read_status, report
from net.store.club_store import Store
from net.store.serving import (
    FORGET_SECONDS,
    REFRESH_SECONDS,
    Serving,
    ServingRow,
    machine_id,
    read_serving,
)

HOST = socket.gethostname()


def _row(node: str, said: float, sessions: int = 0, *, host: str = HOST, pid: int = 0,
         guests: int = 0, watching: int = 0, machine: str | None = None) -> ServingRow:
    started = said - said % 3600  # (the same for every word of one process in a test)
    if machine is None:
        machine = machine_id() if host == HOST else f"{host}-machine"
    return ServingRow(node, host, machine, pid, 2222, "0.1.0", started, said, sessions,
                      guests, watching)


def _dead_pid() -> int:
    """A process id that no process has (one that has just exited)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_process_writes_when_its_counts_change_or_every_half_minute(club_db_target):
    store = Store(club_db_target)
    try:
        serving = Serving(store)
        assert serving.say(_row("a:1", 1000.0, 2))
        assert not serving.say(_row("a:1", 1005.0, 2))  # nothing new, said lately
        assert read_serving(store._db) == [_row("a:1", 1000.0, 2)]
        assert serving.say(_row("a:1", 1006.0, 3))  # a session more: at once
        assert serving.say(_row("a:1", 1006.0 + REFRESH_SECONDS, 3))  # alive, said again
        assert read_serving(store._db) == [_row("a:1", 1006.0 + REFRESH_SECONDS, 3)]
        serving.gone("a:1")
        assert read_serving(store._db) == []
    finally:
        store.close()


def test_the_row_of_a_process_silent_for_an_hour_is_deleted(club_db_target):
    store = Store(club_db_target)
    try:
        Serving(store).say(_row("killed:9", 1000.0, 5))
        Serving(store).say(_row("b:2", 1000.0 + FORGET_SECONDS - 1))
        assert [r.node for r in read_serving(store._db)] == ["killed:9", "b:2"]
        Serving(store).say(_row("c:3", 1000.0 + FORGET_SECONDS + 1))
        assert [r.node for r in read_serving(store._db)] == ["b:2", "c:3"]
    finally:
        store.close()


def test_status_sums_the_serving_processes_and_names_the_others(club_db_target):
    now = time.time()
    store = Store(club_db_target)
    try:
        Serving(store).say(_row(f"{HOST}:1", now - 5, 4, pid=1, guests=1, watching=1))
        Serving(store).say(_row("far:77", now - 10, 6, host="far", guests=2))
        Serving(store).say(_row("far:78", now - 600, 9, host="far"))  # silent
        Serving(store).say(_row(f"{HOST}:dead", now - 5, 8, pid=_dead_pid()))  # stopped
        # the same host name on another machine (cloud images): its pid is not ours to check
        Serving(store).say(_row(f"{HOST}:twin", now - 5, 1, pid=_dead_pid(), machine="twin"))
        long_ago = "2020-01-01T00:00:00+00:00"
        with store._tx() as db:
            for code, state, updated in (("AAAA", "playing", long_ago),
                                         ("BBBB", "playing", long_ago),
                                         ("CCCC", "open", long_ago),
                                         ("DDDD", "finished", long_ago),
                                         ("EEEE", "finished", "2999-01-01T00:00:00+00:00")):
                db.execute("INSERT INTO tables (code, options, status, created, updated) "
                           "VALUES (?, '{}', ?, ?, ?)", (code, state, long_ago, updated))
            db.execute("INSERT INTO players (id, name, created, last_seen) VALUES "
                       "('SHA256:a', 'anna', ?, ?), ('SHA256:b', 'bob', ?, ?)",
                       (long_ago, long_ago, long_ago, "2999-01-01T00:00:00+00:00"))
    finally:
        store.close()

    status = read_status(club_db_target, now)
    assert sorted(r.node for r in status.serving) == sorted(["far:77", f"{HOST}:1",
                                                             f"{HOST}:twin"])
    assert status.tables == {"playing": 2, "open": 1}
    assert (status.players, status.players_seen, status.finished) == (2, 1, 1)
    text = report(status, now)
    assert "Serving: 3 processes on 3 machines, port 2222" in text
    assert "In all: 11 sessions (3 guests), 1 watching; 2 tables in play, 1 waiting" in text
    assert "Not serving: 2 processes" in text
    assert "far:78  not heard from since" in text
    assert f"{HOST}:dead  stopped without saying so" in text
    assert "Players: 2 registered, 1 seen in the last 24 hours; 1 match finished" in text


async def test_status_reads_the_real_servers_sessions_then_says_none_serves(
        tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(game_server, "SWEEP_SECONDS", 0.05)
    data = tmp_path / "data"
    async with club_server(data) as server:
        anna = await Seat.connect(server.port, "anna")
        await play_the_bot(anna)
        gus = await Seat.connect(server.port, "gus")
        await gus.wait_for("C L U B")
        for _ in range(100):
            rows = read_status(data / "club.db", time.time()).serving
            # Both counts: a sweep may write the row between gus's session and his name.
            if rows and (rows[0].sessions, rows[0].guests) == (2, 2):
                break
            await asyncio.sleep(0.05)
        assert main(["status", "--data-dir", str(data)]) == 0
        out = capsys.readouterr().out
        assert f"{HOST}:" in out and "2 sessions (2 guests)" in out, out
        assert "1 table in play, 0 waiting for a player" in out, out
        for seat in (anna, gus):
            await seat.close()
    assert main(["status", "--data-dir", str(data)]) == status_command.NOT_SERVING
    out = capsys.readouterr().out
    assert "Serving: no process" in out and "In all: 0 sessions" in out, out


def test_status_of_a_directory_without_a_club_says_so_and_creates_nothing(tmp_path, capsys):
    assert main(["status", "--data-dir", str(tmp_path)]) == status_command.UNREADABLE
    assert "no club in" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_status_of_a_club_whose_server_predates_it_says_to_restart_it(tmp_path, capsys):
    db = sqlite3.connect(tmp_path / "club.db")
    db.execute("CREATE TABLE tables (code TEXT)")
    db.commit()
    db.close()
    before = (tmp_path / "club.db").read_bytes()
    assert main(["status", "--data-dir", str(tmp_path)]) == status_command.UNREADABLE
    assert "older than this ecarte (restart it)" in capsys.readouterr().err
    assert (tmp_path / "club.db").read_bytes() == before  # read-only: nothing upgraded


def test_status_json_holds_the_sums_and_each_process(tmp_path, capsys):
    store = Store(Path(tmp_path) / "club.db")
    try:
        Serving(store).say(_row(f"{HOST}:1", time.time(), 3, pid=1, guests=2))
    finally:
        store.close()
    assert main(["status", "--data-dir", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["serving"], out["sessions"], out["guests"]) == (1, 3, 2)
    assert [(p["node"], p["state"]) for p in out["processes"]] == [(f"{HOST}:1", "serving")]


async def test_the_banners_status_command_sums_the_workers_and_names_one_killed(tmp_path):
    """What an operator does: runs the command the banner prints, beside two workers, one
    of which is then killed (the supervisor starts another)."""
    server = ServerProcess(tmp_path / "data", free_port(), "--workers", "2")
    banner = await server.start()
    try:
        command = banner.split("how busy:", 1)[1].split("`")[1]
        assert command == f"ecarte status --data-dir {tmp_path / 'data'}"
        players = banner.split("players:", 1)[1].split("`")[1]
        assert players == f"ecarte players --data-dir {tmp_path / 'data'}"
        tables = banner.split("\ntables:", 1)[1].split("`")[1]
        assert tables == f"ecarte tables --data-dir {tmp_path / 'data'}"
        listed = subprocess.run([sys.executable, "-m", "ecarte_tui", *tables.split()[1:]],
                                capture_output=True, text=True, cwd=REPO, check=False)
        assert listed.returncode == 0 and "0 unfinished tables" in listed.stdout
        gus = await Seat.connect(server.port, "gus")
        await gus.wait_for("C L U B")

        async def status() -> tuple[int, str]:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "ecarte_tui", *command.split()[1:],
                stdout=asyncio.subprocess.PIPE, cwd=REPO)
            out, _ = await proc.communicate()
            return await proc.wait(), out.decode()

        for _ in range(100):  # (each worker says it within SWEEP_SECONDS)
            code, out = await status()
            if "1 session (1 guest)" in out and out.count("since ") == 2:
                break
            await asyncio.sleep(0.2)
        assert code == 0 and "Serving: 2 processes, port" in out, out
        assert "In all: 1 session (1 guest)" in out, out
        pids = [int(p) for p in banner.split("pids ", 1)[1].split(")")[0].split(", ")]
        await gus.close()
        os.kill(pids[0], signal.SIGKILL)
        for _ in range(100):
            code, out = await status()
            if "Not serving" in out and out.count("since ") == 2 and "In all: 0 " in out:
                break
            await asyncio.sleep(0.2)
        assert code == 0, out
        assert f"{HOST}:{pids[0]}  stopped without saying so (killed?)" in out, out
        assert "Serving: 2 processes" in out and "In all: 0 sessions" in out, out
    finally:
        assert await server.stop() == 0
    code, out = await status()
    assert code == status_command.NOT_SERVING, out
    assert "Serving: no process" in out and out.count("since ") == 0, out


def test_the_days_matches_are_counted_without_reading_every_finished_one(tmp_path):
    """A club's file of schema 12 gets the (status, updated) indexes at its next start, and
    the count of the day's matches reads through them: it read every finished match (300 ms
    at 200,000)."""
    path = tmp_path / "club.db"
    Store(path).close()
    old = sqlite3.connect(path)  # back to schema 12, as the server before made it
    old.executescript("DROP INDEX tables_status_updated; DROP INDEX rounds_status_updated; "
                      "PRAGMA user_version = 12;")
    now = time.time()
    day = [time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(t))
           for t in (now - 3 * 86400, now - 600)]
    for i, (updated, status) in enumerate([(day[0], "finished"), (day[1], "finished"),
                                           (day[1], "playing")]):
        old.execute("INSERT INTO tables (code, options, status, created, updated) "
                    "VALUES (?, '{}', ?, ?, ?)", (f"T{i}", status, updated, updated))
    old.commit()
    old.close()
    Store(path).close()
    db = sqlite3.connect(path)
    try:
        plan = " ".join(str(r[-1]) for r in db.execute(
            "EXPLAIN QUERY PLAN " + status_command.FINISHED_SINCE, ("x", "x")))
        assert "tables_status_updated" in plan and "rounds_status_updated" in plan
        assert "SCAN rounds" not in plan
    finally:
        db.close()
    assert read_status(path, now).finished == 1
