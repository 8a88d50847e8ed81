"""End to end with the real OpenSSH client running inside tmux."""

from __future__ import annotations

import asyncio
import fcntl
import os
import pty
import re
import select
import shutil
import struct
import termios
import time
from collections.abc import Sequence
from pathlib import Path

import asyncssh
import pytest
from ssh_harness import serving

SSH = shutil.which("ssh")
TMUX = shutil.which("tmux")

pytestmark = pytest.mark.skipif(
    SSH is None or TMUX is None, reason="needs the OpenSSH client (ssh) and tmux"
)


async def _tmux(socket: str, *args: str) -> str:
    process = await asyncio.create_subprocess_exec(
        TMUX,
        "-L",
        socket,
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, _ = await process.communicate()
    return out.decode(errors="replace")


async def _wait_for_pane(socket: str, needle: str, timeout: float = 15) -> str:
    deadline = time.monotonic() + timeout
    pane = ""
    while time.monotonic() < deadline:
        pane = await _tmux(socket, "capture-pane", "-p", "-t", "ecarte")
        if needle in pane:
            return pane
        await asyncio.sleep(0.1)
    raise AssertionError(f"{needle!r} never appeared; pane:\n{pane}")


def _new_key(directory: Path) -> tuple[asyncssh.SSHKey, Path]:
    """A fresh Ed25519 key, written where ssh's ``-i`` will read it."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = directory / "id_ed25519"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    return key, key_file


def _ssh_args(port: int, key_file: Path, options: Sequence[str] = ()) -> list[str]:
    """The ssh command line for the test server: our key only, no config, no questions."""
    return [
        str(SSH), "-F", "/dev/null", "-p", str(port), "-i", str(key_file),
        "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR",
        "-o", "BatchMode=yes", *options, "player@127.0.0.1",
    ]


async def test_openssh_client_in_tmux(demo_factory, tmp_path):
    key, key_file = _new_key(tmp_path)
    socket = f"ecarte-test-{os.getpid()}"
    async with serving(demo_factory, tmp_path / "data") as server:
        ssh_command = " ".join(_ssh_args(server.port, key_file))
        try:
            # The shell keeps the pane open after ssh exits so the result can be read.
            shell = f'{ssh_command}; echo "ssh exited $?"; sleep 60'
            await _tmux(
                socket,
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "ecarte",
                "-x",
                "80",
                "-y",
                "24",
                shell,
            )
            pane = await _wait_for_pane(socket, "count=0")
            assert "size=80x24" in pane
            assert key.get_fingerprint("sha256") in pane
            await _tmux(socket, "send-keys", "-t", "ecarte", "+")
            await _wait_for_pane(socket, "count=1")
            await _tmux(socket, "send-keys", "-t", "ecarte", "Escape")
            await _wait_for_pane(socket, "key=escape")
            await _tmux(socket, "resize-window", "-t", "ecarte", "-x", "100", "-y", "30")
            await _wait_for_pane(socket, "size=100x30")
            await _tmux(socket, "send-keys", "-t", "ecarte", "q")
            pane = await _wait_for_pane(socket, "ssh exited 0")
            # ssh exited 0 and the terminal is back to normal: main screen, mouse
            # reporting off, and nothing left over (no app text, no stray characters).
            assert pane.split("ssh exited 0")[0].strip() == ""
            modes = await _tmux(
                socket,
                "display-message",
                "-p",
                "-t",
                "ecarte",
                "#{alternate_on} #{mouse_any_flag} #{mouse_sgr_flag}",
            )
            assert modes.split() == ["0", "0", "0"]
        finally:
            await _tmux(socket, "kill-server")
            # tmux may leave the socket file behind; it is ours, remove it.
            tmpdir = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
            (tmpdir / socket).unlink(missing_ok=True)


async def _ssh_output(port: int, key_file: Path, options: list[str], needle: bytes) -> bytes:
    """What the real ssh client, on a pty with TERM=xterm-256color, received up to
    ``needle`` (the bytes the server sent, before any terminal interprets them)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = await asyncio.create_subprocess_exec(
        *_ssh_args(port, key_file, ["-tt", *options]),
        stdin=slave, stdout=slave, stderr=slave,
        env={**os.environ, "TERM": "xterm-256color", "COLORTERM": ""},
    )
    os.close(slave)
    raw = b""
    try:
        deadline = time.monotonic() + 15
        while needle not in raw and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0)
            if not ready:
                await asyncio.sleep(0.05)
                continue
            try:
                raw += os.read(master, 65536)
            except OSError:  # the client is gone
                break
        assert needle in raw, raw[-400:]
        await asyncio.sleep(0.3)  # the rest of the first frame
        while select.select([master], [], [], 0)[0]:
            try:
                raw += os.read(master, 65536)
            except OSError:
                break
    finally:
        process.kill()
        await process.wait()
        os.close(master)
    return raw


async def test_openssh_setenv_colorterm_gives_24_bit_colour(demo_factory, tmp_path):
    """The README's ``ssh -o SetEnv=COLORTERM=truecolor``: OpenSSH sends no COLORTERM by
    default, so the screen is drawn in the 256 colours of TERM, and in 24-bit when asked;
    ``SetEnv=NO_COLOR=1`` turns the themes to greys."""
    _, key_file = _new_key(tmp_path)
    async with serving(demo_factory, tmp_path / "data") as server:
        plain = await _ssh_output(server.port, key_file, [], b"count=0")
        true = await _ssh_output(
            server.port, key_file, ["-o", "SetEnv=COLORTERM=truecolor"], b"count=0")
        grey = await _ssh_output(
            server.port, key_file, ["-o", "SetEnv=NO_COLOR=1"], b"count=0")
    assert b"48;5;" in plain and b"48;2;" not in plain and b"38;2;" not in plain
    assert b"48;2;" in true or b"38;2;" in true
    assert demo_factory.apps[-1].no_color
    greys = {int(n) for n in re.findall(rb"[34]8;5;(\d+)", grey)}
    grey_palette = {0, 7, 8, 15, 16, 59, 102, 145, 188, 231, *range(232, 256)}
    assert greys and greys <= grey_palette, greys
