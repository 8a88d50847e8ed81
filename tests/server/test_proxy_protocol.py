"""Behind a balancer that speaks the PROXY protocol (``--proxy-protocol``), each connection's
header gives the player's address: the block list, the limits per address and the
sessions' identities see players, not the balancer."""

from __future__ import annotations

import asyncio
import logging
import socket
import struct

import pytest
from server_harness import Seat, club_server

from net.ssh.proxy_header import V2_SIGNATURE, ProxyHeader, ProxyHeaderError, parse


def v2(address: str, port: int = 5555) -> bytes:
    body = (socket.inet_aton(address) + socket.inet_aton("127.0.0.1")
            + struct.pack("!HH", port, 2222))
    return V2_SIGNATURE + bytes([0x21, 0x11]) + struct.pack("!H", len(body)) + body


def test_headers_of_both_versions_give_the_players_address_and_their_length():
    line = b"PROXY TCP4 203.0.113.9 10.0.0.1 5555 2222\r\n"
    assert parse(line + b"SSH-2.0-OpenSSH") == ProxyHeader(len(line), "203.0.113.9")
    six = b"PROXY TCP6 2001:db8::7 2001:db8::1 5555 2222\r\n"
    assert parse(six) == ProxyHeader(len(six), "2001:db8::7")
    assert parse(b"PROXY UNKNOWN\r\n") == ProxyHeader(15, None)
    assert parse(v2("198.51.100.4") + b"SSH-2.0") == ProxyHeader(28, "198.51.100.4")
    local = V2_SIGNATURE + bytes([0x20, 0x00, 0, 0])  # the balancer's own health check
    assert parse(local) == ProxyHeader(16, None)
    for partial in (b"PRO", b"PROXY TCP4 203.0.", V2_SIGNATURE[:5], v2("192.0.2.1")[:20]):
        assert parse(partial) is None  # more bytes needed


@pytest.mark.parametrize("data", [b"SSH-2.0-OpenSSH_9.2\r\n", b"PROXY TCP4 nonsense\r\n",
                                  b"PROXY TCP4 2001:db8::1 10.0.0.1 1 2\r\n",
                                  b"PROXY " + b"x" * 120, V2_SIGNATURE + b"\x31\x11\x00\x0c"])
def test_anything_else_is_refused(data):
    with pytest.raises(ProxyHeaderError):
        parse(data)


async def _through_balancer(port: int, header: bytes, name: str) -> Seat:
    """A client connecting as a balancer would pass it on: the header, then its SSH."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    await loop.sock_sendall(sock, header)
    return await Seat.connect(port, name, sock=sock)


async def test_the_headers_address_is_the_players_for_the_club(tmp_path):
    (tmp_path / "blocklist").write_text("203.0.113.9\n")
    async with club_server(tmp_path, proxy_protocol=True) as server:
        gus = await _through_balancer(server.port, v2("198.51.100.4"), "gus")
        await gus.wait_for("C L U B")
        [session] = server.ssh.sessions  # type: ignore[union-attr]
        assert session.identity.peer_ip == "198.51.100.4"
        line = b"PROXY TCP4 203.0.113.9 127.0.0.1 5555 2222\r\n"
        with pytest.raises(Exception, match="may not play at this club"):
            await _through_balancer(server.port, line, "troll")  # blocked by its own address
        loop = asyncio.get_running_loop()
        direct = socket.socket()  # no header: a client that reached the node directly
        direct.setblocking(False)
        await loop.sock_connect(direct, ("127.0.0.1", server.port))
        await loop.sock_sendall(direct, b"SSH-2.0-OpenSSH_9.2\r\n")
        try:  # closed at once, without a word of SSH (reset: what it sent was never read)
            answer = await asyncio.wait_for(loop.sock_recv(direct, 100), 10)
        except ConnectionResetError:
            answer = b""
        assert answer == b""
        direct.close()
        assert len(server.ssh.sessions) == 1  # type: ignore[union-attr]
        await gus.close()


async def test_connections_past_the_pending_bound_are_closed_at_once(tmp_path, monkeypatch):
    """A flood of connections that never log in holds at most ``MAX_PENDING`` of them."""
    from net.ssh import proxy_listener

    monkeypatch.setattr(proxy_listener, "MAX_PENDING", 2)
    monkeypatch.setattr(proxy_listener, "HEADER_TIMEOUT", 120.0)  # (closed only by the bound)
    async with club_server(tmp_path, proxy_protocol=True) as server:
        loop = asyncio.get_running_loop()
        silent = []
        for _ in range(2):  # they send nothing: each waits for its header
            s = socket.socket()
            s.setblocking(False)
            await loop.sock_connect(s, ("127.0.0.1", server.port))
            silent.append(s)
        await asyncio.sleep(0.2)
        extra = socket.socket()
        extra.setblocking(False)
        await loop.sock_connect(extra, ("127.0.0.1", server.port))
        try:
            answer = await asyncio.wait_for(loop.sock_recv(extra, 10), 60)
        except ConnectionResetError:
            answer = b""
        assert answer == b""
        for s in (*silent, extra):
            s.close()


async def test_the_balancers_own_health_check_passes_a_block_list_naming_its_network(
        tmp_path, caplog):
    """An operator blocking a range that holds the balancer's address (here the loopback)
    blocks its players, not its checks (PROXY LOCAL): they are answered and not refused
    (the log would say so every two seconds for each node)."""
    (tmp_path / "blocklist").write_text("127.0.0.0/8\n")
    caplog.set_level(logging.INFO, logger="net.ssh.server")
    async with club_server(tmp_path, proxy_protocol=True) as server:
        loop = asyncio.get_running_loop()
        check = socket.socket()
        check.setblocking(False)
        await loop.sock_connect(check, ("127.0.0.1", server.port))
        await loop.sock_sendall(check, V2_SIGNATURE + bytes([0x20, 0x00, 0, 0]))
        assert await asyncio.wait_for(loop.sock_recv(check, 4), 10) == b"SSH-"
        check.close()
        with pytest.raises(Exception, match="may not play at this club"):
            await _through_balancer(server.port, v2("127.0.0.5"), "troll")
    refused = [r.getMessage() for r in caplog.records if "on the block list" in r.getMessage()]
    assert refused == ["refusing connection from 127.0.0.5: on the block list"]
