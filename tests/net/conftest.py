"""Fixtures for the SSH transport tests (``async def`` tests run by tests/conftest.py).

Everything listens on 127.0.0.1 with a free port chosen by the OS.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1], HERE):  # repo root (for `net`), and this dir (harness)
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from ssh_harness import DemoApp, SharedCounter, served_output  # noqa: E402

from net.ssh.session_info import SessionInfo  # noqa: E402


@pytest.fixture(autouse=True)
def _as_served() -> Iterator[None]:
    """Every SSH test draws its frames as ``ecarte serve`` does."""
    with served_output() as failures:
        yield
    assert not failures, f"a served app failed: {failures}"


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
