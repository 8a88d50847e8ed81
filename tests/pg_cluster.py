"""A throw-away PostgreSQL cluster for the tests: ``initdb`` and ``pg_ctl`` of Debian's
package under a temporary directory, listening on a Unix socket only.

``.ci/run`` starts one (``python tests/pg_cluster.py start DIR``) and exports its URL
as ``ECARTE_TEST_POSTGRES``; without it, the test session starts its own when PostgreSQL is
installed. Each test gets a database of its own (``fresh_database``).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import uuid
from pathlib import Path


def pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(cmd: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run it as the ``postgres`` user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


def start(base: Path, port: int = 54329) -> str:
    """Create and start a cluster in ``base``; returns its URL."""
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    if not initdb or not pg_ctl:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    base.mkdir(parents=True, exist_ok=True)
    data = base / "data"
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    subprocess.run(_as_owner([initdb, "-D", str(data), "-U", "postgres", "--auth=trust",
                              "-E", "UTF8", "--no-instructions"]),
                   check=True, stdout=subprocess.DEVNULL)
    restart(base, port)
    return f"postgresql://postgres@/postgres?host={base}&port={port}"


def restart(base: Path, port: int) -> None:
    """Start the cluster made in ``base`` (again, after ``stop``)."""
    pg_ctl = pg_bin("pg_ctl")
    assert pg_ctl is not None
    opts = (f"-k {base} -p {port} -c listen_addresses='' -c fsync=off "
            "-c max_connections=300 -c shared_buffers=32MB")
    subprocess.run(_as_owner([pg_ctl, "-D", str(base / "data"), "-o", opts, "-l",
                              str(base / "log"), "-w", "start"]),
                   check=True, stdout=subprocess.DEVNULL)


def stop(base: Path, mode: str = "immediate") -> None:
    """``immediate`` as a crash; ``fast`` as an administrator's restart (each session is
    told it is ended)."""
    pg_ctl = pg_bin("pg_ctl")
    if pg_ctl and (base / "data").exists():
        subprocess.run(_as_owner([pg_ctl, "-D", str(base / "data"), "-m", mode, "stop"]),
                       check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def fresh_database(url: str) -> str:
    """A new empty database on the cluster at ``url``; returns its URL."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return url.replace("@/postgres?", f"@/{name}?")


if __name__ == "__main__":
    verb, where = sys.argv[1], Path(sys.argv[2])
    if verb == "start":
        print(start(where, int(sys.argv[3]) if len(sys.argv) > 3 else free_port()))
    else:
        stop(where)
