"""The operator's log says, every ten minutes when it changed, how busy the process is, and
the server says it at once on SIGUSR1."""

from __future__ import annotations

import asyncio
import logging
import signal

from server_harness import Seat, club_server, first_visit, new_key, play_the_bot
from server_process import ServerProcess, free_port

from net import game_server


async def test_the_log_says_how_many_sessions_and_tables_when_that_changes(
        tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(game_server, "SWEEP_SECONDS", 0.05)
    monkeypatch.setattr(game_server, "STATUS_SECONDS", 0.1)
    caplog.set_level(logging.INFO, logger="net.game_server")
    async with club_server(tmp_path) as server:
        anna = await first_visit(server.port, "anna", new_key())
        await play_the_bot(anna)
        gus = await Seat.connect(server.port, "gus")
        await gus.wait_for("C L U B")
        code = next(iter(server.club.tables))
        cleo = await Seat.connect(server.port, "cleo", command=f"watch {code}")
        await cleo.wait_for("Watching table")
        expected = ("now: 3 sessions (2 guests), 1 table in play, 0 waiting for a player, "
                    "1 watching")
        assert server.status() == expected
        for _ in range(100):
            if any(r.getMessage() == expected for r in caplog.records):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # several more status times, nothing changed
        said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("now:")]
        assert said.count(expected) == 1 and said[-1] == expected, said
        for seat in (anna, gus, cleo):
            await seat.close()


async def _lines_until(server: ServerProcess, count: int, needle: str) -> list[str]:
    """The server's next output lines until ``count`` of them hold ``needle``."""
    assert server.proc is not None and server.proc.stdout is not None
    lines: list[str] = []
    async with asyncio.timeout(30):
        while sum(needle in line for line in lines) < count:
            lines.append((await server.proc.stdout.readline()).decode())
    return lines


async def test_sigusr1_makes_every_worker_say_at_once_how_busy_it_is(tmp_path):
    """An operator's ``kill -USR1`` (``systemctl kill --kill-whom=main -s USR1``) to the
    supervisor is passed to its workers; each prints its status whatever the log level,
    and the processes go on serving."""
    server = ServerProcess(tmp_path / "data", free_port(), "--workers", "2")
    await server.start()
    try:
        gus = await Seat.connect(server.port, "gus")
        await gus.wait_for("C L U B")
        assert server.proc is not None
        server.proc.send_signal(signal.SIGUSR1)
        lines = await _lines_until(server, 2, "now: ")
        said = sorted(line.split("] ", 1)[0] for line in lines if "now: " in line)
        assert said == ["[worker 1", "[worker 2"]
        assert sum("now: 1 session (1 guest)" in line for line in lines) == 1
        await asyncio.sleep(1.1)  # (within a second a second signal is the same ask)
        server.proc.send_signal(signal.SIGUSR1)  # again: still serving, asked again
        await _lines_until(server, 2, "now: ")
        late = await Seat.connect(server.port, "late")
        await late.wait_for("C L U B")
        for seat in (gus, late):
            await seat.close()
    finally:
        assert await server.stop() == 0


async def test_one_process_says_its_status_on_sigusr1(tmp_path):
    server = ServerProcess(tmp_path / "data", free_port())
    await server.start()
    try:
        assert server.proc is not None
        server.proc.send_signal(signal.SIGUSR1)
        lines = await _lines_until(server, 1, "now: ")
        assert lines[-1].startswith("now: 0 sessions (0 guests), 0 tables in play")
    finally:
        assert await server.stop() == 0
