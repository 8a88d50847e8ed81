"""End to end with the real OpenSSH client running inside tmux."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
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


async def test_openssh_client_in_tmux(demo_factory, tmp_path):
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    socket = f"ecarte-test-{os.getpid()}"
    async with serving(demo_factory, tmp_path / "data") as server:
        ssh_command = " ".join(
            [
                str(SSH),
                "-F",
                "/dev/null",
                "-p",
                str(server.port),
                "-i",
                str(key_file),
                "-o",
                "IdentitiesOnly=yes",
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "LogLevel=ERROR",
                "-o",
                "BatchMode=yes",
                "player@127.0.0.1",
            ]
        )
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
