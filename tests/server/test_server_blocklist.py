"""An operator keeps a stranger out of a running club by writing the block list: by name,
key or address, without a restart; the sessions it now refuses end with a word why, and
everyone else plays on."""

from __future__ import annotations

import asyncssh
import pytest
from server_harness import Seat, club_server, first_visit, new_key

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
