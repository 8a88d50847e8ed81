"""A reusable asyncssh server that gives each SSH session its own Textual app.

Anyone may connect: a public key becomes the player's identity (its fingerprint),
a client without keys gets in as a guest via keyboard-interactive with no prompts.
In private mode only keys in an authorized_keys file are let in. Nothing but the app
is reachable: exec (except allowed game commands), subsystems/SFTP, port, agent and
X11 forwarding are all refused.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

import asyncssh

from net.ssh.blocklist import REFUSED, Blocklist
from net.ssh.host_key import host_key_fingerprint, join_command, load_or_create_host_key
from net.ssh.lazy_tasks import keep_lazy_tasks
from net.ssh.limits import ConnectionTracker, Limits, describe_wait
from net.ssh.proxy_listener import ProxyAcceptor
from net.ssh.session import AppFactory, AppSession, ClientIdentity, CommandFilter
from net.ssh.shared_counts import SharedCounts

log = logging.getLogger(__name__)

_SHUTDOWN_GRACE = 5.0
"""Seconds apps get to exit and restore their users' terminals on server close."""


class _ServerState:
    """Shared by all connections of one server."""

    def __init__(
        self,
        app_factory: AppFactory,
        limits: Limits,
        allow_command: CommandFilter | None,
        authorized_keys: Path | None,
        counts: SharedCounts | None = None,
        blocklist: Blocklist | None = None,
    ) -> None:
        self.app_factory = app_factory
        self.blocklist = blocklist or Blocklist(None)
        self.limits = limits
        self.allow_command = allow_command
        self.authorized_keys = authorized_keys
        self.tracker = ConnectionTracker(limits, shared=counts)
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.sessions: set[AppSession] = set()

    @property
    def private(self) -> bool:
        return self.authorized_keys is not None


