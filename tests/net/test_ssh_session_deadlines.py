"""A connection must keep a session running: `ssh -N`, a connection whose last session ended
and channels that never start an app are closed at their deadline (issue 14, item 4)."""

from __future__ import annotations

import asyncio
import logging
import shutil
from typing import Any

import asyncssh
import pytest
from ssh_harness import ScreenClient, connect, serving

from net.ssh.limits import Limits
from net.ssh.server import _ConnectionHandler, _ServerState

SSH = shutil.which("ssh")


@pytest.mark.skipif(SSH is None, reason="needs the OpenSSH client (ssh)")
async def test_openssh_dash_n_is_closed_at_its_session_open_deadline(
    demo_factory, tmp_path, caplog
):
    caplog.set_level(logging.INFO, logger="net.ssh.server")
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    limits = Limits(session_open_timeout=0.5)
    async with serving(demo_factory, tmp_path / "data", limits=limits) as server:
        process = await asyncio.create_subprocess_exec(
            str(SSH), "-N", "-F", "/dev/null", "-p", str(server.port), "-i", str(key_file),
            "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "player@127.0.0.1",
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            # Without a deadline `ssh -N` stays for ever; the bound only stops a hung test.
            _, err = await asyncio.wait_for(process.communicate(), 60)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert process.returncode == 255
        assert "no session opened within 1 second of login" in err.decode(errors="replace")
        fingerprint = key.get_fingerprint("sha256")
        assert f"login from 127.0.0.1 as 'player' ({fingerprint})" in caplog.text  # keyed
        assert "closing connection from 127.0.0.1 as 'player'" in caplog.text  # and logged
        while server.connection_count:
            await asyncio.sleep(0.02)
        assert demo_factory.apps == []


async def test_connection_whose_last_session_ended_is_closed_at_its_deadline(
    demo_factory, tmp_path, caplog
):
    caplog.set_level(logging.INFO, logger="net.ssh.server")
    limits = Limits(session_open_timeout=0.3, sessionless_timeout=0.3)
    async with serving(demo_factory, tmp_path, limits=limits) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        # A running session outlives both deadlines several times over.
        await asyncio.sleep(1.0)
        assert server.session_count == 1 and server.connection_count == 1
        assert "closing connection" not in caplog.text
        client.send(b"q")  # the app ends, its channel closes, the connection stays
        await client.wait_closed()
        await asyncio.wait_for(client.conn.wait_closed(), 60)  # type: ignore[union-attr]
        closed = "from 127.0.0.1 as 'alice' (guest): no session open for 1 second"
        assert closed in caplog.text
        while server.connection_count:
            await asyncio.sleep(0.02)


async def test_refused_channels_do_not_keep_a_connection_open(demo_factory, tmp_path):
    """Opening channels that never start an app does not push the deadline back."""
    limits = Limits(session_open_timeout=0.5, sessionless_timeout=0.5)
    async with serving(demo_factory, tmp_path, limits=limits) as server:
        conn = await connect(server.port)
        for _ in range(600):  # about a minute; the deadline ends it long before
            try:
                await conn.create_session(asyncssh.SSHClientSession, "not allowed")
            except asyncssh.ChannelOpenError:
                pass
            except (asyncssh.DisconnectError, ConnectionError, OSError):
                break
            if conn.is_closed():
                break
            await asyncio.sleep(0.1)
        await asyncio.wait_for(conn.wait_closed(), 10)
        assert demo_factory.apps == []
        while server.connection_count:
            await asyncio.sleep(0.02)


class _FakeConnection:
    def __init__(self) -> None:
        self.disconnects: list[tuple[int, str]] = []

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("192.0.2.7", 40000) if name == "peername" else default

    def disconnect(self, code: int, reason: str, lang: str = "en-US") -> None:
        self.disconnects.append((code, reason))


class _FakeSession:
    """Just what the deadline logic looks at: whether an app task ever ran."""

    def __init__(self, ran: bool) -> None:
        self.task: asyncio.Future[int] | None = None
        if ran:
            self.task = asyncio.get_running_loop().create_future()
            self.task.set_result(0)


def _handler(**limits: Any) -> tuple[_ConnectionHandler, _FakeConnection]:
    state = _ServerState(lambda info: None, Limits(**limits), None, None)  # type: ignore[arg-type,return-value]
    handler = _ConnectionHandler(state)
    conn = _FakeConnection()
    handler.connection_made(conn)  # type: ignore[arg-type]
    handler.begin_auth("bob")
    return handler, conn


async def test_deadline_timer_is_cancelled_when_the_connection_goes():
    handler, conn = _handler(session_open_timeout=60.0, sessionless_timeout=60.0)
    handler.auth_completed()
    timer = handler._deadline
    assert timer is not None and not timer.cancelled()
    handler.connection_lost(None)
    assert timer.cancelled() and handler._deadline is None
    # A session ending after its connection went (an app's task finishing late) arms nothing.
    handler._session_ended(_FakeSession(ran=True))  # type: ignore[arg-type]
    assert handler._deadline is None and conn.disconnects == []


async def test_deadline_disconnects_with_the_reason():
    handler, conn = _handler(session_open_timeout=0.01)
    handler.auth_completed()
    for _ in range(500):
        if conn.disconnects:
            break
        await asyncio.sleep(0.01)
    reason = "no session opened within 1 second of login"
    assert conn.disconnects == [(asyncssh.DISC_BY_APPLICATION, reason)]
    assert handler._deadline is None
    handler.connection_lost(None)


async def test_no_deadline_when_disabled():
    handler, conn = _handler(session_open_timeout=None, sessionless_timeout=None)
    handler.auth_completed()
    handler._session_ended(_FakeSession(ran=True))  # type: ignore[arg-type]
    assert handler._deadline is None
    handler.connection_lost(None)


async def test_only_a_session_that_ran_restarts_a_pending_deadline():
    handler, conn = _handler(session_open_timeout=60.0, sessionless_timeout=60.0)
    handler.auth_completed()
    first = handler._deadline
    handler._session_ended(_FakeSession(ran=False))  # a refused or never-started channel
    assert handler._deadline is first and first is not None and not first.cancelled()
    handler._session_ended(_FakeSession(ran=True))  # a real session ended: a fresh deadline
    assert handler._deadline is not first and first.cancelled()
    handler.connection_lost(None)
    assert handler._deadline is None
