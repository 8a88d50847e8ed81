"""What the remote terminal can do, judged from what its SSH client sent.

The server's own environment says nothing about a remote user's terminal, so the
colour system must come from the pty request's TERM and any COLORTERM/NO_COLOR the
client forwarded (ssh's SendEnv / SetEnv).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

ColorSystem = Literal["truecolor", "256", "standard"]


def pick_color_system(term: str | None, env: Mapping[str, str]) -> ColorSystem:
    """Rich colour system for a client: truecolor if announced, 256 for *-256color, else 16."""
    colorterm = env.get("COLORTERM", "").strip().lower()
    term = (term or env.get("TERM", "")).strip().lower()
    if colorterm in {"truecolor", "24bit"} or term.endswith("-direct"):
        return "truecolor"
    if "256color" in term:
        return "256"
    return "standard"


def wants_no_color(env: Mapping[str, str]) -> bool:
    """True if the client sent a non-empty NO_COLOR (the no-color.org convention)."""
    return bool(env.get("NO_COLOR", ""))