class _ConnectionHandler(asyncssh.SSHServer):
    """Per-connection policy: admission, authentication, deadlines and what may be opened.

    After login a connection must keep a session running: it gets `session_open_timeout`
    to start one and `sessionless_timeout` after its last one ends, or it is disconnected
    (sessions themselves are bounded by the app's idle timeouts).
    """

    def __init__(self, state: _ServerState, peer_ip: str | None = None,
                 balancer: bool = False) -> None:
        """``peer_ip``: the player's address as a load balancer's PROXY header gave it
        (None: the connection's own). ``balancer``: the header named no player (PROXY
        LOCAL, the balancer's own health check)."""
        self._state = state
        self._conn: asyncssh.SSHServerConnection | None = None
        self._peer_ip = peer_ip
        self._balancer = balancer
        self._ip = "?"
        self._admitted = False
        self._attempted = False
        self._refused_keys = 0  # while the address is locked out
        self._authenticated = False
        self._username = ""
        self._key_fingerprint: str | None = None
        self._sessions: set[AppSession] = set()
        self._deadline: asyncio.TimerHandle | None = None

    # --- admission ----------------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Refuse over-limit peers before any crypto work (failed logins are checked at
        authentication time: a locked-out address may still bring a key that is let in)."""
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self._ip = self._peer_ip or (str(peer[0]) if peer else "?")
        blocklist = self._state.blocklist
        blocklist.refresh()
        # (a block list naming the balancer's network would refuse its health checks, and
        # log it every two seconds)
        if not self._balancer and blocklist.address(self._ip):
            log.info("refusing connection from %s: on the block list", self._ip)
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_HOST_NOT_ALLOWED_TO_CONNECT, REFUSED)
            return
        reason = self._state.tracker.refusal_reason(self._ip)
        if reason is not None:
            log.info("refusing connection from %s: %s", self._ip, reason)
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, reason
            )
            return
        self._admitted = True
        self._state.tracker.opened(self._ip)
        self._state.connections.add(conn)

    def connection_lost(self, exc: Exception | None) -> None:
        """Release the slot and the deadline; ending mid-login counts as a failed login.

        A connection that never asked to authenticate (keyscan, port probe) is no failure.
        """
        self._cancel_deadline()
        if not self._admitted:
            return
        self._admitted = False
        self._state.tracker.closed(self._ip)
        if self._attempted and not self._authenticated:
            self._state.tracker.auth_failed(self._ip)
            log.info(
                "failed login from %s as %r (%d recent): %s",
                self._ip,
                self._username,
                self._state.tracker.recent_failures(self._ip),
                exc or "client left",
            )
        if self._conn is not None:
            self._state.connections.discard(self._conn)
            self._conn = None

    # --- authentication -----------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        """Always require auth: with 'none' accepted, clients would never offer keys.

        From here on, leaving without getting in is a failed login.
        """
        self._attempted = True
        self._username = username
        return True

    def public_key_auth_supported(self) -> bool:
        """Keys are how returning players are recognised."""
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Any key in public mode, listed keys in private mode.

        asyncssh calls this for the key query and again just before checking the
        signature, so the last accepted key is the one that authenticated (unless a
        later guest login resets it).
        """
        fingerprint = key.get_fingerprint("sha256")
        if self._state.blocklist.key(fingerprint):  # (and no guest login after it)
            log.info("refusing login from %s as %r: key %s is on the block list",
                     self._ip, username, fingerprint)
            raise asyncssh.PermissionDenied(REFUSED)
        if self._state.private and not self._is_authorized(key):
            self._key_refused()
            return False
        self._key_fingerprint = fingerprint
        return True

    def _key_refused(self) -> None:
        """From a locked-out address, say how long the lockout lasts, and end the connection
        once it has offered `locked_out_key_tries` refused keys while locked out.

        The first refusal only sends the reason as a banner (OpenSSH prints it): an agent
        offers every key it holds, and the one that is listed must still get its turn.
        asyncssh sends a DisconnectError raised here as the disconnect message.
        """
        reason = self._state.tracker.lockout_reason(self._ip)
        if reason is None or self._conn is None:
            return
        self._refused_keys += 1
        if self._refused_keys >= self._state.limits.locked_out_key_tries:
            log.info("refusing login from %s as %r: %s", self._ip, self._username, reason)
            raise asyncssh.PermissionDenied(reason)
        if self._refused_keys == 1:
            self._conn.send_auth_banner(reason + "\n")

    def _is_authorized(self, key: asyncssh.SSHKey) -> bool:
        path = self._state.authorized_keys
        assert path is not None
        try:
            authorized = asyncssh.read_authorized_keys(str(path))
        except (OSError, ValueError, asyncssh.KeyImportError):
            log.warning("cannot read authorized keys file %s", path)
            return False
        return authorized.validate(key, "", self._ip) is not None

    def kbdint_auth_supported(self) -> bool:
        """Guests log in by keyboard-interactive with no prompts (public mode only)."""
        return not self._state.private

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        """True = authenticated without asking anything; the guest has no key identity."""
        if self._state.private:
            return False
        self._key_fingerprint = None
        return True

    def password_auth_supported(self) -> bool:
        """No passwords: nothing to guess, nothing to leak."""
        return False

    def host_based_auth_supported(self) -> bool:
        """Not used."""
        return False

    def auth_completed(self) -> None:
        """Login done; from here on the connection is not a failed attempt."""
        self._authenticated = True
        log.info(
            "login from %s as %r (%s)",
            self._ip,
            self._username,
            self._key_fingerprint or "guest",
        )
        timeout = self._state.limits.session_open_timeout
        if timeout is not None:
            reason = f"no session opened within {describe_wait(timeout)} of login"
            self._set_deadline(timeout, reason)

    # --- channels -------------------------------------------------------------------------

    def session_requested(self) -> Any:
        """One app per session channel, a few concurrent channels per connection at most."""
        limit = self._state.limits.max_sessions_per_connection
        if self._conn is None or len(self._sessions) >= limit:
            return False
        if self._state.blocklist.refuses(self._ip, self._key_fingerprint):  # (listed since)
            return False
        identity = ClientIdentity(self._username, self._key_fingerprint, self._ip)
        session = AppSession(
            identity,
            self._state.app_factory,
            limits=self._state.limits,
            allow_command=self._state.allow_command,
            on_end=self._session_ended,
        )
        self._sessions.add(session)
        self._state.sessions.add(session)
        channel = self._conn.create_server_channel(encoding=None)
        return channel, session

    def _session_ended(self, session: AppSession) -> None:
        """Free the channel's slot; the last session ending starts the sessionless deadline.

        A channel that never ran an app does not restart a pending deadline, or opening and
        closing channels would keep a connection open for ever.
        """
        self._sessions.discard(session)
        self._state.sessions.discard(session)
        timeout = self._state.limits.sessionless_timeout
        if timeout is None or self._has_running_session():
            return
        if session.task is not None or self._deadline is None:
            self._set_deadline(timeout, f"no session open for {describe_wait(timeout)}")

    # --- deadlines ------------------------------------------------------------------------

    def _has_running_session(self) -> bool:
        """A session counts once its app started; an open channel that never asked for a
        shell does not (it would hold the connection past every deadline)."""
        return any(s.task is not None and not s.task.done() for s in self._sessions)

    def _set_deadline(self, seconds: float, reason: str) -> None:
        """(Re)start the one deadline timer; never on a closed connection (no leak)."""
        self._cancel_deadline()
        if self._conn is None or not self._admitted:
            return
        loop = asyncio.get_running_loop()
        self._deadline = loop.call_later(seconds, self._deadline_passed, reason)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _deadline_passed(self, reason: str) -> None:
        """Disconnect unless a session started meanwhile (its app's timeouts take over)."""
        self._deadline = None
        if self._conn is None or self._has_running_session():
            return
        log.info(
            "closing connection from %s as %r (%s): %s",
            self._ip,
            self._username,
            self._key_fingerprint or "guest",
            reason,
        )
        self._conn.disconnect(asyncssh.DISC_BY_APPLICATION, reason)

    def connection_requested(
        self, dest_host: str, dest_port: int, orig_host: str, orig_port: int
    ) -> bool:
        """No direct TCP forwarding (ssh -L / -D)."""
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        """No remote forwarding (ssh -R)."""
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        """No UNIX socket forwarding."""
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        """No remote UNIX socket listeners."""
        return False

    def tun_requested(self, unit: int | None) -> bool:
        """No layer-3 tunnels."""
        return False

    def tap_requested(self, unit: int | None) -> bool:
        """No layer-2 tunnels."""
        return False


