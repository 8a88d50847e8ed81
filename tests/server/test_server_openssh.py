"""The real OpenSSH client, in tmux, joins a table with ``ssh -t ... join CODE`` and plays a
hand against an asyncssh player, each reading only their own screen."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import time

import pytest
from server_harness import Seat, club_server, new_key, open_table

from net.bench.screen_player import DONE, ENTER, next_move

SSH = shutil.which("ssh")
TMUX = shutil.which("tmux")

pytestmark = pytest.mark.skipif(SSH is None or TMUX is None, reason="needs ssh and tmux")


class TmuxPane:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    async def run(self, *args: str) -> str:
        process = await asyncio.create_subprocess_exec(
            str(TMUX), "-L", self.socket, *args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, _ = await process.communicate()
        return out.decode(errors="replace")

    async def text(self) -> str:
        return await self.run("capture-pane", "-p", "-t", "game")

    async def wait_for(self, needle: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        pane = ""
        while time.monotonic() < deadline:
            pane = await self.text()
            if needle in pane:
                return pane
            await asyncio.sleep(0.1)
        raise AssertionError(f"{needle!r} never appeared in tmux; pane:\n{pane}")

    async def wait_gone(self, needle: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        pane = await self.text()
        while needle in pane and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            pane = await self.text()
        assert needle not in pane, f"{needle!r} stayed in tmux; pane:\n{pane}"
        return pane

    async def press(self, key: bytes) -> None:
        if key == ENTER:
            await self.run("send-keys", "-t", "game", "Enter")
        else:
            await self.run("send-keys", "-t", "game", "-l", key.decode())


async def play_in_tmux(pane: TmuxPane, until: str, timeout: float = 60) -> str:
    rng = random.Random(4)
    deadline = time.monotonic() + timeout
    last = ""
    screen = await pane.text()
    while time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        drawn, screen = screen, await pane.text()
        if screen != drawn:  # still being drawn: read it once it holds still
            continue
        if until in screen:
            return screen
        move = next_move(screen, rng)
        if move is None or move is DONE or screen == last:
            last = "" if move is None else last
            continue
        await pane.press(move.key)
        last = screen  # do not press twice for one screen
    raise AssertionError(f"no {until!r} in tmux; pane:\n{await pane.text()}")


async def test_openssh_in_tmux_joins_by_code_and_plays_a_hand(tmp_path):
    key = new_key()
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    pane = TmuxPane(f"ecarte-server-{os.getpid()}")
    async with club_server(tmp_path / "data") as server:
        anna = await Seat.connect(server.port, "anna", seed=1)
        await anna.wait_for("a guest: connect with an SSH key")  # the lobby, no toast over it
        code = await open_table(anna)
        ssh = " ".join([
            str(SSH), "-F", "/dev/null", "-t", "-p", str(server.port), "-i", str(key_file),
            "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
            "-o", "BatchMode=yes", "ben@127.0.0.1", "join", code.lower(),
        ])
        try:
            await pane.run("-f", "/dev/null", "new-session", "-d", "-s", "game", "-x", "80",
                           "-y", "24", f'TERM=xterm-256color {ssh}; echo "ssh exited $?"; '
                           "sleep 30")
            await pane.wait_for("first visit")
            await pane.press(ENTER)  # the name "ben"
            await pane.wait_for("Écarté · classic rules")
            hand_over = "Next hand"
            try:
                _, screen = await asyncio.gather(
                    anna.play(until=lambda s: hand_over in s or "the match" in s),
                    play_in_tmux(pane, hand_over))
            except AssertionError as e:  # one seat may wait for the other: show both
                raise AssertionError(f"{e}\nanna's screen:\n{anna.text()}") from e
            assert "Tricks: You" in screen
            lt = server.club.find(code)
            assert lt.seats[1].name == "ben"
            assert lt.seats[1].player_id == key.get_fingerprint("sha256")
            assert sum(lt.table.match.hands_log[0].tricks) == 5
            # leaving: q to the lobby, q again ends the session; the terminal is restored
            await pane.press(b"q")
            await pane.wait_for("C L U B")
            await pane.press(b"q")
            pane_text = await pane.wait_for("ssh exited 0")
            assert pane_text.split("ssh exited 0")[0].strip() == ""
            await anna.close()
        finally:
            await pane.run("kill-server")
