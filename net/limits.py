"""Resource limits for served sessions, and the small trackers that enforce them.

Everything here is plain bookkeeping with an injectable clock so the rules can be
tested without sleeping.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass

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
    max_failed_auth_per_ip: int = 10
    """Connections that end unauthenticated, per peer address, within the window below."""
    failed_auth_window: float = 300.0
    """Seconds over which failed authentications are counted."""
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


class ConnectionTracker:
    """Counts live connections and recent auth failures per peer address."""

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        self._limits = limits
        self._clock = clock
        self._live: dict[str, int] = defaultdict(int)
        self._total = 0
        self._failures: dict[str, deque[float]] = defaultdict(deque)

    @property
    def total(self) -> int:
        """Connections currently open."""
        return self._total

    def refusal_reason(self, ip: str) -> str | None:
        """Why a new connection from `ip` must be refused, or None to accept it."""
        if self._total >= self._limits.max_connections:
            return "server is full, try again later"
        if self._live.get(ip, 0) >= self._limits.max_connections_per_ip:
            return "too many connections from your address"
        if self.recent_failures(ip) >= self._limits.max_failed_auth_per_ip:
            return "too many failed logins from your address, try again later"
        return None

    def opened(self, ip: str) -> None:
        """Record an accepted connection."""
        self._total += 1
        self._live[ip] += 1

    def closed(self, ip: str) -> None:
        """Record a connection going away (accepted ones only)."""
        self._total = max(0, self._total - 1)
        self._live[ip] -= 1
        if self._live[ip] <= 0:
            del self._live[ip]

    def auth_failed(self, ip: str) -> None:
        """Record a connection that ended without authenticating."""
        self._failures[ip].append(self._clock())
        self._prune(ip)

    def recent_failures(self, ip: str) -> int:
        """Failures from `ip` inside the counting window."""
        self._prune(ip)
        return len(self._failures.get(ip, ()))

    def _prune(self, ip: str) -> None:
        stamps = self._failures.get(ip)
        if stamps is None:
            return
        horizon = self._clock() - self._limits.failed_auth_window
        while stamps and stamps[0] < horizon:
            stamps.popleft()
        if not stamps:
            del self._failures[ip]
