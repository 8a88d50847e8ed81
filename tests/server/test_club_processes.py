"""One club served by several real ``ecarte serve`` processes sharing one store:
players and a watcher on different nodes play a whole match; a node killed with -9 loses
nothing, its player comes back on another node and finishes; ``--workers 2`` restarts a
worker that dies."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_harness import Seat, new_key, open_table
from server_process import ServerProcess, free_port

from ecarte_tui.engine import read_ecn
from net.club_sync.sync_store import SyncStore
from net.commands.serve import default_workers
from net.commands.workers import worker_argv
from net.store import Store

NODE = ("--shared", "--bot-delay", "0.05")


@pytest.fixture
def store(postgres_url: str) -> str | None:
    """Nodes on a real PostgreSQL. (Nodes sharing SQLite play a whole match with one player
    on each in test_club_haproxy.py, and workers on SQLite below.)"""
    return postgres_url


def node_args(store: str | None) -> tuple[str, ...]:
    return NODE if store is None else (*NODE, "--store", store)


def top_line(screen: str) -> str:
    return screen.split("\n", 1)[0]


def replayed_record(data, code: str, store: str | None) -> tuple[str, str, int]:
    """(the stored record, the record of the log replayed in this one process, steps)."""
    from net.club import TableOptions
    from net.club_sync.genesis import TableGenesis
    from net.club_sync.journal import StoreJournal

    db = Store(store or data / "club.db")
    try:
        st = db.table(code)
        assert st is not None
        sync = SyncStore(db)
        genesis = TableGenesis.from_json(sync.genesis(code, "no genesis"))
        journal = StoreJournal(sync, "test", code, genesis,
                               TableOptions.from_json(st.options).rules())
        steps = len(sync.log_after(code, 0))
        return st.ecn, journal.replay().record_text(), steps
    finally:
        db.close()


async def test_players_and_a_watcher_on_three_nodes_play_one_match(tmp_path, store):
    data = tmp_path / "data"
    nodes = [ServerProcess(data, free_port(), *node_args(store)) for _ in range(3)]
    for n in nodes:
        banner = await n.start()
        # each machine of the club reads its own files, joined into the club's
        assert "(none: write addresses, keys or name:NAME there); with every other " \
               "machine's, the whole club's list" in banner
    try:
        anna = await Seat.connect(nodes[0].port, "anna", seed=1, key=new_key())
        await anna.wait_for("first visit")
        anna.press(b"\r")
        code = await open_table(anna)
        ben = await Seat.connect(nodes[1].port, "ben", seed=2, key=new_key(),
                                 command=f"join {code}")
        await ben.wait_for("first visit")
        ben.press(b"\r")
        await anna.wait_for("Draw for the deal")  # ben sat down on another node
        cleo = await Seat.connect(nodes[2].port, "cleo", key=new_key(),
                                  command=f"watch {code}")
        await cleo.wait_for("first visit")
        cleo.press(b"\r")
        await cleo.wait_for("Watching table")

        end_a, end_b = await asyncio.gather(anna.play(), ben.play())
        assert "the match" in end_a and "the match" in end_b
        assert ("You win the match!" in end_a) != ("You win the match!" in end_b)
        await cleo.wait_for("The match is over")

        stored, replayed, steps = replayed_record(data, code, store)
        assert read_ecn(stored).match.is_over
        assert stored == replayed, "the club's record is the replay of its log"
        assert steps > 10
        archived = (data / "archive" / f"{code}.ecn").read_text()
        assert archived == stored, "archived once, by the node that ended it"
        for c in (anna, ben, cleo):
            await c.close()
    finally:
        for n in nodes:
            await n.stop()


async def test_kill_9_of_a_node_mid_hand_its_player_finishes_on_another(tmp_path, postgres_url):
    """Two nodes on PostgreSQL (a worker killed on SQLite is the next test)."""
    store = postgres_url
    data = tmp_path / "data"
    one, two = (ServerProcess(data, free_port(), *node_args(store)) for _ in range(2))
    await one.start()
    await two.start()
    keys = {"anna": new_key(), "ben": new_key()}
    try:
        anna = await Seat.connect(one.port, "anna", seed=1, key=keys["anna"])
        await anna.wait_for("first visit")
        anna.press(b"\r")
        code = await open_table(anna)
        ben = await Seat.connect(two.port, "ben", seed=2, key=keys["ben"],
                                 command=f"join {code}")
        await ben.wait_for("first visit")
        ben.press(b"\r")

        def mid_hand(screen: str) -> bool:
            return "trick 2/5" in top_line(screen)

        await asyncio.gather(anna.play(until=mid_hand), ben.play(until=mid_hand))
        await asyncio.gather(anna.quiet(), ben.quiet())
        _, _, steps_before = replayed_record(data, code, store)

        two.kill()  # ben's node
        assert await two.wait() == -9
        await ben.close()
        # node one hears that ben's node is gone
        await anna.wait_for("Waiting for ben to reconnect")

        ben = await Seat.connect(one.port, "ben", seed=4, key=keys["ben"])
        await ben.wait_for("Welcome back")
        await ben.wait_for("trick 2/5")
        _, _, steps_after = replayed_record(data, code, store)
        assert steps_after == steps_before, "nothing lost, nothing added"

        end_a, end_b = await asyncio.gather(anna.play(), ben.play())
        assert ("You win the match!" in end_a) != ("You win the match!" in end_b)
        stored, replayed, _ = replayed_record(data, code, store)
        assert stored == replayed and read_ecn(stored).match.is_over
        for c in (anna, ben):
            await c.close()
    finally:
        await one.stop()
        await two.stop()


async def test_two_workers_on_sqlite_a_worker_killed_mid_hand_is_restarted(tmp_path):
    """``--workers 2`` on one port over SQLite: kill -9 of a worker mid-hand; its players
    come back (to whichever worker takes them) and finish; the supervisor starts it again."""
    data = tmp_path / "data"
    server = ServerProcess(data, free_port(), "--workers", "2", "--bot-delay", "0.05")
    banner = await server.start()
    m = re.search(r"\(2 workers, pids (\d+), (\d+)\)", banner)
    assert m, banner
    pids = [int(m.group(1)), int(m.group(2))]
    keys = {"anna": new_key(), "ben": new_key()}
    try:
        seats = {"anna": await Seat.connect(server.port, "anna", seed=1, key=keys["anna"])}
        await seats["anna"].wait_for("first visit")
        seats["anna"].press(b"\r")
        code = await open_table(seats["anna"])
        seats["ben"] = await Seat.connect(server.port, "ben", seed=2, key=keys["ben"],
                                          command=f"join {code}")
        await seats["ben"].wait_for("first visit")
        seats["ben"].press(b"\r")

        def mid_hand(screen: str) -> bool:
            return "trick 2/5" in top_line(screen)

        await asyncio.gather(*(s.play(until=mid_hand) for s in seats.values()))
        _, _, steps_before = replayed_record(data, code, None)
        os.kill(pids[0], signal.SIGKILL)
        assert server.proc is not None and server.proc.stdout is not None
        async with asyncio.timeout(20):
            line = ""
            while "starting it again" not in line:
                line = (await server.proc.stdout.readline()).decode()
        # its place in the club given back at once (leases, presence, ``ecarte status``)
        db = sqlite3.connect(data / "club.db")
        dead = f"%:{pids[0]}"
        for table in ("nodes", "leases", "presence"):
            n = db.execute(f"SELECT COUNT(*) FROM {table} WHERE node LIKE ?", (dead,))
            assert n.fetchone()[0] == 0, table
        counted = db.execute("SELECT sessions FROM serving WHERE node LIKE ?", (dead,))
        assert [row[0] for row in counted] == [0]  # (its line kept: it stopped unsaid)
        db.close()
        for name, seat in list(seats.items()):
            chan = seat.client.chan
            if chan is not None and not chan.is_closing():
                continue  # served by the worker that lives: plays on
            await seat.close()
            seats[name] = await Seat.connect(server.port, name, seed=5, key=keys[name])
            await seats[name].wait_for("Welcome back")
        _, _, steps_after = replayed_record(data, code, None)
        assert steps_after == steps_before, "nothing lost, nothing added"
        ends = await asyncio.gather(*(s.play() for s in seats.values()))
        assert sum("You win the match!" in e for e in ends) == 1
        stored, replayed, _ = replayed_record(data, code, None)
        assert stored == replayed and read_ecn(stored).match.is_over
        for s in seats.values():
            await s.close()
    finally:
        await server.stop()


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_workers_stop_when_their_supervisor_is_killed(tmp_path):
    """kill -9 of the supervisor: its workers do not go on serving the club's port alone,
    and they stop as they would have with it: their output went to it, and the first line
    printed into that dead pipe used to cut their stop short (their places in the club and
    their wake-up sockets were left behind)."""
    from net.commands.status import read_status

    data = tmp_path / "data"
    server = ServerProcess(data, free_port(), "--workers", "2")
    banner = await server.start()
    m = re.search(r"\(2 workers, pids (\d+), (\d+)\)", banner)
    assert m, banner
    pids = [int(m.group(1)), int(m.group(2))]
    wake = LocalWakeFolder(data / "club.db")
    try:
        assert all(alive(pid) for pid in pids)
        assert len(read_status(data / "club.db", time.time()).serving) == 2
        assert wake.sockets() == 2
        server.kill()  # the supervisor alone
        async with asyncio.timeout(20):
            while any(alive(pid) for pid in pids):
                await asyncio.sleep(0.1)
        with socket.socket() as sock:  # and the port is free again
            sock.bind(("127.0.0.1", server.port))
        assert read_status(data / "club.db", time.time()).serving == []  # each said goodbye
        assert wake.sockets() == 0
    finally:
        await server.stop()


class LocalWakeFolder:
    """The club's folder of wake-up sockets (net/club_sync/local_wake.py), one per process."""

    def __init__(self, db: Path) -> None:
        from net.club_sync.local_wake import folder_for

        self.path = folder_for(db)

    def sockets(self) -> int:
        return len(list(self.path.iterdir())) if self.path.exists() else 0


