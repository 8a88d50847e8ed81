"""A restyled widget's old component-class styles are freed at once, not left in cycles
for the garbage collector (``net.ssh.component_style_garbage``), and its component styles
still follow its classes."""

from __future__ import annotations

import gc

from rich.color import Color
from textual.app import App, ComposeResult
from textual.widgets import Static

from net.ssh import component_style_garbage


class Parts(Static):
    COMPONENT_CLASSES = {"parts--a", "parts--b", "parts--c"}
    DEFAULT_CSS = """
    Parts > .parts--a { color: #00ff00; }
    Parts.-hot > .parts--a { color: #ff0000; }
    Parts > .parts--b { background: #0000ff; }
    """


class Demo(App[None]):
    def compose(self) -> ComposeResult:
        yield Parts("parts")


def colour_of_a(widget: Parts) -> Color | None:
    return widget.get_component_rich_style("parts--a").color


def collected_after_restyle(widget: Parts, hot: bool) -> int:
    """Objects found in reference cycles after restyling ``widget`` once."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        widget.set_class(hot, "-hot")
        return gc.collect()
    finally:
        if was:
            gc.enable()


async def test_replaced_component_styles_leave_no_cycle_and_styles_follow_the_class():
    component_style_garbage.free_component_styles_at_once()  # (the SSH fixture does too)
    app = Demo()
    async with app.run_test(size=(40, 5)) as pilot:
        widget = app.query_one(Parts)
        await pilot.pause()
        assert colour_of_a(widget) == Color.parse("#00ff00")
        found = [collected_after_restyle(widget, hot) for hot in (True, False, True)]
        await pilot.pause()
        assert colour_of_a(widget) == Color.parse("#ff0000")
        widget.remove_class("-hot")
        await pilot.pause()
        assert colour_of_a(widget) == Color.parse("#00ff00")
        assert widget.get_component_rich_style("parts--b").bgcolor == Color.parse("#0000ff")
    assert found == [0, 0, 0], "a restyle left component styles in cycles"


async def test_without_the_change_a_restyle_leaves_cycles():
    """What the change is for: Textual's own restyle leaves each class's node in a cycle."""
    from textual.css.stylesheet import Stylesheet

    component_style_garbage.free_component_styles_at_once()
    patched = Stylesheet._process_component_classes
    Stylesheet._process_component_classes = component_style_garbage.textual_process  # type: ignore[method-assign]
    try:
        app = Demo()
        async with app.run_test(size=(40, 5)) as pilot:
            await pilot.pause()
            found = collected_after_restyle(app.query_one(Parts), True)
    finally:
        Stylesheet._process_component_classes = patched  # type: ignore[method-assign]
    assert found >= 3 * 30  # three classes, some forty objects each
