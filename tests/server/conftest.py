"""Fixtures and the async-test hook for the club server tests (everything on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import inspect
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1], HERE.parent / "net", HERE):  # repo root, the SSH harness, here
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

SERVER_TEST_TIMEOUT = 120.0


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run ``async def`` tests in a fresh event loop with an overall timeout."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    kwargs = {name: pyfuncitem.funcargs[name] for name in names}
    asyncio.run(asyncio.wait_for(pyfuncitem.obj(**kwargs), SERVER_TEST_TIMEOUT))
    return True
