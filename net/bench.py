"""``ecarte bench ssh --sessions N``: N scripted SSH players at N/2 tables of a real server.

The server runs as a subprocess (``ecarte serve`` on loopback), so its memory is measured
alone and the clients' work (key exchange, decryption, reading their screens) is not
counted as the server's. Each client is a real asyncssh session with a pty, reads its screen
with a small terminal emulator and answers the prompts as a person would, thinking 1 to 2
seconds before each action. Reported: server memory per session, key-to-screen latency (from
sending a key to the first bytes of the redraw it causes), bytes sent per action, errors.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from net.lite_screen import LiteScreen
from net.screen_player import DONE, next_move

SIZE = (80, 24)
THINK = (1.0, 2.0)
ANSWER_TIMEOUT = 5.0
CONNECT_CONCURRENCY = 8
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
    matches_over: int = 0

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


class _HostStopped(Exception):
    """The host of a pair stopped playing (the end of the run), so no new table comes."""


class Pair:
    """Two players at one table; after a match the host opens a new table, the guest joins."""

    def __init__(self) -> None:
        self.codes: asyncio.Queue[str] = asyncio.Queue()
        self.host_stopped = asyncio.Event()  # the host's play is over: no new table comes


class BenchClient(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """One player: a pty session, its screen, and the time its last key was sent."""

    def __init__(self, totals: Totals, seed: int) -> None:
        self.pair: Pair | None = None
        self.host = False
        self.totals = totals
        self.rng = random.Random(seed)
        self.screen = LiteScreen(*SIZE)
        self.pending = bytearray()
        self.received = 0
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
                try:
                    await self.rematch()
                except TimeoutError:
                    t.error("new table after a match")
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
            move = next_move(self.text(), self.rng)  # still asked? (a dialog may have gone)
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
                t.error("no answer to a key")
        if self.closed and time.monotonic() < t.until:
            t.error("session closed")
        if self.host and self.pair is not None:
            self.pair.host_stopped.set()

    async def open_new_table(self) -> str:
        """From the lobby or a finished match: n, then Enter on the dialog; the new code."""
        self.press(b"n")
        await self.wait_text("A new table")
        await self.quiet(0.2)  # the dialog has its focus: Enter is "Create"
        self.press(b"\r")
        code = _CODE.search(await self.wait_text("Waiting for an opponent"))
        assert code is not None
        return code.group(1)

    async def rematch(self) -> None:
        """The match is over: the host opens a new table (n, Enter), the guest goes back to
        the lobby and joins it by its code (h, j, the code, Enter): the load stays the same."""
        assert self.pair is not None
        if self.host:
            await self.pair.codes.put(await self.open_new_table())
        else:
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


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


async def _start_server(data_dir: Path, sessions: int) -> tuple[asyncio.subprocess.Process, int]:
    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(repo) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cap = str(sessions + 20)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "ecarte_tui", "serve", "--host", "127.0.0.1", "--port", "0",
        "--data-dir", str(data_dir), "--max-connections", cap, "--max-connections-per-ip", cap,
        "--lobby-idle-timeout", "0", "--idle-timeout", "0", "--log-level", "ERROR",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env)
    assert proc.stdout is not None
    async with asyncio.timeout(60):
        while True:
            line = (await proc.stdout.readline()).decode()
            if not line:
                raise RuntimeError("the server did not start")
            m = _LISTENING.search(line)
            if m:
                return proc, int(m.group(1))


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
        host.pair = guest.pair = Pair()
        host.host = True
        return [host, guest]


async def bench(sessions: int, duration: float, log: Any = None) -> dict[str, Any]:
    pairs = max(1, sessions // 2)
    totals = Totals()
    # a TERM (or ^C) still stops the server subprocess: the finally below runs
    task = asyncio.current_task()
    assert task is not None
    with contextlib.suppress(NotImplementedError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    with tempfile.TemporaryDirectory(prefix="ecarte-bench-") as tmp:
        proc, port = await _start_server(Path(tmp), pairs * 2)
        clients: list[BenchClient] = []
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
            cpu_before = _cpu_seconds(proc.pid)
            own_before = time.process_time()
            totals.until = time.monotonic() + duration
            totals.measuring = True
            await asyncio.gather(*players)
            totals.measuring = False
            cpu = (_cpu_seconds(proc.pid) - cpu_before) / duration
            client_cpu = (time.process_time() - own_before) / duration
            rss_end = _rss_mb(proc.pid)
        finally:
            for c in clients:
                c.close()
            proc.terminate()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(10):
                    await proc.wait()
            if proc.returncode is None:
                proc.kill()
    n = max(1, len(clients))
    lat = sorted(totals.latencies)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else 0.0
    return {
        "sessions": len(clients),
        "mb_per_session": round((max(rss_seated, rss_end) - rss_idle) / n, 3),
        "latency_ms": {"p50": round(p50, 2), "p99": round(p99, 2)},
        "bytes_per_action": round(totals.bytes_in_play / max(1, totals.actions), 1),
        "errors": totals.errors,
        "details": {
            "requested_sessions": sessions,
            "play_seconds": duration,
            "actions": totals.actions,
            "key_presses_timed": len(lat),
            "rss_mb": {"idle": round(rss_idle, 1), "seated": round(rss_seated, 1),
                       "end": round(rss_end, 1)},
            "server_cpu_share": round(cpu, 3),
            "client_cpu_share": round(client_cpu, 3),
            "load_average": os.getloadavg()[0],
            "seat_seconds": round(seated_in, 1),
            "note": "tables play while the others are being seated; only the last "
                    f"{duration:.0f} s (everybody seated) are measured",
            "matches_over": totals.matches_over,
            "error_kinds": totals.error_kinds,
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

    result = asyncio.run(bench(sessions, duration, None if as_json else log))
    if as_json:
        print(json.dumps(result))
        return 0 if result["errors"] == 0 else 1
    d = result["details"]
    lat = result["latency_ms"]
    print(f"ssh bench: {result['sessions']} sessions at {result['sessions'] // 2} tables, "
          f"{d['play_seconds']:.0f} s of play, one action every 1-2 s per player")
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
    print(f"errors:     {result['errors']} {d['error_kinds'] or ''}".rstrip())
    return 0 if result["errors"] == 0 else 1
