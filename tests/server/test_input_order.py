"""Keys that arrive in one read are applied in the order they were typed (issue 14, item 3).

Each case is one SSH write holding editing keys (Backspace, Ctrl+U) among characters, as a
fast typist or a paste without bracketed paste sends them. Before the fix Textual ran the
editing keys after the characters ("abc⌫def" registered "abcde").
"""

from __future__ import annotations

import asyncio

from server_harness import club_server, generous_limits, new_key, open_table
from test_server_gallery import card_turn, until_turn


async def test_name_prompt_single_writes(tmp_path):
    from server_harness import Seat

    cases = [
        (b"abc\x7fdef\r", "abdef"),  # the suggestion is selected: "a" replaces it
        (b"\x15abcdef\r", "abcdef"),
        (b"\x7fghijk\r", "ghijk"),  # Backspace deletes the selected suggestion first
        (b"\x15zz\x7f\x7fyves\r", "yves"),
    ]
    async with club_server(tmp_path, limits=generous_limits()) as server:
        for i, (write, name) in enumerate(cases):
            key = new_key()
            seat = await Seat.connect(server.port, f"user{i}", key=key)
            await seat.wait_for("first visit")
            await seat.quiet(0.1)
            seat.press(write)  # one write, one read on the server
            await seat.wait_for("C L U B")
            player = server.identities.known(key.get_fingerprint("sha256"))
            assert player is not None and player.name == name, (write, player)
            await seat.close()


async def test_join_code_and_talk_single_writes(tmp_path):
    from server_harness import Seat

    async with club_server(tmp_path, limits=generous_limits()) as server:
        anna = await Seat.connect(server.port, "anna")
        code = await open_table(anna)
        ben = await Seat.connect(server.port, "ben")
        await ben.wait_for("C L U B")
        ben.press(b"j")
        await ben.wait_for("KXRT")  # the join dialog's placeholder
        await ben.quiet(0.1)
        # a wrong letter, erased, what a code cannot hold (refused as typed), then the
        # code: one write
        ben.press(b"Q\x7f9!- " + code.encode() + b"\r")
        lt = server.club.find(code)
        for _ in range(500):  # until the server has seated him (no timing is asserted)
            if lt.seats[1].player_id is not None:
                break
            await asyncio.sleep(0.02)
        assert lt.seats[1].player_id is not None and not lt.finished

        await until_turn(anna, ben, card_turn)  # past the draw's dialog

        # talk: one write with a correction in the middle and Ctrl+U before the real line
        ben.press(b"/")
        await ben.wait_for("Table talk")
        await ben.quiet(0.1)
        ben.press(b"oops\x15hellp\x7fo there\r")
        await anna.wait_for(": hello there")
        assert "oops" not in anna.text() and "hellp" not in anna.text()
        await anna.close()
        await ben.close()
