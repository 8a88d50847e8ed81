"""Only the app is reachable: auth modes, refused requests, connection limits."""

from __future__ import annotations

import asyncio
import socket

import asyncssh
import pytest
from ssh_harness import ScreenClient, connect, serving

from net.ssh.limits import Limits
from net.ssh.served_app import keep_alive
from net.ssh.server import _ConnectionHandler, _ServerState


@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    return {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("alice", "eve")}


async def test_key_fingerprint_is_identity_and_keyless_is_guest(demo_factory, keys, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        with_key = await ScreenClient.connect(server.port, key=keys["alice"], size=(100, 12))
        fingerprint = keys["alice"].get_fingerprint("sha256")
        assert await with_key.wait_for(f"who=alice {fingerprint}")
        guest = await ScreenClient.connect(server.port, username="bob", size=(100, 12))
        assert await guest.wait_for("who=bob guest")
        assert [app.info.key_fingerprint for app in demo_factory.apps] == [fingerprint, None]
        assert demo_factory.apps[1].info.is_guest
        await with_key.close()
        await guest.close()


async def test_private_mode_admits_only_listed_keys(demo_factory, keys, tmp_path):
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(keys["alice"].export_public_key())
    async with serving(demo_factory, tmp_path, private=True, authorized_keys=authorized) as s:
        client = await ScreenClient.connect(s.port, key=keys["alice"])
        assert await client.wait_for("count=0")
        await client.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(s.port, key=keys["eve"])
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(s.port)  # guests are not let in either


def test_guest_login_after_offering_someone_elses_key_gets_no_identity(keys):
    """Offering a (public) key without proving it must not leave its fingerprint behind."""
    handler = _ConnectionHandler(_ServerState(lambda info: None, Limits(), None, None))
    assert handler.validate_public_key("eve", keys["alice"])  # query, no signature yet
    assert handler.get_kbdint_challenge("eve", "", "") is True
    assert handler._key_fingerprint is None


async def test_exec_only_for_allowed_commands(demo_factory, tmp_path):
    def allow(command: str) -> bool:
        return command.startswith("join ") and len(command) < 20

    async with serving(demo_factory, tmp_path, allow_command=allow) as server:
        client = await ScreenClient.connect(server.port, command="join ABCD", size=(80, 12))
        assert await client.wait_for("cmd=join ABCD")
        await client.close()
        conn = await connect(server.port)
        built = len(demo_factory.apps)
        for command in ("ls -la", "sh", "join " + "x" * 50, "cat\x1b[2J"):
            # nothing runs: the client is told so (not "exec request failed") and let go
            result = await asyncio.wait_for(
                conn.run(command, term_type="xterm", encoding=None), 5)
            assert result.exit_status == 2 and result.stdout == b""
            said = result.stderr.decode()
            assert "runs no command" in said and "join CODE" in said, said
            assert "\x1b" not in said  # (the command is shown, its escapes are not)
        assert len(demo_factory.apps) == built  # no app was made for any of them
        conn.close()


async def test_subsystems_forwarding_agent_and_x11_are_refused(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        conn = await connect(server.port)
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_session(asyncssh.SSHClientSession, subsystem="sftp")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", server.port)  # ssh -L / -D
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)  # ssh -R
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_unix_connection("/var/run/docker.sock")
        with pytest.raises(asyncssh.ChannelOpenError, match="X11 forwarding request failed"):
            await conn.create_session(
                asyncssh.SSHClientSession,
                term_type="xterm",
                x11_forwarding=True,
                x11_display="127.0.0.1:10",
                x11_auth_path=str(tmp_path / "no-xauthority"),
            )
        conn.close()
        await conn.wait_closed()
        await asyncio.sleep(0.1)
        assert server.session_count == 0 and demo_factory.apps == []
        # Agent forwarding: the request is refused, no agent socket is created.
        client = await ScreenClient.connect(server.port, agent_forwarding="/no/such/agent")
        assert await client.wait_for("count=0")
        (session,) = server.sessions
        assert session.terminal.channel.get_extra_info("connection").get_agent_path() is None
        await client.close()


async def test_session_without_pty_gets_one_line_and_is_closed(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        conn = await connect(server.port)
        result = await asyncio.wait_for(conn.run(encoding=None), 5)
        assert result.exit_status == 1
        assert result.stdout == b""
        assert result.stderr.count(b"\n") == 1 and b"ssh -t" in result.stderr
        assert demo_factory.apps == []  # no app was built for it
        conn.close()


async def test_connection_limits_per_ip_and_sessions_per_connection(demo_factory, tmp_path):
    limits = Limits(max_connections_per_ip=2, max_sessions_per_connection=1)
    async with serving(demo_factory, tmp_path, limits=limits) as server:
        first = await connect(server.port)
        second = await connect(server.port)
        with pytest.raises((asyncssh.DisconnectError, ConnectionError)):
            await connect(server.port)
        await first.create_session(asyncssh.SSHClientSession, term_type="xterm")
        with pytest.raises(asyncssh.ChannelOpenError):
            await first.create_session(asyncssh.SSHClientSession, term_type="xterm")
        first.close()
        await first.wait_closed()
        await asyncio.sleep(0.1)
        third = await connect(server.port)  # a slot was freed
        third.close()
        second.close()


async def test_failed_logins_lock_out_unlisted_keys_for_a_while(demo_factory, keys, tmp_path):
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(keys["alice"].export_public_key())
    limits = Limits(max_failed_auth_per_ip=2, locked_out_key_tries=1)
    async with serving(
        demo_factory, tmp_path, private=True, authorized_keys=authorized, limits=limits
    ) as server:
        for _ in range(2):
            with pytest.raises(asyncssh.PermissionDenied):
                await connect(server.port, key=keys["eve"])
        while server.connection_count:
            await asyncio.sleep(0.02)
        with pytest.raises(asyncssh.PermissionDenied, match=r"try again in \d+ (minute|second)"):
            await connect(server.port, key=keys["eve"])
        conn = await connect(server.port, key=keys["alice"])  # a listed key is never locked out
        conn.close()


async def test_login_timeout_drops_silent_clients(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path, limits=Limits(login_timeout=0.5)) as server:
        loop = asyncio.get_running_loop()
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.setblocking(False)
        received = b""
        started = loop.time()
        while loop.time() - started < 5:
            try:
                chunk = await asyncio.wait_for(loop.sock_recv(sock, 4096), 5)
            except ConnectionResetError:
                break
            if not chunk:
                break
            received += chunk
        sock.close()
        assert received.startswith(b"SSH-2.0-")
        assert loop.time() - started < 3


async def test_idle_sessions_are_closed_with_a_message(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path, limits=Limits(idle_timeout=0.5)) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        await client.wait_closed(timeout=5)
        assert b"no input" in client.raw
        assert client.chan.get_exit_status() == 0
        await client.close()
        # An app can keep a watching-only user connected.
        watcher = await ScreenClient.connect(server.port)
        assert await watcher.wait_for("count=0")
        for _ in range(8):
            keep_alive(demo_factory.apps[-1])
            await asyncio.sleep(0.15)
        assert server.session_count == 1
        await watcher.close()
