"""Resource limits for served sessions, and the small trackers that enforce them.

Everything here is plain bookkeeping with an injectable clock so the rules can be
tested without sleeping.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from net.ssh.shared_counts import SharedCounts

Clock = Callable[[], float]


@dataclass(frozen=True)
class Limits:
    """Bounds that keep one remote user from hurting the server or other users."""

    login_timeout: float = 30.0
    """Seconds a client may take to authenticate before it is dropped."""
    max_connections: int = 200
    """Concurrent TCP connections, all clients together."""
    max_connections_per_ip: int = 10
    """Concurrent TCP connections from one peer address."""
    max_sessions_per_connection: int = 3
    """SSH multiplexes channels; without this one connection could open thousands of apps."""
    session_open_timeout: float | None = 30.0
    """Seconds after login a connection may take to start a session; an `ssh -N` (or a
    channel that never asks for a shell) would otherwise hold a slot forever. None = never."""
    sessionless_timeout: float | None = 30.0
    """Seconds a connection may stay open after its last session ended without starting
    another (a kept-alive ControlMaster holds a slot for nothing). None = never."""
    max_failed_auth_per_ip: int = 10
    """Failed logins per peer address, within the window below, before the address is
    locked out (see `ConnectionTracker` for what counts); 0 = never lock out."""
    failed_auth_window: float = 300.0
    """Seconds over which failed logins are counted; a lockout lasts until enough of
    them are older than this."""
    locked_out_key_tries: int = 5
    """While its address is locked out, a connection is disconnected at this many refused
    keys (not at the first: an agent offers all its keys, the listed one may come later)."""
    idle_timeout: float | None = 1800.0
    """Seconds without input (or app keep-alive) before a session is closed; None = never."""
    max_output_buffer: int = 1 << 20
    """Unsent output bytes allowed for a client that stopped reading before it is cut off."""
    max_input_events_per_second: float = 1000.0
    """Sustained rate of key/mouse events; beyond it they are dropped (a hostile paste
    of a megabyte of raw keys must not keep an app busy for minutes)."""
    input_event_burst: float = 1000.0
    """Key/mouse events allowed in one burst before the rate above applies."""
    input_cpu_share: float = 0.1
    """Fraction of one CPU a session may spend parsing input, sustained (reading pauses
    beyond it, so a client streaming garbage slows itself, not everyone else)."""
    input_cpu_burst: float = 2.0
    """Parse seconds a session may use in a burst (a large paste) before the share applies."""
    max_paste_chars: int = 1 << 20
    """Longer bracketed pastes are cut; Textual buffers a paste char by char until its end."""
    max_pending_app_messages: int = 100
    """Pause reading input while the app has this many unprocessed messages queued."""
    max_new_names_per_ip: int = 5
    """New players (a new key choosing its name) per peer address in an hour, across the
    club's processes and machines; 0 = no bound. A name is kept for good and a key costs nothing."""
    max_columns: int = 500
    """Wider terminals are served as this wide (rendering cost grows with the area)."""
    max_rows: int = 200
    """Taller terminals are served as this tall."""


def clamp_size(width: int, height: int, limits: Limits) -> tuple[int, int]:
    """Keep a client-reported size usable: 0 means unknown (80x24), huge is capped."""
    width = 80 if width <= 0 else min(width, limits.max_columns)
    height = 24 if height <= 0 else min(height, limits.max_rows)
    return width, height


class TokenBucket:
    """Classic token bucket; used to rate-limit input events per session."""

    def __init__(self, rate: float, burst: float, clock: Clock = time.monotonic) -> None:
        self._rate = rate
        self._burst = burst
        self._clock = clock
        self._tokens = burst
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now

    def try_take(self, amount: float = 1.0) -> bool:
        """Take tokens if there are enough; False means the caller should drop the item."""
        self._refill()
        if self._tokens < amount:
            return False
        self._tokens -= amount
        return True

    def charge(self, amount: float) -> None:
        """Take tokens after the fact; the balance may go negative and is repaid over time."""
        self._refill()
        self._tokens -= amount

    def has_tokens(self) -> bool:
        """True while the balance is positive."""
        self._refill()
        return self._tokens > 0


def describe_wait(seconds: float) -> str:
    """'45 seconds' or '5 minutes', rounded up, so a client that waits that long is in."""
    if seconds < 60:
        n = max(1, math.ceil(seconds))
        return f"{n} second{'s' if n != 1 else ''}"
    n = math.ceil(seconds / 60)
    return f"{n} minute{'s' if n != 1 else ''}"


