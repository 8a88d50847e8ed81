"""Paths for the club server tests (everything on 127.0.0.1; ``async def`` tests are run by
tests/conftest.py)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1], HERE.parent / "net", HERE):  # repo root, the SSH harness, here
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
