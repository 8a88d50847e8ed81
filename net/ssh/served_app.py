"""Running a Textual `App` for one remote SSH user inside the server's own loop.

`serve_app` is the core (used by the session-API server in `net.ssh.server`);
`run_app_over_ssh` adapts asyncssh's process API to it for embedders that prefer a
`process_factory`. Both make the app safe to expose first (`harden_app`).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import asyncssh
from rich.console import Console
from textual._styles_cache import StylesCache
from textual._xterm_parser import XTermParser
from textual.await_complete import AwaitComplete
from textual.filter import ANSIToTruecolor, Monochrome, NoColor

from net.ssh.driver import SSHDriver
from net.ssh.limits import Limits
from net.ssh.remote_terminal import RemoteTerminal
from net.ssh.shared_stylesheet import share_stylesheet

if TYPE_CHECKING:
    from textual.app import App, SystemCommand
    from textual.screen import Screen

log = logging.getLogger(__name__)

NO_PTY_MESSAGE = (
    "This server runs a full-screen terminal app; connect with an interactive "
    "terminal (ssh -t).\r\n"
)

_BLOCKED_SYSTEM_COMMANDS = frozenset({"Screenshot"})
"""Command-palette entries that act on the server rather than the user's terminal."""


class _Discard:
    """File-like sink for the app console (Textual renders through the driver)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def harden_app(app: App[Any]) -> App[Any]:
    """Disable everything in a served app that could act on the server process.

    The driver already refuses suspend, file delivery and URL opening; this also
    removes the screenshot entry points and the process-wide stdout redirect.
    """

    def no_screenshot(*_args: Any, **_kwargs: Any) -> None:
        app.notify("Screenshots are not available over SSH.", severity="warning")

    def no_file(*_args: Any, **_kwargs: Any) -> str:
        raise PermissionError("served sessions cannot write files on the server")

    def no_suspend() -> None:
        """A served app has no process of its own to suspend."""

    original_commands = app.get_system_commands
    original_pop_screen = app.pop_screen

    def pop_screen() -> AwaitComplete:
        # Textual 8.2 bug: ctrl+p then Enter twice quickly makes the command palette
        # dismiss itself twice; with one screen left that raises and kills the app.
        if len(app.screen_stack) <= 1:
            log.warning("ignored pop_screen with no screen to pop (double dismiss)")
            return AwaitComplete(asyncio.sleep(0))
        return original_pop_screen()

    def system_commands(screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in original_commands(screen):
            if command.title not in _BLOCKED_SYSTEM_COMMANDS:
                yield command

    # Instance attributes shadow the class methods, which is also what Textual's
    # action dispatch (getattr on the app) and the system-commands provider see.
    app.action_screenshot = no_screenshot  # type: ignore[method-assign]
    app.deliver_screenshot = no_screenshot  # type: ignore[method-assign,assignment]
    app.save_screenshot = no_file  # type: ignore[method-assign]
    app.action_suspend_process = no_suspend  # type: ignore[method-assign]
    app.get_system_commands = system_commands  # type: ignore[method-assign]
    app.pop_screen = pop_screen  # type: ignore[method-assign]

    # App._process_messages wraps the run in contextlib.redirect_stdout/stderr, which
    # swap the *process-wide* sys.stdout. Interleaved apps would restore each other's
    # captures (leaving sys.stdout pointing at a dead app). Capturing into whatever is
    # current makes each redirect a no-op; prints from app code reach the server log.
    app._capture_stdout = sys.stdout  # type: ignore[assignment]
    app._capture_stderr = sys.stderr  # type: ignore[assignment]
    return app


def apply_terminal_settings(app: App[Any], terminal: RemoteTerminal) -> None:
    """Render for the client's terminal, not for the server's environment.

    The console is always truecolor: the driver reduces colour depth per client (see
    `net.ssh.color_downgrade` for why it can't be done by the console).
    """
    env = {"TERM": terminal.term_type or "xterm", "COLORTERM": "truecolor"}
    app.console = Console(
        color_system="truecolor",
        file=_Discard(),  # type: ignore[arg-type]
        markup=True,
        highlight=False,
        emoji=False,
        legacy_windows=False,
        force_terminal=True,
        safe_box=False,
        soft_wrap=False,
        _environ=env,
    )
    # Textual converts every line it draws through ANSIToTruecolor, for colours without an
    # RGB value and for dim text. Ours are all RGB (themes) and the cards' dim ink is
    # blended where it is drawn (card_art.faded_ink); anything else is the client
    # terminal's to show. The driver reduces the colour depth per client.
    app._filters = [f for f in app._filters if not isinstance(f, ANSIToTruecolor)]
    if terminal.no_color and not app.no_color:
        app.no_color = True
        app._filters.append(NoColor() if app.native_ansi_color else Monochrome())


async def serve_app(app: App[Any], terminal: RemoteTerminal) -> int:
    """Run `app` on `terminal` until it exits; return the SSH exit status.

    The app runs in its own task so its `active_app` context is its own. The channel is
    finished (farewell line, exit status, close) unless a limit already aborted it.
    """
    harden_app(app)
    share_stylesheet(app)
    apply_terminal_settings(app, terminal)
    app.driver_class = SSHDriver.for_terminal(terminal)
    terminal.app = app
    if terminal.input_ended:
        app.exit()  # the client left before the app existed; don't run it for nobody
    task = asyncio.create_task(
        app.run_async(headless=False, mouse=True, size=terminal.size),
        name=f"served-app-{id(app):x}",
    )
    status = 0
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        # Server shutdown: let the app close properly, then finish the channel.
        app.exit()
        await asyncio.wait({task}, timeout=5)
        if not task.done():
            task.cancel()
        status = 1
        terminal.finish(status, "\r\nServer shutting down.\r\n")
        raise
    except Exception:
        log.exception("served app crashed")
        status = 1
    finally:
        terminal.app = None
        forget_finished_sessions()
    status = status or (app.return_code or 0)
    terminal.finish(status, _farewell(app, terminal, status))
    return status


def forget_finished_sessions() -> None:
    """Empty the Textual caches that would keep a finished session's objects alive.

    Textual 8.2 (pinned) memoizes a few *methods* with a class-level
    ``functools.lru_cache(1024)``, so every entry holds its ``self`` until 1024 newer
    entries push it out. Without this, about a thousand ended sessions stay in memory:

    - ``XTermParser._parse_extended_key``: holds the session's input parser, whose parse
      generator and cached ``Key`` events hold the message pump they were made in
      (``Message._sender``), hence the whole app with its screens (about 1 MB each).
    - ``StylesCache.get_inner_outer``: holds each widget's ``StylesCache`` and with it
      the widget's rendered lines.
    - ``ANSIToTruecolor.truecolor_style``: holds the app's colour filter.

    These caches are shared by every session and cannot drop one session's entries, so
    they are emptied whole; live sessions only recompute a few small values.
    """
    XTermParser._parse_extended_key.cache_clear()
    StylesCache.get_inner_outer.cache_clear()
    ANSIToTruecolor.truecolor_style.cache_clear()


def _farewell(app: App[Any], terminal: RemoteTerminal, status: int) -> str | None:
    """One line telling the user why the session ended, when it wasn't their choice."""
    if terminal.closed_reason == "idle timeout":
        return "Disconnected: no input for a long time.\r\n"
    said = getattr(app, "farewell", None)  # the app's own reason (the club's store away)
    if isinstance(said, str):
        return said
    if status:
        return "Sorry, the session ended because of an internal error.\r\n"
    return None


def keep_alive(app: App[Any]) -> None:
    """Reset a served app's idle timer (for users who only watch, e.g. spectators)."""
    driver = app._driver
    if isinstance(driver, SSHDriver):
        driver.terminal.touch()


async def run_app_over_ssh(
    app: App[Any], process: asyncssh.SSHServerProcess[Any], *, limits: Limits | None = None
) -> int:
    """Serve `app` on an asyncssh process (process_factory API); returns the exit status.

    The server must be created with ``encoding=None`` and ``line_editor=False``.
    Resizes arrive as `asyncssh.TerminalSizeChanged` raised from reads.
    """
    channel = process.channel
    encoding, _errors = channel.get_encoding()
    if encoding is not None:
        raise ValueError("serve apps from a server created with encoding=None (raw bytes)")
    if process.term_type is None:
        process.stderr.write(NO_PTY_MESSAGE.encode())
        process.exit(1)
        return 1
    width, height, _, _ = process.term_size
    terminal = RemoteTerminal(
        channel,  # type: ignore[arg-type]
        term_type=process.term_type,
        size=(width, height),
        env=process.env,
        limits=limits,
        pause_channel=False,
    )
    pump = asyncio.create_task(_pump_process_input(process, terminal))
    try:
        return await serve_app(app, terminal)
    finally:
        pump.cancel()


async def _pump_process_input(
    process: asyncssh.SSHServerProcess[Any], terminal: RemoteTerminal
) -> None:
    """Copy stdin bytes and size changes from the process API into the terminal."""
    while True:
        await terminal.wait_input_ready()
        try:
            data = await process.stdin.read(32768)
        except asyncssh.TerminalSizeChanged as change:
            terminal.resize(change.width, change.height)
            continue
        except (asyncssh.BreakReceived, asyncssh.SignalReceived):
            continue
        except (OSError, asyncssh.Error):
            terminal.end_of_input()
            return
        if not data:
            terminal.end_of_input()
            return
        terminal.receive(data if isinstance(data, bytes) else data.encode())
