"""One remote pty as a served app sees it: where output goes and where input comes from.

This object sits between an SSH channel (either asyncssh API) and the Textual driver.
It exists separately from the driver because input and resizes can arrive before
Textual has built the driver, and because the limits (output bound, input throttle,
idle timeout) belong to the session, not to one app run.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from net.ssh.limits import Limits, TokenBucket, clamp_size
from net.ssh.terminal_caps import ColorSystem, pick_color_system, wants_no_color

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger(__name__)

_INBOX_LIMIT = 64 * 1024
"""Unparsed input bytes held; beyond this, reading from the channel pauses."""
_PARSE_SLICE = 1024
"""Input bytes parsed per event-loop step."""


class ChannelLike(Protocol):
    """The subset of asyncssh's SSHServerChannel this module uses."""

    def write(self, data: bytes) -> None: ...
    def get_write_buffer_size(self) -> int: ...
    def get_extra_info(self, name: str, default: Any = None) -> Any: ...
    def pause_reading(self) -> None: ...
    def resume_reading(self) -> None: ...
    def abort(self) -> None: ...
    def exit(self, status: int) -> None: ...


class InputSink(Protocol):
    """What the terminal delivers input to (the SSH driver)."""

    def feed_bytes(self, data: bytes) -> int:
        """Parse raw input; return how many events it produced."""
        ...

    def resize(self, width: int, height: int) -> None:
        """Tell the app the (already clamped) terminal size changed."""
        ...

    def wake(self) -> None:
        """Input is held back: call `RemoteTerminal.housekeeping` soon and often."""
        ...


