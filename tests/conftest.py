"""The hook that runs ``async def`` tests (the SSH and server tests): no plugin needed."""

from __future__ import annotations

import asyncio
import inspect
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# Compiled modules are cached even where the environment turns that off
# (PYTHONDONTWRITEBYTECODE, set in many container images): otherwise each xdist worker
# compiles and assertion-rewrites every test module and the whole project again (measured
# here: collecting took 10.3 s of CPU per worker, 3.1 s cached), and so does every server
# the tests start as a subprocess. Set here, before the workers start and before any test
# module is imported; the caches go to __pycache__ (ignored by git) as usual.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

ASYNC_TEST_TIMEOUT = 300.0  # a safety net for a test that hangs, not a speed check (a busy
# machine makes the longest, about 40 s alone, several times slower)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than there are cores. The SSH and server tests spend much
    of their time waiting (for a screen to hold still, a bot's delay, a subprocess), so with
    one worker a core the cores are half idle (measured on 2 cores: the server games took
    194 s with 2 workers, 155 s with 3, the same CPU). PYTEST_XDIST_AUTO_NUM_WORKERS still
    decides when set (xdist's own hook reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's hook
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


WAITING = ("tests/server/", "tests/net/", "tests/e2e/")
"""Tests that mostly wait (on sockets, subprocesses, a bot's delay): SSH games of 5-45 s."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that wait spread among the tests that compute, from the start: ``--dist load``
    hands tests out in this order as workers free up, so a core left idle by a waiting test
    has a computing one to run, and no 40 s game is left to start at the end."""
    waiting = [i for i in items if i.nodeid.startswith(WAITING)]
    computing = [i for i in items if not i.nodeid.startswith(WAITING)]
    if not waiting or not computing:
        return
    # the waiting tests go out over the first two thirds of the run, evenly
    step = max(1.0, (len(computing) * 2 / 3) / len(waiting))
    order: list[pytest.Item] = []
    c = 0.0
    for item in waiting:
        take = int(c + step) - int(c)
        order += computing[:take]
        del computing[:take]
        c += step
        order.append(item)
    items[:] = order + computing


def pytest_collection_finish(session: pytest.Session) -> None:
    """The server's garbage-collector tuning (``net.ssh.server_tuning``), for the same reason:
    Textual makes cyclic garbage on every redraw, and with Python's default thresholds the
    full collections over everything imported took about a quarter of the suite's CPU
    (measured: 68 s of CPU for the pool and gallery tests by default, 50 s tuned). The
    served apps the tests run in-process then collect as they do in ``ecarte serve``. Tests
    of leaks and memory call ``gc.collect()`` themselves."""
    from net.ssh.server_tuning import tune_garbage_collector

    tune_garbage_collector()


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run ``async def`` tests in a fresh event loop with an overall timeout."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    kwargs = {name: pyfuncitem.funcargs[name] for name in names}
    asyncio.run(asyncio.wait_for(pyfuncitem.obj(**kwargs), ASYNC_TEST_TIMEOUT))
    return True


RUN_DIR = "ECARTE_TEST_RUN_DIR"
"""A directory for the whole test run, made by the controlling process before the xdist
workers start (they inherit the variable): the PostgreSQL cluster lives there, shared."""


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and RUN_DIR not in os.environ:
        path = tempfile.mkdtemp(prefix="ecarte-tests-")
        os.chmod(path, 0o755)  # PostgreSQL runs as its own user below it
        os.environ[RUN_DIR] = path
        config.stash[_run_dir_key] = Path(path)


def pytest_unconfigure(config: pytest.Config) -> None:
    """The controlling process, once every worker is done: the shared cluster stops and its
    directory is removed by a detached ``rm``. Each test's database leaves ~300 files there
    (~30,000 a run): unlinking them took the run 3 s quiet and ~30 s with the cores busy,
    after the summary was printed."""
    run_dir = config.stash.get(_run_dir_key, None)
    if run_dir is not None:
        import pg_cluster

        pg_cluster.stop(run_dir / "pg")
        try:
            subprocess.Popen(["rm", "-rf", "--", str(run_dir)], start_new_session=True,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        except OSError:
            shutil.rmtree(run_dir, ignore_errors=True)
        os.environ.pop(RUN_DIR, None)


_run_dir_key = pytest.StashKey[Path]()


@pytest.fixture(scope="session")
def postgres_cluster() -> str:
    """The URL of a PostgreSQL cluster: ``.ci/run``'s (``ECARTE_TEST_POSTGRES``), else one
    started by the first worker that needs it and shared by all (a file lock in the run's
    directory; an initdb and start cost about 3 s each). Without PostgreSQL installed the
    tests that need it are skipped, except where ``ECARTE_REQUIRE_SERVICES=1`` (CI) makes
    that a failure."""
    url = os.environ.get("ECARTE_TEST_POSTGRES")
    if url:
        return url
    import fcntl

    import pg_cluster

    if pg_cluster.pg_bin("initdb") is None:
        if os.environ.get("ECARTE_REQUIRE_SERVICES") == "1":
            pytest.fail("PostgreSQL is required here (apt-get install postgresql)")
        pytest.skip("PostgreSQL is not installed")
    run_dir = Path(os.environ[RUN_DIR])
    with open(run_dir / "pg.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        known = run_dir / "pg.url"
        if not known.exists():
            known.write_text(pg_cluster.start(run_dir / "pg", pg_cluster.free_port()))
        return known.read_text()


@pytest.fixture
def postgres_url(postgres_cluster: str) -> str:
    """A database of its own for one test."""
    import pg_cluster

    return pg_cluster.fresh_database(postgres_cluster)


@pytest.fixture(params=["sqlite", "postgresql"])
def club_db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a store or ledger lives: an SQLite file, or a database on a real PostgreSQL
    (net/postgres.py); tests using it run on both."""
    if request.param == "sqlite":
        return tmp_path / "club.db"
    return str(request.getfixturevalue("postgres_url"))
