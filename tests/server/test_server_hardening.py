"""The transport's refusals and limits hold for the real club server, plus the club's own:
the lobby idle limit, names, the direct commands, a too-small terminal, hostile input."""

from __future__ import annotations

import asyncio
import random

import asyncssh
import pytest
from server_harness import Seat, club_server, first_visit, generous_limits, new_key
from ssh_harness import ScreenClient, connect

from ecarte_tui.bot_seat import BotSeat
from ecarte_tui.ui.players import RandomChooser
from net.club import TableOptions
from net.ssh.limits import Limits
from net.store import Player


async def test_only_join_and_watch_commands_and_nothing_but_the_app(tmp_path):
    async with club_server(tmp_path) as server:
        conn = await connect(server.port)
        for command in ("ls -la", "sh", "join ABCD; rm -rf /", "join ABCDE", "watch", "play"):
            # nothing runs and no app is made: the client is told what there is
            result = await asyncio.wait_for(
                conn.run(command, term_type="xterm", encoding=None), 5)
            assert result.exit_status == 2 and b"runs no command" in result.stderr
        assert not server.ssh.sessions
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)  # ssh -L / -D
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)  # ssh -R
        result = await asyncio.wait_for(conn.run(encoding=None), 5)  # no pty
        assert result.exit_status == 1 and b"ssh -t" in result.stderr
        conn.close()
        # the accepted forms: a missing table is explained, and the lobby follows
        client = await Seat.connect(server.port, command="join zzzz")
        await client.wait_for("no table 'ZZZZ'")
        await client.wait_for("C L U B")
        await client.close()


async def test_private_server_admits_only_listed_keys_and_no_guests(tmp_path):
    anna, eve = new_key(), new_key()
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(anna.export_public_key())
    async with club_server(tmp_path, private=True, authorized_keys=keys) as server:
        seat = await Seat.connect(server.port, "anna", key=anna)
        await seat.wait_for("first visit")
        await seat.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port, key=eve)
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(server.port)  # no guests


async def test_connection_cap_per_address(tmp_path):
    async with club_server(tmp_path, limits=Limits(max_connections_per_ip=2)) as server:
        first, second = await connect(server.port), await connect(server.port)
        with pytest.raises((asyncssh.DisconnectError, ConnectionError)):
            await connect(server.port)
        first.close()
        second.close()


async def test_idle_lobby_is_closed_but_a_watcher_of_a_live_game_is_not(tmp_path):
    limits = generous_limits(idle_timeout=1.5)
    async with club_server(tmp_path, limits=limits, lobby_idle_timeout=1.0) as server:
        # a game that moves on its own: a bot in each seat
        lt, _ = server.club.create(Player("k1", "anna"), TableOptions(opponent="bot:random"))
        runner = BotSeat(lt.table, 0, RandomChooser(1), delay=0.1)
        runner.start()
        watcher = await Seat.connect(server.port, command=f"watch {lt.code}")
        idler = await Seat.connect(server.port)
        await idler.wait_for("C L U B")
        await idler.client.wait_closed(timeout=8)
        assert b"no input for a long time" in idler.client.raw
        assert "Watching table" in watcher.text()
        assert watcher.client.chan.get_exit_status() is None  # still there, 3 s later
        runner.stop()
        await watcher.close()


async def test_names_are_chosen_once_unique_and_kept(tmp_path):
    anna, anna2 = new_key(), new_key()
    async with club_server(tmp_path) as server:
        first = await first_visit(server.port, "anna", anna)
        await first.wait_for("You are anna ·")
        # another key asking for the same name gets a free variant suggested...
        other = await Seat.connect(server.port, "anna", key=anna2)
        await other.wait_for("first visit")
        await other.wait_for("anna2")
        # ...and is refused the taken one, and the reserved ones
        for name in ("Anna", "guest-7", "bot9"):
            await other.replace_input(name + "\r")
            await other.wait_for("taken" if name == "Anna" else "kept for the server")
        await other.replace_input("cleo\r")
        await other.wait_for("You are cleo ·")
        await first.close()
        await other.close()
        # the same key comes back as the same player, without being asked
        again = await Seat.connect(server.port, "whatever", key=anna)
        await again.wait_for("You are anna ·")
        # guests get distinct names, never stored
        g1, g2 = await Seat.connect(server.port), await Seat.connect(server.port)
        t1, t2 = await g1.wait_for("You are guest-"), await g2.wait_for("You are guest-")
        name1 = t1.split("You are ")[1].split(" ")[0]
        name2 = t2.split("You are ")[1].split(" ")[0]
        assert name1 != name2 and not server.store.name_taken(name1)
        for c in (again, g1, g2):
            await c.close()


async def test_ctrl_q_on_the_name_screen_quits_without_a_name(tmp_path):
    """The name screen says "ctrl+q quit"; the app's own ctrl+q came first and took the
    nameless player to the lobby, where joining by code ended his session."""
    async with club_server(tmp_path) as server:
        seat = await Seat.connect(server.port, "anna", key=new_key())
        await seat.wait_for("ctrl+q quit")
        seat.press(b"\x11")
        await seat.client.wait_closed()
        assert seat.client.chan is not None and seat.client.chan.get_exit_status() == 0
        assert "Join by code" not in seat.text() and not server.store.name_taken("anna")


