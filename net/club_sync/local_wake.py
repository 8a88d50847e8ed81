"""Processes of one machine sharing a SQLite club wake each other after writing.

PostgreSQL's nodes are woken by NOTIFY; SQLite has nothing like it, so each node read the
store every 20 ms whether anything moved or not: an idle club on two workers spent 48 ms of
CPU a second on it. Here each node binds a Unix datagram socket in a directory of its own
club's (named from the store's path, under the temporary directory: socket paths are short)
and, after writing a step or a change, sends one byte to every other socket there. A node
that gets one reads the store at once and keeps reading it often for a while; otherwise it
reads it twice a second, the safety net for a lost datagram.

Anything that fails here (no Unix sockets, a directory owned by someone else) leaves the
node polling every 20 ms as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import os
import socket
import tempfile
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)
_numbers = itertools.count(1)


def folder_for(store_path: str | Path) -> Path:
    """The folder of the sockets of the club stored at ``store_path`` (short: socket paths
    are limited)."""
    key = hashlib.sha256(str(Path(store_path).resolve()).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"ecarte-wake-{key}"


class LocalWake:
    def __init__(self, sock: socket.socket, folder: Path, path: Path,
                 loop: asyncio.AbstractEventLoop) -> None:
        self._sock, self.folder, self.path, self._loop = sock, folder, path, loop

    @classmethod
    def open(cls, store_path: str, on_wake: Callable[[], None]) -> LocalWake | None:
        """The waker of this process for the club stored at ``store_path``; None where the
        platform or the directory does not allow one."""
        folder = folder_for(store_path)
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            info = folder.stat()
            if info.st_uid != os.getuid() or info.st_mode & 0o077:
                log.warning("not using %s (not this user's alone): polling instead", folder)
                return None
            path = folder / f"{os.getpid()}-{next(_numbers)}"  # (tests run nodes side by side)
            with contextlib.suppress(FileNotFoundError):
                path.unlink()  # a process of the same pid before a restart
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            sock.setblocking(False)
            sock.bind(str(path))
        except (OSError, AttributeError) as error:  # (no AF_UNIX here, a path too long)
            log.warning("no local wake-ups (%s): polling instead", error)
            with contextlib.suppress(OSError):
                folder.rmdir()  # (only if empty: not another process's)
            return None
        loop = asyncio.get_running_loop()
        wake = cls(sock, folder, path, loop)

        def readable() -> None:
            with contextlib.suppress(OSError):
                while sock.recv(64):
                    pass
            on_wake()

        loop.add_reader(sock.fileno(), readable)
        _sweep(folder)
        return wake

    def ping(self) -> None:
        """Tell every other process of this club that the store changed."""
        try:
            entries = list(os.scandir(self.folder))
        except OSError:
            return
        for entry in entries:
            if entry.name == self.path.name:
                continue
            try:
                self._sock.sendto(b"!", entry.path)
            except (ConnectionRefusedError, FileNotFoundError):
                with contextlib.suppress(OSError):  # its process is gone
                    os.unlink(entry.path)
            except OSError:  # its queue is full: it has wake-ups to read already
                pass

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._loop.remove_reader(self._sock.fileno())
        self._sock.close()
        with contextlib.suppress(OSError):
            self.path.unlink()
        with contextlib.suppress(OSError):
            self.folder.rmdir()  # the club's last process: nothing left in it


def _sweep(folder: Path) -> None:
    """Unlink the sockets nobody listens on (their processes were killed and could not), so
    that the folder goes with the club's last process. A connect sends nothing: a live one
    is not woken for it (and a process in another pid namespace counts as live)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as probe:
                try:
                    probe.connect(entry.path)
                except (ConnectionRefusedError, FileNotFoundError):
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
                except OSError:  # (not a socket of ours, not ours to read: left alone)
                    pass
