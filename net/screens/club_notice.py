"""The operator's word to everyone at the club ("restarting at 22:00 for an upgrade; your
game is kept"): the text of a file he edits while the server runs, shown under the lobby's
title and, when it changes, to every session wherever it is.

The file is the operator's, yet its text is shown on strangers' terminals: it is cleaned as
a chat line is (no escape sequence, no control character, one line) and cut to
``MAX_CHARS``. An empty or missing file says nothing.
"""

from __future__ import annotations

import logging
import time
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
    """The notice in ``path``, kept current (``refresh``). On a club of several machines
    (``shared``) the file is this machine's word only: the text shown is the one most
    recently written on any machine (``share``)."""

    path: Path | None
    text: str = ""  # what the sessions show
    version: int = 0  # counts the changes: each session is told a new text once
    shared: bool = False
    own: str = ""  # the file's text (cleaned), as the other machines read it
    written: float = 0.0  # when the file was written (epoch s); 0: no file at start
    file: WatchedFile = field(init=False)
    _looked: bool = field(init=False, default=False)  # the file was looked at once

    def __post_init__(self) -> None:
        self.file = WatchedFile(self.path, "the notice")

    def refresh(self) -> bool:
        """Read the file again if it changed (a stat otherwise); True if its text changed
        (``shared``: if the file was written or removed)."""
        changed, raw = self.file.read_if_changed()
        if not changed:
            self._looked = True
            return False
        mtime = self.file.mtime
        # a file gone while the server runs was taken back now; none at start is no word
        self.written = (mtime if mtime is not None
                        else time.time() if self._looked else 0.0)
        self._looked = True
        own = notice_text(raw or "")
        if own != self.own:
            self.own = own
            log.info("notice %s: %s", self.path, repr(own) if own else "none")
        if self.shared:  # written again, even as it was, it is the latest: ``share`` shows it
            return True
        return self.share(own)

    def share(self, text: str) -> bool:
        """Show ``text`` (the club's latest notice); True if it changed."""
        if text == self.text:
            return False
        self.text = text
        self.version += 1
        return True
