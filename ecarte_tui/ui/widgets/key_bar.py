"""The screen's keys on one line, drawn as text: what Textual's Footer shows, for less.

The Footer builds one widget per key and rebuilds them all whenever the keys change, which
at a card table is after every move. On a server drawing hundreds of tables in one process
that was half the cost of a move; this bar only renders a line of text (keys can still be
clicked).
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.screen import Screen

from ..card_art import Canvas
from ..theme_styles import theme_style
from .felt import FeltWidget, Runs


class KeyBar(FeltWidget):
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    KeyBar > .keybar--key {
        color: $footer-key-foreground;
        background: $footer-key-background;
        text-style: bold;
    }
    KeyBar > .keybar--description {
        color: $footer-description-foreground;
        background: $footer-description-background;
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.entries: tuple[tuple[str, str, str], ...] = ()  # (key, shown key, description)
        self._spans: list[tuple[int, int, str]] = []

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if not self.is_attached or screen is not self.screen:
            return
        app = self.app
        entries: list[tuple[str, str, str]] = []
        seen: set[str] = set()
        palette = None
        for key, (binding, enabled) in shown_bindings(screen).items():
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                palette = (key, app.get_key_display(binding), binding.description)
                continue
            if not binding.show or not enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            entries.append((key, app.get_key_display(binding), binding.description))
        if palette is not None:
            entries.append(palette)
        if tuple(entries) != self.entries:
            self.entries = tuple(entries)
            self.changed()

    def render_canvas(self) -> Canvas:
        key_style = theme_style(self, "keybar--key")
        text_style = theme_style(self, "keybar--description")
        row: Runs = []
        x = 0
        self._spans = []
        for i, (key, shown, description) in enumerate(self.entries):
            palette = i == len(self.entries) - 1 and key == self.app.COMMAND_PALETTE_BINDING
            if palette:
                gap = self.size.width - x - len(shown) - len(description) - 3
                row.append((" " * max(1, gap), None))
                x += max(1, gap)
            start = x
            row += [(f" {shown} ", key_style), (f"{description} ", text_style)]
            x += len(shown) + len(description) + 3
            self._spans.append((start, x, key))
        canvas = Canvas(self.size.width, self.size.height)  # cut, not ellipsised
        x = 0
        for text, style in row:
            canvas.put(x, 0, text, style)
            x += len(text)
        return canvas

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return


def shown_bindings(screen: Screen[object]) -> dict[str, tuple[Binding, bool]]:
    """``Screen.active_bindings`` (8.2) for the keys the bar may show: a key with a shown
    binding, or the command palette's. Each binding's ``check_action`` is asked only for
    those keys: at a table that is half of them, and the keys are checked after every move
    for every player. A key's winner is chosen as Textual chooses it (the first binding in
    the chain not disabled, unless a later one has priority), so hidden bindings that take
    a shown key (the box's Enter) still hide it; a binding that could not take a key
    already taken is not asked."""
    app = screen.app
    chain = screen._modal_binding_chain
    wanted = {key for _node, bindings in chain for key, binding in bindings if binding.show}
    wanted.add(app.COMMAND_PALETTE_BINDING)
    found: dict[str, tuple[Binding, bool]] = {}
    check = app._check_action_state
    for namespace, bindings in chain:
        for key, binding in bindings:
            if key not in wanted:
                continue
            existing = found.get(key)
            if existing is not None and (existing[0].priority or not binding.priority):
                continue  # the key has its binding; this one could not take it: not asked
            state = check(binding.action, namespace)
            if state is False:
                continue
            found[key] = (binding, bool(state))
    return found
