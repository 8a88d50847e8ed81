"""A served screen wholly covered by another is not laid out until it shows again
(``net.ssh.covered_screens``); one under a see-through dialog still is."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


class Base(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("under", id="probe")


class Cover(Screen[None]):
    def compose(self) -> ComposeResult:
        yield Static("on top")


class Dialog(ModalScreen[None]):
    DEFAULT_CSS = "Dialog { align: center middle; } Dialog > Static { width: 20; height: 3; }"

    def compose(self) -> ComposeResult:
        yield Static("a dialog")


class Stack(App[None]):
    def get_default_screen(self) -> Screen[None]:
        return Base()


def probe_width(app: Stack) -> int:
    return app.screen_stack[0].query_one("#probe").size.width


async def test_a_covered_screen_is_laid_out_when_it_comes_back():
    app = Stack()
    async with app.run_test(size=(80, 24)) as pilot:
        await resized_under(app, pilot, Cover())
        assert app.screen.size.width == 100
        assert probe_width(app) == 80, "the covered screen was laid out"
        app.pop_screen()
        await pilot.pause()
        await pilot.pause()
        assert probe_width(app) == 100, "not laid out again when shown"
        assert app.screen.size == (100, 30)


async def test_a_screen_under_a_dialog_follows_the_terminal():
    app = Stack()
    async with app.run_test(size=(80, 24)) as pilot:
        await resized_under(app, pilot, Dialog())
        assert probe_width(app) == 100, "a screen seen through a dialog kept its old size"


async def resized_under(app: Stack, pilot: Pilot[None], screen: Screen[None]) -> None:
    """``screen`` over the first one, then the terminal from 80x24 to 100x30."""
    await app.push_screen(screen)
    await pilot.pause()
    await pilot.resize_terminal(100, 30)
    await pilot.pause()
    await pilot.pause()


class Styled(Screen[None]):
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (90, "-wide")]

    def __init__(self) -> None:
        super().__init__()
        from ecarte_tui.ui.screens.breakpoints import start_with_breakpoints

        start_with_breakpoints(self)

    def compose(self) -> ComposeResult:
        yield Static("styled", id="styled")


async def test_a_pushed_screen_is_styled_once_and_again_when_it_resumes(monkeypatch):
    from textual.css.stylesheet import Stylesheet

    styled: list[str] = []
    apply = Stylesheet.apply

    def counting(self: Stylesheet, node: object, *args: object, **kwargs: object) -> None:
        if getattr(node, "id", None) == "styled":
            styled.append("x")
        apply(self, node, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "apply", counting)
    app = Stack()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = Styled()
        assert screen.has_class("-narrow") and not screen.has_class("-wide")
        await app.push_screen(screen)
        await pilot.pause()
        await pilot.pause()
        assert len(styled) == 1, "styled again when it first resumed or by its breakpoints"
        await app.push_screen(Cover())
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        await pilot.pause()
        assert app.screen is screen and len(styled) == 1  # (Textual: no restyle on a pop)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        assert len(styled) == 2, "a theme's change did not reach it"


def test_the_breakpoint_classes_are_the_widest_that_fit():
    from ecarte_tui.ui.screens.breakpoints import breakpoint_classes

    points = [(0, "-short"), (24, "-normal"), (34, "-tall")]
    assert breakpoint_classes(23, points) == {"-short": True, "-normal": False, "-tall": False}
    assert breakpoint_classes(24, points) == {"-short": False, "-normal": True, "-tall": False}
    assert breakpoint_classes(60, points) == {"-short": False, "-normal": False, "-tall": True}
