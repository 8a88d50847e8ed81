"""Two SSH clients play a whole match through the real server; a third watches.

Every frame each of them receives is checked for cards hidden from it (``leak_check``).
"""

from __future__ import annotations

import asyncio

from leak_check import CheckedClient, SeenCards
from server_harness import Seat, club_server, new_key, open_table

from ecarte_tui.engine import read_ecn


async def test_two_players_play_a_match_and_a_watcher_sees_only_the_public_table(tmp_path):
    async with club_server(tmp_path) as server:
        anna = Seat(await CheckedClient.connect(server.port, size=(80, 24), username="anna",
                                                key=new_key()), "anna", seed=1)
        await anna.wait_for("first visit")
        anna.press(b"\r")  # take the suggested name, "anna"
        code = await open_table(anna)
        ben = Seat(await CheckedClient.connect(server.port, size=(80, 24), username="ben",
                                               command=f"join {code}"), "ben", seed=2)
        await anna.wait_for("Draw for the deal")
        lt = server.club.find(code)
        assert lt.table is not None
        seen = SeenCards(lt.table)
        anna.client.watch_for_leaks(seen, 0)
        ben_seat = lt.seat_of(server.club.find(code).seats[1].player_id)
        assert ben_seat == 1
        ben.client.watch_for_leaks(seen, 1)
        watcher = await CheckedClient.connect(server.port, size=(80, 24), username="cleo",
                                              command=f"watch {code}")
        watcher.watch_for_leaks(seen, None)
        assert await watcher.wait_for("Watching table")

        end_a, end_b = await asyncio.gather(anna.play(), ben.play())
        assert "the match" in end_a and "the match" in end_b
        assert lt.table.status == "over"
        winner = lt.table.match.match_winner
        assert ("You win the match!" in (end_a, end_b)[winner])
        assert await watcher.wait_for("The match is over")

        # every frame was checked, and the faces seen are those allowed (some were seen)
        for who in (anna.client, ben.client, watcher):
            assert who.leaks == []
            assert who.frames_checked > 20 and who.labels_seen
        # the game is stored and archived, and anna's record counts it
        assert server.store.table(code).status == "finished"
        record = read_ecn((tmp_path / "archive" / f"{code}.ecn").read_text())
        assert record.match.is_over
        assert server.store.record_for(server.store.player(
            next(iter(s.player_id for s in lt.seats if s.name == "anna"))).id)[0] == 1

        # after the match, q on the box does what q at the table does: back to the lobby
        # (the session goes on), and the box names it so (the players stopped at its title:
        # its buttons may still be on their way)
        await anna.wait_for("Lobby  q")
        assert "Quit" not in anna.text()
        anna.press(b"q")
        await anna.wait_for("1 match played")
        # ...or, with the box closed, the table's "n" (its prompt says so) opens a new table
        await ben.wait_for("New table  n")
        ben.press(b"\x1b")
        for _ in range(500):
            await asyncio.sleep(0.02)
            if "New table  n" not in ben.text():
                break
        assert "n new table · q lobby" in ben.text() and "New table  n" not in ben.text()
        ben.press(b"n")
        await ben.wait_for("A new table")
        await ben.quiet(0.2)
        ben.press(b"\r")
        await ben.wait_for("Waiting for an opponent")
        for c in (anna, ben):
            await c.close()
        await watcher.close()
