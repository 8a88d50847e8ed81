"""``ecarte serve`` as a real subprocess (for kill -9 and restart), on a free loopback port."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import signal
import socket
import sys
from pathlib import Path

from net.club_sync.local_wake import folder_for

REPO = Path(__file__).resolve().parents[2]


def _ephemeral_low() -> int:
    """The first port the kernel hands to outgoing connections and to port-0 listeners."""
    try:
        text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
        return int(text.split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A loopback port free now, below the kernel's ephemeral range: a port from that range
    may be taken, between this look and the server's bind, by any other test's outgoing
    connection (an ssh client, a database) or port-0 listener ("address already in use")."""
    low = _ephemeral_low()
    rng = random.SystemRandom()
    for _ in range(200):
        port = rng.randrange(10000, low) if low > 10100 else 0
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise OSError("no free loopback port below the ephemeral range")


class ServerProcess:
    def __init__(self, data_dir: Path, port: int, *extra: str,
                 default_workers: bool = False) -> None:
        """One process unless ``extra`` asks for workers, or ``default_workers`` leaves the
        number to ``ecarte serve`` (one per core)."""
        self.data_dir = data_dir
        self.port = port
        if not default_workers and not any(a.startswith("--workers") for a in extra):
            extra = ("--workers", "1", *extra)
        self.extra = extra
        self.proc: asyncio.subprocess.Process | None = None
        self.banner = ""

    async def start(self, timeout: float = 20.0) -> str:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ecarte_tui", "serve", "--host", "127.0.0.1",
            "--port", str(self.port), "--data-dir", str(self.data_dir), *self.extra,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
            start_new_session=True,  # its own process group: workers included, see _end_group
        )
        assert self.proc.stdout is not None
        lines = []
        try:
            async with asyncio.timeout(timeout):
                while True:
                    line = (await self.proc.stdout.readline()).decode()
                    if not line:
                        raise AssertionError("the server exited:\n" + "".join(lines))
                    lines.append(line)
                    if line.startswith("data:"):
                        break
                # a restored-tables line follows the banner when there are some
                try:
                    async with asyncio.timeout(0.3):
                        lines.append((await self.proc.stdout.readline()).decode())
                except TimeoutError:
                    pass
        except BaseException:
            self._end_group()  # a server that never said it was ready is not left running
            raise
        self.banner = "".join(lines)
        return self.banner

    def _end_group(self) -> None:
        """kill -9 of the server's process group: its workers too, whatever state they are in;
        the wake-up sockets such a kill leaves (net/club_sync/local_wake.py) go too."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        shutil.rmtree(folder_for(self.data_dir / "club.db"), ignore_errors=True)

    def kill(self) -> None:
        """kill -9: no chance to save anything more."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        assert self.proc is not None
        return await self.proc.wait()

    async def stop(self) -> int:
        if self.proc is None or self.proc.returncode is not None:
            self._end_group()  # (a supervisor killed by the test may leave workers)
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(10):
                return await self.proc.wait()
        except TimeoutError:
            self.proc.kill()
            return await self.proc.wait()
        finally:
            self._end_group()  # (a supervisor stops its workers; anything left goes too)
