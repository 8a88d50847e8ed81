"""A layout leaves nothing for the garbage collector.

Textual's ``Compositor._arrange_root`` places the widgets with a nested function that calls
itself: the function holds its own closure cell, a reference cycle, and through its cells
the map it built, the set of widgets and every region, size and geometry in them. The map
is the compositor's until the next layout; then the whole of it waits for the collector
instead of going at once. On a busy server that was two thirds of the objects the
collector freed (a 60-session bench: 2,630 a second, 970 with this change), and freeing
them is most of what a collection's pause costs (a young collection at 100 sessions took
100-160 ms for 10,000-25,000 objects).

The change deletes the nested function's name once the root is placed, which breaks the
cycle: the same function, compiled from Textual's own source with that one line added.
Private API, Textual 8.2.x (pinned): if the source is not the one expected, nothing is
changed (``break_layout_cycles`` says so and the test suite fails).
"""

from __future__ import annotations

import inspect
import textwrap

_applied = False
textual_arrange_root: object = None
"""Textual's own, kept while the change is installed (tests compare the two)."""

_ANCHOR = "    widgets -= invisible_widgets\n    return map, widgets\n"
_CHANGE = "    del add_widget  # the closure held itself: a cycle for every layout\n"


def break_layout_cycles() -> bool:
    """Install the cycle-free ``_arrange_root``; False if Textual's source differs."""
    global _applied, textual_arrange_root
    if _applied:
        return True
    from textual import _compositor

    original = _compositor.Compositor._arrange_root
    try:
        lines, first = inspect.getsourcelines(original)
    except (OSError, TypeError):  # installed without its source: left as it is
        return False
    source = textwrap.dedent("".join(lines))
    if source.count(_ANCHOR) != 1 or "add_widget" not in original.__code__.co_cellvars:
        return False
    source = source.replace(_ANCHOR, _CHANGE + _ANCHOR)
    # blank lines first, so that a traceback names the right line of Textual's file
    code = compile("\n" * (first - 1) + source, _compositor.__file__, "exec")
    made: dict[str, object] = {}
    exec(code, vars(_compositor), made)  # noqa: S102 - Textual's own source, one line added
    arrange = made["_arrange_root"]
    arrange.__qualname__ = original.__qualname__  # type: ignore[attr-defined]
    arrange.__doc__ = original.__doc__  # type: ignore[attr-defined]
    textual_arrange_root = original
    _compositor.Compositor._arrange_root = arrange  # type: ignore[method-assign]
    _applied = True
    return True