class RemoteTerminal:
    """Per-session I/O endpoint with the session's limits applied."""

    def __init__(
        self,
        channel: ChannelLike,
        *,
        term_type: str | None,
        size: tuple[int, int],
        env: Mapping[str, str] | None = None,
        limits: Limits | None = None,
        pause_channel: bool = True,
    ) -> None:
        self.channel = channel
        self.limits = limits or Limits()
        self.term_type = term_type
        self.env: Mapping[str, str] = dict(env or {})
        self.size = clamp_size(*size, self.limits)
        self.color_system: ColorSystem = pick_color_system(term_type, self.env)
        self.no_color = wants_no_color(self.env)
        self.app: App[Any] | None = None
        """Set by the runner so limits can end the app."""
        self.closed_reason: str | None = None
        """Why the session was cut off by a limit, if it was."""
        self.input_ended = False
        self.peak_buffered = 0
        """Largest unsent output seen, for tests and diagnostics."""
        self.last_activity = time.monotonic()
        self._pause_channel = pause_channel
        self._sink: InputSink | None = None
        self._inbox: deque[bytes] = deque()
        self._inbox_bytes = 0
        self._drain_handle: asyncio.Handle | None = None
        self._paused = False
        self._input_ready = asyncio.Event()
        self._input_ready.set()
        self._events = TokenBucket(
            self.limits.max_input_events_per_second, self.limits.input_event_burst
        )
        self._parse_time = TokenBucket(self.limits.input_cpu_share, self.limits.input_cpu_burst)
        self._channel_gone = False

    # --- input side: called by the SSH session -------------------------------------

    def receive(self, data: bytes) -> None:
        """Bytes typed by the remote user; parsed soon, in slices (see `_drain`)."""
        if not data or self.closed_reason is not None:
            return
        self.last_activity = time.monotonic()
        self._inbox.append(data)
        self._inbox_bytes += len(data)
        if self._inbox_bytes > _INBOX_LIMIT:
            self._pause()
        self._schedule_drain()

    def resize(self, width: int, height: int) -> None:
        """Window-change from the client; clamped before the app sees it."""
        size = clamp_size(width, height, self.limits)
        if size == self.size:
            return
        self.size = size
        if self._sink is not None:
            self._sink.resize(*size)

    def end_of_input(self) -> None:
        """The client closed its input (EOF) or the connection dropped: end the app."""
        self.input_ended = True
        self._input_ready.set()
        self._exit_app()

    def channel_lost(self) -> None:
        """The channel is gone; nothing more may be written to it."""
        self._channel_gone = True
        self.end_of_input()

    async def wait_input_ready(self) -> None:
        """For readers that pull input (process API): wait while input is throttled."""
        await self._input_ready.wait()

    # --- driver side ------------------------------------------------------------------

    def attach(self, sink: InputSink) -> None:
        """A driver starts; whatever arrived before it existed is parsed now."""
        self._sink = sink
        self._schedule_drain()

    def detach(self) -> None:
        """The driver stops taking input; later bytes are dropped."""
        self._sink = None
        self._inbox.clear()
        self._inbox_bytes = 0
        if self._drain_handle is not None:
            self._drain_handle.cancel()
            self._drain_handle = None
        self._resume()

    @property
    def input_held(self) -> bool:
        """Input is held back (throttled, or waiting to be parsed) until `housekeeping`."""
        return self._paused or bool(self._inbox)

    def admit_input_event(self) -> bool:
        """Rate limit for key/mouse events; False means drop this one."""
        return self._events.try_take()

    def send(self, data: bytes) -> None:
        """Write output unless the client has stopped reading for too long."""
        if not data or self.closed_reason is not None or self._channel_gone:
            return
        bound = self.limits.max_output_buffer
        before = self.buffered_bytes()
        if before and before + len(data) > bound:
            self.cut_off("output not being read", abort=True)
            return
        try:
            self.channel.write(data)
        except (OSError, RuntimeError):
            self._channel_gone = True
            self._exit_app()
            return
        after = self.buffered_bytes()
        self.peak_buffered = max(self.peak_buffered, min(after, bound))
        if after > bound:
            self.cut_off("output not being read", abort=True)

    def buffered_bytes(self) -> int:
        """Output accepted but not yet sent: channel buffer plus the socket's buffer."""
        size = self.channel.get_write_buffer_size()
        # asyncssh ignores transport back-pressure, so a client that advertises a huge
        # window and never reads would grow the transport buffer instead; count it.
        conn = self.channel.get_extra_info("connection")
        transport = getattr(conn, "_transport", None)
        if transport is not None:
            try:
                size += transport.get_write_buffer_size()
            except (AttributeError, RuntimeError):
                pass
        return size

    def touch(self) -> None:
        """Count as activity (apps call this to keep e.g. spectators from idling out)."""
        self.last_activity = time.monotonic()

    def idle_deadline(self) -> float | None:
        """When (``time.monotonic()``) the idle timeout ends the session unless there is
        activity before; None when there is no idle timeout. The driver sleeps until then."""
        idle = self.limits.idle_timeout
        return None if idle is None else self.last_activity + idle

    def housekeeping(self) -> None:
        """Run by the driver's tick (while input is held back, and at the idle deadline):
        throttle release and idle timeout."""
        self._schedule_drain()
        if self._paused and self._may_read():
            self._resume()
        deadline = self.idle_deadline()
        if deadline is not None and time.monotonic() >= deadline:
            self.cut_off("idle timeout", abort=False)

    def cut_off(self, reason: str, *, abort: bool) -> None:
        """End the session because a limit was hit; abort drops unsent output too."""
        if self.closed_reason is not None:
            return
        self.closed_reason = reason
        log.info("cutting off SSH session: %s", reason)
        if abort:
            self._channel_gone = True
            try:
                self.channel.abort()
            except Exception:  # the channel may already be half-closed
                log.debug("abort failed", exc_info=True)
        self._exit_app()

    def finish(self, status: int, farewell: str | None = None) -> None:
        """Last words to the client, then exit status and channel close."""
        if self._channel_gone:
            return
        self._channel_gone = True
        try:
            if farewell:
                self.channel.write(farewell.encode("utf-8", "replace"))
            self.channel.exit(status)
        except (OSError, RuntimeError):
            pass

    # --- internals ----------------------------------------------------------------------

    def _schedule_drain(self) -> None:
        if self._drain_handle is None and self._sink is not None and self._inbox:
            self._drain_handle = asyncio.get_running_loop().call_soon(self._drain)

    def _drain(self) -> None:
        """Parse one slice of pending input, then yield to the loop for the next.

        Parsing is per character in Python (about 6 us per raw key), so a megabyte of
        garbage would block every session for seconds; slices keep each step short and
        the parse-time budget bounds one session's share of the CPU.
        """
        self._drain_handle = None
        sink = self._sink
        if sink is None or not self._inbox:
            return
        if not self._budget_left():
            self._pause()  # the tick resumes and reschedules once the budget refills
            return
        chunk = self._inbox.popleft()
        if len(chunk) > _PARSE_SLICE:
            self._inbox.appendleft(chunk[_PARSE_SLICE:])
            chunk = chunk[:_PARSE_SLICE]
        self._inbox_bytes -= len(chunk)
        started = time.perf_counter()
        sink.feed_bytes(chunk)
        self._parse_time.charge(time.perf_counter() - started)
        self._schedule_drain()
        if self._paused and self._may_read():
            self._resume()

    def _budget_left(self) -> bool:
        return self._parse_time.has_tokens() and not self._app_backlogged()

    def _may_read(self) -> bool:
        return self._inbox_bytes <= _INBOX_LIMIT // 2 and self._budget_left()

    def _app_backlogged(self) -> bool:
        app = self.app
        return app is not None and app.message_queue_size > self.limits.max_pending_app_messages

    def _pause(self) -> None:
        if self._paused:
            return
        self._paused = True
        self._input_ready.clear()
        if self._sink is not None:
            self._sink.wake()  # housekeeping resumes reading
        if self._pause_channel and not self._channel_gone:
            self.channel.pause_reading()

    def _resume(self) -> None:
        if not self._paused:
            return
        self._paused = False
        self._input_ready.set()
        if self._pause_channel and not self._channel_gone:
            # May synchronously deliver buffered data back into receive().
            self.channel.resume_reading()

    def _exit_app(self) -> None:
        app = self.app
        # return_code stays None until the app decides to exit; don't clobber its result.
        if app is not None and app.return_code is None:
            app.exit()
