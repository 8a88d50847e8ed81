"""One player may sit at a bounded number of unfinished games at once: each table a player
leaves stays an hour in memory, in every lobby and across restarts, so without a bound one
session could fill the club with thousands."""

from __future__ import annotations

import logging

import pytest
from server_harness import Seat, club_server, play_the_bot
from test_club import make_club

from net.club import ClubError, TableOptions
from net.store import Player

BOT = "bot:classic"


def test_a_player_at_the_bound_may_not_open_or_join_another_game(tmp_path):
    club = make_club(tmp_path)
    club.max_games = 3
    anna, ben = Player("k1", "anna"), Player("k2", "ben")
    games = [club.create(anna, TableOptions(opponent=BOT))[0] for _ in range(2)]
    waiting, _ = club.create(anna, TableOptions())  # an open table counts too
    codes = ", ".join(sorted(lt.code for lt in [*games, waiting]))
    with pytest.raises(ClubError, match=rf"3 unfinished games \({codes}\), the most"):
        club.create(anna, TableOptions(opponent=BOT))
    bens, _ = club.create(ben, TableOptions())
    with pytest.raises(ClubError, match="3 unfinished games"):
        club.sit(bens.code, anna)
    assert bens.seats[1].player_id is None, "nothing changed"
    assert club.sit(games[0].code, anna)[1] == 0, "coming back to one's own seat is no more"
    assert len(club.games_of("k1")) == 3 and len(club.games_of("k2")) == 1

    club.cancel(waiting)  # she gives up waiting there: room for one more
    club.sit(bens.code, anna)
    assert len(club.games_of("k1")) == 3 and len(club.games_of("k2")) == 1
    with pytest.raises(ClubError, match="3 unfinished games"):
        club.create(anna, TableOptions(opponent=BOT))


def test_no_bound_when_the_operator_sets_none(tmp_path):
    club = make_club(tmp_path)
    club.max_games = 0
    anna = Player("k1", "anna")
    for _ in range(8):
        club.create(anna, TableOptions(opponent=BOT))
    assert len(club.games_of("k1")) == 8


async def test_the_player_is_told_why_and_sees_his_games_in_the_lobby(tmp_path):
    async with club_server(tmp_path, max_games_per_player=2) as server:
        gus = await Seat.connect(server.port, "gus")
        for _ in range(2):
            await play_the_bot(gus)
            gus.press(b"q")  # back to the lobby, the game left
        await gus.wait_for("C L U B")
        gus.press(b"b")
        await gus.wait_for("A new table")
        gus.press(b"\r")
        screen = await gus.wait_for("unfinished games")
        codes = sorted(lt.code for lt in server.club.tables.values() if not lt.finished)
        assert len(codes) == 2, "no third table was opened"
        assert f"({', '.join(codes)})" in screen, screen  # which, to go back to one
        assert "C L U B" in screen  # still in the lobby, its list of his two games there
        await gus.close()


def test_resigning_a_game_makes_room_for_another_at_once(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="net.club.live_club")
    club = make_club(tmp_path)
    club.max_games = 2
    anna = Player("k1", "anna")
    lost, _ = club.create(anna, TableOptions(opponent=BOT))
    club.create(anna, TableOptions(opponent=BOT))
    with pytest.raises(ClubError, match="2 unfinished games"):
        club.create(anna, TableOptions(opponent=BOT))
    club.resign(lost, 0)
    assert f"table {lost.code}: anna resigned" in caplog.messages  # (the operator's log)
    assert lost.finished and lost.forfeit == 0 and lost.table is not None
    assert lost.table.tags["Termination"] == "resigned"
    assert lost.table.view(1).match_winner == 1
    club.create(anna, TableOptions(opponent=BOT))  # room again
    with pytest.raises(ClubError, match="over already"):
        club.resign(lost, 0)
    waiting, _ = make_club(tmp_path / "other").create(anna, TableOptions())
    with pytest.raises(ClubError, match="has not started: leave it instead"):
        club.resign(waiting, 0)
