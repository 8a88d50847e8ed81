"""``ecarte host``: this terminal plays seat A; the first SSH session sits at seat B of the
same table, in the same process and loop; later sessions watch."""

from __future__ import annotations

import asyncio
import random

import pytest
from server_harness import Seat, new_key

from ecarte_tui.ui.settings import Settings
from net.club import TableOptions, live_club
from net.screens.club_table_screen import ClubTableScreen
from net.screens.host_game import HostApp, HostTable
from net.screens.waiting_screen import WaitingScreen
from net.ssh.server import start_server


async def until(predicate, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def test_host_plays_here_a_friend_joins_over_ssh_and_others_watch(tmp_path):
    host = HostTable(TableOptions("academie", (("target", "3"),)), "hostess",
                     tmp_path / "archive", reconnect_timeout=60)
    server = await start_server(host.make_app, host="127.0.0.1", port=0, data_dir=tmp_path)
    host.join_command = server.join_command("127.0.0.1")
    app = HostApp(host, settings=Settings())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            assert isinstance(app.screen, WaitingScreen)
            assert f"ssh -p {server.port} 127.0.0.1" in host.join_command

            friend_key = new_key()
            friend = await Seat.connect(server.port, "friend", key=friend_key)
            await friend.wait_for("hostess")  # seat B: the host is the opponent
            await until(lambda: isinstance(app.screen, ClubTableScreen)
                        or isinstance(app.screen_stack[1], ClubTableScreen))
            lt = host.lt
            assert lt.seats[0].name == "hostess" and lt.seats[1].name == "friend"
            table_screen = next(s for s in app.screen_stack if isinstance(s, ClubTableScreen))
            assert table_screen.seat == 0 and table_screen.table is lt.table

            watcher = await Seat.connect(server.port, "cleo")
            await watcher.wait_for("Watching table")
            assert lt.watchers == 1

            # the friend drops: the host sees the countdown; the same key comes back
            await friend.close()
            await until(lambda: table_screen.banner is not None
                        and "Waiting for friend to reconnect" in table_screen.banner[0])
            again = await Seat.connect(server.port, "friend", key=friend_key)
            await again.wait_for("hostess")
            await until(lambda: table_screen.banner is None)
            assert lt.seats[1].sessions == 1
            await again.close()
            await watcher.close()
            await pilot.press("ctrl+q")
    finally:
        await server.aclose()
        host.store.close()


async def test_ecarte_host_in_a_real_terminal(tmp_path):
    """The command itself, in tmux: the local app and the SSH server share one loop."""
    import os
    import shutil
    import sys

    import pytest
    from server_process import REPO, free_port
    from test_server_openssh import TmuxPane

    if shutil.which("tmux") is None:
        pytest.skip("needs tmux")
    port = free_port()
    pane = TmuxPane(f"ecarte-host-{os.getpid()}")
    command = (f"cd {REPO} && XDG_CONFIG_HOME={tmp_path}/config TERM=xterm-256color "
               f"PYTHONPATH={REPO} {sys.executable} -m ecarte_tui host --host 127.0.0.1 "
               f"--port {port} --data-dir {tmp_path}/data --name hostess --rules nl; "
               "echo host-exited-$?; sleep 30")
    try:
        await pane.run("-f", "/dev/null", "new-session", "-d", "-s", "game", "-x", "80",
                       "-y", "24", command)
        await pane.wait_for(f"ssh -p {port}")
        friend = await Seat.connect(port, "friend")
        await friend.wait_for("hostess")
        await pane.wait_for("Écarté · nl rules")
        screen = await pane.text()
        assert "guest-1" in screen  # the friend's name at the host's table
        await friend.close()
        await pane.wait_for("Waiting for guest-1 to reconnect")
        again = await Seat.connect(port, "friend")  # (a guest: any guest takes the seat)
        await again.wait_for("hostess")
        await pane.run("send-keys", "-t", "game", "C-q")
        await pane.wait_for("Stop hosting?")  # the game in play would end: asked first
        await pane.run("send-keys", "-t", "game", "n")
        await pane.wait_gone("Stop hosting?")
        await pane.run("send-keys", "-t", "game", "q")
        await pane.wait_for("Stop hosting?")
        await pane.run("send-keys", "-t", "game", "y")
        await pane.wait_for("host-exited-0")
        # the host's last line reaches his terminal (a session ending after his app put
        # back its captured stdout), and the friend is told why his game ended
        assert f"A friend could join with: ssh -p {port}" in await pane.text()
        await again.client.wait_closed()
        assert "The host stopped hosting" in bytes(again.client.raw).decode(errors="replace")
    finally:
        await pane.run("kill-server")


SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_host_waiting_screen_snapshot(snap_compare, monkeypatch, tmp_path, size):
    """The host's wait for a friend is the club's boxed waiting screen (it was drawn
    unstyled, flush left: HostApp lacked the club's stylesheet)."""
    monkeypatch.setattr(live_club.random, "SystemRandom", lambda: random.Random(7))
    host = HostTable(TableOptions(), "hostess", tmp_path / "archive")
    host.join_command = "ssh -p 2222 club.example.org"
    host.fingerprint = "SHA256:vgGkGg/gZ1VF1sRfy9rS5MRpx9j2VEB7eAMuDQ4oUO8"
    assert snap_compare(HostApp(host, settings=Settings()), terminal_size=size)


async def test_the_waiting_screen_names_the_tables_club_options_as_the_lobby_does(tmp_path):
    """A pool table's waiting screen said only "classic · to 5": its creator could not see
    that the table he opened was a pool, nor its stake."""
    from net.club.clubhouse.options import ClubOptions
    from net.screens.table_rows import table_row

    options = TableOptions(club=ClubOptions(pool="loser_out", stake=5))
    host = HostTable(options, "hostess", tmp_path / "archive")
    app = HostApp(host, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, WaitingScreen)
        shown = [str(s.render()) for s in app.screen.query(".club-text")]
        lobby = table_row(host.club, host.lt, None).rules
        assert lobby == "classic · to 5 · pool 001 · stake 5"
        assert lobby in shown, shown
