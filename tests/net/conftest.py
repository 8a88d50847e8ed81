"""Fixtures and the async-test hook for the SSH transport tests.

Async tests are plain `async def` functions run by the hook below (no plugin needed).
Everything listens on 127.0.0.1 with a free port chosen by the OS.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1], HERE):  # repo root (for `net`), and this dir (harness)
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from ssh_harness import DemoApp, SharedCounter  # noqa: E402

from net.session_info import SessionInfo  # noqa: E402

ASYNC_TEST_TIMEOUT = 45.0


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop with an overall timeout."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    kwargs = {name: pyfuncitem.funcargs[name] for name in names}
    asyncio.run(asyncio.wait_for(pyfuncitem.obj(**kwargs), ASYNC_TEST_TIMEOUT))
    return True


@pytest.fixture
def counter() -> SharedCounter:
    return SharedCounter()


@pytest.fixture
def demo_factory(counter: SharedCounter) -> Callable[[SessionInfo], DemoApp]:
    apps: list[DemoApp] = []

    def factory(info: SessionInfo) -> DemoApp:
        app = DemoApp(info, counter)
        apps.append(app)
        return app

    factory.apps = apps  # type: ignore[attr-defined]
    return factory
