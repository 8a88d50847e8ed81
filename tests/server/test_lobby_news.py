"""What the lobby tells a player while he is there: how the games at the other tables stand,
hand by hand, and the operator's notice, which also reaches every player at a table."""

from __future__ import annotations

import re

from server_harness import Seat, club_server, play_the_bot

from net.screens.club_notice import MAX_CHARS, Notice, notice_text

HAND_1 = re.compile(r"hand 1 · (\d)–(\d)")


async def lobby_state(seat: Seat, pattern: re.Pattern[str], unlike: str = "") -> str:
    """The first lobby state matching ``pattern`` other than ``unlike``."""
    for _ in range(200):
        found = pattern.search(seat.text())
        if found and found.group(0) != unlike:
            return found.group(0)
        await seat.client.next_data(0.25)
    raise AssertionError(f"{seat.name}: no {pattern.pattern} but {unlike!r}:\n{seat.text()}")


async def test_the_lobby_follows_each_game_hand_by_hand(tmp_path):
    async with club_server(tmp_path) as server:
        anna = await Seat.connect(server.port, "anna", seed=3)
        await play_the_bot(anna)
        ben = await Seat.connect(server.port, "ben")
        await ben.wait_for("vs Bot")
        # past the draw for the deal (she may be the one to choose who deals)
        await anna.play(until=lambda s: "hand 1" in s.split("\n", 1)[0])
        # (it said "starting" for the whole match: the lobby was told of seats only)
        dealt = await lobby_state(ben, HAND_1)  # (1–0 when the dealer turned up a king)
        await anna.play(until=lambda s: "Next hand" in s or "the match" in s)
        await lobby_state(ben, HAND_1, unlike=dealt)  # the hand is scored
        await anna.close()
        await ben.close()


async def test_the_operators_notice_reaches_the_lobby_and_every_table_without_a_restart(
        tmp_path):
    data = tmp_path / "data"
    async with club_server(data) as server:
        anna = await Seat.connect(server.port, "anna", seed=3)
        await play_the_bot(anna)
        ben = await Seat.connect(server.port, "ben")
        await ben.wait_for("C L U B")
        assert "From the club" not in ben.text()

        (data / "notice").write_text("Restart at 22:00 UTC:\n\x1b[2Jyour game is kept.\n")
        said = "Restart at 22:00 UTC: your game is kept."
        await ben.wait_for(f"From the club: {said}")  # under the lobby's title
        await anna.wait_for("From the club")  # a toast at her table
        await anna.wait_for("Restart at 22:00 UTC")
        assert "\x1b" not in "".join(ben.client.screen.display)
        carl = await Seat.connect(server.port, "carl")
        await carl.wait_for(f"From the club: {said}")  # who comes in later reads it too

        (data / "notice").unlink()
        await ben.wait_gone("From the club")
        await carl.wait_gone("From the club")
        for seat in (anna, ben, carl):
            await seat.close()


def test_a_notice_is_one_clean_line_of_bounded_length_read_again_on_change(tmp_path):
    assert notice_text("a\x1b]52;c;ZXZpbA==\x07b\r\n\tc\u202e") == "ab c"
    long = notice_text("x" * 1000)
    assert len(long) == MAX_CHARS and long.endswith("…")
    path = tmp_path / "notice"
    notice = Notice(path)
    assert not notice.refresh() and notice.text == "" and notice.version == 0
    path.write_text("closing soon\n")
    assert notice.refresh() and notice.text == "closing soon" and notice.version == 1
    assert not notice.refresh() and notice.version == 1  # unchanged: not read again
    path.write_text("closing soon \n\n")  # the same words: nobody is told again
    assert not notice.refresh() and notice.version == 1
    path.write_text("   ")
    assert notice.refresh() and notice.text == "" and notice.version == 2
