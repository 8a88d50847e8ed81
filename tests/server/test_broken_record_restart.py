"""A table whose stored record cannot be read is left out when the club starts again: it
used to come back without its game, waiting for an opponent with both seats taken, for
ever, in its players' screens and the lobby (found by random input's restart check). Its
players are told why it is gone."""

from __future__ import annotations

import logging

from server_harness import Seat, club_server, generous_limits, new_key

from net.store import Store

BROKEN = "hand\ndealer Q\n"


async def test_a_table_whose_record_is_broken_stays_out_of_the_club(tmp_path, caplog):
    ann_key, bob_key = new_key(), new_key()
    store = Store(tmp_path / "club.db")
    ann = store.register(ann_key.get_fingerprint("sha256"), "ann")
    bob = store.register(bob_key.get_fingerprint("sha256"), "bob")
    store.create_table("BADT", {"rules": "classic"}, (ann.id, bob.id), ("ann", "bob"),
                       BROKEN, "playing")
    store.close()
    caplog.set_level(logging.ERROR, logger="net.game_server")
    async with club_server(tmp_path, limits=generous_limits()) as server:
        assert server.broken == ["BADT"]
        assert "BADT" not in server.club.tables
        why = "table BADT could not be restored: its record is broken at line 2: "
        assert any(why in r.getMessage() for r in caplog.records)
        seat = await Seat.connect(server.port, "ann", key=ann_key)
        screen = await seat.wait_for("No table is open yet")  # the lobby, no phantom table
        assert "Waiting for an opponent" not in screen
        await seat.wait_for("Your game at table BADT could not be")  # told why it is gone
        guest = await Seat.connect(server.port, "gus", command="watch BADT")
        await guest.wait_for("There is no table 'BADT'")
        for s in (seat, guest):
            await s.client.close()
        kept = server.store.table("BADT")
        assert kept is not None and (kept.status, kept.ecn) == ("playing", BROKEN)
