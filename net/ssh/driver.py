"""A Textual driver whose terminal is an SSH channel inside the server's event loop.

Textual's own drivers own the process's tty, install signal handlers and use threads;
none of that is acceptable when many apps share one server process. This driver only
touches its session's `RemoteTerminal`: output is buffered and written on flush,
input bytes arrive by method call and go through Textual's `XTermParser`.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from codecs import getincrementaldecoder
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, ClassVar, Literal, TextIO

from textual import constants, events, messages
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size

from net.ssh.color_downgrade import ColorDowngrader
from net.ssh.paste_limit import PasteLimiter
from net.ssh.remote_terminal import RemoteTerminal

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message

log = logging.getLogger(__name__)

TICK_SECONDS = 0.1
"""Housekeeping tick while the terminal holds input back (throttled input resumes on it).
Otherwise there is no tick: one timer wakes the session at its idle deadline (see
`SSHDriver._schedule_tick`), and escape sequences have their own one-shot tick."""

_KITTY_FLAGS = 0b1 | 0b1000 | 0b10000
"""Disambiguate escapes, report all keys, report text (what Textual's LinuxDriver asks)."""

_ENTER_SEQUENCES = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?25l"  # hide cursor
    "\x1b[?1004h"  # focus in/out reports
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no auto-wrap (Textual positions every line itself)
)
_MOUSE_ON = "\x1b[?1000h\x1b[?1003h\x1b[?1006h"  # clicks, any motion, SGR encoding
_MOUSE_OFF = "\x1b[?1006l\x1b[?1003l\x1b[?1000l"
_SYNC_QUERY = "\x1b[?2026$p"  # ask whether synchronized output is supported
_LEAVE_SEQUENCES = (
    "\x1b[?2004l"  # bracketed paste off
    "\x1b[?1004l"  # focus reports off
    "\x1b[?7h"  # auto-wrap back on
    "\x1b[0m"  # default colours
    "\x1b[?1049l"  # back to the main screen
    "\x1b[?25h"  # show cursor
)


