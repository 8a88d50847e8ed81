"""A closed screen and its widgets are freed at once by their reference count.

Each Textual widget holds its two ``Styles`` and they hold it back (``Styles.node``); a
screen holds its compositor, whose map holds the widgets; timers and a few closures hold
their widget. So a screen that was closed (a dialog, a lobby left for a table, a finished
table) stayed in memory as cycles until the garbage collector found them: at the end of
each match, some 170 widgets per table, which the server's collector then spent whole
seconds walking while every player of the process waited.

Once Textual has finished removing a widget (its message loop has ended, it is out of the
DOM), the references that point back at it are cut. Nothing of Textual reads them again:
a removed widget is never laid out, drawn or styled. Private API (``Widget._message_loop_exit``,
``Styles.node``, ``Screen._compositor``, ``Timer._callback``), Textual 8.2.x (pinned).
"""

from __future__ import annotations

from typing import Any

_applied = False
replaced: dict[str, Any] = {}
"""What the change replaced (``LRUCache.clear``/``discard``, ``Widget._message_loop_exit``),
kept so that a test can show what Textual alone leaves behind."""


def release(widget: Any) -> None:
    """Cut what points back at a removed ``widget``."""
    from textual.cache import LRUCache
    from textual.screen import Screen
    from textual.timer import Timer

    widget._css_styles.node = None
    widget._inline_styles.node = None
    nodes = widget._nodes
    nodes._displayed_nodes = nodes._displayed_visible_nodes = (-1, [])
    for value in list(vars(widget).values()):
        if isinstance(value, LRUCache):
            value.clear()
        elif isinstance(value, Timer):  # (a blink, a screen's update timer: they call back)
            value.stop()
            value._callback = None
    # (scrollbars are pruned with the widget; they point back at it)
    widget._vertical_scrollbar = widget._horizontal_scrollbar = None
    widget._scrollbar_corner = None
    if isinstance(widget, Screen):
        widget._layout_widgets.clear()  # (keyed by the screen itself, among others)
        compositor = widget._compositor
        compositor.root = None
        compositor._full_map = {}
        compositor.widgets = set()
        compositor._visible_map = compositor._layers = compositor._visible_widgets = None
        compositor._layers_visible = None


def unlink_cleared_caches() -> None:
    """Textual's ``LRUCache`` keeps its entries in a ring of lists: a cleared (or dropped)
    cache left the ring for the collector. Its entries are now unlinked as they go."""
    from textual.cache import LRUCache

    def clear(self: LRUCache[Any, Any]) -> None:
        for link in self._cache.values():
            link.clear()
        self._cache.clear()
        self._full = False
        self._head = []

    discard = replaced["discard"] = LRUCache.discard
    replaced["clear"] = LRUCache.clear

    def _discard(self: LRUCache[Any, Any], key: Any) -> None:
        link = self._cache.get(key)
        discard(self, key)
        if link is not None:
            link.clear()

    LRUCache.clear = clear  # type: ignore[method-assign]
    LRUCache.discard = _discard  # type: ignore[method-assign]


def free_closed_screens_at_once() -> None:
    global _applied
    if _applied:
        return
    from textual.widget import Widget

    unlink_cleared_caches()

    loop_exit = replaced["loop_exit"] = Widget._message_loop_exit

    async def _message_loop_exit(self: Widget) -> None:
        await loop_exit(self)
        release(self)

    Widget._message_loop_exit = _message_loop_exit  # type: ignore[method-assign]
    _applied = True
