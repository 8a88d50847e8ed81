"""Accepting behind a load balancer that speaks the PROXY protocol (``--proxy-protocol``).

asyncssh's own listener only knows the balancer's address. Here each connection is
accepted by hand, its PROXY header read (peeked, then exactly its length taken, so the SSH
bytes behind it stay in the socket), and the socket handed to ``asyncssh.run_server`` with
the player's address for the connection's policy. Only for nodes the balancer alone can
reach: any client that can connect may claim any address in a header.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import Any

import asyncssh

from net.ssh.proxy_header import MAX_HEADER, ProxyHeader, ProxyHeaderError, parse

log = logging.getLogger(__name__)

HEADER_TIMEOUT = 5.0  # seconds the balancer has to send the header after connecting
MAX_PENDING = 500  # connections not yet logged in; more are closed at once (a flood)


class ProxyAcceptor:
    """What ``GameSSHServer`` needs of an acceptor: ``get_port``, ``close``, ``wait_closed``."""

    def __init__(self, listener: socket.socket,
                 handler_for: Callable[[str | None], asyncssh.SSHServer],
                 options: dict[str, Any]) -> None:
        self._listener = listener
        self._handler_for = handler_for  # the connection's policy, given the player's address
        self._options = options
        self._pending: set[asyncio.Task[None]] = set()
        self._task = asyncio.create_task(self._accept(), name="proxy-accept")

    @classmethod
    async def start(cls, host: str, port: int, reuse_port: bool,
                    handler_for: Callable[[str | None], asyncssh.SSHServer],
                    options: dict[str, Any]) -> ProxyAcceptor:
        infos = await asyncio.get_running_loop().getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        listener = socket.socket(family, kind, proto)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            listener.bind(address)
            listener.listen(256)
            listener.setblocking(False)
        except OSError:
            listener.close()
            raise
        return cls(listener, handler_for, options)

    def get_port(self) -> int:
        return int(self._listener.getsockname()[1])

    def close(self) -> None:
        self._task.cancel()
        for task in list(self._pending):
            task.cancel()
        self._listener.close()

    async def wait_closed(self) -> None:
        tasks = [self._task, *self._pending]
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, _ = await loop.sock_accept(self._listener)
            except OSError as e:  # (too many open files: the next accept may work)
                log.warning("accepting a connection failed: %s", e)
                await asyncio.sleep(0.1)
                continue
            if len(self._pending) >= MAX_PENDING:
                log.warning("closing a connection from %s: %d are logging in already",
                            _peer(conn), len(self._pending))
                conn.close()
                continue
            task = asyncio.create_task(self._serve(conn), name="proxy-connection")
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def _serve(self, conn: socket.socket) -> None:
        conn.setblocking(False)
        try:
            header = await asyncio.wait_for(read_header(conn), HEADER_TIMEOUT)
        except (ProxyHeaderError, TimeoutError, OSError) as e:
            peer = _peer(conn)
            log.info("refusing a connection from %s: %s", peer, e)
            conn.close()
            return
        try:
            await asyncssh.run_server(conn, server_factory=lambda: self._handler_for(
                header.source), **self._options)
        except (asyncssh.Error, OSError, TimeoutError) as e:  # (a failed login: the
            log.debug("connection from %s ended before login: %s", header.source, e)
        # (once logged in, the connection lives on by itself, as asyncssh.listen's do)


async def read_header(conn: socket.socket) -> ProxyHeader:
    """The PROXY header at the start of ``conn``, taken from it; nothing after it is read."""
    loop = asyncio.get_running_loop()
    while True:
        await _readable(loop, conn)
        data = conn.recv(MAX_HEADER, socket.MSG_PEEK)
        if not data:
            raise ProxyHeaderError("the connection closed before its PROXY header")
        header = parse(data)
        if header is not None:
            taken = b""
            while len(taken) < header.length:
                taken += await loop.sock_recv(conn, header.length - len(taken))
            return header
        await asyncio.sleep(0.01)  # (a header split across packets: wait for the rest)


async def _readable(loop: asyncio.AbstractEventLoop, conn: socket.socket) -> None:
    ready = loop.create_future()
    loop.add_reader(conn.fileno(), lambda: ready.done() or ready.set_result(None))
    try:
        await ready
    finally:
        loop.remove_reader(conn.fileno())


def _peer(conn: socket.socket) -> str:
    with contextlib.suppress(OSError):
        return str(conn.getpeername()[0])
    return "?"