class SSHDriver(Driver):
    """Driver for one SSH session; bind it to a terminal with `for_terminal`."""

    terminal: ClassVar[RemoteTerminal]
    """Set on the per-session subclass; Textual constructs drivers from a class."""

    @classmethod
    def for_terminal(cls, terminal: RemoteTerminal) -> type[SSHDriver]:
        """A subclass bound to one session, suitable for `App.driver_class`."""
        return type(f"{cls.__name__}ForSession", (cls,), {"terminal": terminal})

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size or self.terminal.size)
        self._new_input_state()
        self._out: list[str] = []
        self._downgrade = ColorDowngrader(self.terminal.color_system)
        self._flush_scheduled = False
        self._tick_handle: asyncio.TimerHandle | None = None
        self._esc_handle: asyncio.TimerHandle | None = None
        self._in_application_mode = False
        self._kitty_pushed = False
        self._input_enabled = False
        self.muted = False
        """A follower of a shared rendering (``net.screens.gallery_share``): its frames are
        not sent."""
        self.mirrors: list[RemoteTerminal] = []
        """The followers' terminals: every frame sent here is sent there too, byte for byte."""
        self.on_local_change: Callable[[], None] | None = None
        """Set while the session shares a rendering: called before input, a resize or the
        end is passed on, so the session leaves the group before drawing anything of its own."""

    @property
    def in_application_mode(self) -> bool:
        return self._in_application_mode

    def _local_change(self) -> None:
        hook = self.on_local_change
        if hook is not None:
            self.on_local_change = None
            hook()

    def _new_input_state(self) -> None:
        # Never debug=True: XTermParser would open keys.log in the server's cwd.
        self._parser = XTermParser(debug=False)
        # Invalid UTF-8 from a client must not raise (asyncssh's strict decoding would
        # drop the connection); it becomes U+FFFD instead.
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode
        self._paste_limiter = PasteLimiter(self.terminal.limits.max_paste_chars)

    # --- capabilities: nothing process-level is possible from a remote session ----------

    @property
    def can_suspend(self) -> bool:
        """A remote user must never stop the server process (SIGTSTP)."""
        return False

    def suspend_application_mode(self) -> None:
        """Ignored: suspending would hand the SSH user a bare channel."""

    def resume_application_mode(self) -> None:
        """Ignored, see `suspend_application_mode`."""

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Ignored: the base driver would open a browser on the server."""
        log.info("served app asked to open a URL; ignored: %r", url)

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Refuse: the base driver writes the file on the server (e.g. screenshots)."""
        try:
            binary.close()
        finally:
            self._app.post_message(
                events.DeliveryFailed(
                    key=delivery_key,
                    exception=PermissionError("served sessions cannot save files"),
                    name=name,
                )
            )

    # --- output -----------------------------------------------------------------------

    def write(self, data: str) -> None:
        """Queue output; it goes out on `flush` (Textual flushes after each frame)."""
        if not data:
            return
        self._out.append(data)
        if not self._flush_scheduled:
            # Safety net for writes Textual doesn't follow with flush() (e.g. bell).
            self._flush_scheduled = True
            self._loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send queued output as one channel write (and to the mirrors; none if muted)."""
        self._flush_scheduled = False
        if not self._out:
            return
        if self.muted:
            self._out.clear()
            return
        data = self._downgrade("".join(self._out)).encode("utf-8", "replace")
        self._out.clear()
        self.terminal.send(data)
        for terminal in self.mirrors:
            terminal.send(data)

    def send_text(self, text: str, terminals: list[RemoteTerminal]) -> None:
        """Send ``text`` (a whole frame) to ``terminals`` only, at this driver's colour depth
        (a shared rendering's members all have the same)."""
        data = self._downgrade(text).encode("utf-8", "replace")
        for terminal in terminals:
            terminal.send(data)

    # --- application mode -------------------------------------------------------------

    def start_application_mode(self) -> None:
        """Set the client's terminal up for a full-screen app and start taking input."""
        self._in_application_mode = True
        self.write(_ENTER_SEQUENCES)
        if self._mouse:
            self.write(_MOUSE_ON)
        if not constants.DISABLE_KITTY_KEY:
            self.write(f"\x1b[>{_KITTY_FLAGS}u")
            self._kitty_pushed = True
        self.write(_SYNC_QUERY)
        self.flush()
        self.resize(*self.terminal.size)
        self._input_enabled = True
        self.terminal.attach(self)
        self._schedule_tick()

    def disable_input(self) -> None:
        """Stop parsing input and ticking."""
        self._local_change()
        self._input_enabled = False
        self.terminal.detach()
        for handle in (self._tick_handle, self._esc_handle):
            if handle is not None:
                handle.cancel()
        self._tick_handle = self._esc_handle = None

    def stop_application_mode(self) -> None:
        """Leave the client's terminal as it was: main screen, cursor, no mouse/paste modes."""
        self.disable_input()
        if not self._in_application_mode:
            return
        self._in_application_mode = False
        if self._mouse:
            self.write(_MOUSE_OFF)
        if self._kitty_pushed:
            # Pop the keyboard mode before leaving the alternate screen (kitty spec).
            self.write("\x1b[<u")
            self._kitty_pushed = False
        self.write(_LEAVE_SEQUENCES)
        self.flush()

    def close(self) -> None:
        """Final cleanup; output still queued is sent."""
        self.disable_input()
        self.flush()

    # --- input ------------------------------------------------------------------------

    def feed_bytes(self, data: bytes) -> int:
        """Parse raw client bytes into Textual events; returns the event count."""
        if not self._input_enabled:
            return 0
        text = self._paste_limiter.filter(self._decode(data))
        if not text:
            return 0  # feeding "" would tell the parser the stream has ended
        count = 0
        try:
            for event in self._parser.feed(text):
                count += self._deliver_parsed(event)
        except Exception:  # hostile input must not end the session
            # Textual's parser can raise on odd input (e.g. out-of-range code points in
            # kitty sequences) and a generator that raised is dead; start a fresh one.
            log.debug("input parser failed; resetting", exc_info=True)
            self._new_input_state()
        if "\x1b" in text:
            self._schedule_escape_tick()
        return count

    def resize(self, width: int, height: int) -> None:
        """Post a Resize to the app (size already clamped by the terminal)."""
        self._size = (width, height)
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))
        self._local_change()  # after it is queued: the session is held out until it is handled

    def send_message(self, message: Message) -> None:
        """Post directly: we are on the app's loop, no thread hop is needed."""
        self._app.post_message(message)

    def _deliver_parsed(self, message: Message) -> int:
        # Sizes come only from SSH window-change requests, which are clamped; a client
        # could otherwise claim a 100000x100000 terminal via an in-band resize report.
        if isinstance(message, (events.Resize, messages.InBandWindowResize)):
            return 0
        if isinstance(message, events.MouseEvent):
            width, height = self._size or self.terminal.size
            if not (0 <= message.screen_x < width and 0 <= message.screen_y < height):
                return 0
        if isinstance(message, (events.Key, events.MouseEvent)):
            if not self.terminal.admit_input_event():
                return 0
        self.process_message(message)
        if isinstance(message, (events.Key, events.MouseEvent, events.Paste, events.AppFocus,
                                events.AppBlur)):
            self._local_change()  # the user's own doing: drawn for this session alone
        return 1

    def _schedule_tick(self) -> None:
        """Set the one housekeeping timer: soon while input is held back, else for the idle
        deadline, else none. An idle session must cost nothing, so it is not polled: input
        and keep-alives only move the deadline, and the timer that finds the deadline moved
        when it fires sets itself again for the time left."""
        if self._tick_handle is not None:
            self._tick_handle.cancel()
            self._tick_handle = None
        if self.terminal.input_held:
            delay = TICK_SECONDS
        else:
            deadline = self.terminal.idle_deadline()
            if deadline is None:
                return  # no idle timeout: nothing to wake up for until input comes
            delay = max(0.0, deadline - time.monotonic())
        # An empty context: asyncio keeps a cancelled timer, with its context, until the time
        # it was due, and the current one holds Textual's active_app; a deadline half an hour
        # off would keep an ended session's whole app alive that long. The tick needs no
        # context (it only feeds the driver, like input does).
        self._tick_handle = self._loop.call_later(delay, self._tick,
                                                  context=contextvars.Context())

    def _tick(self) -> None:
        self._tick_handle = None
        if not self._input_enabled:
            return
        self._run_parser_tick()
        self.terminal.housekeeping()
        if self._input_enabled:
            self._schedule_tick()

    def wake(self) -> None:
        """The terminal holds input back: tick at the busy pace until it is let through."""
        if not self._input_enabled:
            return
        handle = self._tick_handle
        if handle is None or handle.when() > self._loop.time() + TICK_SECONDS:
            self._schedule_tick()

    def _schedule_escape_tick(self) -> None:
        # A lone Esc is only emitted once the parser's timeout has passed *and* it is
        # ticked; this one-shot tick keeps Esc latency near ESCAPE_DELAY.
        if self._esc_handle is not None:
            self._esc_handle.cancel()
        self._esc_handle = self._loop.call_later(constants.ESCAPE_DELAY + 0.01, self._escape_tick)

    def _escape_tick(self) -> None:
        self._esc_handle = None
        if self._input_enabled:
            self._run_parser_tick()
            # Textual 8.2's Parser._timeout_time: a sequence is still open (its rest came
            # in a later read, after the Esc); tick again when that one may time out.
            if self._parser._timeout_time is not None:
                self._schedule_escape_tick()

    def _run_parser_tick(self) -> None:
        try:
            for event in self._parser.tick():
                self._deliver_parsed(event)
        except Exception:
            log.debug("input parser tick failed; resetting", exc_info=True)
            self._new_input_state()