async def test_hostile_input_small_terminal_and_no_server_side_escape(tmp_path):
    async with club_server(tmp_path) as server:
        seat = await Seat.connect(server.port, size=(80, 24))
        await seat.wait_for("C L U B")
        other = await Seat.connect(server.port, size=(80, 24))
        await other.wait_for("C L U B")
        # invalid UTF-8, broken and absurd escape sequences (random letters would be keys
        # with a meaning, like q: that is not garbage but a player quitting)
        rng = random.Random(5)
        seat.press(bytes(rng.randrange(0x80, 0x100) for _ in range(4000)))
        for _ in range(200):
            seat.press(b"\x1b[" + bytes(rng.choice(b"0123456789;<>?$") for _ in range(8))
                       + bytes([rng.randrange(0x40, 0x7f)]))
        seat.press(b"\x1b[99999;99999R\x1b[<0;9999;9999M\x1b]52;c;AAAA\x07\x1b[8;9999;9999t")
        seat.press(b"\x1a")  # ctrl+z: a served app is never suspended
        await seat.quiet(0.3, timeout=15)
        for _ in range(10):  # close whatever the escapes opened (the palette, a dialog...)
            screen = seat.text()
            opened = ("A new table", "Join a", "Watch a", "🔎", "Help ·", "Settings", "Rules")
            if "n New table" in screen and not any(s in screen for s in opened):
                break
            seat.press(b"\x1b")
            await seat.quiet(0.2)
        assert seat.client.chan.get_exit_status() is None
        other.press(b"j")  # the other session never noticed
        await other.wait_for("Join a table")
        await other.close()
        app = next(s.app for s in server.ssh.sessions if s.app is not None)
        assert not app.check_action("suspend_process", ())
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles
        # the last Esc may still be waiting to be told from Alt+b (a terminal's own
        # ambiguity: on a loaded machine the server reads it after this b, as Alt+b); a
        # person would press b again
        for _ in range(3):
            seat.press(b"b")
            if await seat.client.wait_for("A new table", 10):
                break
        await seat.wait_for("A new table")
        seat.press(b"\r")
        await seat.wait_for("Écarté ·")
        await seat.wait_for("Draw for the deal")
        seat.press(b"\x1b")  # close the draw's dialog (it would cover the small screen)
        await seat.quiet(0.2)
        seat.client.resize(60, 20)
        await seat.wait_for("Please enlarge your terminal to at least 80×24")
        seat.client.resize(80, 24)
        await seat.wait_for("Écarté ·")
        await seat.close()


async def test_watch_needs_a_started_game_and_join_a_full_table_watches(tmp_path):
    async with club_server(tmp_path) as server:
        lt, _ = server.club.create(Player("k1", "anna"), TableOptions())
        early = await Seat.connect(server.port, command=f"watch {lt.code}")
        await early.wait_for("has not")  # (the notification wraps)
        await early.close()
        server.club.sit(lt.code, Player("k2", "ben"))
        late = await ScreenClient.connect(server.port, size=(80, 24), command=f"join {lt.code}")
        assert await late.wait_for("is full: you are")  # (the notification wraps)
        assert await late.wait_for("Watching table")
        assert lt.watchers == 1
        await late.close()
        await asyncio.sleep(0.3)
        assert lt.watchers == 0


async def test_a_player_who_stops_reading_is_cut_off_and_the_table_goes_on(tmp_path):
    """Resizes make full redraws; with the client not reading, the bound is hit."""
    bound = 64 * 1024
    async with club_server(tmp_path, limits=generous_limits(max_output_buffer=bound)) as server:
        lt, _ = server.club.create(Player("k1", "anna"), TableOptions())
        slow = await ScreenClient.connect(server.port, size=(200, 60), window=32 * 1024,
                                          command=f"join {lt.code}")
        assert await slow.wait_for("Écarté ·")
        session = next(s for s in server.ssh.sessions)
        terminal = session.terminal
        slow.chan.pause_reading()
        for i in range(200):
            if terminal.closed_reason is not None:
                break
            slow.chan.change_terminal_size(150 + i % 50, 50 + i % 10)
            assert terminal.buffered_bytes() <= bound
            await asyncio.sleep(0.02)
        assert terminal.closed_reason == "output not being read"
        await asyncio.sleep(0.3)
        assert lt.seats[1].sessions == 0 and lt.seats[1].dropped_at is not None  # seat kept
        slow.conn.abort()


async def test_login_timeout_and_failed_logins_on_the_club_server(tmp_path):
    anna, eve = new_key(), new_key()
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(anna.export_public_key())
    # The silent connection does not count; one refused key ends a locked-out login.
    limits = Limits(login_timeout=0.5, max_failed_auth_per_ip=2, locked_out_key_tries=1)
    async with club_server(tmp_path, private=True, authorized_keys=keys, limits=limits) as srv:
        reader, writer = await asyncio.open_connection("127.0.0.1", srv.port)
        banner = await reader.readline()
        assert banner.startswith(b"SSH-2.0-")
        assert await asyncio.wait_for(reader.read(), 5) is not None  # closed by the server
        writer.close()
        for _ in range(2):
            with pytest.raises(asyncssh.PermissionDenied) as refused:
                await connect(srv.port, key=eve)
            assert "try again" not in refused.value.reason
        while srv.ssh.connection_count:
            await asyncio.sleep(0.02)
        with pytest.raises(asyncssh.PermissionDenied, match=r"try again in \d+ (minute|second)"):
            await connect(srv.port, key=eve)  # now locked out, and told for how long
        conn = await connect(srv.port, key=anna)  # the right key still gets in
        conn.close()
        await conn.wait_closed()
