"""An operator keeps a stranger out of a running club by writing the block list: by name,
key or address, without a restart; the sessions it now refuses end with a word why, and
everyone else plays on. On a club of several machines, the list and the notice written on
one machine are the whole club's."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from server_harness import Seat, club_server, first_visit, new_key

from net import game_server
from net.ssh.blocklist import REFUSED

SAID = REFUSED[:30]


async def test_a_name_a_key_and_an_address_are_kept_out_and_live_sessions_end(tmp_path):
    data = tmp_path / "data"
    anna_key, ben_key = new_key(), new_key()
    async with club_server(data) as server:
        anna = await first_visit(server.port, "anna", anna_key)
        await anna.wait_for("C L U B")
        gus = await Seat.connect(server.port, "gus")  # a guest, from the same address
        await gus.wait_for("C L U B")

        (data / "blocklist").write_text("name:ANNA  # rude at table QXRT\n")
        await anna.wait_for(SAID)  # her session ends, saying why ...
        await anna.client.wait_closed()
        assert SAID not in gus.text()  # ... and nobody else's
        again = await Seat.connect(server.port, "anna", key=anna_key)
        await again.wait_for(SAID)  # her key brings her name: turned away at login
        await again.close()
        await anna.close()

        (data / "blocklist").write_text(f"{ben_key.get_fingerprint('sha256')}\n")
        with pytest.raises(asyncssh.PermissionDenied, match="may not play"):
            await Seat.connect(server.port, "ben", key=ben_key)
        assert "C L U B" in gus.text()

        (data / "blocklist").write_text("127.0.0.0/8\n")  # the guest's address
        await gus.wait_for(SAID)
        with pytest.raises((asyncssh.Error, OSError)):
            await Seat.connect(server.port, "gus")
        await gus.close()

        (data / "blocklist").unlink()  # the list gone: everyone may come in again
        back = await Seat.connect(server.port, "anna", key=anna_key)
        await back.wait_for("C L U B")
        await back.close()


async def test_a_blocked_name_cannot_be_taken_by_a_new_key(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "blocklist").write_text("name:troll\n")
    async with club_server(data) as server:
        troll = await first_visit(server.port, "troll", new_key())  # (his user name)
        await troll.wait_for("may not be used at this club")
        assert "C L U B" not in troll.text()
        await troll.close()


async def test_a_list_or_a_notice_written_on_one_machine_reaches_the_whole_club(
        tmp_path, postgres_url, monkeypatch):
    """Two machines of one club (each its data directory) on one PostgreSQL: the block list
    written on one keeps the stranger out of the other too, and is taken back there when
    taken back here; the notice written on one is shown on both."""
    monkeypatch.setattr(game_server, "BLOCKLIST_SECONDS", 0.1)
    one, two = tmp_path / "one", tmp_path / "two"
    gus_key = new_key()
    async with club_server(one, store=postgres_url, shared=True) as a, \
            club_server(two, store=postgres_url, shared=True) as b:
        gus = await first_visit(b.port, "gus", gus_key)  # a player on machine two
        await gus.wait_for("C L U B")
        (one / "notice").write_text("Restart at 22:00 UTC: your game is kept.\n")
        await gus.wait_for("Restart at 22:00 UTC")  # written on one, shown on two

        (one / "blocklist").write_text("name:gus\n")  # written on one, enforced on two
        await gus.wait_for(SAID)
        await gus.client.wait_closed()
        await gus.close()
        for port in (a.port, b.port):
            again = await Seat.connect(port, "gus", key=gus_key)
            await again.wait_for(SAID)
            await again.close()

        (two / "notice").write_text("")  # emptied on two, the latest: taken back on both
        cleo = await first_visit(a.port, "cleo", new_key())
        await cleo.wait_for("C L U B")
        await cleo.wait_gone("Restart at 22:00 UTC")
        assert b.notice.text == "" and a.notice.text == ""

        (one / "blocklist").unlink()  # taken back where it was written: gus may come back
        for _ in range(100):
            if not b.blocklist.name("gus"):
                break
            await asyncio.sleep(0.05)
        back = await Seat.connect(b.port, "gus", key=gus_key)
        await back.wait_for("C L U B")
        for seat in (back, cleo):
            await seat.close()


async def test_a_machine_that_starts_without_a_notice_does_not_take_back_anothers(
        tmp_path, postgres_url):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    (one / "notice").write_text("Closing at midnight\n")
    async with club_server(one, store=postgres_url, shared=True) as a:
        assert a.notice.text == "Closing at midnight"
        async with club_server(two, store=postgres_url, shared=True) as b:
            assert b.notice.text == "Closing at midnight", "the club's, from the start"
            assert b.notice.own == ""
