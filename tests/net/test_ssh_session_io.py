"""What a remote user sees and sends: keys, Esc, resizes, shared state, clean exit."""

from __future__ import annotations

import asyncio

from ssh_harness import ScreenClient, serving


async def test_keys_reach_the_app_and_screen_updates(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        client.send(b"++")
        assert await client.wait_for("count=2")
        assert await client.wait_for("key=plus")
        await client.close()


async def test_initial_size_comes_from_pty_request_and_resize_reaches_app(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        client = await ScreenClient.connect(server.port, size=(72, 18))
        assert await client.wait_for("size=72x18")
        client.resize(90, 30)
        assert await client.wait_for("size=90x30")
        client.resize(40, 10)
        assert await client.wait_for("size=40x10")
        await client.close()


async def test_lone_escape_is_delivered_promptly(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        client.send(b"\x1b")  # nothing follows it: the parser's own timeout must fire
        assert await client.wait_for("key=escape", timeout=10)
        await client.close()


async def test_two_sessions_share_one_object_with_separate_apps(demo_factory, counter, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        alice = await ScreenClient.connect(server.port, username="alice")
        bob = await ScreenClient.connect(server.port, username="bob")
        assert await alice.wait_for("count=0") and await bob.wait_for("count=0")
        alice.send(b"+")
        assert await alice.wait_for("count=1") and await bob.wait_for("count=1")
        bob.send(b"++")
        assert await alice.wait_for("count=3") and await bob.wait_for("count=3")
        assert counter.value == 3
        first, second = demo_factory.apps
        assert first is not second and first.info.username != second.info.username
        # Callbacks from the shared object ran in each app's own context.
        assert first.active_apps_seen and set(first.active_apps_seen) == {first}
        assert second.active_apps_seen and set(second.active_apps_seen) == {second}
        # Each app keeps its own last key: input is not crossed between sessions.
        assert "key=plus" in bob.text()
        await alice.close()
        await bob.close()


async def test_quit_restores_terminal_and_sends_exit_status(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        raw_start = bytes(client.raw[:200])
        assert b"\x1b[?1049h" in raw_start  # alternate screen
        assert b"\x1b[?25l" in raw_start  # cursor hidden
        assert b"\x1b[?1006h" in raw_start  # SGR mouse
        assert b"\x1b[?2004h" in raw_start  # bracketed paste
        client.send(b"q")
        await client.wait_closed()
        assert client.chan.get_exit_status() == 0
        tail = bytes(client.raw[-120:])
        for sequence in (b"\x1b[?1049l", b"\x1b[?25h", b"\x1b[?1000l", b"\x1b[?2004l"):
            assert sequence in tail
        # Leaving the alternate screen comes before showing the cursor, both at the end.
        assert tail.rindex(b"\x1b[?1049l") < tail.rindex(b"\x1b[?25h")
        assert not client.screen.cursor.hidden
        await client.close()
        await asyncio.sleep(0.1)
        assert server.session_count == 0


async def test_colour_system_follows_client_term_and_no_color(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        clients = {
            "truecolor": await ScreenClient.connect(
                server.port, term="xterm-256color", env={"COLORTERM": "truecolor"}
            ),
            "256": await ScreenClient.connect(server.port, term="xterm-256color"),
            "standard": await ScreenClient.connect(server.port, term="xterm"),
        }
        for client in clients.values():
            assert await client.wait_for("count=0")
        await asyncio.sleep(0.2)
        assert b"38;2;" in clients["truecolor"].raw or b"48;2;" in clients["truecolor"].raw
        assert b"48;2;" not in clients["256"].raw and b"48;5;" in clients["256"].raw
        assert b"48;5;" not in clients["standard"].raw and b"48;2;" not in clients["standard"].raw
        mono = await ScreenClient.connect(server.port, env={"NO_COLOR": "1"})
        assert await mono.wait_for("count=0")
        assert demo_factory.apps[-1].no_color
        for client in [*clients.values(), mono]:
            await client.close()


async def test_client_vanishing_during_startup_leaves_no_app_running(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as server:
        for _ in range(5):
            client = await ScreenClient.connect(server.port)
            client.conn.abort()  # gone before the app has drawn anything
        for _ in range(100):
            if server.session_count == 0:
                break
            await asyncio.sleep(0.05)
        assert server.session_count == 0
        assert all(app.return_code is not None for app in demo_factory.apps)


async def test_an_apps_task_factory_does_not_reach_the_servers_loop(demo_factory, tmp_path):
    """Textual's run_async makes the loop's tasks eager on Python 3.12+, which stopped the
    next client's login (asyncssh expects lazy tasks). Here any factory is asked for, on
    any Python: the server's loop keeps lazy tasks, and a second client still gets in."""
    async with serving(demo_factory, tmp_path) as server:
        alice = await ScreenClient.connect(server.port, username="alice")
        assert await alice.wait_for("count=0")
        loop = asyncio.get_running_loop()
        started: list[str] = []

        def eager(loop: asyncio.AbstractEventLoop, coro: object, **kwargs: object) -> object:
            started.append("eager")
            return asyncio.Task(coro, loop=loop, **kwargs)  # type: ignore[arg-type]

        loop.set_task_factory(eager)  # what a served app's run_async asks for
        assert loop.get_task_factory() is None

        async def job() -> None:
            started.append("job")

        task = asyncio.create_task(job())
        assert started == [], "a new task waits for the loop, as asyncssh expects"
        await task
        bob = await ScreenClient.connect(server.port, username="bob")
        assert await bob.wait_for("count=0")
        await alice.close()
        await bob.close()
