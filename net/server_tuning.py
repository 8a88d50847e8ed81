"""Process-wide settings for a server that runs hundreds of Textual apps in one process.

Measured with ``ecarte bench ssh`` (50 sessions, this 2-core machine):

- Textual gives every ``Strip`` (one line of a widget) seven small caches of its own, made
  when the strip is made. A table screen keeps about 1,500 strips alive, so each session
  held ~10,000 cache objects (1.7 MB of its 5.5 MB) and a garbage collection had twice the
  objects to walk. With the caches off a redraw was faster, not slower (19 against 22 ms
  for a move seen by two players): a served screen's lines change on every move, so making
  the caches cost more than they saved.
- Python's cyclic garbage collector stopped the whole server for a full collection every few
  seconds, over a second each with 50 sessions (p99 1.3 s). Textual makes cyclic garbage on
  every redraw; a larger first generation lets it die young instead of being promoted, and
  what was loaded at start-up is frozen out of collections: p99 ~170 ms. The price: garbage
  waits longer (more memory per session), and a full collection still comes now and then
  (about 1.5 s with 50 sessions) — the limit of one Python process, see net/bench.py.
  ``ECARTE_GC_THRESHOLDS=a,b,c`` overrides the thresholds for experiments.

Only ``ecarte serve`` (and the benchmark's server) calls these; a local game is unchanged.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from typing import Any

GC_THRESHOLDS = (10_000, 5, 100)


class _NoCache:
    """Stands in for each of a Strip's caches: never holds anything."""

    __slots__ = ()

    def get(self, key: object, default: Any = None) -> Any:
        return default

    def set(self, key: object, value: object) -> None:
        return None

    __setitem__ = set

    def __contains__(self, key: object) -> bool:
        return False

    def __len__(self) -> int:
        return 0

    def __bool__(self) -> bool:
        return False

    def clear(self) -> None:
        return None

    def keys(self) -> Iterable[object]:
        return ()


_NO_CACHE = _NoCache()
_applied = False


def lighten_strips() -> None:
    """Make new Textual strips share one empty stand-in instead of seven caches each."""
    global _applied
    if _applied:
        return
    from textual.strip import Strip

    def __init__(self: Strip, segments: Iterable[Any], cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._divide_cache = self._crop_cache = self._style_cache = _NO_CACHE  # type: ignore[assignment]
        self._filter_cache = self._line_length_cache = _NO_CACHE  # type: ignore[assignment]
        self._crop_extend_cache = self._offsets_cache = _NO_CACHE  # type: ignore[assignment]
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    Strip.__init__ = __init__  # type: ignore[method-assign]
    _applied = True


def tune_garbage_collector() -> None:
    """Call once the server has started: everything loaded so far is kept out of collections."""
    gc.collect()
    gc.freeze()
    import os

    wanted = os.environ.get("ECARTE_GC_THRESHOLDS")
    thresholds = tuple(int(x) for x in wanted.split(",")) if wanted else GC_THRESHOLDS
    gc.set_threshold(*thresholds)


def tune_for_server() -> None:
    lighten_strips()
    tune_garbage_collector()
