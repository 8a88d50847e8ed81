"""The buttons of the table's box on one row, drawn as text, with the focus kept here.

Three Textual ``Button`` widgets in a ``Horizontal`` made the box eight widgets: each time
it opened (at every hand, for every player) Textual restyled the focused button, laid out
and drew each button's borders through its styles cache; on a served table that was most
of the cost of opening the box. Here the row is one widget: a button is its label between
spaces, coloured as Textual's compact buttons are, the focused one underlined; Tab and
Shift+Tab move the focus (the table screen's keys), a click presses the button under it.
"""

from __future__ import annotations

from rich.style import Style
from textual import events
from textual.message import Message

from ..card_art import Canvas
from ..theme_styles import theme_style
from .felt import FeltWidget

GAP = 2
"""Columns between two buttons."""
FOCUS = Style(bold=True, underline=True)


class BoxButtons(FeltWidget, can_focus=False):
    DEFAULT_CSS = """
    BoxButtons { height: 1; width: 1fr; }
    BoxButtons > .box-button { background: $surface-lighten-2; color: $foreground;
                               text-style: bold; }
    BoxButtons > .box-button--primary { background: $primary; color: $text;
                                        text-style: bold; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.labels: tuple[str, ...] = ()
        self.choices: tuple[str, ...] = ()
        self.primary = True
        self.focus_index: int | None = None
        """The button Enter presses, if one has the focus."""

    def set_buttons(self, buttons: tuple[tuple[str, str], ...], primary: bool,
                    focus: bool) -> None:
        """(label, choice) left to right; ``primary``: the first is coloured; ``focus``:
        the first has the focus."""
        self.labels = tuple(label for label, _ in buttons)
        self.choices = tuple(choice for _, choice in buttons)
        self.primary = primary
        self.focus_index = 0 if focus and buttons else None
        self.changed()

    def move_focus(self, step: int) -> None:
        """Tab (1) and Shift+Tab (-1): the next button has the focus, round the row."""
        if not self.choices:
            return
        at = self.focus_index
        if at is None:
            self.focus_index = 0 if step > 0 else len(self.choices) - 1
        else:
            self.focus_index = (at + step) % len(self.choices)
        self.changed()

    @property
    def focused_choice(self) -> str | None:
        if self.focus_index is None or self.focus_index >= len(self.choices):
            return None
        return self.choices[self.focus_index]

    def spans(self, width: int | None = None) -> list[tuple[int, int]]:
        """The columns (start, end) of each button, centred in ``width`` (the widget's)."""
        width = self.size.width if width is None else width
        sizes = [len(label) + 2 for label in self.labels]
        total = sum(sizes) + GAP * max(0, len(sizes) - 1)
        x = max(0, (width - total) // 2)
        out = []
        for size in sizes:
            out.append((x, x + size))
            x += size + GAP
        return out

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 1

    def render_canvas(self) -> Canvas:
        width, height = self.size
        canvas = Canvas(width, height)
        plain = theme_style(self, "box-button")
        primary = theme_style(self, "box-button--primary")
        for i, (start, _end) in enumerate(self.spans(width)):
            style = primary if i == 0 and self.primary else plain
            if i == self.focus_index:
                style = style + FOCUS
            canvas.put(start, 0, f" {self.labels[i]} ", style)
        return canvas

    def on_click(self, event: events.Click) -> None:
        for i, (start, end) in enumerate(self.spans()):
            if start <= event.x < end:
                event.stop()
                self.post_message(self.Pressed(self.choices[i]))
                return

    class Pressed(Message):
        """A button was clicked."""

        def __init__(self, choice: str) -> None:
            super().__init__()
            self.choice = choice
