"""A remote user cannot act on the server process: files, signals, stdout, browser."""

from __future__ import annotations

import asyncio
import io
import signal
import sys
import webbrowser

from ssh_harness import ScreenClient, serving


async def test_screenshot_and_file_delivery_write_nothing(demo_factory, tmp_path, monkeypatch):
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    monkeypatch.setenv("HOME", str(workdir))
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(workdir / "Downloads"))
    async with serving(demo_factory, tmp_path / "data") as server:
        client = await ScreenClient.connect(server.port, size=(80, 16))
        assert await client.wait_for("count=0")
        client.send(b"p")  # bound to the built-in "screenshot" action
        assert await client.wait_for("not available", timeout=3), client.text()
        app = demo_factory.apps[0]
        titles = {command.title for command in app.get_system_commands(app.screen)}
        assert "Screenshot" not in titles and "Quit" in titles
        app.deliver_text(io.StringIO("x"), save_directory=workdir, save_filename="leak.txt")
        app.deliver_screenshot()
        await asyncio.sleep(0.3)
        assert [event.key for event in app.deliveries]  # the app was told it failed
        assert list(workdir.rglob("*")) == []
        await client.close()


async def test_ctrl_z_does_not_suspend_the_server(demo_factory, tmp_path):
    received: list[int] = []
    previous = signal.signal(signal.SIGTSTP, lambda signum, frame: received.append(signum))
    try:
        async with serving(demo_factory, tmp_path) as server:
            client = await ScreenClient.connect(server.port)
            assert await client.wait_for("count=0")
            client.send(b"\x1a")  # ctrl+z, bound to suspend_process in the demo app
            client.send(b"\x03")  # ctrl+c: Textual's help_quit hint, nothing else
            assert await client.wait_for("key=ctrl+c")
            client.send(b"+")
            assert await client.wait_for("count=1")
            assert demo_factory.apps[0]._driver.can_suspend is False
            await client.close()
    finally:
        signal.signal(signal.SIGTSTP, previous)
    assert received == []


async def test_open_url_never_opens_a_browser_on_the_server(demo_factory, tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url))
    async with serving(demo_factory, tmp_path) as server:
        client = await ScreenClient.connect(server.port)
        assert await client.wait_for("count=0")
        demo_factory.apps[0].open_url("https://example.org")
        await asyncio.sleep(0.1)
        assert opened == []
        await client.close()


async def test_concurrent_apps_leave_sys_stdout_alone(demo_factory, tmp_path, capsys):
    stdout, stderr = sys.stdout, sys.stderr
    async with serving(demo_factory, tmp_path) as server:
        first = await ScreenClient.connect(server.port)
        second = await ScreenClient.connect(server.port)
        assert await first.wait_for("count=0") and await second.wait_for("count=0")
        assert sys.stdout is stdout and sys.stderr is stderr
        first.send(b"o")  # the app print()s
        await asyncio.sleep(0.3)
        # Quit in the "wrong" order for nested redirects: first started, first ended.
        first.send(b"q")
        await first.wait_closed()
        assert sys.stdout is stdout and sys.stderr is stderr
        second.send(b"q")
        await second.wait_closed()
        assert sys.stdout is stdout and sys.stderr is stderr
        assert b"hello from a served app" not in first.raw
        await first.close()
        await second.close()
    assert "hello from a served app" in capsys.readouterr().out