async def test_serve_runs_one_worker_per_core_unless_told(tmp_path):
    """What an operator gets from a bare ``ecarte serve``: a worker for each core; each
    worker is one process (it must not start workers of its own)."""
    cores = default_workers()
    server = ServerProcess(tmp_path / "data", free_port(), default_workers=True)
    banner = await server.start()
    try:
        if cores > 1:
            m = re.search(r"\((\d+) workers, pids ([\d, ]+)\)", banner)
            assert m and int(m.group(1)) == cores, banner
            pids = [int(p) for p in m.group(2).split(", ")]
            for pid in pids:  # a worker's children would be workers of a worker
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                assert children == [], (pid, children)
        else:
            assert "workers" not in banner, banner
    finally:
        await server.stop()
    assert worker_argv(["serve", "--port", "2222", "--workers", "3"])[-4:] == [
        "--workers", "1", "--shared", "--reuse-port"]
    assert "3" not in worker_argv(["serve", "--workers=3"])



def _serve(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    return subprocess.run(
        [sys.executable, "-m", "ecarte_tui", "serve", "--host", "127.0.0.1",
         "--data-dir", str(data_dir), *args],
        capture_output=True, text=True, timeout=60, env=env)


def test_workers_refuse_a_port_another_server_shares(tmp_path):
    """Workers bind with SO_REUSEPORT, and so may another club's: a second ``ecarte serve``
    on the port ran, and the kernel sent half the players to it. It must stop at once,
    say why, and create nothing."""
    with socket.socket() as other:  # another club's worker, listening as ours do
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        done = _serve("--port", str(port), "--workers", "2", data_dir=tmp_path / "data")
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr
    assert not (tmp_path / "data").exists()


def test_a_port_out_of_range_is_refused_with_its_reason(tmp_path):
    done = _serve("--port", "99999", data_dir=tmp_path / "data")
    assert done.returncode == 2
    assert "--port: must be between 0 and 65535, not 99999" in done.stderr
    assert "Traceback" not in done.stderr


async def test_the_workers_banner_heads_with_the_club_when_the_log_says_more(tmp_path):
    """With ``--log-level debug`` a worker logs before its banner: the supervisor took that
    log line for the banner's head ("... Creating SSH listener ... (2 workers, ...)")."""
    server = ServerProcess(tmp_path / "data", free_port(), "--workers", "2",
                           "--log-level", "debug")
    banner = await server.start()
    try:
        heads = [line for line in banner.splitlines() if "(2 workers, pids" in line]
        assert len(heads) == 1, banner
        assert heads[0].startswith(f"Écarté club listening on 127.0.0.1:{server.port} ")
        logged = [line for line in banner.splitlines() if "Creating SSH listener" in line]
        assert sorted(line.split("]")[0] for line in logged) == ["[worker 1", "[worker 2"]
    finally:
        await server.stop()


async def test_workers_count_an_addresses_connections_together(tmp_path):
    """``--max-connections-per-ip 2`` on two workers let an address hold two on each: the
    kernel spreads one address's connections over the workers, and each counted its own."""
    import asyncssh
    from ssh_harness import connect

    server = ServerProcess(tmp_path / "data", free_port(), "--workers", "2",
                           "--max-connections-per-ip", "2")
    await server.start()
    accepted: list[asyncssh.SSHClientConnection] = []
    try:
        refused = 0
        for _ in range(6):
            try:
                accepted.append(await connect(server.port))
            except (asyncssh.DisconnectError, ConnectionError) as e:
                assert "too many connections from your address" in str(e)
                refused += 1
        assert (len(accepted), refused) == (2, 4)
        gone = accepted.pop()
        gone.close()
        await gone.wait_closed()
        for _ in range(300):  # its worker counts it out when it sees the close
            try:
                accepted.append(await connect(server.port))
                break
            except (asyncssh.DisconnectError, ConnectionError):
                await asyncio.sleep(0.1)
        assert len(accepted) == 2
    finally:
        for conn in accepted:
            conn.close()
        await server.stop()


def test_an_unknown_log_level_is_refused_not_taken_for_warning(tmp_path):
    done = _serve("--log-level", "verbose", data_dir=tmp_path / "data")
    assert done.returncode == 2 and "--log-level: invalid choice: 'VERBOSE'" in done.stderr
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(("extra", "message"), [
    (["--data-dir", "/proc/no-such-dir"], "cannot use the data directory /proc/no-such-dir"),
    (["--store", "postgresql://nobody@127.0.0.1:1/none"],
     "cannot open the club's store postgresql://nobody@127.0.0.1:1/none"),
], ids=["data dir", "store"])
def test_workers_that_cannot_start_say_why_without_a_traceback(tmp_path, extra, message):
    """One process said so; the supervisor of workers printed a traceback."""
    done = _serve("--port", str(free_port()), "--workers", "2", *extra,
                  data_dir=tmp_path / "data")
    assert done.returncode == 1, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
