"""The screen's keys on one line, drawn as text: what Textual's Footer shows, for less.

The Footer builds one widget per key and rebuilds them all whenever the keys change, which
at a card table is after every move. On a server drawing hundreds of tables in one process
that was half the cost of a move; this bar only renders a line of text (keys can still be
clicked).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget

from ..theme_styles import theme_style


class KeyBar(Widget):
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
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                palette = (key, app.get_key_display(binding), binding.description)
                continue
            if not binding.show or not active.enabled or binding.action in seen:
                continue
            seen.add(binding.action)
            entries.append((key, app.get_key_display(binding), binding.description))
        if palette is not None:
            entries.append(palette)
        if tuple(entries) != self.entries:
            self.entries = tuple(entries)
            self.refresh()

    def render(self) -> Text:
        key_style = theme_style(self, "keybar--key")
        text_style = theme_style(self, "keybar--description")
        out = Text(no_wrap=True, overflow="crop", end="")
        self._spans = []
        for i, (key, shown, description) in enumerate(self.entries):
            palette = i == len(self.entries) - 1 and key == self.app.COMMAND_PALETTE_BINDING
            if palette:
                gap = self.size.width - out.cell_len - len(shown) - len(description) - 3
                out.append(" " * max(1, gap))
            start = out.cell_len
            out.append(f" {shown} ", key_style)
            out.append(f"{description} ", text_style)
            self._spans.append((start, out.cell_len, key))
        return out

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
