"""Test harness for the SSH transport: a demo app, a pyte-backed client, a server.

Kept out of conftest.py so test modules can import it by a name no other test
directory uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncssh
import pyte
from fast_screen import FastScreen
from textual._context import active_app
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Label, Static

from net.ssh import (
    component_style_garbage,
    covered_screens,
    layout_garbage,
    screen_garbage,
    server_tuning,
)
from net.ssh.server import GameSSHServer, start_server
from net.ssh.session_info import SessionInfo


@contextlib.contextmanager
def served_output() -> Iterator[list[str]]:
    """Within: frames made and written as ``ecarte serve`` makes them (its process-wide
    patches of Textual, ``net.ssh.server_tuning``), so the SSH tests read the bytes a real
    server sends; afterwards Textual's own again, for the other tests of this worker.

    Yields the list of the exceptions that ended an app within (an app that fails ends its
    player's session: a test can pass while one of its screens died, unless it looks)."""
    from textual._compositor import ChopsUpdate, Compositor
    from textual.cache import LRUCache
    from textual.css.stylesheet import Stylesheet
    from textual.screen import Screen
    from textual.strip import Strip
    from textual.widget import Widget

    saved = (Compositor.__dict__["render_update"], ChopsUpdate.__dict__["render_segments"],
             Strip.__dict__["__init__"], App.__dict__["_handle_exception"],
             Screen.__dict__["_screen_resized"], Screen.__dict__["_on_timer_update"],
             Screen.__dict__["_on_screen_resume"], Compositor.__dict__["_arrange_root"],
             Stylesheet.__dict__["_process_component_classes"],
             Widget.__dict__["_message_loop_exit"], LRUCache.__dict__["clear"],
             LRUCache.__dict__["discard"])
    flags = ("_applied", "_cells_patched", "_compositor_patched")
    was = {name: getattr(server_tuning, name) for name in flags}
    covered_was = covered_screens._applied
    layout_was = layout_garbage._applied
    component_was = component_style_garbage._applied
    screens_was = screen_garbage._applied
    server_tuning.lighten_strips()
    server_tuning.send_changed_cells_only()
    covered_screens.skip_covered_screen_layouts()
    assert layout_garbage.break_layout_cycles(), "Textual's _arrange_root is not the one expected"
    component_style_garbage.free_component_styles_at_once()
    screen_garbage.free_closed_screens_at_once()
    failures: list[str] = []
    textual_handle = saved[3]

    def handle_exception(self: App[Any], error: Exception) -> None:
        failures.append(f"{type(self).__name__}: {type(error).__name__}: {error}")
        textual_handle(self, error)

    App._handle_exception = handle_exception  # type: ignore[method-assign]
    try:
        yield failures
    finally:
        (Compositor.render_update, ChopsUpdate.render_segments, Strip.__init__,  # type: ignore[method-assign]
         App._handle_exception, Screen._screen_resized, Screen._on_timer_update,
         Screen._on_screen_resume, Compositor._arrange_root, Stylesheet._process_component_classes,
         Widget._message_loop_exit, LRUCache.clear, LRUCache.discard) = saved  # type: ignore[method-assign]
        for name, value in was.items():
            setattr(server_tuning, name, value)
        covered_screens._applied = covered_was
        layout_garbage._applied = layout_was
        component_style_garbage._applied = component_was
        screen_garbage._applied = screens_was


# --- the demo app -------------------------------------------------------------------------


class SharedCounter:
    """One object shared by every session's app, as a game table would be."""

    def __init__(self) -> None:
        self.value = 0
        self.apps: set[DemoApp] = set()

    def increment(self) -> None:
        self.value += 1
        for app in list(self.apps):
            # Each app redraws in its own message loop (own task and context).
            app.call_later(app.show_count)


class DemoApp(App[None]):
    """Counter, size and last-key labels; a few bindings the tests poke at."""

    CSS = "Label { height: 1; } #flood { height: 1fr; }"
    BINDINGS = [
        Binding("plus", "increment", "Increment"),
        Binding("f", "flood", "Flood"),
        Binding("p", "screenshot", "Screenshot"),
        Binding("ctrl+z", "suspend_process", "Suspend"),
        Binding("q", "quit", "Quit"),
        Binding("o", "print", "Print"),
    ]

    def __init__(self, info: SessionInfo, counter: SharedCounter) -> None:
        super().__init__()
        self.info = info
        self.counter = counter
        self._flood_tick = 0
        self.pasted: list[int] = []
        self.active_apps_seen: list[App[Any]] = []
        self.deliveries: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Label(f"count={self.counter.value}", id="count")
        yield Label("size=?", id="size")
        yield Label("key=", id="key")
        who = self.info.key_fingerprint or "guest"
        yield Label(f"who={self.info.username} {who} cmd={self.info.command}", id="who")
        yield Static("", id="flood")

    def on_mount(self) -> None:
        self.counter.apps.add(self)
        self.show_size()

    def on_unmount(self) -> None:
        self.counter.apps.discard(self)

    def show_count(self) -> None:
        self.active_apps_seen.append(active_app.get())
        self.query_one("#count", Label).update(f"count={self.counter.value}")

    def show_size(self) -> None:
        self.query_one("#size", Label).update(f"size={self.size.width}x{self.size.height}")

    def on_resize(self) -> None:
        self.call_after_refresh(self.show_size)

    def on_key(self, event: Any) -> None:
        self.query_one("#key", Label).update(f"key={event.key}")

    def on_paste(self, event: Any) -> None:
        self.pasted.append(len(event.text))

    def on_delivery_failed(self, event: Any) -> None:
        self.deliveries.append(event)

    def action_print(self) -> None:
        print("hello from a served app")

    def action_increment(self) -> None:
        self.counter.increment()

    def action_flood(self) -> None:
        """Redraw a screenful of changing, coloured text as fast as possible."""
        self.set_interval(0.01, self._flood)

    def _flood(self) -> None:
        self._flood_tick += 1
        width, height = self.size
        colours = ["red", "green", "blue", "yellow"]
        lines = [
            f"[{colours[(row + self._flood_tick) % 4]}]"
            + f"{self._flood_tick:08d}{row:04d}" * (width // 12)
            + "[/]"
            for row in range(height)
        ]
        self.query_one("#flood", Static).update("\n".join(lines))


@contextlib.asynccontextmanager
async def serving(
    factory: Callable[[SessionInfo], App[Any]], data_dir: Path, **kwargs: Any
) -> AsyncIterator[GameSSHServer]:
    """A server on 127.0.0.1:<free port>, closed afterwards."""
    server = await start_server(factory, host="127.0.0.1", port=0, data_dir=data_dir, **kwargs)
    try:
        yield server
    finally:
        await server.aclose()


# --- the client -------------------------------------------------------------------------


class GuestClient(asyncssh.SSHClient):
    """asyncssh only does keyboard-interactive when asked; answer zero prompts."""

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, *_args: Any) -> list[str]:
        return []


class _ScreenSession(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    def __init__(self, client: ScreenClient) -> None:
        self._client = client

    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:  # type: ignore[override]
        self._client.chan = chan  # (output may arrive before create_session returns)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._client.on_data(data, datatype)


_SYNC_QUERY = b"\x1b[?2026$p"
_SYNC_REPLY = b"\x1b[?2026;2$y"  # "supported, off": Textual then brackets each frame
_FRAME_START = b"\x1b[?2026h"
_FRAME_END = b"\x1b[?2026l"

_SGR = re.compile(rb"\x1b\[[0-9;:]*m")
"""A complete colour/attribute sequence (Select Graphic Rendition): it never moves the cursor
or changes a character, so the text of the screen is the same without it."""


class ScreenClient:
    """An SSH client whose output is rendered by pyte, so tests assert what users see.

    The screen holds the text; colours and attributes are kept only when asked for
    (``colours=True``): pyte parses escape sequences a character at a time in Python, and
    the SGR sequences are most of the bytes of a Textual frame, so dropping them halves the
    time every client takes to read its screen. (A sequence cut between two reads is fed
    whole to pyte, which handles it.)"""

    colours = False
    synchronized = True
    """Answer the server's query for synchronized output as terminals such as kitty,
    WezTerm or foot do, so every frame arrives between ``CSI ?2026h`` and ``CSI ?2026l``
    and a reader knows when a frame is whole (`frame_complete`)."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.screen = FastScreen(*size)
        self._stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.stderr = bytearray()
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self._text: str | None = None  # the screen's text, until the screen changes
        self._waiters: list[asyncio.Future[None]] = []
        self.frame_complete = False
        """The output so far ends with a whole frame (its end marker): no half-drawn
        screen is showing. False until the first bracketed frame."""

    def on_data(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr += data
            return
        self.raw += data
        if self.synchronized:
            if _SYNC_QUERY in data and self.chan is not None:
                self.chan.write(_SYNC_REPLY)
            end, start = data.rfind(_FRAME_END), data.rfind(_FRAME_START)
            # output with no marker (or a marker cut between reads) leaves it unknown
            self.frame_complete = end > start
        # pyte prints the 'u' of the kitty keyboard-mode pop (CSI < u); real terminals
        # ignore it. Splitting across reads is unlikely enough for tests.
        data = data.replace(b"\x1b[<u", b"")
        self._stream.feed(data if self.colours else _SGR.sub(b"", data))
        self._text = None
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def next_data(self, timeout: float) -> bool:
        """Until output arrives (True) or ``timeout`` seconds pass without any (False)."""
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(max(0.0, timeout)):
                await waiter
        except TimeoutError:
            return False
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
        return True

    @classmethod
    async def connect(
        cls,
        port: int,
        *,
        size: tuple[int, int] = (60, 12),
        term: str | None = "xterm-256color",
        env: dict[str, str] | None = None,
        username: str = "alice",
        key: asyncssh.SSHKey | None = None,
        command: str | None = None,
        window: int = 2 * 1024 * 1024,
        colours: bool = False,
        **conn_kwargs: Any,
    ) -> ScreenClient:
        client = cls(size)
        client.colours = colours
        client.conn = await connect(port, username=username, key=key, **conn_kwargs)
        client.chan, _ = await client.conn.create_session(
            lambda: _ScreenSession(client),
            command,
            term_type=term,
            term_size=size if term else None,
            env=env or {},
            encoding=None,
            window=window,
        )
        return client

    def text(self) -> str:
        if self._text is None:  # (pyte builds its display cell by cell on every call)
            self._text = "\n".join(self.screen.display)
        return self._text

    async def wait_for(self, needle: str, timeout: float = 30.0) -> bool:
        """Until ``needle`` is on the screen (checked whenever output arrives). The timeout
        only ends a wait that failed: it is long, for a busy machine."""
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            await self.next_data(left)
        return True

    def send(self, data: bytes) -> None:
        assert self.chan is not None
        self.chan.write(data)

    def resize(self, width: int, height: int) -> None:
        assert self.chan is not None
        self.screen.resize(height, width)
        self._text = None
        self.chan.change_terminal_size(width, height)

    async def wait_closed(self, timeout: float = 10.0) -> None:
        assert self.chan is not None
        await asyncio.wait_for(self.chan.wait_closed(), timeout)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()


async def connect(
    port: int, *, username: str = "alice", key: asyncssh.SSHKey | None = None, **kwargs: Any
) -> asyncssh.SSHClientConnection:
    """A client that ignores ~/.ssh entirely: explicit key, or guest login."""
    options: dict[str, Any] = dict(
        username=username,
        known_hosts=None,
        agent_path=None,
        config=None,
        client_keys=[key] if key is not None else [],
    )
    if key is None:
        options["client_factory"] = GuestClient
    options.update(kwargs)
    return await asyncssh.connect("127.0.0.1", port, **options)