class ConnectionTracker:
    """Counts live connections and recent failed logins per peer address.

    A failed login is a connection that asked to authenticate and ended without getting in:
    a key refused in private mode, a signature that did not verify, a password tried against
    a server that has none, a client that gave up or hit the login timeout mid-login. A
    connection that never sent an authentication request (ssh-keyscan, a port probe, a
    banner grab) is not one: it guesses nothing, and counting it let one visitor lock a
    whole address (a NAT, a club's wifi) out. A connection that eventually gets in counts
    nothing, however many of its keys were refused on the way (an agent offers them all).

    An address with `max_failed_auth_per_ip` failures inside `failed_auth_window` is locked
    out: the server refuses what can be guessed or abused (a key not on the list), telling
    the client how long to wait, and cuts a connection that keeps offering such keys. It
    never refuses what authenticates: an authorized key always gets in, so a dropped player
    can take his seat back. In public mode every key
    and every guest gets in, so nobody is locked out there: what can fail (a password bot,
    a key whose signature does not verify, a client that gives up) is refused anyway, and
    refusing guests would shut a whole NAT out because of one bot; failures are logged.
    """

    def __init__(self, limits: Limits, clock: Clock = time.monotonic,
                 shared: SharedCounts | None = None) -> None:
        self._limits = limits
        self._clock = clock
        self._shared = shared  # the other workers' connections (net/ssh/shared_counts.py)
        self._live: dict[str, int] = defaultdict(int)
        self._total = 0
        # Only the newest `max_failed_auth_per_ip` stamps matter, so an address hammering
        # the server costs a bounded deque, not one float per attempt.
        self._failures: dict[str, deque[float]] = {}
        self._last_sweep = clock()

    @property
    def total(self) -> int:
        """Connections currently open."""
        return self._total

    def refusal_reason(self, ip: str) -> str | None:
        """Why a new connection from `ip` must be refused before any crypto work, or None.

        Failed logins are not a reason here: the connection may carry a key that
        authenticates (see `lockout_reason`, checked at authentication time).
        """
        shared = self._shared
        total = shared.total() if shared is not None else self._total
        if total >= self._limits.max_connections:
            return "server is full, try again later"
        from_ip = self._live.get(ip, 0)
        if shared is not None:
            from_ip += shared.from_address_elsewhere(ip)
        if from_ip >= self._limits.max_connections_per_ip:
            return "too many connections from your address"
        return None

    def opened(self, ip: str) -> None:
        """Record an accepted connection."""
        self._total += 1
        self._live[ip] += 1
        if self._shared is not None:
            self._shared.opened(ip)

    def closed(self, ip: str) -> None:
        """Record a connection going away (accepted ones only)."""
        self._total = max(0, self._total - 1)
        self._live[ip] -= 1
        if self._live[ip] <= 0:
            del self._live[ip]
        if self._shared is not None:
            self._shared.closed(ip)

    def auth_failed(self, ip: str) -> None:
        """Record a failed login (a connection that tried to authenticate and did not)."""
        limit = self._limits.max_failed_auth_per_ip
        if limit <= 0:
            return
        self._sweep()
        stamps = self._failures.get(ip)
        if stamps is None:
            stamps = self._failures[ip] = deque(maxlen=limit)
        now = self._clock()
        stamps.append(now)
        if self._shared is not None:
            self._shared.failed(ip, now)

    def _recent(self, ip: str) -> list[float]:
        """The newest failures from `ip` inside the window, here and on the other workers,
        oldest first (at most the lockout limit)."""
        self._prune(ip)
        stamps = list(self._failures.get(ip, ()))
        if self._shared is not None:
            horizon = self._clock() - self._limits.failed_auth_window
            stamps = sorted(stamps + self._shared.failures_elsewhere(ip, horizon))
        limit = max(0, self._limits.max_failed_auth_per_ip)
        return stamps[-limit:] if limit else []

    def recent_failures(self, ip: str) -> int:
        """Failures from `ip` inside the counting window (at most the lockout limit)."""
        return len(self._recent(ip))

    def lockout_remaining(self, ip: str) -> float:
        """Seconds until `ip` is no longer locked out; 0.0 when it is not locked out."""
        limit = self._limits.max_failed_auth_per_ip
        stamps = self._recent(ip)
        if limit <= 0 or len(stamps) < limit:
            return 0.0
        # Unlocked once the oldest of the newest `limit` failures leaves the window.
        return max(0.0, stamps[0] + self._limits.failed_auth_window - self._clock())

    def lockout_reason(self, ip: str) -> str | None:
        """The refusal a locked-out address gets, naming the wait; None when not locked."""
        remaining = self.lockout_remaining(ip)
        if remaining <= 0:
            return None
        return f"too many failed logins from your address, try again in {describe_wait(remaining)}"

    def _prune(self, ip: str) -> None:
        stamps = self._failures.get(ip)
        if stamps is None:
            return
        horizon = self._clock() - self._limits.failed_auth_window
        while stamps and stamps[0] <= horizon:
            stamps.popleft()
        if not stamps:
            del self._failures[ip]

    def _sweep(self) -> None:
        """Forget addresses whose failures all expired, at most once per window, so many
        addresses failing once each (an IPv6 prefix) do not grow the table for ever."""
        now = self._clock()
        if now - self._last_sweep < self._limits.failed_auth_window:
            return
        self._last_sweep = now
        for ip in list(self._failures):
            self._prune(ip)
