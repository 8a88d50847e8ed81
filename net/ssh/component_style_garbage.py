"""The styles of a widget's component classes go as soon as they are replaced.

Textual resolves a component class (``datatable--cursor``, ``select--option``...) on a
throw-away ``DOMNode`` whose two ``Styles`` hold it back: a reference cycle of some forty
objects per class, made again every time the widget is restyled (mounted, focused, its
screen resumed or resized) and left for the garbage collector. Opening the club's dialogs
and lobby made hundreds of them per table and match, a large share of what a middle-
generation collection had to free while every player of the process waited.

Once Textual has put new ones in place, the replaced ones are cut from their node (and
those of a widget that is removed, after it is), so they are freed at once. Nothing can
ask them for a style any more: Textual reads a component's styles from the widget's
current set only. Private API (``Stylesheet._process_component_classes``,
``Widget._message_loop_exit``, ``Styles.node``), Textual 8.2.x (pinned).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

_applied = False
textual_process: Any = None
"""Textual's own ``_process_component_classes``, kept while the change is installed."""


def release(styles: Iterable[Any]) -> None:
    """Cut each RenderStyles' two Styles from their node: no cycle is left."""
    for render_styles in styles:
        render_styles._base_styles.node = None
        render_styles._inline_styles.node = None


def free_component_styles_at_once() -> None:
    global _applied, textual_process
    if _applied:
        return
    from textual.css.stylesheet import Stylesheet
    from textual.widget import Widget

    process = textual_process = Stylesheet._process_component_classes
    loop_exit = Widget._message_loop_exit

    def _process_component_classes(self: Stylesheet, node: Any) -> None:
        kept = node._component_styles
        old = list(kept.values()) if kept else None
        process(self, node)
        if old:
            now = {id(styles) for styles in node._component_styles.values()}
            release(styles for styles in old if id(styles) not in now)

    async def _message_loop_exit(self: Widget) -> None:
        kept = list(self._component_styles.values())
        await loop_exit(self)
        release(kept)

    Stylesheet._process_component_classes = _process_component_classes  # type: ignore[method-assign]
    Widget._message_loop_exit = _message_loop_exit  # type: ignore[method-assign]
    _applied = True
