"""The server's event loop keeps ordinary (lazy) tasks, whatever a served app asks.

Textual 8.2's ``App.run_async`` sets the running loop's task factory to
``asyncio.eager_task_factory`` on Python 3.12 and newer, so every task created afterwards
starts running inside ``create_task``. A served app shares its loop with asyncssh and the
other sessions, and asyncssh is not written for eager tasks: once the first session's app
had started, the next client's authentication stopped after its first request (the
server never answered it), and every later login timed out. Seen on 3.12 and 3.13 only,
the versions that have eager tasks; the suite runs on 3.11. The server's loop therefore
ignores requests to change its task factory: tasks stay lazy, as asyncssh expects.
"""

from __future__ import annotations

import asyncio
from typing import Any


def keep_lazy_tasks(loop: asyncio.AbstractEventLoop | None = None) -> None:
    """From now on ``loop`` (the running one by default) keeps the default task factory."""
    loop = loop or asyncio.get_running_loop()
    if getattr(loop, "_keeps_lazy_tasks", False):
        return
    loop.set_task_factory(None)

    def set_task_factory(factory: Any) -> None:
        return None  # (a served app's request: see the module's docstring)

    loop.set_task_factory = set_task_factory  # type: ignore[method-assign]
    loop._keeps_lazy_tasks = True  # type: ignore[attr-defined]