class GameSSHServer:
    """A running server; close it with `aclose()` (or use `async with`)."""

    def __init__(
        self,
        acceptor: asyncssh.SSHAcceptor | ProxyAcceptor,
        state: _ServerState,
        host: str,
        host_key: asyncssh.SSHKey,
    ) -> None:
        self._acceptor = acceptor
        self._state = state
        self.host = host
        self.port: int = acceptor.get_port()
        self.host_key_fingerprint = host_key_fingerprint(host_key)
        """'SHA256:...' as `ssh-keygen -l` prints it; show it so players can verify."""

    def join_command(self, host: str | None = None, command: str | None = None) -> str:
        """e.g. 'ssh -p 2222 example.org' or 'ssh -t -p 2222 example.org join ABCD'."""
        return join_command(host or self.host, self.port, command)

    @property
    def sessions(self) -> tuple[AppSession, ...]:
        """Sessions currently running an app (each has `.app`, `.terminal`, `.identity`)."""
        return tuple(self._state.sessions)

    @property
    def session_count(self) -> int:
        """Sessions currently running an app."""
        return len(self._state.sessions)

    @property
    def connection_count(self) -> int:
        """Admitted TCP connections currently open."""
        return self._state.tracker.total

    async def aclose(self) -> None:
        """Stop listening, let apps exit and restore terminals, then drop connections."""
        self._acceptor.close()
        sessions = list(self._state.sessions)
        for session in sessions:
            session.close()
        tasks = [s.task for s in sessions if s.task is not None and not s.task.done()]
        if tasks:
            await asyncio.wait(tasks, timeout=_SHUTDOWN_GRACE)
        for conn in list(self._state.connections):
            conn.close()
        await self._acceptor.wait_closed()

    async def __aenter__(self) -> GameSSHServer:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()


async def start_server(
    app_factory: AppFactory,
    *,
    host: str,
    port: int,
    data_dir: str | os.PathLike[str],
    private: bool = False,
    authorized_keys: str | os.PathLike[str] | None = None,
    limits: Limits | None = None,
    allow_command: CommandFilter | None = None,
    reuse_port: bool = False,
    counts: SharedCounts | None = None,
    blocklist: Blocklist | None = None,
    proxy_protocol: bool = False,
) -> GameSSHServer:
    """Listen on host:port and serve `app_factory(SessionInfo)` to every SSH session.

    `data_dir` holds the persistent host key. In `private` mode only keys listed in
    `authorized_keys` (default: data_dir/authorized_keys) may log in. `allow_command`
    decides which exec commands (e.g. 'join ABCD') are accepted; None refuses all.
    `port=0` picks a free port (see `GameSSHServer.port`). `reuse_port` lets the workers of
    one club accept on the same port (the kernel spreads connections among them), and
    `counts` makes their connection limits count the connections of all of them.
    `blocklist` keeps out addresses and keys (see ``net.ssh.blocklist``). With
    `proxy_protocol` every connection must begin with a load balancer's PROXY header, whose
    address is the player's (``net.ssh.proxy_listener``).
    """
    keep_lazy_tasks()
    limits = limits or Limits()
    key = load_or_create_host_key(data_dir)
    keys_path: Path | None = None
    if private:
        keys_path = Path(authorized_keys or Path(data_dir) / "authorized_keys")
    state = _ServerState(app_factory, limits, allow_command, keys_path, counts, blocklist)
    options: dict[str, Any] = dict(
        server_host_keys=[key],
        login_timeout=limits.login_timeout,
        encoding=None,
        line_editor=False,
        allow_pty=True,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        gss_host=None,
        keepalive_interval=60,
        keepalive_count_max=3,
    )
    if proxy_protocol:
        acceptor: asyncssh.SSHAcceptor | ProxyAcceptor = await ProxyAcceptor.start(
            host, port, reuse_port,
            lambda ip: _ConnectionHandler(state, ip, balancer=ip is None), options)
    else:
        acceptor = await asyncssh.listen(
            host, port, server_factory=lambda: _ConnectionHandler(state),
            reuse_port=reuse_port or None, **options)
    return GameSSHServer(acceptor, state, host, key)
