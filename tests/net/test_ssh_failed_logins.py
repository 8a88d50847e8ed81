"""Failed logins: only real authentication failures count, and a key that is let in is never
locked out (issue 14, item 5)."""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from ssh_harness import ScreenClient, connect, serving

from net.ssh.limits import ConnectionTracker, Limits, describe_wait

SSH = shutil.which("ssh")
KEYSCAN = shutil.which("ssh-keyscan")
LOCKED = re.compile(r"too many failed logins from your address, try again in \d+ (minute|second)s?")


@pytest.fixture(scope="module")
def keys() -> dict[str, asyncssh.SSHKey]:
    names = ("alice", "eve", "eve2", "eve3", "eve4", "eve5")
    return {name: asyncssh.generate_private_key("ssh-ed25519") for name in names}


def _authorized(tmp_path: Path, key: asyncssh.SSHKey) -> Path:
    path = tmp_path / "authorized_keys"
    path.write_bytes(key.export_public_key())
    return path


class _BannerClient(asyncssh.SSHClient):
    """Keeps the authentication banners the server sent (OpenSSH prints them)."""

    banners: list[str]

    def connection_made(self, conn: asyncssh.SSHClientConnection) -> None:
        self.banners = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


async def _refusal(port: int, *keys: asyncssh.SSHKey) -> str:
    """Offer `keys` in turn (as an agent does); the banners and reason the refusal carried."""
    clients: list[_BannerClient] = []

    def factory() -> _BannerClient:
        clients.append(_BannerClient())
        return clients[-1]

    with pytest.raises(asyncssh.PermissionDenied) as refused:
        await connect(port, client_keys=list(keys), client_factory=factory)
    return "".join(clients[0].banners) + refused.value.reason


async def _until_no_connections(server: Any) -> None:
    """Failures are recorded when a connection is lost; wait for the server to see that."""
    while server.connection_count:
        await asyncio.sleep(0.02)


# --- the tracker, on an injected clock --------------------------------------------------------


def _tracker(**changes: Any) -> tuple[ConnectionTracker, list[float]]:
    now = [1000.0]
    return ConnectionTracker(Limits(**changes), clock=lambda: now[0]), now


def test_lockout_starts_at_the_limit_and_names_the_wait():
    tracker, now = _tracker(max_failed_auth_per_ip=3, failed_auth_window=300.0)
    for _ in range(2):
        tracker.auth_failed("10.0.0.1")
    assert tracker.lockout_reason("10.0.0.1") is None and tracker.lockout_remaining("10.0.0.1") == 0
    tracker.auth_failed("10.0.0.1")
    assert tracker.lockout_remaining("10.0.0.1") == 300.0
    assert tracker.lockout_reason("10.0.0.1") == (
        "too many failed logins from your address, try again in 5 minutes"
    )
    assert tracker.lockout_reason("10.0.0.2") is None  # other addresses are not touched
    assert tracker.refusal_reason("10.0.0.1") is None  # connecting is still allowed


def test_lockout_ends_when_the_oldest_counted_failure_leaves_the_window():
    tracker, now = _tracker(max_failed_auth_per_ip=2, failed_auth_window=300.0)
    tracker.auth_failed("a")
    now[0] += 100
    tracker.auth_failed("a")
    assert tracker.lockout_remaining("a") == 200.0  # 300 s after the first failure
    assert "try again in 4 minutes" in (tracker.lockout_reason("a") or "")
    now[0] += 170
    assert "try again in 30 seconds" in (tracker.lockout_reason("a") or "")
    now[0] += 30
    assert tracker.lockout_reason("a") is None
    assert tracker.recent_failures("a") == 1  # the second one is still inside the window


def test_failures_while_locked_extend_the_lockout_but_memory_stays_bounded():
    tracker, now = _tracker(max_failed_auth_per_ip=3, failed_auth_window=60.0)
    for _ in range(1000):
        tracker.auth_failed("a")
        now[0] += 1
    assert tracker.recent_failures("a") == 3  # only the newest `limit` stamps are kept
    assert tracker.lockout_remaining("a") == 60.0 - 3  # counted from the oldest kept one
    assert tracker.lockout_reason("a") == (
        "too many failed logins from your address, try again in 57 seconds"
    )


def test_addresses_that_failed_once_are_forgotten_after_the_window():
    tracker, now = _tracker(max_failed_auth_per_ip=5, failed_auth_window=60.0)
    for n in range(500):
        tracker.auth_failed(f"2001:db8::{n:x}")
    now[0] += 61
    tracker.auth_failed("192.0.2.1")  # any later failure sweeps the expired ones
    assert len(tracker._failures) == 1


def test_zero_limit_never_locks_out():
    tracker, _ = _tracker(max_failed_auth_per_ip=0)
    for _ in range(50):
        tracker.auth_failed("a")
    assert tracker.lockout_reason("a") is None and tracker.recent_failures("a") == 0


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0.2, "1 second"), (1, "1 second"), (45.1, "46 seconds"), (60, "1 minute"),
     (61, "2 minutes"), (300, "5 minutes")],
)
def test_describe_wait_rounds_up(seconds, text):
    assert describe_wait(seconds) == text


# --- over SSH ---------------------------------------------------------------------------------


async def _keyscan(port: int) -> str:
    process = await asyncio.create_subprocess_exec(
        str(KEYSCAN), "-p", str(port), "-T", "10", "-t", "ed25519,ecdsa,rsa", "127.0.0.1",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 30)
    return out.decode()


