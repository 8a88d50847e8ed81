"""Garbage from a client must never end its session or the server."""

from __future__ import annotations

import asyncio
import json
import random
import time

from ssh_harness import ScreenClient, SharedCounter, serving

from net.ssh.limits import Limits


def _terminal(server, username: str = "alice"):
    """The server side of ``username``'s session (its input queue and limits)."""
    session = next(s for s in server.sessions if s.identity.username == username)
    assert session.terminal is not None
    return session.terminal


async def _parsed(terminal, timeout: float = 600.0) -> None:
    """Until the server has parsed everything the client sent (nothing held back).

    How long that takes depends on the machine (parsing is throttled to a share of the CPU
    it measures), so the deadline only catches a session that never gets there."""
    deadline = time.monotonic() + timeout
    while terminal.input_held:
        assert time.monotonic() < deadline, f"input still held back after {timeout} s"
        await asyncio.sleep(0.05)


async def _still_alive(client: ScreenClient, counter: SharedCounter, terminal=None) -> None:
    """The app still answers: '+' bumps the shared counter and the screen shows it.

    With ``terminal`` (the session's server side), each '+' is sent once everything before
    it has been parsed, so a slow machine only makes this wait longer."""
    for _ in range(5):  # retried: a key may be dropped by the input rate limit
        if terminal is not None:
            await _parsed(terminal)
        before = counter.value
        client.send(b"+")
        deadline = time.monotonic() + 5
        while counter.value == before and time.monotonic() < deadline:
            if terminal is not None and terminal.input_held:
                deadline = time.monotonic() + 5  # not yet parsed: not yet due
            await asyncio.sleep(0.02)
        if counter.value > before and await client.wait_for(f"count={counter.value}", 30):
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
    # 16 KB of random bytes (each byte value about 60 times, in random company), minus keys
    # bound in the demo app or Textual (quit, increment, flood, screenshot, print, ctrl+p
    # palette, ctrl+q, ctrl+z): their effects are tested elsewhere and would make the
    # liveness check below depend on timing.
    noise = bytes(b for b in rng.randbytes(16 * 1024) if b not in b"q+fpo\x10\x11\x1a")
    # Parsing the noise takes a fraction of a second of CPU, within the burst a session may use at
    # once; a busy machine makes it look longer (parse time is read off the clock), and then
    # the throttle (the flood test's subject) would hold the session back for many seconds.
    limits = Limits(input_cpu_burst=30.0)
    async with serving(demo_factory, tmp_path, limits=limits) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        for chunk in garbage:
            client.send(chunk)
            await asyncio.sleep(0.01)
        client.send(noise)
        await _drained(client)
        terminal = _terminal(server)
        await _parsed(terminal)
        for _ in range(3):  # close anything the noise may have opened (e.g. a help panel)
            client.send(b"\x1b")
            await _parsed(terminal)
            await asyncio.sleep(0.2)  # a lone Esc is an Esc once nothing follows it
        await _still_alive(client, counter, terminal)
        assert demo_factory.apps[0].return_code is None
        assert "size=60x12" in client.text()  # the in-band resize was ignored
        await client.close()


async def test_megabyte_paste_and_endless_paste(demo_factory, counter, tmp_path):
    payload = b"a" * 1_000_000
    # Parsing these 2 MB takes some seconds of CPU, more than the burst a session may use
    # at once, so the reading pauses and resumes as it would for anyone (the default share
    # is the flood test's); at the default tenth of a CPU they would take 40 s here.
    limits = Limits(input_cpu_share=0.5)
    async with serving(demo_factory, tmp_path, limits=limits) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        terminal = _terminal(server)
        client.send(b"\x1b[200~" + payload + b"\x1b[201~")
        await _drained(client)
        await _still_alive(client, counter, terminal)
        assert demo_factory.apps[0].pasted == [len(payload)]
        # A paste that never ends is cut at the limit instead of buffering forever.
        client.send(b"\x1b[200~" + payload + payload)
        await _drained(client)
        client.send(b"\x1b[201~")
        await _still_alive(client, counter, terminal)
        assert demo_factory.apps[0].pasted[1] == Limits().max_paste_chars == limits.max_paste_chars
        assert demo_factory.apps[0].return_code is None
        await client.close()


async def test_raw_megabyte_flood_does_not_starve_other_sessions(demo_factory, counter, tmp_path):
    """A million raw key presses: parsed in slices under a CPU budget, excess dropped. The
    other session is answered meanwhile, each key in turn, and loses none.

    No clock is read (how fast the answers come depends on the machine: that is measured by
    ``python -m net.bench.flood``). What is asserted is an order: the other session's screen
    showed each of its keys while the megabyte was still held back, unparsed, so it did not
    wait for it."""
    async with serving(demo_factory, tmp_path) as server:
        flooder = await ScreenClient.connect(server.port, username="mallory")
        victim = await ScreenClient.connect(server.port, username="victim")
        assert await flooder.wait_for("count=0") and await victim.wait_for("count=0")
        flooding = _terminal(server, "mallory")
        flooder.send(b"a" * (1 << 20))
        while not flooding.input_held:  # the flood has reached the server
            await asyncio.sleep(0.01)
        held_when_answered = []
        for presses in range(1, 11):
            victim.send(b"+")
            assert await victim.wait_for(f"count={presses}", timeout=60), victim.text()
            held_when_answered.append(flooding.input_held)
        assert all(held_when_answered), held_when_answered
        # nothing lost or doubled: the ten keys made ten increments, all of them shown
        assert counter.value == 10 and "count=10" in victim.text()
        assert "key=plus" in victim.text()
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


def test_flood_bench_prints_its_figures(capsys):
    """``python -m net.bench.flood``, small: the shape of its figures, never their values."""
    from net.bench import flood as flood_bench

    assert flood_bench.main(["--presses", "3", "--flood-bytes", "65536", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for phase in ("baseline", "under_flood"):
        figures = result[phase]
        assert figures["answers"] == 3 and figures["missed"] == 0
        assert 0 <= figures["median_ms"] <= figures["p90_ms"] <= figures["max_ms"]
    assert 0 <= result["under_flood"]["answered_while_held"] <= 3
    assert result["flood_bytes"] == 65536 and result["flood_held_s"] >= 0
