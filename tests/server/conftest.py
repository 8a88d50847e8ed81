"""Paths for the club server tests (everything on 127.0.0.1; ``async def`` tests are run by
tests/conftest.py), and frames drawn as ``ecarte serve`` draws them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1], HERE.parent / "net", HERE):  # repo root, the SSH harness, here
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from ssh_harness import served_output  # noqa: E402


@pytest.fixture(autouse=True)
def _as_served() -> Iterator[None]:
    """Every server test draws its frames as ``ecarte serve`` does (the hidden-card scans
    read the bytes a real server sends)."""
    with served_output() as failures:
        yield
    assert not failures, f"a served app failed: {failures}"