async def _probe(port: int, send: bytes | None) -> None:
    """A port probe (connect, close) or a banner grab (read the banner, say hello, leave)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if send is not None:
        assert (await reader.readline()).startswith(b"SSH-2.0-")
        writer.write(send)
        await writer.drain()
    writer.close()
    await writer.wait_closed()


@pytest.mark.skipif(KEYSCAN is None, reason="needs ssh-keyscan (openssh-client)")
@pytest.mark.parametrize("private", [True, False], ids=["private", "public"])
async def test_keyscan_burst_and_probes_do_not_lock_out_a_keyed_login(
    demo_factory, keys, tmp_path, private
):
    limits = Limits(max_failed_auth_per_ip=2)
    options: dict[str, Any] = {"limits": limits}
    if private:
        options.update(private=True, authorized_keys=_authorized(tmp_path, keys["alice"]))
    async with serving(demo_factory, tmp_path / "data", **options) as server:
        scanned = [await _keyscan(server.port) for _ in range(3)]
        assert all("ssh-ed25519" in out for out in scanned)  # each run did a key exchange
        for send in (None, None, b"SSH-2.0-probe\r\n", b"SSH-2.0-probe\r\n", b"GET / HTTP/1.0\r\n"):
            await _probe(server.port, send)
        await _until_no_connections(server)
        client = await ScreenClient.connect(server.port, key=keys["alice"], size=(100, 12))
        assert await client.wait_for(f"who=alice {keys['alice'].get_fingerprint('sha256')}")
        await client.close()


async def test_unlisted_key_past_the_limit_is_told_how_long_and_a_listed_key_still_gets_in(
    demo_factory, keys, tmp_path
):
    limits = Limits(max_failed_auth_per_ip=2, failed_auth_window=300.0, locked_out_key_tries=3)
    authorized = _authorized(tmp_path, keys["alice"])
    async with serving(
        demo_factory, tmp_path / "data", private=True, authorized_keys=authorized, limits=limits
    ) as server:
        for _ in range(2):
            assert not LOCKED.search(await _refusal(server.port, keys["eve"]))  # ordinary
        await _until_no_connections(server)
        # Locked out: told how long, first as a banner...
        assert LOCKED.search(await _refusal(server.port, keys["eve"]))
        # ...and a connection that keeps offering unlisted keys is cut with the reason.
        with pytest.raises(asyncssh.PermissionDenied) as cut:
            await connect(server.port, client_keys=[keys[k] for k in ("eve", "eve2", "eve3")])
        assert LOCKED.search(cut.value.reason), cut.value.reason
        # The same address, the right key: in, locked out or not (a dropped player returns),
        # also when an agent offers an unlisted key before it.
        client = await ScreenClient.connect(server.port, key=keys["alice"])
        assert await client.wait_for("count=0")
        await client.close()
        conn = await connect(server.port, client_keys=[keys["eve4"], keys["alice"]])
        conn.close()
        await conn.wait_closed()
        if SSH is not None:  # what a person with OpenSSH reads
            eve_file = tmp_path / "id_eve"
            eve_file.write_bytes(keys["eve"].export_private_key())
            eve_file.chmod(0o600)
            process = await asyncio.create_subprocess_exec(
                str(SSH), "-F", "/dev/null", "-p", str(server.port), "-i", str(eve_file),
                "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "eve@127.0.0.1",
                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            _, err = await asyncio.wait_for(process.communicate(), 30)
            assert process.returncode == 255
            assert LOCKED.search(err.decode(errors="replace")), err


class _StalledClient(asyncssh.SSHClient):
    """Starts authenticating, then never offers anything (a client stuck mid-login)."""

    async def public_key_auth_requested(self) -> None:
        await asyncio.Event().wait()


async def test_login_timeout_counts_only_after_an_authentication_attempt(
    demo_factory, keys, tmp_path
):
    limits = Limits(login_timeout=0.5, max_failed_auth_per_ip=1)
    authorized = _authorized(tmp_path, keys["alice"])
    async with serving(
        demo_factory, tmp_path / "data", private=True, authorized_keys=authorized, limits=limits
    ) as server:
        # Silent TCP connections time out without ever asking to log in: no failure.
        loop = asyncio.get_running_loop()
        for _ in range(2):
            sock = socket.create_connection(("127.0.0.1", server.port))
            sock.setblocking(False)
            while await asyncio.wait_for(loop.sock_recv(sock, 4096), 10):
                pass
            sock.close()
        await _until_no_connections(server)
        assert not LOCKED.search(await _refusal(server.port, keys["eve"]))  # silent: no count
        await _until_no_connections(server)  # ...but eve's refused key was one failure
        assert LOCKED.search(await _refusal(server.port, keys["eve"]))

    async with serving(
        demo_factory, tmp_path / "data", private=True, authorized_keys=authorized, limits=limits
    ) as server:
        # A client that began to log in and then stalled until the login timeout: a failure.
        with pytest.raises((asyncssh.DisconnectError, ConnectionError)):
            await connect(server.port, key=keys["eve"], client_factory=_StalledClient)
        await _until_no_connections(server)
        assert LOCKED.search(await _refusal(server.port, keys["eve"]))
        client = await ScreenClient.connect(server.port, key=keys["alice"])
        assert await client.wait_for("count=0")
        await client.close()
