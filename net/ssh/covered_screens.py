"""A screen hidden under an opaque one is not laid out again until it is shown.

When a new screen is first laid out, Textual resizes every screen under it, and a screen
under the top one that changed makes the top one redraw where it did. A session here keeps
Textual's blank first screen under its one screen (the lobby, a table): each lobby, table
or waiting room a player opened laid out that blank screen and redrew the whole new screen
a second time (449 layouts of it against 354 of the tables in a 40-session bench). A screen
wholly covered has nothing to show; when it comes back, Textual's ScreenResume lays it out
at the size of the moment. Screens under a dialog (which is see-through) are still resized,
unless the size is the one they are laid out at and nothing of theirs waits for a layout.

And a screen's first ScreenResume, which Textual sends every screen it pushes, styles the
whole screen again, just after its widgets were styled as they were mounted: a third of the
cost of opening the club's new-table dialog, a tenth of a table's. A screen that resumes for
the first time is not restyled (later resumes are, as Textual does).
Private API (``Screen._screen_resized``, ``_on_timer_update``, ``_on_screen_resume``),
Textual 8.2.x (pinned).
"""

from __future__ import annotations

from typing import Any

_applied = False


def covered(screen: Any) -> bool:
    """None of ``screen`` can be seen: it is under an opaque screen, or out of the stack (a
    screen popped on the way to another is still told to resume)."""
    stack = screen.app.screen_stack
    if screen not in stack:
        return True
    if screen is stack[-1]:
        return False
    above = stack[stack.index(screen) + 1:]
    return any(s.styles.background.a == 1 for s in above)


def skip_covered_screen_layouts() -> None:
    global _applied
    if _applied:
        return
    from textual.events import ScreenResume
    from textual.geometry import Size
    from textual.screen import Screen

    resized, tick = Screen._screen_resized, Screen._on_timer_update
    resume = Screen._on_screen_resume

    def _screen_resized(self: Screen[Any], size: Size) -> None:
        if covered(self):
            return
        if (self._compositor.size == size and not self._layout_widgets
                and not self._dirty_widgets):
            return  # laid out at this size when it resumed, and nothing changed since
        resized(self, size)

    def _on_timer_update(self: Screen[Any]) -> None:
        # (a screen popped to make way for the next one, for instance, is told to resume
        # and asks for a frame when the next one already covers it)
        if covered(self):
            self._update_timer.pause()  # its pending work waits: ScreenResume asks again
            return
        tick(self)

    def _on_screen_resume(self: Screen[Any], event: Any) -> None:
        # (``_go`` pops a dialog and the lobby under it to show a table: the lobby was told
        # to resume, and restyled, laid out and drew itself on its way out)
        if covered(self):
            return
        if "_ecarte_resumed" not in self.__dict__:  # styled as it was mounted, just now
            self.__dict__["_ecarte_resumed"] = True
            if event.refresh_styles:
                event = ScreenResume(refresh_styles=False)
        resume(self, event)

    Screen._screen_resized = _screen_resized  # type: ignore[method-assign]
    Screen._on_screen_resume = _on_screen_resume  # type: ignore[method-assign]
    Screen._on_timer_update = _on_timer_update  # type: ignore[method-assign]
    _applied = True
