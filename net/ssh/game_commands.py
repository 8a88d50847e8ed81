"""The only SSH commands the server accepts: ``join CODE`` and ``watch CODE``.

``ssh -t -p 2222 host join KXRT`` sits a player straight down at a table; anything else sent
as a command runs nothing: the client is told which commands there are (there is no shell
behind this server).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNKNOWN_COMMAND = (
    "This server runs no command {command!r}: connect with plain ssh for the lobby, or "
    "ssh -t ... join CODE (or watch CODE) for a table.\r\n"
)

_COMMAND = re.compile(r"^\s*(join|watch)\s+([A-Za-z]{4})\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DirectCommand:
    verb: str  # "join" or "watch"
    code: str  # upper case


def parse_command(text: str | None) -> DirectCommand | None:
    """The command a session was opened with, or None for a plain ``ssh host``."""
    if not text:
        return None
    m = _COMMAND.match(text)
    if m is None:
        return None
    return DirectCommand(m.group(1).lower(), m.group(2).upper())


def allow_command(text: str) -> bool:
    """The transport's exec filter: exactly ``join CODE`` or ``watch CODE``."""
    return parse_command(text) is not None
