"""What a session does while the club's database is away (restarting, down): the player is
told and the session goes on; the store's connection comes back by itself
(``net.store.postgres.PgConnection``)."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from typing import Any, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

STORE_DOWN = ("The club cannot reach its records just now, so that was not done: "
              "try again in a moment.")
FAREWELL_STORE_DOWN = ("The club cannot reach its records just now (its database is "
                       "restarting or down): try again in a minute.\r\n")


def say_store_down(where: Notifies) -> None:
    """The player's toast for a step the store could not take (the session goes on)."""
    where.notify(STORE_DOWN, severity="error", timeout=8)


class Notifies(Protocol):
    def notify(self, message: str, *, severity: Any = ..., timeout: float | None = ...
               ) -> None: ...


class TellsPlayer(Protocol):
    def store_unreachable(self, error: Exception) -> None: ...


def store_guarded(failed: Any = None) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A session's step that reads or writes the store: while the database is away it
    tells the player so (``store_unreachable`` of its first argument) and returns
    ``failed``. An outage fails a step at its first statement, before anything changed."""
    def wrap(method: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(method)
        def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(*args, **kwargs)
            except sqlite3.OperationalError as e:
                owner: TellsPlayer = args[0]  # type: ignore[assignment]
                owner.store_unreachable(e)
                return failed  # type: ignore[no-any-return]
        return guarded
    return wrap
