"""A server that stops (a restart, an upgrade) tells each session why it ends and whether
its player can come back: a player with a key finds his seat again, a guest cannot."""

from __future__ import annotations

from server_harness import Seat, first_visit, new_key, play_the_bot

from net.game_server import GameServer, ServerConfig

STOPPING = "server is stopping"


async def test_each_session_is_told_the_server_stops_and_how_to_come_back(tmp_path):
    key = new_key()
    server = GameServer(ServerConfig(tmp_path, host="127.0.0.1", port=0, bot_delay=0.05))
    await server.start()
    try:
        anna = await first_visit(server.port, "anna", key)
        await play_the_bot(anna)
        gus = await Seat.connect(server.port, "gus")
        await gus.wait_for("C L U B")
        cleo = await Seat.connect(server.port, "cleo", key=new_key())  # still naming herself
        await cleo.wait_for("first visit")
    finally:
        await server.aclose()
    await anna.client.wait_closed()
    await gus.client.wait_closed()
    said_to_anna, said_to_gus = (bytes(s.client.raw).decode(errors="replace") for s in (anna, gus))
    assert STOPPING in said_to_anna and "connect again with the same key" in said_to_anna
    assert f"-p {server.port}" in said_to_anna
    assert STOPPING in said_to_gus and "A guest's place cannot be kept" in said_to_gus
    assert "same key" not in said_to_gus
    await cleo.client.wait_closed()
    assert "connect again with the same key" in bytes(cleo.client.raw).decode(errors="replace")

    # and anna is back at her game after the restart
    again = GameServer(ServerConfig(tmp_path, host="127.0.0.1", port=0, bot_delay=0.05))
    await again.start()
    try:
        back = await Seat.connect(again.port, "anna", key=key)
        await back.wait_for("Bot (expert)")
        assert "C L U B" not in back.text()
        await back.close()
    finally:
        await again.aclose()
