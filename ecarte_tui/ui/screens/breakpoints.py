"""A screen that starts with the breakpoint classes of the terminal it is about to fill.

Textual gives a screen its breakpoint classes (``-short``, ``-wide``…) on the screen's first
resize, after its widgets were styled: the change of class styles the whole screen again
(a third of the cost of opening the club's new-table dialog). Classes set before the screen
is mounted are already right at that first resize, so nothing is styled twice.
"""

from __future__ import annotations

from textual._context import NoActiveAppError
from textual.app import App
from textual.screen import Screen

Breakpoints = list[tuple[int, str]]


def breakpoint_classes(size: int, breakpoints: Breakpoints) -> dict[str, bool]:
    """Each class of ``breakpoints`` and whether it holds at ``size`` (the widest that fits)."""
    chosen = max((b for b in breakpoints if size >= b[0]), default=None)
    return {name: (at, name) == chosen for at, name in breakpoints}


def start_with_breakpoints(screen: Screen[object]) -> None:
    """Give ``screen`` (not yet mounted) the classes its first resize would give it; a
    screen made outside a running app is left to that resize."""
    try:
        app: App[object] = screen.app
    except NoActiveAppError:
        return
    width, height = app.size
    horizontal = (screen.HORIZONTAL_BREAKPOINTS if screen.HORIZONTAL_BREAKPOINTS is not None
                  else app.HORIZONTAL_BREAKPOINTS) or []
    vertical = (screen.VERTICAL_BREAKPOINTS if screen.VERTICAL_BREAKPOINTS is not None
                else app.VERTICAL_BREAKPOINTS) or []
    classes = breakpoint_classes(width, horizontal) | breakpoint_classes(height, vertical)
    screen.update_classes(classes, update=False)
