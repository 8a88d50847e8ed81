"""A served screen's layout leaves no reference cycle behind (``net.ssh.layout_garbage``):
the same arrangement as Textual's, and nothing for the garbage collector."""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Static

from net.ssh import layout_garbage


class Nested(App[None]):
    CSS = "#side { dock: right; width: 12; } #over { layer: top; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("top bar")
            with Horizontal():
                yield Label("a")
                yield Label("b")
            yield Static("side", id="side")
        yield Static("over", id="over")


def left_for_the_collector(arrange: Callable[..., Any], app: Nested) -> tuple[int, Any]:
    """How many objects one arrangement leaves in reference cycles, and its map."""
    screen = app.screen
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        map_, _widgets = arrange(screen._compositor, screen, screen.size)
        placed = {widget: (geometry.region, geometry.clip) for widget, geometry in map_.items()}
        del map_, _widgets
        return gc.collect(), placed
    finally:
        if was:
            gc.enable()


async def test_a_layout_leaves_no_cycle_and_places_the_widgets_as_textual_does():
    assert layout_garbage.break_layout_cycles()  # (installed by the SSH tests' fixture too)
    textual_own = layout_garbage.textual_arrange_root
    assert callable(textual_own)
    from textual._compositor import Compositor

    app = Nested()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        before, textual_map = left_for_the_collector(textual_own, app)
        after, our_map = left_for_the_collector(Compositor._arrange_root, app)
    assert before > 20, "Textual's own arrangement no longer leaves a cycle: drop the change"
    assert after == 0
    assert our_map == textual_map
    assert len(our_map) >= 7  # the screen, the containers and the five leaves
