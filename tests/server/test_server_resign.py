"""A player resigns over SSH: asked first, then both players are told who resigned and who
wins, and the record says so (``[Termination "resigned"]``)."""

from __future__ import annotations

from server_harness import club_server, pair_at_the_draw

from ecarte_tui.engine import read_ecn


async def test_a_resignation_is_asked_then_told_to_both_and_recorded(tmp_path):
    async with club_server(tmp_path) as server:
        chooser, other = await pair_at_the_draw(server.port)
        other.press(b"R")
        await other.wait_for("Resign?")
        other.press(b"n")  # play on: nothing happens
        await other.wait_gone("Resign?")
        lt = next(iter(server.club.tables.values()))
        assert not lt.finished
        other.press(b"R")
        await other.wait_for("Resign?")
        other.press(b"y")
        screen = await other.wait_for("You resigned: ")
        loser = next(i for i, s in enumerate(lt.seats) if f"{s.name} wins" not in screen)
        winner = lt.seats[1 - loser].name
        assert f"You resigned: {winner} wins the match" in screen
        await chooser.wait_for(f"You win: {lt.seats[loser].name} resigned")
        assert lt.finished
        [record] = (tmp_path / "archive").glob("*.ecn")
        rec = read_ecn(record.read_text())
        assert rec.match.resigned and rec.tags["Termination"] == "resigned"
        assert (rec.match.forfeited, rec.match.match_winner) == (loser, 1 - loser)
        for seat in (chooser, other):
            await seat.close()
