"""An empty lobby says whether anyone else is here to join a table, counted over the whole
club (every worker and machine, through the store), and says so again when it changes."""

from __future__ import annotations

from server_harness import Seat, club_server

from net import game_server

ALONE = "No table is open yet: press n to open one"
ONE_OTHER = "1 other player is here: they will see the table you open"


async def test_a_second_player_is_announced_in_the_empty_lobby_and_his_leaving_too(
        tmp_path, monkeypatch):
    monkeypatch.setattr(game_server, "SWEEP_SECONDS", 0.1)
    async with club_server(tmp_path) as server:
        anna = await Seat.connect(server.port, "anna")
        await anna.wait_for(ALONE)
        ben = await Seat.connect(server.port, "ben")
        await anna.wait_for(ONE_OTHER)
        await ben.wait_for(ONE_OTHER)
        await ben.close()
        await anna.wait_gone(ONE_OTHER)
        assert ALONE in anna.text()
        await anna.close()


async def test_players_on_another_machine_of_the_club_are_counted(
        tmp_path, postgres_url, monkeypatch):
    monkeypatch.setattr(game_server, "SWEEP_SECONDS", 0.1)
    async with club_server(tmp_path / "one", store=postgres_url, shared=True,
                           node_name="one") as a, \
            club_server(tmp_path / "two", store=postgres_url, shared=True,
                        node_name="two") as b:
        anna = await Seat.connect(a.port, "anna")
        await anna.wait_for(ALONE)
        ben = await Seat.connect(b.port, "ben")
        await anna.wait_for(ONE_OTHER)  # (ben is served by the other machine)
        await ben.wait_for(ONE_OTHER)
        for seat in (anna, ben):
            await seat.close()
