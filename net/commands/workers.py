"""``ecarte serve --workers N``: N worker processes on one port, and a supervisor over them.

Each worker is an ordinary ``ecarte serve --shared`` accepting on the same port
(SO_REUSEPORT: the kernel spreads new connections among them); they share the club through
the store (net/club_sync). The supervisor prepares what must exist once (the host key, the
schema), starts the workers, restarts one that dies (its players reconnect to a live one,
same key, same seat), stops them all on SIGINT/SIGTERM, and passes SIGUSR1 on (each
worker then prints how busy it is).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys
import time
from pathlib import Path

from net.ssh import shared_counts

LISTENING = "Écarté club listening on"  # a worker's banner's first line (serve.py)
COUNTS_FILE = "connections.counts"  # the workers' shared connection counts, in the data dir
RESTART_DELAY = 0.5  # seconds before a dead worker is started again (doubling, up to 30)


def worker_argv(argv: list[str]) -> list[str]:
    """The supervisor's own arguments for a worker: one process (``--workers 1``), with
    ``--shared`` and ``--reuse-port``."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == "--workers":
            skip = True
            continue
        if a.startswith("--workers="):
            continue
        out.append(a)
    return [*out, "--workers", "1", "--shared", "--reuse-port"]


class Worker:
    def __init__(self, number: int, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.number, self.argv = number, argv
        self.env = env or {}  # what this worker alone is told (its row of the counts)
        self.proc: asyncio.subprocess.Process | None = None
        self.banner: asyncio.Future[list[str]] | None = None
        self.restarts = 0

    async def start(self) -> None:
        from net.commands.parent_watch import supervisor_env

        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "ecarte_tui", *self.argv,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            env={**supervisor_env(), **self.env})
        self.banner = asyncio.get_running_loop().create_future()
        asyncio.create_task(self._relay(self.proc, self.banner))

    async def _relay(self, proc: asyncio.subprocess.Process,
                     banner: asyncio.Future[list[str]]) -> None:
        """The worker's output, prefixed; its banner (up to the ``data:`` line) kept."""
        assert proc.stdout is not None
        lines: list[str] = []
        while line := (await proc.stdout.readline()).decode(errors="replace"):
            if not banner.done():
                lines.append(line)
                if line.startswith("data:"):
                    banner.set_result(lines)
                continue
            print(f"[worker {self.number}] {line}", end="", flush=True)
        if not banner.done():
            banner.set_result(lines)


def banner_start(lines: list[str]) -> int:
    """Where a worker's banner begins among the lines it wrote before its ``data:`` line."""
    return next((i for i, line in enumerate(lines) if line.startswith(LISTENING)), 0)


def port_in_use(host: str, port: int) -> str | None:
    """Why the port cannot be ours, or None. The workers bind with SO_REUSEPORT, which lets
    them share the port with any other process that does, such as another club's workers:
    half the players would reach a club that is not this one. So the supervisor first binds
    it alone, as nobody else may while something listens there."""
    try:
        addresses = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        return str(e)
    for family, kind, proto, _name, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            # a stopped server's connections in TIME_WAIT must not count
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as e:
                return e.strerror or str(e)
    return None


