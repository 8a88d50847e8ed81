"""The operator's log says, every ten minutes when it changed, how busy the process is."""

from __future__ import annotations

import asyncio
import logging

from server_harness import Seat, club_server, first_visit, new_key, play_the_bot

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
