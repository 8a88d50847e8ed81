"""A file the operator edits while the server runs (the block list, the notice): looked at
with one ``stat`` each time, read only when its time or size changed."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)


@dataclass
class WatchedFile:
    path: Path | None
    what: str  # for the log: "the block list"
    _seen: tuple[float, int] | None = None  # the file's mtime and size when last read

    @property
    def mtime(self) -> float | None:
        """When the file last read was written (None: no file when last looked at)."""
        return self._seen[0] if self._seen is not None else None

    def read_if_changed(self) -> tuple[bool, str | None]:
        """(changed, its text): the text is None while the file does not exist, and when it
        did not change or could not be read (then ``changed`` is False)."""
        if self.path is None:
            return False, None
        try:
            st = self.path.stat()
            seen: tuple[float, int] | None = (st.st_mtime, st.st_size)
        except FileNotFoundError:
            seen = None
        except OSError as e:
            log.warning("cannot read %s %s: %s", self.what, self.path, e)
            return False, None
        if seen == self._seen:
            return False, None
        if seen is None:
            self._seen = None
            return True, None
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            log.warning("cannot read %s %s: %s", self.what, self.path, e)
            return False, None
        self._seen = seen
        return True, text
