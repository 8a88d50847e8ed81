"""An idle served session costs nothing: no byte sent, no timer ticking (issue 10).

Hundreds of players sit in the lobby or at a table doing nothing most of the time; every
redraw or poll of theirs is paid per session. The checks are what the client receives and
which timers are running, not how fast anything is.
"""

from __future__ import annotations

import asyncio
from typing import Any

from server_harness import (
    Seat,
    club_server,
    generous_limits,
    new_key,
    open_table,
    registered_pair,
)
from textual.app import App
from textual.widgets import DataTable

from net.game_server import GameServer
from net.screens.club_app import ClubApp
from net.screens.lobby_screen import REFILL_SECONDS, LobbyScreen
from net.ssh.driver import SSHDriver

IDLE_SECONDS = 5.0
SETTLED_GAP = 1.0
"""No output for this long: the screen is drawn (login toasts aside, which these players,
registered by key, do not get)."""
LOBBY_LIMIT = 600.0


async def bytes_while_idle(seats: list[Seat], seconds: float = IDLE_SECONDS) -> list[int]:
    """What each client receives in ``seconds``, once every screen has settled."""
    await asyncio.gather(*(seat.quiet(gap=SETTLED_GAP, timeout=10.0) for seat in seats))
    before = [len(seat.client.raw) for seat in seats]
    await asyncio.sleep(seconds)
    return [len(seat.client.raw) - b for seat, b in zip(seats, before, strict=True)]


def running_timers(app: App[Any]) -> list[str]:
    """The Textual timers of the app, its screens and widgets that are not paused: each one
    wakes the session up (an interval for ever, a one-shot once)."""
    pumps = [app, *app.screen_stack]
    pumps += [w for screen in app.screen_stack for w in screen.walk_children()]
    return sorted(timer.name for pump in pumps for timer in pump._timers
                  if timer._task is not None and not timer._task.done()
                  and timer._active.is_set())


def assert_asleep(server: GameServer) -> None:
    """Every session's only pending wake-ups are its idle deadlines, far off."""
    assert server.ssh is not None
    loop = asyncio.get_running_loop()
    for session in server.ssh.sessions:
        app = session.app
        assert isinstance(app, ClubApp)
        timers = running_timers(app)
        assert timers == [], f"Textual timers running while idle: {timers}"
        driver = app._driver
        assert isinstance(driver, SSHDriver)
        tick = driver._tick_handle
        # the driver's one timer is the session's idle timeout (30 minutes by default)
        assert tick is not None and tick.when() - loop.time() > 60, "the driver polls"
        lobby = app._idle_timer
        if app.at_table_code() is None:  # the lobby's limit: one timer for its deadline
            assert lobby is not None and lobby.when() - loop.time() > 60, "the lobby polls"


async def test_an_idle_session_in_the_lobby_sends_nothing(tmp_path):
    async with club_server(tmp_path, limits=generous_limits(),
                           lobby_idle_timeout=LOBBY_LIMIT) as server:
        anna = await Seat.connect(server.port, "anna", key=new_key())
        await anna.wait_for("first visit")
        anna.press(b"\r")
        await anna.wait_for("C L U B")
        assert await bytes_while_idle([anna]) == [0], "the lobby kept sending while idle"
        assert_asleep(server)
        await anna.close()


async def test_two_players_seated_with_nobody_acting_are_sent_nothing(tmp_path):
    async with club_server(tmp_path, limits=generous_limits(),
                           lobby_idle_timeout=LOBBY_LIMIT) as server:
        keys = {"anna": new_key(), "ben": new_key()}
        anna, ben, _code = await registered_pair(server.port, keys)
        await ben.wait_for("Écarté ·")
        await anna.wait_for("Écarté ·")
        assert await bytes_while_idle([anna, ben]) == [0, 0], "the table kept sending"
        assert_asleep(server)
        await anna.close()
        await ben.close()


async def test_input_in_the_lobby_moves_its_idle_deadline(tmp_path):
    """The lobby's idle check is one timer set for the deadline, not a poll: a key pressed
    before it falls must put the disconnection off by the whole limit from that key."""
    limit = 2.0
    async with club_server(tmp_path, limits=generous_limits(),
                           lobby_idle_timeout=limit) as server:
        anna = await Seat.connect(server.port)
        await anna.wait_for("C L U B")
        assert server.ssh is not None
        (session,) = server.ssh.sessions
        app = session.app
        assert isinstance(app, ClubApp)
        first_deadline = app.last_input + limit
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, limit / 2 - (loop.time() - app.last_input)))
        anna.press(b"?")  # the help screen: a key like any other
        await anna.wait_for("esc to go back")
        assert app.last_input + limit > first_deadline + limit / 4
        # past the first deadline, before the moved one
        await asyncio.sleep(max(0.0, first_deadline - loop.time()) + limit / 4)
        assert anna.client.chan.get_exit_status() is None, "cut off at the first deadline"
        await anna.client.wait_closed(timeout=3 * limit)
        assert b"no input for a long time" in anna.client.raw
        await anna.close()


async def test_a_lobby_under_a_dialog_catches_up_when_it_comes_back(tmp_path):
    """A lobby is refilled only while shown: under a dialog it waits, and when the dialog
    closes it shows the tables opened meanwhile; a table that changes (a player sits down)
    has its row rewritten in place."""
    async with club_server(tmp_path, limits=generous_limits(),
                           lobby_idle_timeout=LOBBY_LIMIT) as server:
        seats = {}
        for seed, name in enumerate(("anna", "carl", "dora"), start=1):
            seats[name] = await Seat.connect(server.port, name, seed=seed, key=new_key())
            await seats[name].wait_for("first visit")
            seats[name].press(b"\r")
        anna, carl, dora = seats["anna"], seats["carl"], seats["dora"]
        first = await open_table(carl)
        await anna.wait_for(first)
        assert server.ssh is not None
        (anna_app,) = [s.app for s in server.ssh.sessions
                       if isinstance(s.app, ClubApp) and s.app.player is not None
                       and s.app.player.name == "anna"]
        (lobby,) = [s for s in anna_app.screen_stack if isinstance(s, LobbyScreen)]
        rows = lobby.query_one("#tables", DataTable)
        anna.press(b"j")
        await anna.wait_for("Join a table")
        second = await open_table(dora)
        await asyncio.sleep(REFILL_SECONDS * 2)
        assert {str(key.value) for key in rows.rows} == {first}, "refilled under the dialog"
        anna.press(b"\x1b")
        await anna.wait_gone("Join a table")
        await anna.wait_for(second)
        ben = await Seat.connect(server.port, "ben", seed=4, command=f"join {first}")
        await ben.wait_for("Écarté ·")
        screen = await anna.wait_for(" vs ")
        assert first in screen and second in screen
        assert [str(key.value) for key in rows.rows].count(first) == 1
        for seat in (anna, ben, carl, dora):
            await seat.close()
