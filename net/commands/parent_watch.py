"""A worker goes when its supervisor goes.

A supervisor killed with -9 (or stopped by something that gave up waiting on it) cannot stop
its workers: they went on serving on the club's port, where a club started again would share
the connections with them. On Linux the kernel sends the worker SIGTERM when its parent dies
(``PR_SET_PDEATHSIG``), which stops it as the supervisor would have; a worker whose
supervisor was already gone when it started stops at once.

Its output went to the supervisor (a pipe), so it now writes into nothing: the first line it
printed on the way out ("shutting down…") raised BrokenPipeError and cut its stop short (no
farewell to its players, its leases and its place in the club left to lapse). It writes to
/dev/null instead (``mute_if_orphaned``).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

SUPERVISOR_ENV = "ECARTE_SUPERVISOR_PID"
_PR_SET_PDEATHSIG = 1


def supervisor_env() -> dict[str, str]:
    """The environment a worker is started with: the supervisor's pid in it."""
    return {**os.environ, SUPERVISOR_ENV: str(os.getpid())}


def stop_with_supervisor() -> bool:
    """In a worker: ask for SIGTERM when the supervisor dies. False if the supervisor is
    gone already (the caller stops); True otherwise, or when not a supervised worker or not
    on Linux (nothing to do)."""
    wanted = os.environ.get(SUPERVISOR_ENV)
    if not wanted or not sys.platform.startswith("linux"):
        return True
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    return str(os.getppid()) == wanted


def mute_if_orphaned() -> None:
    """In a worker whose supervisor is gone: what it prints or logs from now on goes to
    /dev/null, not into a pipe with nobody at the other end (each write would raise)."""
    wanted = os.environ.get(SUPERVISOR_ENV)
    if not wanted or str(os.getppid()) == wanted:
        return
    with contextlib.suppress(OSError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.dup2(null, sys.stderr.fileno())
        os.close(null)
