"""A player who drops keeps the seat; the opponent sees a live countdown; the same key comes
back to the same seat and view. After the time is out: take the win, or let the bot play on."""

from __future__ import annotations

import asyncio
import re

from server_harness import Seat, club_server, new_key, open_table

from ecarte_tui.engine import seat_view

COUNTDOWN = re.compile(r"Waiting for ben to reconnect \((\d+):(\d\d)\)")


def at_trick_3(screen: str) -> bool:
    return "trick 3/5" in screen.split("\n", 1)[0]


def hand_rows(screen: str) -> list[str]:
    """The rows of the player's own cards (the bottom of the felt)."""
    rows = screen.split("\n")
    return [r[:38] for r in rows[15:21]]  # left of where a notification may show


DRAW_BOX = re.compile(r"│ +Draw for the deal +│")  # the box's title (the log says it too)


async def sit_pair(server, ben_key=None):
    anna = await Seat.connect(server.port, "anna", seed=1, key=new_key())
    await anna.wait_for("first visit")
    anna.press(b"\r")
    code = await open_table(anna)
    ben_key = ben_key or new_key()
    ben = await Seat.connect(server.port, "ben", seed=2, key=ben_key, command=f"join {code}")
    await ben.wait_for("first visit")
    ben.press(b"\r")
    await ben.wait_for("Écarté ·")
    return anna, ben, ben_key, server.club.find(code)


async def test_dropped_player_returns_to_the_same_seat_and_view(tmp_path):
    async with club_server(tmp_path, reconnect_timeout=120) as server:
        anna, ben, ben_key, lt = await sit_pair(server)
        await asyncio.gather(anna.play(until=at_trick_3), ben.play(until=at_trick_3))
        await ben.quiet()
        before_view = seat_view(lt.table.match, 1)
        before_rows = hand_rows(ben.text())
        await ben.close()

        screen = await anna.wait_for("Waiting for ben to reconnect")
        first = COUNTDOWN.search(screen)
        assert first and 110 <= int(first[1]) * 60 + int(first[2]) <= 120
        await asyncio.sleep(2.1)
        later = COUNTDOWN.search(anna.text())
        assert later and (int(later[1]) * 60 + int(later[2])) < int(first[1]) * 60 + int(first[2])
        assert lt.seats[1].dropped_at is not None

        ben2 = await Seat.connect(server.port, "ben", seed=3, key=ben_key)
        await ben2.wait_for("Welcome back")
        await ben2.wait_for("trick 3/5")
        await ben2.quiet()
        assert seat_view(lt.table.match, 1) == before_view  # nothing moved meanwhile
        assert hand_rows(ben2.text()) == before_rows  # the same cards, in the same places
        assert lt.seat_of(server.store.player(lt.seats[1].player_id).id) == 1
        for _ in range(50):
            await asyncio.sleep(0.05)
            if "reconnect" not in anna.text():
                break
        assert "reconnect" not in anna.text()
        # and the game goes on from there
        await asyncio.gather(anna.play(until=lambda s: "trick 4/5" in s.split("\n")[0]),
                             ben2.play(until=lambda s: "trick 4/5" in s.split("\n")[0]))
        for c in (anna, ben2):
            await c.close()


async def test_after_the_timeout_the_opponent_takes_the_win(tmp_path):
    async with club_server(tmp_path, reconnect_timeout=1.5) as server:
        anna, ben, _key, lt = await sit_pair(server)
        await ben.close()
        screen = await anna.wait_for("ben did not come back: w take the win", timeout=10)
        assert DRAW_BOX.search(screen), "the draw's box is open over the table"
        anna.press(b"w")  # the claim keys work with the box open, and the forfeit closes it
        await anna.wait_for("You win: ben did not come back")
        await anna.quiet()
        assert not DRAW_BOX.search(anna.text())
        stored = server.store.table(lt.code)
        assert stored.status == "finished" and stored.winner == lt.seats[0].player_id
        assert (tmp_path / "archive" / f"{lt.code}.ecn").exists()
        anna.press(b"q")
        await anna.wait_for("1 match played, 1 won")
        await anna.close()


async def test_after_the_timeout_the_bot_plays_on(tmp_path):
    async with club_server(tmp_path, reconnect_timeout=1.0) as server:
        anna, ben, _key, lt = await sit_pair(server)
        await ben.close()
        await anna.wait_for("b play on against the bot", timeout=10)
        anna.press(b"b")
        await anna.wait_for("takes ben's seat")
        await anna.dismiss_toast("The bot")  # (read: it would cover her prompt for 5 s)
        assert lt.seats[1].is_bot and lt.bots[1] is not None
        # the bot answers: anna plays the first hand to its end against it
        await anna.play(until=lambda s: "Next hand" in s or "the match" in s)
        assert "reconnect" not in anna.text()
        # the bot plays under its own name: the opponent's line and the log say so
        screen = anna.text()
        assert screen.split("\n")[1].split()[:2] == ["Bot", "(expert)"], screen
        assert "ben plays" not in screen and "ben:" not in screen, screen
        await anna.close()
