"""Two SSH players play again after their match: "r" on the box, "r" to say yes, and both
are at a new table of the same kind without passing through the lobby."""

from __future__ import annotations

import asyncio

from server_harness import Seat, club_server, open_table


async def test_both_press_r_and_play_a_new_match_at_a_new_table(tmp_path):
    async with club_server(tmp_path) as server:
        anna = await Seat.connect(server.port, "anna", seed=1)
        code = await open_table(anna)
        ben = await Seat.connect(server.port, "ben", seed=2, command=f"join {code}")
        await anna.wait_for("Draw for the deal")
        await asyncio.gather(anna.play(), ben.play())
        await anna.wait_for("Play again  r")
        await ben.wait_for("Play again  r")
        before = set(server.club.tables)
        # held here: once both have left it, the sweep may forget the finished table
        old = server.club.find(code)

        anna.press(b"r")
        await anna.wait_for("You asked")  # the box stays up; the banner says she waits
        await anna.wait_for("to play again: waiting for an answer")
        await ben.wait_for("asks to play again: r to say yes")
        assert set(server.club.tables) == before, "no table until the other says yes"

        ben.press(b"r")
        await ben.wait_for("Draw for the deal")
        await anna.wait_for("Draw for the deal")  # her screen followed her to the new table
        assert old.rematch is not None and old.rematch.next_code is not None
        lt = server.club.find(old.rematch.next_code)
        assert set(server.club.tables) - before == {lt.code}, "one new table"
        assert lt.code != code
        assert lt.options == old.options
        assert [s.name for s in lt.seats] == [s.name for s in old.seats]
        assert [s.sessions for s in lt.seats] == [1, 1], "both sit there now"
        assert [s.sessions for s in old.seats] == [0, 0], "and have left the old one"
        for c in (anna, ben):
            await c.close()

