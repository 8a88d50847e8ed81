"""Garbage from a client must never end its session or the server."""

from __future__ import annotations

import asyncio
import random
import time

from ssh_harness import ScreenClient, SharedCounter, serving

from net.limits import Limits


async def _still_alive(client: ScreenClient, counter: SharedCounter) -> None:
    """The app still answers: '+' bumps the shared counter and the screen shows it."""
    for _ in range(5):  # retried: a key may be dropped by the input rate limit
        before = counter.value
        client.send(b"+")
        deadline = time.monotonic() + 5
        while counter.value == before and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if counter.value > before and await client.wait_for(f"count={counter.value}", 3):
            return
    raise AssertionError(f"session stopped responding:\n{client.text()}")


async def _drained(client: ScreenClient) -> None:
    while client.chan.get_write_buffer_size():
        await asyncio.sleep(0.02)


async def test_invalid_utf8_and_broken_escapes_do_not_kill_the_session(
    demo_factory, counter, tmp_path
):
    garbage = [
        b"\xff\xfe\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc",  # invalid UTF-8
        b"\xc3",  # truncated multi-byte sequence, completed by nothing
        b"\x1b[",  # cut-off CSI
        b"\x1b[99999999999999u",  # kitty key with an impossible code point
        b"\x1b[1;2;99999999999u",
        b"\x1b[<0;99999;99999M",  # mouse far outside the screen
        b"\x1b[<0;-5;-5M",
        b"\x1b[48;99999;99999;1;1t",  # in-band resize claiming a huge terminal
        b"\x1b[?2048;1$y",
        b"\x1b]52;c;AAAA\x07",  # OSC from the client
        b"\x1bP" + b"x" * 5000,  # unterminated DCS
        b"\x1b" * 100,
        b"\x1b[201~",  # paste end without start
        b"\x00\x01\x02\x7f",
    ]
    rng = random.Random(1234)
    # Random bytes, minus keys bound in the demo app or Textual (quit, increment, flood,
    # screenshot, print, ctrl+p palette, ctrl+q, ctrl+z): their effects are tested elsewhere
    # and would make the liveness check below depend on timing.
    noise = bytes(b for b in rng.randbytes(64 * 1024) if b not in b"q+fpo\x10\x11\x1a")
    async with serving(demo_factory, tmp_path) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        for chunk in garbage:
            client.send(chunk)
            await asyncio.sleep(0.01)
        client.send(noise)
        await _drained(client)
        for _ in range(3):  # close anything the noise may have opened (e.g. a help panel)
            client.send(b"\x1b")
            await asyncio.sleep(0.2)
        await _still_alive(client, counter)
        assert demo_factory.apps[0].return_code is None
        assert "size=60x12" in client.text()  # the in-band resize was ignored
        await client.close()


async def test_megabyte_paste_and_endless_paste(demo_factory, counter, tmp_path):
    payload = b"a" * 1_000_000
    async with serving(demo_factory, tmp_path) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        client.send(b"\x1b[200~" + payload + b"\x1b[201~")
        await _drained(client)
        await _still_alive(client, counter)
        assert demo_factory.apps[0].pasted == [len(payload)]
        # A paste that never ends is cut at the limit instead of buffering forever.
        client.send(b"\x1b[200~" + payload + payload)
        await _drained(client)
        client.send(b"\x1b[201~")
        await _still_alive(client, counter)
        assert demo_factory.apps[0].pasted[1] == Limits().max_paste_chars
        assert demo_factory.apps[0].return_code is None
        await client.close()


async def test_raw_megabyte_flood_does_not_starve_other_sessions(demo_factory, counter, tmp_path):
    """A million raw key presses: parsed in slices under a CPU budget, excess dropped."""
    async with serving(demo_factory, tmp_path) as server:
        flooder = await ScreenClient.connect(server.port, username="mallory")
        victim = await ScreenClient.connect(server.port, username="victim")
        assert await flooder.wait_for("count=0") and await victim.wait_for("count=0")
        flooder.send(b"a" * (1 << 20))
        await asyncio.sleep(0.5)
        for _ in range(10):
            before = counter.value
            victim.send(b"+")
            assert await victim.wait_for(f"count={before + 1}", timeout=5)
        # No clock is read (CI is a busy machine): the victim was answered ten times while
        # the flood was still held back, so it did not wait for the megabyte to be parsed.
        flooding = next(s for s in server.sessions if s.identity.username == "mallory")
        assert flooding.terminal is not None and flooding.terminal.input_held
        flooding_app = demo_factory.apps[0]
        assert flooding_app.return_code is None  # still alive, just throttled
        await flooder.close()
        await victim.close()


async def test_thousand_resizes_and_extreme_sizes(demo_factory, counter, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        rng = random.Random(7)
        for _ in range(1000):
            client.chan.change_terminal_size(rng.randint(0, 3000), rng.randint(0, 3000))
        client.resize(60, 12)
        assert await client.wait_for("size=60x12")
        await _still_alive(client, counter)
        await client.close()

        tiny = await ScreenClient.connect(server.port, size=(1, 1))
        await asyncio.sleep(0.5)
        tiny.send(b"+")
        tiny.resize(30, 5)
        assert await tiny.wait_for("size=30x5")
        await tiny.close()

        huge = await ScreenClient.connect(server.port, size=(1000, 1000))
        limits = Limits()
        assert await huge.wait_for(f"size={limits.max_columns}x{limits.max_rows}", timeout=20)
        await huge.close()
        assert server.session_count <= 1  # the server is fine and still serving
        again = await ScreenClient.connect(server.port)
        assert await again.wait_for("count=")
        await again.close()
