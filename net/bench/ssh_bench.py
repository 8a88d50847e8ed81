"""``ecarte bench ssh --sessions N``: N scripted SSH players at N/2 tables of a real server.

The server runs as a subprocess (``ecarte serve`` on loopback), so its memory is measured
alone and the clients' work (key exchange, decryption, reading their screens) is not
counted as the server's. Each client is a real asyncssh session with a pty, reads its screen
with a small terminal emulator and answers the prompts as a person would, thinking 1 to 2
seconds before each action; after a match a pair plays again at the table (r), or one time
in ``LOBBY_EVERY`` goes through the lobby. Reported: server memory per session,
key-to-screen latency (from sending a key to the first bytes of the redraw it causes), bytes
sent per action, the server's CPU per action, errors.

Then an idle phase (``--idle-seconds``, 0 skips it): fresh sessions left alone, first in the
lobby, then at tables (pairs seated with nobody acting, hosts waiting for an opponent), each
group in its own window so the server's CPU can be told apart; reported per idle session per
second, with the CPU of the server with no session at all for comparison.

``--profile FILE`` profiles the server (cProfile) over the measured play only: the bench
signals it at the start and the end of the window (``ECARTE_PROFILE_WINDOW``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import random
import re
import signal
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from net.bench.lite_screen import LiteScreen
from net.bench.screen_player import DONE, next_move

SIZE = (80, 24)
THINK = (1.0, 2.0)
ANSWER_TIMEOUT = 5.0
CONNECT_CONCURRENCY = 8
FRAME_GAP = 0.05
IDLE_SETTLE = 1.0  # after the screens went quiet, before an idle window starts
LOGIN_TOAST_SECONDS = 8.0
"""How long a guest's welcome toast stays (net/club_app.py): its going away is part of
logging in, not of being idle, so a measuring window (as long as that or longer; shorter
ones are smoke runs) starts after it."""
LOBBY_EVERY = 4
"""After a match a pair goes through the lobby (a new table, joined by its code) one time in
this many; the other times both press r and play again at the table."""
QUIET_SHARE = 0.05  # the server is "quiet" below this share of a core ...
QUIET_LIMIT = 5.0  # ... or after this many seconds of waiting for it
_LISTENING = re.compile(r"listening on [^\s:]+:(\d+)")
_CODE = re.compile(r"join ([A-Z]{4})")


class _Guest(asyncssh.SSHClient):
    """Keyboard-interactive with no prompts: how a player without a key logs in."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, *_args: Any) -> list[str]:
        return []


@dataclass
class Totals:
    """What the clients measured; only while ``measuring`` (all seated, play under way)."""

    measuring: bool = False
    until: float = float("inf")  # when play stops (monotonic), set once all are seated
    latencies: list[float] = field(default_factory=list)
    by_move: dict[str, list[float]] = field(default_factory=dict)
    actions: int = 0
    bytes_in_play: int = 0
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    error_screens: dict[str, str] = field(default_factory=dict)
    matches_over: int = 0

    def error(self, kind: str, screen: str | None = None) -> None:
        """Count an error of this kind; ``screen``: what the player saw (the first kept)."""
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1
        if screen is not None:
            self.error_screens.setdefault(kind, screen)


class _HostStopped(Exception):
    """One of a pair stopped playing (the end of the run): no new table comes, or nobody
    comes to it."""