async def supervise(n: int, data_dir: Path, argv: list[str], store: str | None = None) -> int:
    from net.ssh.host_key import load_or_create_host_key
    from net.store.club_store import Store

    counts = data_dir / COUNTS_FILE
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        load_or_create_host_key(data_dir)  # once, before the workers would race to create it
        key = shared_counts.create(counts, n)
    except OSError as e:
        print(f"ecarte serve: cannot use the data directory {data_dir}: {e.strerror or e}",
              file=sys.stderr)
        return 1
    try:
        Store(store or data_dir / "club.db").close()  # the schema, upgraded once
    except Exception as e:  # as a worker would say it (serve.py), before starting any
        print(f"ecarte serve: cannot open the club's store {store or data_dir / 'club.db'}: "
              f"{e}".rstrip(), file=sys.stderr)
        return 1
    workers = [Worker(i + 1, worker_argv(argv), shared_counts.worker_env(counts, n, i, key))
               for i in range(n)]
    for w in workers:
        await w.start()
    banners = [await w.banner for w in workers if w.banner is not None]
    if any(not b or not b[-1].startswith("data:") for b in banners):
        print("ecarte serve: a worker did not start:\n" + "".join(sum(banners, [])),
              file=sys.stderr)
        for w in workers:
            if w.proc is not None and w.proc.returncode is None:
                w.proc.terminate()
        return 1
    for w, lines in zip(workers, banners, strict=True):
        for line in lines[:banner_start(lines)]:  # logged before it (--log-level INFO, DEBUG)
            print(f"[worker {w.number}] {line}", end="", flush=True)
    first = banners[0][banner_start(banners[0]):]
    head = [line for line in first if not line.startswith("restored")]
    print("".join(head[:1]).rstrip() + f" ({n} workers, pids "
          f"{', '.join(str(w.proc.pid) for w in workers if w.proc)})", flush=True)
    print("".join(head[1:]), end="", flush=True)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    with contextlib.suppress(NotImplementedError, AttributeError):  # each says how busy it is
        loop.add_signal_handler(signal.SIGUSR1, lambda: _signal_workers(workers, signal.SIGUSR1))
    target = store or data_dir / "club.db"
    watchers = {asyncio.create_task(_keep_alive(w, stop, target)) for w in workers}
    await stop.wait()
    print("shutting down…", flush=True)
    for w in workers:
        if w.proc is not None and w.proc.returncode is None:
            w.proc.terminate()
    for w in workers:
        if w.proc is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(10):
                    await w.proc.wait()
            if w.proc.returncode is None:
                w.proc.kill()
    for t in watchers:
        t.cancel()
    return 0


def _signal_workers(workers: list[Worker], sig: signal.Signals) -> None:
    for w in workers:
        if w.proc is not None and w.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                w.proc.send_signal(sig)


def forget_dead_worker(target: Path | str, pid: int) -> None:
    """A worker that died without stopping (kill -9, a crash) is out of the club at once:
    its tables' leases go to the live workers now rather than when they lapse, its seated
    players are away, and its sessions are no longer counted in ``ecarte status`` and the
    lobbies' "who is here" (they were for up to 90 s; its line stays, for ``ecarte status``
    to say it stopped without saying so). Its node name is host:pid, as every worker's
    (``node_name``); the supervisor saw it exit, so nothing can still use them."""
    from net.club_sync.sync_store import SyncStore
    from net.store.club_store import Store
    from net.store.serving import Serving

    node = f"{socket.gethostname()}:{pid}"
    store = Store(target)
    try:
        SyncStore(store).release(node)
        Serving(store).died(node)
    finally:
        store.close()


async def _keep_alive(w: Worker, stop: asyncio.Event, target: Path | str) -> None:
    """Start the worker again whenever it dies (unless the club is stopping)."""
    delay = RESTART_DELAY
    while not stop.is_set():
        assert w.proc is not None
        started = time.monotonic()
        code = await w.proc.wait()
        if stop.is_set():
            return
        try:
            await asyncio.to_thread(forget_dead_worker, target, w.proc.pid)
        except Exception as e:  # (the store away: its rows lapse by themselves)
            print(f"worker {w.number}'s place in the club was not given back: {e}",
                  file=sys.stderr, flush=True)
        print(f"worker {w.number} (pid {w.proc.pid}) exited with {code}: starting it again",
              file=sys.stderr, flush=True)
        if time.monotonic() - started > 60:
            delay = RESTART_DELAY  # it had been running well: no back-off
        await asyncio.sleep(delay)
        delay = min(30.0, delay * 2)
        await w.start()
        w.restarts += 1
