"""Who is on the other end of an SSH session, as handed to the app factory."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SessionInfo:
    """Facts about one session, known before its app is created."""

    username: str
    """Name the client logged in as (free text: anyone can pick any name)."""
    key_fingerprint: str | None
    """'SHA256:...' of the public key that authenticated, or None for a guest."""
    peer_ip: str
    """Client address as seen by the server."""
    term_type: str | None
    """TERM from the pty request."""
    size: tuple[int, int]
    """Initial (columns, rows) as served to the app (after clamping)."""
    command: str | None = None
    """Exec command the client asked for (e.g. 'join ABCD'), None for a plain shell."""

    @property
    def is_guest(self) -> bool:
        """True when no key proves who this is."""
        return self.key_fingerprint is None
