"""The box of a hand's cycle (the draw for the deal, the end of a hand, of the match, of a
game of a pool), drawn inside the table screen.

A modal screen for each of them cost a screen switch, a restyle of the whole table when it
closed and a dimmed repaint of everything under it, for every player at every hand: among
the largest costs of a busy server. This box is composed once with the table, on a layer
of its own above the felt, and only shown, filled in and hidden: four widgets drawn as text
(the buttons are one row, ``BoxButtons``) whose content changes, never a mount. What each
box says is written next to the code that decides it (``screens/draw.py``,
``screens/hand_over.py``, ``screens/pool_table.py``); the keys reach it through the table
screen, which knows which of its own keys may act while it is open.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from ..ascii_filter import ascii_key
from .box_buttons import BoxButtons
from .box_text import BoxText
from .card_row import CardRow
from .felt import Look


@dataclass(frozen=True, slots=True)
class DialogLine:
    """A line of a box; a ``strong`` one is bold, after a blank line."""

    text: str
    strong: bool = False


@dataclass(frozen=True)
class DialogContent:
    """What one box shows, which keys choose what, and who is told the choice."""

    kind: str
    """Which box: "draw", "hand", "match" or "pool" (the table screen maps its keys by it)."""
    title: str
    lines: tuple[DialogLine, ...]
    choices: tuple[tuple[str, str], ...]
    """The buttons, left to right: (label, choice)."""
    keys: Mapping[str, str]
    """A key (``enter``, ``escape``, ``n``...) and the choice it makes."""
    done: Callable[[str], None] = field(compare=False)
    """Told the choice once the box is closed."""
    win: bool = False
    cards: tuple[tuple[int, str], ...] = ()
    """Cards face up with a caption (the draw for the deal)."""
    primary: bool = True
    """The first button is the one to press: coloured."""
    focus: bool = True
    """The first button has the focus (Enter presses it); none has at the end of a match."""


class TableDialog(Vertical):
    """The box; hidden until ``show`` (the table screen decides when)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="dialog")
        self.content: DialogContent | None = None

    def compose(self) -> ComposeResult:
        yield BoxText(classes="title", id="dialog-title")
        yield CardRow((), (), id="draw-cards")
        yield BoxText(classes="line", id="dialog-lines")
        yield BoxButtons(classes="buttons", id="dialog-buttons")

    def on_unmount(self) -> None:
        """What an open box would answer to holds its screen: cut, so a closed table is
        freed at once, not left in a cycle for the garbage collector."""
        self.content = None

    @property
    def is_open(self) -> bool:
        return self.content is not None

    def show(self, content: DialogContent, look: Look) -> None:
        """Fill the box in and show it; the first button has the focus (unless the box
        says not), as the modal dialogs did."""
        self.content = content
        title = self.query_one("#dialog-title", BoxText)
        title.show(((content.title, False),))
        title.set_class(content.win, "win")
        row = self.query_one("#draw-cards", CardRow)
        row.display = bool(content.cards)
        if content.cards:
            row.cards = tuple(card for card, _ in content.cards)
            row.captions = tuple(caption for _, caption in content.cards)
            row.set_look(look)
            row.refresh()
        self.query_one("#dialog-lines", BoxText).show(
            tuple((line.text, line.strong) for line in content.lines))
        choices = content.choices
        if look.ascii_cards:  # "Continue  enter", not an arrow drawn as "<"
            choices = tuple((ascii_key(label), choice) for label, choice in choices)
        self.query_one(BoxButtons).set_buttons(choices, content.primary, content.focus)
        # hidden while the terminal is too small for the table (TableScreen.on_resize shows
        # it again when it fits); ``display`` repaints what the box covered at once
        self.display = not getattr(self.screen, "hidden_by_size", False)

    def hide(self) -> None:
        if self.content is None:
            return
        self.content = None
        self.display = False
        # The layout that hides the box draws the whole screen, once, at the next frame:
        # only the box's area would be drawn from what the widgets show then while a change
        # outside it (the next hand's top bar, dealt meanwhile) waits for its own repaint,
        # a frame mixing two hands. The layout is asked of the screen now (the box's own
        # request reaches it as a message, maybe after a frame); ``Screen.refresh`` would
        # add a second whole frame after a mixed one. (The screen's dirty area and set are
        # private: Textual 8.2.x, pinned.)
        screen = self.screen
        screen._set_dirty()
        screen._dirty_widgets.add(screen)
        screen.refresh(repaint=False, layout=True)

    def focused_choice(self) -> str | None:
        """The choice of the button that has the focus (Enter presses it), if one has."""
        if self.content is None:
            return None
        return self.query_one(BoxButtons).focused_choice

    def move_focus(self, step: int) -> None:
        """Tab and Shift+Tab, while the box is open."""
        if self.content is not None:
            self.query_one(BoxButtons).move_focus(step)

    @on(BoxButtons.Pressed)
    def _pressed(self, event: BoxButtons.Pressed) -> None:
        event.stop()
        if self.content is not None:
            self.post_message(self.Chosen(event.choice))

    class Chosen(Message):
        """A button of the box was clicked (Enter reaches the box through the table)."""

        def __init__(self, choice: str) -> None:
            super().__init__()
            self.choice = choice
