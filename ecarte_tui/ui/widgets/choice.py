"""A value picked from a handful, changed in place: ← and → (or space, or a click) step
through the values, the first letter or digit of one jumps to it.

Textual's ``Select`` is four widgets and an overlay list; six of them made half the cost of
serving the club's new-table dialog, a stall every player at the same server felt. A field
with a few values needs none of that: this is one widget that draws one line. With a
``caption`` (and a ``note``) it is a whole row of a dialog, its name, value and what it
does, where a Horizontal, two Labels and a Switch were four widgets to style and lay out.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar, Generic, TypeVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

V = TypeVar("V", bound=Hashable)


class Choice(Widget, Generic[V], can_focus=True):
    """One of ``options`` (label, value), shown as ``◂ label ▸``."""

    DEFAULT_CSS = """
    Choice {
        width: 1fr;
        height: 1;
        padding: 0 1 0 0;
        background: $surface;
        color: $foreground;
        pointer: pointer;
    }
    Choice:focus {
        background: $primary;
        color: $background;
        text-style: bold;
    }
    Choice.-captioned:focus {
        background: $surface;
        color: $foreground;
        text-style: none;
    }
    Choice.-captioned:focus > .choice--value {
        background: $primary;
        color: $background;
        text-style: bold;
    }
    Choice > .choice--note {
        color: $foreground 75%;
        text-style: italic;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"choice--value", "choice--note"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right,space", "step(1)", "Next", show=False),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        """The value shown changed (by the player or by the program)."""

        def __init__(self, choice: Choice[V], value: V) -> None:
            super().__init__()
            self.choice = choice
            self.value = value

        @property
        def control(self) -> Choice[V]:
            return self.choice

    def __init__(self, options: Sequence[tuple[str, V]], value: V, *,
                 caption: str = "", caption_width: int = 0, note: str = "",
                 id: str | None = None, classes: str | None = None) -> None:
        """``caption`` (padded to ``caption_width`` cells) before the value, ``note`` after."""
        if not options:
            raise ValueError("a choice needs at least one option")
        if caption or note:  # (given to Widget: a class added later would restyle it at once)
            classes = f"{classes or ''} -captioned".strip()
        super().__init__(id=id, classes=classes)
        self.options: tuple[tuple[str, V], ...] = tuple(options)
        self.caption = caption.ljust(caption_width)
        self.note = note
        # the value's cells: as wide as the widest label, so that the note never moves
        self._value_width = max(cell_len(label) for label, _ in self.options) + 4
        self.set_reactive(Choice.index, self._index_of(value))

    def _index_of(self, value: V) -> int:
        for i, (_, v) in enumerate(self.options):
            if v == value:
                return i
        raise ValueError(f"{value!r} is not one of the choices")

    @property
    def value(self) -> V:
        return self.options[self.index][1]

    @value.setter
    def value(self, value: V) -> None:
        self.index = self._index_of(value)

    @property
    def label(self) -> str:
        return self.options[self.index][0]

    def watch_index(self, old: int, new: int) -> None:
        if old != new:
            self.post_message(self.Changed(self, self.value))

    def render(self) -> Text:
        many = len(self.options) > 1
        shown = Text.assemble("◂ " if many else "  ", self.label, " ▸" if many else "")
        if not self.has_class("-captioned"):
            return shown
        shown.stylize(self.get_component_rich_style("choice--value", partial=True))
        text = Text(self.caption, end="")
        text.append_text(shown)
        if self.note:
            text.append(" " * (self._value_width - shown.cell_len + 2))
            text.append(self.note, self.get_component_rich_style("choice--note", partial=True))
        return text

    def action_step(self, by: int) -> None:
        self.index = (self.index + by) % len(self.options)

    def on_click(self, event: events.Click) -> None:
        """A click on the left half of the value steps back, right of it forward; on the
        caption it only focuses the field."""
        self.focus()
        start = cell_len(self.caption)
        if event.x < start:
            return
        if self.has_class("-captioned"):
            middle = start + cell_len(self.label) // 2 + 2
        else:
            middle = self.size.width // 2
        self.action_step(-1 if event.x < middle else 1)

    def on_key(self, event: events.Key) -> None:
        """A letter or digit jumps to the next value whose label starts with it."""
        char = event.character
        if not char or not char.isalnum():
            return
        n = len(self.options)
        for k in range(1, n + 1):
            i = (self.index + k) % n
            if self.options[i][0][:1].lower() == char.lower():
                event.stop()
                event.prevent_default()
                self.index = i
                return
