"""A client that stops reading is cut off before its unsent output passes the bound."""

from __future__ import annotations

import asyncio
import socket

import pytest
from ssh_harness import ScreenClient, serving

from net.ssh.limits import Limits

BOUND = 256 * 1024


@pytest.mark.parametrize("stall", ["ssh-window", "tcp"])
async def test_stalled_reader_is_disconnected_within_bound(demo_factory, counter, tmp_path, stall):
    limits = Limits(max_output_buffer=BOUND)
    async with serving(demo_factory, tmp_path, limits=limits) as server:
        # A small SSH window makes the server-side channel buffer fill quickly; a huge
        # window with TCP reading stopped fills the transport buffer instead.
        window = 64 * 1024 if stall == "ssh-window" else 1 << 30
        client = await ScreenClient.connect(server.port, size=(200, 60), window=window)
        assert await client.wait_for("count=0")
        (session,) = server.sessions
        terminal = session.terminal
        if stall == "ssh-window":
            client.chan.pause_reading()
        else:
            fix_send_buffer(terminal)
            client.conn._transport.pause_reading()
        client.send(b"f")  # the app starts redrawing a full coloured screen every 10 ms
        for _ in range(300):
            if server.session_count == 0:
                break
            assert terminal.buffered_bytes() <= BOUND
            await asyncio.sleep(0.05)
        assert server.session_count == 0, "stalled client was never cut off"
        assert terminal.closed_reason == "output not being read"
        assert terminal.peak_buffered <= BOUND
        # The rest of the server is unaffected.
        other = await ScreenClient.connect(server.port)
        assert await other.wait_for(f"count={counter.value}")
        await other.close()
        client.conn.abort()


def fix_send_buffer(terminal) -> None:
    """Fix the server's kernel send buffer for this connection at a small size: on loopback
    it grows to megabytes, all rendered at a frame per 10 ms before the transport's buffer
    (the one the bound is about, with the channel's) starts to fill. Same path, a few frames
    instead of seconds of them."""
    conn = terminal.channel.get_extra_info("connection")
    conn._transport.get_extra_info("socket").setsockopt(
        socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
