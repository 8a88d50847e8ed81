"""Files only their owner may read (a host key, a club's restored database): written under a
temporary name, made 0600 from the start (never briefly readable by others), then renamed
into place, so a reader finds the old file or the whole new one."""

from __future__ import annotations

import os
from pathlib import Path


def write_private(path: Path, data: bytes, owner: tuple[int, int] | None = None) -> None:
    """``owner``: (uid, gid) to give the file before it takes its place (root restoring a
    service's files)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if owner is not None:
            os.chown(tmp, *owner)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
