"""The block list and the notice of a club on several machines (one PostgreSQL).

Each machine reads its own files (the operator edits them where he is logged in); each
node publishes its machine's in the club's store and reads every other machine's, so that:

- an entry in the block list of any machine keeps its holder out of the whole club (the
  lists are joined: taking an entry back means taking it out of every file that has it);
- the notice shown everywhere is the one written most recently on any machine (emptying
  or removing the file there takes it back everywhere). A machine that starts without a
  notice file does not take back another's.

A machine is its host name and data directory: workers of one machine share both. Each
says its files again every ``REPEAT_SECONDS``; a machine not heard from for ``STALE_SECONDS``
(taken out of the club, or its data directory moved) no longer counts.
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Callable
from pathlib import Path

from net.club_sync.outage import OutageLog
from net.screens.club_notice import Notice, notice_text
from net.ssh.blocklist import Blocklist, Entries, parse
from net.store.club_files import ClubFiles, MachineFile
from net.store.club_store import Store

log = logging.getLogger(__name__)

BLOCKLIST, NOTICE = "blocklist", "notice"
REPEAT_SECONDS = 600.0
STALE_SECONDS = 86400.0


def machine_name(data_dir: Path) -> str:
    return f"{socket.gethostname()}:{data_dir.resolve()}"


class OperatorFiles:
    """This node's side of the sharing; ``step`` runs each time the files are looked at."""

    def __init__(self, store: Store, machine: str, blocklist: Blocklist,
                 notice: Notice, clock: Callable[[], float] = time.time) -> None:
        self.files = ClubFiles(store)
        self.machine, self.blocklist, self.notice = machine, blocklist, notice
        self.clock = clock
        self._said = -REPEAT_SECONDS  # when this machine's files were last published
        self._sent: dict[str, tuple[str, float]] = {}  # what the store has of this machine's
        self._read: tuple[MachineFile, ...] | None = None  # the other lists last parsed
        self._outage = OutageLog("sharing the block list and the notice", log)

    def step(self) -> tuple[bool, bool]:
        """Publish this machine's files if they are not as last published (whoever read
        them: a login reads the block list too), read every machine's: whether the club's
        block list and its notice changed. While the store is away each machine keeps its
        own list and the last it read of the others."""
        now = self.clock()
        mine = {BLOCKLIST: (self.blocklist.text, self._written(self.blocklist)),
                NOTICE: (self.notice.own, self.notice.written)}
        repeat = now - self._said >= REPEAT_SECONDS  # (still part of the club)
        try:
            for kind, (text, written) in mine.items():
                if repeat or self._sent.get(kind) != (text, written):
                    self.files.publish(kind, self.machine, text, written, now)
                    self._sent[kind] = (text, written)
            if repeat:
                self._said = now
            since = now - STALE_SECONDS
            lists, notices = self.files.of(BLOCKLIST, since), self.files.of(NOTICE, since)
            self._outage.worked()
        except Exception as e:  # the store restarting: again at the next look
            self._outage.failed(e)
            return False, False
        return self._share_lists(lists), self._share_notice(notices)

    def _written(self, blocklist: Blocklist) -> float:
        return blocklist.file.mtime or 0.0

    def _share_lists(self, rows: list[MachineFile]) -> bool:
        others = tuple(r for r in rows if r.machine != self.machine)
        if others == self._read:
            return False  # (not parsed again: a bad line is logged once, not every look)
        self._read = others
        joined = Entries()
        for r in others:
            joined = joined | parse(r.text, f"the block list of {r.machine}")
        return self.blocklist.share(joined)

    def _share_notice(self, rows: list[MachineFile]) -> bool:
        latest = max(rows, key=lambda r: (r.changed, r.machine), default=None)
        if not self.notice.share(text := notice_text(latest.text) if latest else ""):
            return False
        log.info("the club's notice (%s): %s", latest.machine if latest else "no machine",
                 repr(text) if text else "none")
        return True
