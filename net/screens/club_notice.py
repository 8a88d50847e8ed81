"""The operator's word to everyone at the club ("restarting at 22:00 for an upgrade; your
game is kept"): the text of a file he edits while the server runs, shown under the lobby's
title and, when it changes, to every session wherever it is.

The file is the operator's, yet its text is shown on strangers' terminals: it is cleaned as
a chat line is (no escape sequence, no control character, one line) and cut to
``MAX_CHARS``. An empty or missing file says nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from net.club.clubhouse.talk import clean_line
from net.ssh.watched_file import WatchedFile

log = logging.getLogger(__name__)

MAX_CHARS = 200  # three lines under the lobby's title at 80 columns
TITLE = "From the club"
NOTICE_SECONDS = 12  # how long the toast of a new notice stays (it covers a card at 80x24)


def notice_text(raw: str) -> str:
    text = clean_line(raw)
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 1].rstrip() + "…"


@dataclass
class Notice:
    """The notice in ``path``, kept current (``refresh``)."""

    path: Path | None
    text: str = ""
    version: int = 0  # counts the changes: each session is told a new text once
    file: WatchedFile = field(init=False)

    def __post_init__(self) -> None:
        self.file = WatchedFile(self.path, "the notice")

    def refresh(self) -> bool:
        """Read the file again if it changed (a stat otherwise); True if the text changed."""
        changed, raw = self.file.read_if_changed()
        if not changed:
            return False
        text = notice_text(raw or "")
        if text == self.text:
            return False
        self.text = text
        self.version += 1
        log.info("notice %s: %s", self.path, repr(text) if text else "none")
        return True
