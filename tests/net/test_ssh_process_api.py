"""`run_app_over_ssh` on asyncssh's process API: resizes arrive as exceptions from read."""

from __future__ import annotations

import asyncssh
from ssh_harness import DemoApp, ScreenClient

from net.ssh.host_key import load_or_create_host_key
from net.ssh.served_app import run_app_over_ssh
from net.ssh.session_info import SessionInfo


class _OpenServer(asyncssh.SSHServer):
    def begin_auth(self, username: str) -> bool:
        return False


async def test_process_api_keys_resize_and_exit_status(counter, tmp_path):
    apps: list[DemoApp] = []

    async def handle(process: asyncssh.SSHServerProcess) -> None:
        width, height, _, _ = process.term_size
        info = SessionInfo("p", None, "127.0.0.1", process.term_type, (width, height))
        app = DemoApp(info, counter)
        apps.append(app)
        await run_app_over_ssh(app, process)

    acceptor = await asyncssh.listen(
        "127.0.0.1",
        0,
        server_factory=_OpenServer,
        server_host_keys=[load_or_create_host_key(tmp_path)],
        process_factory=handle,
        encoding=None,
        line_editor=False,
    )
    try:
        client = await ScreenClient.connect(acceptor.get_port(), size=(64, 14))
        assert await client.wait_for("size=64x14")
        client.send(b"+")
        assert await client.wait_for("count=1")
        client.resize(70, 20)
        assert await client.wait_for("size=70x20")
        client.send(b"\xff\xfe\x1b[")  # invalid UTF-8 must not drop the connection
        client.send(b"q")
        await client.wait_closed()
        assert client.chan.get_exit_status() == 0
        assert b"\x1b[?1049l" in client.raw[-100:]
        await client.close()
    finally:
        acceptor.close()
        await acceptor.wait_closed()


async def test_process_api_without_pty_gets_one_line(counter, tmp_path):
    async def handle(process: asyncssh.SSHServerProcess) -> None:
        info = SessionInfo("p", None, "127.0.0.1", None, (80, 24))
        await run_app_over_ssh(DemoApp(info, counter), process)

    acceptor = await asyncssh.listen(
        "127.0.0.1",
        0,
        server_factory=_OpenServer,
        server_host_keys=[load_or_create_host_key(tmp_path)],
        process_factory=handle,
        encoding=None,
        line_editor=False,
    )
    try:
        async with asyncssh.connect(
            "127.0.0.1", acceptor.get_port(), known_hosts=None, config=None, agent_path=None
        ) as conn:
            result = await conn.run(encoding=None)
        assert result.exit_status == 1 and b"ssh -t" in result.stderr
    finally:
        acceptor.close()
        await acceptor.wait_closed()