async def _first(wanted: Awaitable[object], stop: Awaitable[object],
                 stopped: type[Exception]) -> None:
    """Wait for ``wanted``; raise ``stopped`` if ``stop`` comes first."""
    want, halt = asyncio.ensure_future(wanted), asyncio.ensure_future(stop)
    try:
        done, _ = await asyncio.wait({want, halt}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for f in (want, halt):
            f.cancel()
    if halt in done:
        raise stopped
    want.result()  # (its TimeoutError, if it timed out)


class Pair:
    """Two players at one table; after a match they play again at the table, or the host
    opens a new table and the guest joins it (``LOBBY_EVERY``)."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._ways: dict[int, bool] = {}
        self.codes: asyncio.Queue[str] = asyncio.Queue()
        self.host_stopped = asyncio.Event()  # the host's play is over: no new table comes
        self.guest_stopped = asyncio.Event()  # the guest's is: nobody comes to a new table
        self.players: list[BenchClient] = []  # host, guest

    def via_lobby(self, match: int) -> bool:
        """Whether the pair's ``match``-th finished match is followed by a trip through the
        lobby (one time in ``LOBBY_EVERY``, at random): the same answer for both players."""
        if match not in self._ways:
            self._ways[match] = self._rng.randrange(LOBBY_EVERY) == 0
        return self._ways[match]


class BenchClient(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """One player: a pty session, its screen, and the time its last key was sent."""

    def __init__(self, totals: Totals, seed: int) -> None:
        self.pair: Pair | None = None
        self.host = False
        self.matches = 0  # finished here (both of a pair count the same matches)
        self.totals = totals
        self.rng = random.Random(seed)
        self.screen = LiteScreen(*SIZE)
        self.pending = bytearray()
        self.received = 0
        self.frames = 0  # bursts of output (a gap of FRAME_GAP before each): redraws, roughly
        self.last_data = 0.0  # monotonic time of the last bytes received
        self.key_sent_at: float | None = None
        self.key_why = ""
        self.data = asyncio.Event()
        self.closed = False
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None

    # asyncssh callbacks: kept tiny, the screen is read only when the player looks at it
    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        t = self.totals
        if self.key_sent_at is not None:
            if t.measuring:
                took = time.perf_counter() - self.key_sent_at
                t.latencies.append(took)
                t.by_move.setdefault(self.key_why, []).append(took)
            self.key_sent_at = None
        self.pending += data
        self.received += len(data)
        now = time.monotonic()
        if now - self.last_data > FRAME_GAP:
            self.frames += 1
        self.last_data = now
        if t.measuring:
            t.bytes_in_play += len(data)
        self.data.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.data.set()

    @classmethod
    async def open(cls, port: int, totals: Totals, seed: int,
                   command: str | None = None) -> BenchClient:
        conn = await asyncssh.connect(
            "127.0.0.1", port, username=f"bench{seed}", known_hosts=None, agent_path=None,
            config=None, client_keys=[], client_factory=_Guest)
        client = cls(totals, seed)
        client.conn = conn
        client.chan, _ = await conn.create_session(
            lambda: client, command, term_type="xterm-256color", term_size=SIZE,
            encoding=None)
        return client

    def text(self) -> str:
        if self.pending:
            self.screen.feed(bytes(self.pending))
            self.pending.clear()
        return self.screen.text()

    def press(self, key: bytes) -> None:
        assert self.chan is not None
        self.key_sent_at = time.perf_counter()
        self.chan.write(key)

    async def wait_data(self, timeout: float) -> bool:
        self.data.clear()
        try:
            await asyncio.wait_for(self.data.wait(), timeout)
        except TimeoutError:
            return False
        return not self.closed

    async def quiet(self, gap: float = 0.05) -> None:
        """Until a frame is complete: no bytes for ``gap`` seconds."""
        while True:
            seen = self.received
            await asyncio.sleep(gap)
            if self.received == seen:
                return

    async def wait_text(self, needle: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if needle in text:
                return text
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                raise TimeoutError(f"{needle!r} never appeared")
            await self.wait_data(min(left, 1.0))

    async def play(self) -> None:
        """Answer every prompt at a human pace until ``totals.until``."""
        t = self.totals
        while time.monotonic() < t.until and not self.closed:
            await self.quiet()
            move = next_move(self.text(), self.rng)
            if move is DONE:
                t.matches_over += 1
                await asyncio.sleep(self.rng.uniform(*THINK))
                if time.monotonic() >= t.until:
                    break  # the measurement is over: no new table
                self.matches += 1
                lobby = self.pair is not None and self.pair.via_lobby(self.matches)
                try:
                    await (self.rematch() if lobby else self.play_again())
                except TimeoutError as e:  # (which step: a slow server, or a lost key)
                    seen = [p.text() for p in (self.pair.players if self.pair else [self])]
                    way = "new table" if lobby else "playing again"
                    t.error(f"{way} after a match: {e}", "\n\n".join(seen))
                    break
                except _HostStopped:
                    break  # the host stopped at the end of the measurement, not an error
                continue
            if move is None:
                await self.wait_data(max(0.0, min(5.0, t.until - time.monotonic())))
                continue
            await asyncio.sleep(self.rng.uniform(*THINK))
            if time.monotonic() >= t.until or self.closed:
                return
            shown = self.text()
            move = next_move(shown, self.rng)  # still asked? (a dialog may have gone)
            if move is None or move is DONE:
                continue
            before = self.received
            self.key_why = move.why
            self.press(move.key)
            if t.measuring:
                t.actions += 1
            answered = await self.wait_data(ANSWER_TIMEOUT)
            if not answered and self.received == before and not self.closed:
                self.key_sent_at = None
                t.error(f"no answer to a key ({move.why})",
                        f"{move.key!r} pressed on:\n{shown}\n\n{ANSWER_TIMEOUT:g} s later:\n"
                        f"{self.text()}")
        if self.closed and time.monotonic() < t.until:
            t.error("session closed")
        if self.pair is not None:
            (self.pair.host_stopped if self.host else self.pair.guest_stopped).set()

    async def open_new_table(self) -> str:
        """From the lobby or a finished match: n, then Enter on the dialog; the new code."""
        self.press(b"n")
        await self.wait_text("A new table")
        await self.quiet(0.2)  # the dialog has its focus: Enter is "Create"
        self.press(b"\r")
        code = _CODE.search(await self.wait_text("Waiting for an opponent"))
        assert code is not None
        return code.group(1)

    async def play_again(self) -> None:
        """The match is over: both press r (the first asks, the other says yes) and the pair
        is at a new table of the same kind."""
        assert self.pair is not None
        partner_stopped = self.pair.guest_stopped if self.host else self.pair.host_stopped
        self.key_why = "play again"
        self.press(b"r")  # (not counted as an action, as the lobby's keys are not)
        await _first(self.wait_text("Draw for the deal"), partner_stopped.wait(),
                     stopped=_HostStopped)
        self.key_sent_at = None

    async def rematch(self) -> None:
        """The match is over: the host opens a new table (n, Enter), the guest goes back to
        the lobby and joins it by its code (h, j, the code, Enter): the load stays the same."""
        assert self.pair is not None
        if self.host:
            await self.pair.codes.put(await self.open_new_table())
            # the guest may have seen the match end only once the measurement was over,
            # and stopped: then nobody comes, which is the end of the run, not an error
            await _first(self.wait_text("Écarté ·"), self.pair.guest_stopped.wait(),
                         stopped=_HostStopped)
            self.key_sent_at = None
            return
        self.press(b"h")
        await self.wait_text("Join by code")
        code = await self._code_from_host()
        await self.quiet(0.2)
        self.press(b"j")
        await self.wait_text("Join a table")
        await self.quiet(0.2)
        for ch in code:
            self.press(ch.encode())
            await asyncio.sleep(0.05)
        self.press(b"\r")
        await self.wait_text("Écarté ·")
        self.key_sent_at = None

    async def _code_from_host(self) -> str:
        """The host's new table code; _HostStopped if the host ended its play instead (the
        measurement ended between the two players seeing the end of the match)."""
        assert self.pair is not None
        get = asyncio.ensure_future(self.pair.codes.get())
        stopped = asyncio.ensure_future(self.pair.host_stopped.wait())
        try:
            done, _ = await asyncio.wait({get, stopped}, timeout=60,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            for f in (get, stopped):
                f.cancel()
        if get in done:
            return get.result()
        if stopped in done:
            raise _HostStopped
        raise TimeoutError("no new table from the host")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def seat_deadline(sessions: int) -> float:
    """How long seating may take before the run measures whoever is seated: a second per
    session and at least two minutes (a server keeping up seats 50 in about 20 s)."""
    return max(120.0, float(sessions))


def _tree(pid: int) -> list[int]:
    """The server and its worker processes (``--workers``): everything it runs is its cost."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        with contextlib.suppress(OSError):
            for tid in os.listdir(f"/proc/{p}/task"):
                with contextlib.suppress(OSError), \
                        open(f"/proc/{p}/task/{tid}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
    return out


def _rss_mb(pid: int) -> float:
    total = 0.0
    for p in _tree(pid):
        with contextlib.suppress(OSError), open(f"/proc/{p}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
    return total


def _cpu_seconds(pid: int) -> float:
    """The CPU time of the server and its workers (see ``_process_cpu_seconds``)."""
    return sum(_cpu_by_process(pid).values())


def _cpu_by_process(pid: int) -> dict[int, float]:
    """Each process's CPU time: with workers, whether one of them saturates before the
    pair does (the port spreads connections between them, not work)."""
    out: dict[int, float] = {}
    for p in _tree(pid):
        with contextlib.suppress(OSError):
            out[p] = _process_cpu_seconds(p)
    return out


def _process_cpu_seconds(pid: int) -> float:
    """The process's CPU time (user + system, every thread), in seconds: from each thread's
    schedstat in nanoseconds when the kernel has it, since an idle session costs far less than
    the 10 ms clock tick of /proc/PID/stat, which is the fallback. (The server's threads are
    its event loop and the bots' executor, which live as long as the process.)"""
    total = 0
    with contextlib.suppress(OSError):
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError, ValueError, IndexError):
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    total += int(f.read().split()[0])
    if total:
        return total / 1e9
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


async def _cpu_at(pid: int, when: float) -> dict[int, float]:
    """Each server process's CPU time at the monotonic time ``when``: the end of the
    measured play (an overloaded run's players stop long after it)."""
    await asyncio.sleep(max(0.0, when - time.monotonic()))
    return _cpu_by_process(pid)


async def _server_quiet(pid: int) -> None:
    """Until the server spends under QUIET_SHARE of a core (at most QUIET_LIMIT seconds):
    closing sessions leaves work (teardown, garbage) that is not an idle session's cost."""
    deadline = time.monotonic() + QUIET_LIMIT
    while time.monotonic() < deadline:
        before = _cpu_seconds(pid)
        await asyncio.sleep(0.5)
        if _cpu_seconds(pid) - before < QUIET_SHARE * 0.5:
            return


async def _screens_quiet(clients: list[BenchClient], gap: float = 0.3,
                         limit: float = 5.0) -> None:
    """Until no client has received anything for ``gap`` seconds (at most ``limit``): the
    screens drawn on connecting or seating are not idle traffic; a session that never goes
    quiet is measured as it is."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        seen = sum(c.received for c in clients)
        await asyncio.sleep(gap)
        if sum(c.received for c in clients) == seen:
            return


@contextlib.contextmanager
def _scratch_database(cluster: str | None) -> Iterator[str | None]:
    """A new empty database on the PostgreSQL at ``cluster`` for one run (dropped after it):
    a run must not restore the tables of the one before."""
    if cluster is None:
        yield None
        return
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    name = f"ecarte_bench_{os.getpid()}_{random.randrange(1 << 30)}"
    with psycopg.connect(cluster, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(cluster)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(cluster, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def _start_server(data_dir: Path, sessions: int, profile: Path | None = None,
                        workers: int = 1, store: str | None = None
                        ) -> tuple[asyncio.subprocess.Process, int]:
    """``ecarte serve`` on a free loopback port; with ``profile``, ready to profile the
    window between SIGUSR1 and SIGUSR2 into that file; with ``workers`` > 1, that many
    worker processes on the port (and their supervisor); with ``store``, in PostgreSQL."""
    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(repo) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cap = str(2 * sessions + 20)  # the play's sessions may still be closing as idle ones open
    python = [sys.executable]
    if profile is not None:
        env["ECARTE_PROFILE_WINDOW"] = str(profile)
    extra: list[str] = ["--workers", str(workers)]
    port = "0"
    if workers > 1:  # each worker binds the one port: it must be chosen beforehand
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = str(sock.getsockname()[1])
    if store:
        extra += ["--store", store]
    proc = await asyncio.create_subprocess_exec(
        *python, "-m", "ecarte_tui", "serve", "--host", "127.0.0.1", "--port", port,
        "--data-dir", str(data_dir), "--max-connections", cap, "--max-connections-per-ip", cap,
        "--lobby-idle-timeout", "0", "--idle-timeout", "0", "--log-level", "ERROR", *extra,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
        start_new_session=True)  # its own process group: see _stop_server
    assert proc.stdout is not None
    async with asyncio.timeout(60):
        while True:
            line = (await proc.stdout.readline()).decode()
            if not line:
                raise RuntimeError("the server did not start")
            m = _LISTENING.search(line)
            if m:
                # read what it says from now on: a supervisor whose output nobody reads
                # blocks in a print once the pipe is full, and so do its workers
                drain = asyncio.create_task(_drain(proc.stdout))
                _DRAINS.add(drain)
                drain.add_done_callback(_DRAINS.discard)
                return proc, int(m.group(1))


_DRAINS: set[asyncio.Task[None]] = set()


async def _drain(stream: asyncio.StreamReader) -> None:
    """The server's output after start-up: dropped, or appended to the file named by
    ``ECARTE_BENCH_SERVER_LOG`` (to read what a run's server logged)."""
    path = os.environ.get("ECARTE_BENCH_SERVER_LOG")
    with open(path, "ab") if path else contextlib.nullcontext() as out:
        while chunk := await stream.read(65536):
            if out is not None:
                out.write(chunk)
                out.flush()


async def _stop_server(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM, time for the supervisor to stop its workers (it gives each 10 s), then
    kill -9 of the whole process group: no worker is left serving after the run."""
    proc.terminate()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(25):
            await proc.wait()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    await proc.wait()


async def _seat_pair(port: int, totals: Totals, seed: int,
                     gate: asyncio.Semaphore) -> list[BenchClient]:
    """Open a table from the lobby (n, Enter), then a second player joins it by its code."""
    async with gate:
        opened: list[BenchClient] = []
        try:
            host = await BenchClient.open(port, totals, seed)
            opened.append(host)
            await host.wait_text("C L U B")
            code = await host.open_new_table()
            guest = await BenchClient.open(port, totals, seed + 1, f"join {code}")
            opened.append(guest)
            await guest.wait_text("Écarté ·")
            await host.wait_text("Écarté ·")
        except BaseException:
            for c in opened:  # not seated (an error, or the seating deadline): hang up
                c.close()
            raise
        host.key_sent_at = guest.key_sent_at = None  # set-up keys are not measured
        host.pair = guest.pair = Pair(seed)
        host.pair.players = [host, guest]
        host.host = True
        return [host, guest]


def idle_counts(sessions: int) -> dict[str, int]:
    """Idle sessions of each kind for a run of ``sessions``: half of them in the lobby, a
    quarter as seated pairs, an eighth waiting alone at a new table; at least one of each."""
    return {"lobby": max(1, sessions // 2), "seated": 2 * max(1, sessions // 4),
            "waiting": max(1, sessions // 8)}


async def _open_idle(port: int, kind: str, seed: int,
                     gate: asyncio.Semaphore) -> list[BenchClient]:
    """One idle unit: a session in the lobby, one waiting at the table it opened, or a pair
    seated at a table (the game dealt and asking, nobody answering)."""
    if kind == "seated":
        return await _seat_pair(port, Totals(), seed, gate)
    async with gate:
        client = await BenchClient.open(port, Totals(), seed)
        try:
            await client.wait_text("C L U B")
            if kind == "waiting":
                await client.open_new_table()
        except BaseException:
            client.close()
            raise
        client.key_sent_at = None
        return [client]


async def _idle_window(pid: int, port: int, counts: dict[str, int], seconds: float, seed: int,
                       totals: Totals, opened: list[BenchClient]) -> dict[str, Any]:
    """Open ``counts`` sessions (kind: how many), let their screens and the server settle,
    then leave them alone for ``seconds``: the server's CPU and what each kind received."""
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    units = [kind for kind, n in counts.items() for _ in range(n // 2 if kind == "seated" else n)]
    results = await asyncio.gather(
        *(_open_idle(port, kind, seed + 2 * i, gate) for i, kind in enumerate(units)),
        return_exceptions=True)
    by_kind: dict[str, list[BenchClient]] = {kind: [] for kind in counts}
    for kind, got in zip(units, results, strict=True):
        if isinstance(got, BaseException):
            totals.error(f"idle {kind} session: {type(got).__name__}")
        else:
            by_kind[kind].extend(got)
            opened.extend(got)
    everyone = [c for group in by_kind.values() for c in group]
    toasts_gone = time.monotonic() + (
        LOGIN_TOAST_SECONDS + IDLE_SETTLE if seconds >= LOGIN_TOAST_SECONDS else 0.0)
    await _screens_quiet(everyone)
    await _server_quiet(pid)
    await asyncio.sleep(max(IDLE_SETTLE, toasts_gone - time.monotonic()))
    received = {id(c): (c.received, c.frames) for c in everyone}
    start = time.monotonic()
    cpu_before = _cpu_seconds(pid)
    await asyncio.sleep(seconds)
    cpu_ms = (_cpu_seconds(pid) - cpu_before) * 1000
    for c in everyone:
        if c.closed:
            totals.error("idle session closed")
    kinds: dict[str, dict[str, Any]] = {}
    for kind, group in by_kind.items():
        got = sum(c.received - received[id(c)][0] for c in group)
        # a steady cost (a ticking screen) or a one-off (a toast going away) tell apart by
        # how many redraws there were, how many sessions had none, and when the last came
        talked = [c for c in group if c.received > received[id(c)][0]]
        kinds[kind] = {
            "sessions": len(group), "bytes": got,
            "bytes_per_session_s": _per(got, len(group) * seconds, 1),
            "frames": sum(c.frames - received[id(c)][1] for c in group),
            "silent_sessions": len(group) - len(talked),
            "last_bytes_at_s": round(max(c.last_data for c in talked) - start, 2)
                               if talked else None,
        }
    return {"sessions": len(everyone), "cpu_ms": round(cpu_ms, 3),
            "bytes": sum(k["bytes"] for k in kinds.values()), "kinds": kinds}


def _per(amount: float, per: float, digits: int) -> float | None:
    """``amount / per`` rounded, or None when there was nothing to divide by."""
    return round(amount / per, digits) if per else None


async def idle_phase(pid: int, port: int, sessions: int, seconds: float, totals: Totals,
                     opened: list[BenchClient]) -> dict[str, Any]:
    """After the play (its sessions closed): the server with no session, then sessions idle in
    the lobby, then sessions idle at tables, each in its own window of ``seconds`` (the
    server's CPU is one figure for the process, so the groups cannot share a window)."""
    counts = idle_counts(sessions)
    await _server_quiet(pid)
    alone = min(seconds, 5.0)
    cpu_before = _cpu_seconds(pid)
    await asyncio.sleep(alone)
    background = (_cpu_seconds(pid) - cpu_before) * 1000 / alone
    lobby = await _idle_window(pid, port, {"lobby": counts["lobby"]}, seconds, 5000, totals,
                               opened)
    for c in opened:
        c.close()
    table = await _idle_window(
        pid, port, {"seated": counts["seated"], "waiting": counts["waiting"]}, seconds, 6000,
        totals, opened)
    groups = {"lobby": lobby, "table": table}
    for group in groups.values():
        session_s = group["sessions"] * seconds
        group["session_seconds"] = session_s
        group["cpu_ms_per_session_s"] = _per(group["cpu_ms"], session_s, 4)
        group["bytes_per_session_s"] = _per(group["bytes"], session_s, 1)
    session_s = lobby["session_seconds"] + table["session_seconds"]
    return {
        "seconds": seconds,
        "cpu_ms_per_session_s": _per(lobby["cpu_ms"] + table["cpu_ms"], session_s, 4),
        "bytes_per_session_s": _per(lobby["bytes"] + table["bytes"], session_s, 1),
        "server_alone_cpu_ms_per_s": round(background, 3),
        "note": "lobby, then table (pairs seated with nobody acting, hosts waiting for an "
                f"opponent), each measured alone for {seconds:g} s once screens and server "
                "were quiet; the server's CPU is all-in (server_alone: no session at all)",
        **groups,
    }


async def bench(sessions: int, duration: float, log: Any = None, idle_seconds: float = 10.0,
                profile: Path | None = None, workers: int = 1,
                store: str | None = None) -> dict[str, Any]:
    pairs = max(1, sessions // 2)
    totals = Totals()
    # a TERM (or ^C) still stops the server subprocess: the finally below runs
    task = asyncio.current_task()
    assert task is not None
    with contextlib.suppress(NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    with tempfile.TemporaryDirectory(prefix="ecarte-bench-") as tmp, \
            _scratch_database(store) as club_store:
        proc, port = await _start_server(Path(tmp), pairs * 2, profile, workers, club_store)
        clients: list[BenchClient] = []
        idle_clients: list[BenchClient] = []
        idle: dict[str, Any] | None = None
        try:
            # warm-up: the first session loads screens and styles once for everybody
            warm = await BenchClient.open(port, Totals(), 0)
            await warm.wait_text("C L U B")
            warm.close()
            await asyncio.sleep(1.0)
            rss_idle = _rss_mb(proc.pid)
            gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
            started = time.monotonic()
            players: list[asyncio.Task[None]] = []

            async def seat_and_play(i: int) -> None:
                # each table starts as soon as it is seated, as tables do on a real server
                pair = await _seat_pair(port, totals, 1000 + 2 * i, gate)
                clients.extend(pair)
                players.extend(asyncio.create_task(c.play()) for c in pair)

            seating = [asyncio.create_task(seat_and_play(i)) for i in range(pairs)]
            done, late = await asyncio.wait(seating, timeout=seat_deadline(sessions))
            for task in late:  # an overloaded server: measure those seated, count the rest
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
            for _ in late:
                totals.error(f"not seated within {seat_deadline(sessions):.0f} s")
            for task in done:
                if task.exception() is not None:
                    totals.error(f"setting up a table: {type(task.exception()).__name__}")
            seated_in = time.monotonic() - started
            if log:
                log(f"{len(clients)} sessions seated in {seated_in:.0f} s; measuring "
                    f"{duration:.0f} s of play")
            await asyncio.sleep(2.0)
            rss_seated = _rss_mb(proc.pid)
            by_process_before = _cpu_by_process(proc.pid)
            cpu_before = sum(by_process_before.values())
            own_before = time.process_time()
            totals.until = time.monotonic() + duration
            at_until = asyncio.create_task(_cpu_at(proc.pid, totals.until))
            totals.measuring = True
            if profile is not None:
                proc.send_signal(signal.SIGUSR1)
            await asyncio.gather(*players)
            totals.measuring = False
            if profile is not None:
                with contextlib.suppress(FileNotFoundError):
                    profile.unlink()
                proc.send_signal(signal.SIGUSR2)
                for _ in range(300):  # the stats are written by the server's own loop
                    if profile.exists():
                        break
                    await asyncio.sleep(0.1)
            client_cpu = (time.process_time() - own_before) / max(
                duration, time.monotonic() - (totals.until - duration))
            if at_until.done():  # the server's CPU in the measured play, not after it
                by_process_after = at_until.result()
                window_s = duration
            else:  # every player stopped early: the window ends now
                at_until.cancel()
                by_process_after = _cpu_by_process(proc.pid)
                window_s = duration - (totals.until - time.monotonic())
            window_cpu_ms = (sum(by_process_after.values()) - cpu_before) * 1000
            cpu = window_cpu_ms / 1000 / max(window_s, 1e-3)
            shares = sorted((round((t - by_process_before.get(p, 0.0)) / max(window_s, 1e-3), 3)
                             for p, t in by_process_after.items()), reverse=True)
            rss_end = _rss_mb(proc.pid)
            if idle_seconds > 0:
                for c in clients:
                    c.close()
                if log:
                    log(f"idle phase: {idle_seconds:g} s in the lobby, {idle_seconds:g} s at "
                        "tables")
                idle = await idle_phase(proc.pid, port, sessions, idle_seconds, totals,
                                        idle_clients)
        finally:
            for c in clients + idle_clients:
                c.close()
            await _stop_server(proc)
    n = max(1, len(clients))
    lat = sorted(totals.latencies)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else 0.0
    per_action = _per(window_cpu_ms, totals.actions, 3)
    return {
        "sessions": len(clients),
        "workers": workers,
        "store": "postgresql" if store else "sqlite",
        "mb_per_session": round((max(rss_seated, rss_end) - rss_idle) / n, 3),
        "latency_ms": {"p50": round(p50, 2), "p99": round(p99, 2)},
        "bytes_per_action": round(totals.bytes_in_play / max(1, totals.actions), 1),
        "errors": totals.errors,
        "server_cpu_ms_per_action": per_action,
        "idle_cpu_ms_per_session_s": idle["cpu_ms_per_session_s"] if idle else None,
        "idle_bytes_per_session_s": idle["bytes_per_session_s"] if idle else None,
        "details": {
            "requested_sessions": sessions,
            "play_seconds": duration,
            "actions": totals.actions,
            "key_presses_timed": len(lat),
            "rss_mb": {"idle": round(rss_idle, 1), "seated": round(rss_seated, 1),
                       "end": round(rss_end, 1)},
            "server_cpu_share": round(cpu, 3),
            "server_cpu_share_by_process": shares,
            "client_cpu_share": round(client_cpu, 3),
            "server_cpu_ms_in_window": round(window_cpu_ms, 3),
            "window_seconds": round(window_s, 3),
            "server_cpu_note": "server_cpu_ms_per_action: the server's CPU (user + system, "
                               "all threads) from the start of the measured play to its end, "
                               "over the actions sent in it"
                               + (" (under cProfile: inflated)" if profile else ""),
            "idle": idle,
            "profile": str(profile) if profile else None,
            "server_exit_code": proc.returncode,
            "load_average": os.getloadavg()[0],
            "seat_seconds": round(seated_in, 1),
            "note": "tables play while the others are being seated; only the last "
                    f"{duration:.0f} s (everybody seated) are measured",
            "matches_over": totals.matches_over,
            "error_kinds": totals.error_kinds,
            "error_screens": totals.error_screens,
            "latency_by_move_ms": {
                why: {"n": len(v), "p50": round(1000 * statistics.median(v), 1),
                      "max": round(1000 * max(v), 1)}
                for why, v in sorted(totals.by_move.items())
            },
        },
    }


def run_ssh_bench(args: argparse.Namespace) -> int:
    sessions = int(getattr(args, "sessions", 50) or 50)
    duration = float(getattr(args, "duration", None) or 60.0)
    as_json = bool(getattr(args, "json", False))

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    idle_seconds = float(getattr(args, "idle_seconds", 10.0) or 0.0)
    profile = getattr(args, "profile", None)
    profile = Path(profile).resolve() if profile else None
    workers = int(getattr(args, "workers", 1) or 1)
    store = getattr(args, "store", None)
    if profile is not None and workers > 1:
        print("ecarte bench: --profile profiles one server process: use it with --workers 1",
              file=sys.stderr)
        return 2
    result = asyncio.run(bench(sessions, duration, None if as_json else log, idle_seconds,
                               profile, workers, store))
    if as_json:
        print(json.dumps(result))
        return 0 if result["errors"] == 0 else 1
    d = result["details"]
    lat = result["latency_ms"]
    print(f"ssh bench: {result['sessions']} sessions at {result['sessions'] // 2} tables, "
          f"{d['play_seconds']:.0f} s of play, one action every 1-2 s per player; "
          f"{workers} worker{'s' if workers > 1 else ''}, {result['store']} store")
    print(f"memory:     {result['mb_per_session']:.2f} MB per session (server RSS "
          f"{d['rss_mb']['idle']} MB idle, {d['rss_mb']['seated']} seated, "
          f"{d['rss_mb']['end']} at the end)")
    print(f"latency:    p50 {lat['p50']:.1f} ms, p99 {lat['p99']:.1f} ms "
          f"(key to first byte of the redraw, {d['key_presses_timed']} keys)")
    print(f"output:     {result['bytes_per_action']:,.0f} bytes per action "
          f"({d['actions']} actions)")
    print(f"CPU:        server {100 * d['server_cpu_share']:.0f}% of one core, clients "
          f"{100 * d['client_cpu_share']:.0f}% (load average {d['load_average']:.1f} on "
          f"{os.cpu_count()} cores)")
    if len(d["server_cpu_share_by_process"]) > 1:
        print("            by process: " + ", ".join(
            f"{100 * share:.0f}%" for share in d["server_cpu_share_by_process"]))
    per_action = result["server_cpu_ms_per_action"]
    print(f"server CPU: {per_action if per_action is not None else float('nan'):.1f} ms per "
          f"action ({d['server_cpu_ms_in_window']:,.0f} ms over {d['window_seconds']:.0f} s, "
          f"{d['actions']} actions, all-in{', under cProfile' if profile else ''})")
    idle = d["idle"]
    if idle:
        print(f"idle:       {_num(idle['cpu_ms_per_session_s'], 3)} ms CPU and "
              f"{_num(idle['bytes_per_session_s'], 1)} bytes per session per second "
              f"({idle['seconds']:g} s windows; server alone "
              f"{idle['server_alone_cpu_ms_per_s']:.2f} ms/s)")
        for name in ("lobby", "table"):
            g = idle[name]
            kinds = "; ".join(
                f"{k} {v['sessions']}: {_num(v['bytes_per_session_s'], 1)} B/s, "
                f"{v['frames']} redraws, {v['silent_sessions']} silent"
                + (f", last at {v['last_bytes_at_s']:g} s" if v["last_bytes_at_s"] else "")
                for k, v in g["kinds"].items())
            print(f"  {name + ':':<9}{_num(g['cpu_ms_per_session_s'], 3)} ms CPU, "
                  f"{_num(g['bytes_per_session_s'], 1)} bytes per session per second "
                  f"({kinds})")
    print(f"errors:     {result['errors']} {d['error_kinds'] or ''}".rstrip())
    if profile:
        print_profile(profile)
    return 0 if result["errors"] == 0 else 1


def _num(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def print_profile(path: Path, top: int = 25, sort: str = "cumulative") -> None:
    """The server's profile, ``top`` entries by ``sort``, on stderr (stdout keeps the figures)."""
    if not path.exists():
        print(f"profile: {path} was not written (the server did not exit normally)",
              file=sys.stderr)
        return
    print(f"\nserver profile ({path}), top {top} by {sort} time:", file=sys.stderr)
    stats = pstats.Stats(str(path), stream=sys.stderr)
    stats.sort_stats(sort).print_stats(top)
