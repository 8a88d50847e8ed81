"""One SSH session channel (asyncssh session API) that runs one served app.

The session API lets us refuse exec and subsystem requests at the protocol level
(the client sees "request failed"), receives resizes as `terminal_size_changed`
callbacks, and hands us raw bytes as they arrive.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import asyncssh

from net.ssh.game_commands import UNKNOWN_COMMAND
from net.ssh.limits import Limits
from net.ssh.remote_terminal import RemoteTerminal
from net.ssh.served_app import NO_PTY_MESSAGE, serve_app
from net.ssh.session_info import SessionInfo

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import App

log = logging.getLogger(__name__)

AppFactory = Callable[[SessionInfo], "App[Any]"]
CommandFilter = Callable[[str], bool]


@dataclass(frozen=True)
class ClientIdentity:
    """What the connection learned during authentication."""

    username: str
    key_fingerprint: str | None
    peer_ip: str


class AppSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """Accepts a shell (or an allowed command) on a pty and serves an app on it."""

    def __init__(
        self,
        identity: ClientIdentity,
        app_factory: AppFactory,
        *,
        limits: Limits,
        allow_command: CommandFilter | None = None,
        on_end: Callable[[AppSession], None] | None = None,
    ) -> None:
        self.identity = identity
        self._app_factory = app_factory
        self._limits = limits
        self._allow_command = allow_command
        self._on_end = on_end
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._command: str | None = None
        self._unknown: str | None = None  # a command refused: said so, then the channel ends
        self.terminal: RemoteTerminal | None = None
        self.app: App[Any] | None = None
        self.task: asyncio.Task[int] | None = None
        self._ended = False

    # --- channel requests -------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:  # type: ignore[override]
        """Keep the channel: all output and the exit status go through it."""
        self._chan = chan

    def shell_requested(self) -> bool:
        """A plain `ssh host` session: serve the app."""
        return True

    def exec_requested(self, command: str) -> bool:
        """Only commands the game understands (e.g. 'join CODE'); never a real shell. Any
        other is accepted only to tell the client so (a refused request leaves OpenSSH
        printing "exec request failed on channel 0", which explains nothing)."""
        if self._allow_command is not None and self._allow_command(command):
            self._command = command
        else:
            log.info("refused exec request from %s: %r", self.identity.peer_ip, command[:80])
            self._unknown = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        """No SFTP or any other subsystem."""
        log.info("refused subsystem %r from %s", subsystem[:40], self.identity.peer_ip)
        return False

    def break_received(self, msec: int) -> bool:
        """Breaks mean nothing to a served app."""
        return False

    def signal_received(self, signal: str) -> None:
        """Signals from the client are ignored: there is no process to signal."""

    # --- session lifetime -------------------------------------------------------------

    def session_started(self) -> None:
        """Pty and shell/exec negotiated: build the terminal and start the app."""
        chan = self._chan
        assert chan is not None
        if self._unknown is not None:
            shown = "".join(c if c.isprintable() else "?" for c in self._unknown[:40])
            chan.write_stderr(UNKNOWN_COMMAND.format(command=shown).encode())
            chan.exit(2)
            self._end()
            return
        term_type = chan.get_terminal_type()
        if term_type is None:
            chan.write_stderr(NO_PTY_MESSAGE.encode())
            chan.exit(1)
            self._end()
            return
        width, height, _, _ = chan.get_terminal_size()
        env: Mapping[str, str] = chan.get_environment()
        self.terminal = RemoteTerminal(
            chan,  # type: ignore[arg-type]
            term_type=term_type,
            size=(width, height),
            env=env,
            limits=self._limits,
        )
        info = SessionInfo(
            username=self.identity.username,
            key_fingerprint=self.identity.key_fingerprint,
            peer_ip=self.identity.peer_ip,
            term_type=term_type,
            size=self.terminal.size,
            command=self._command,
        )
        self.task = asyncio.create_task(self._run(info), name=f"ssh-session-{id(self):x}")

    async def _run(self, info: SessionInfo) -> int:
        terminal = self.terminal
        assert terminal is not None
        try:
            try:
                self.app = self._app_factory(info)
            except Exception:
                log.exception("app factory failed for %s", info.peer_ip)
                terminal.finish(1, "Sorry, the game could not start.\r\n")
                return 1
            return await serve_app(self.app, terminal)
        finally:
            self._end()

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            if self._on_end is not None:
                self._on_end(self)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        """Keystrokes, pastes and mouse reports from the client."""
        if self.terminal is not None:
            self.terminal.receive(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        """Window-change request; the first one arrives with the pty request."""
        if self.terminal is not None:
            self.terminal.resize(width, height)

    def eof_received(self) -> bool:
        """Client closed its input: end the app, keep the channel to restore the screen."""
        if self.terminal is not None:
            self.terminal.end_of_input()
            return True
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        """Channel closed or connection dropped: stop the app, nothing can be sent now."""
        if self.terminal is not None:
            self.terminal.channel_lost()
        if self.task is None:
            self._end()  # refused or never started: nothing else will report the end

    def close(self) -> None:
        """Ask the app to exit (server shutdown); the session finishes its channel."""
        if self.terminal is not None:
            self.terminal.end_of_input()
        elif self._chan is not None:
            self._chan.close()
