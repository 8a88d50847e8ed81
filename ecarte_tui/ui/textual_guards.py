"""Edge cases of Textual 8.2 that ended an app (over SSH, the player's session) or left an
error in the server's log, found by random input against a club
(tests/server/random_input.py): two in a terminal a few cells wide or high, a size an SSH
client may send; the command palette's search starting or finishing as its session closed; a
scroll still animated after its screen closed; a dialog answered when it was no longer in
front (two Enters in one read); a click on a widget taken down in the same read; the
command palette opened again before the one just closed was gone. Until Textual checks for
them, each is answered as Textual
answers the case next to it. They patch private names (``OptionList._move_page``,
``textual.content.divide_line``, ``CommandPalette._watch__list_visible``,
``CommandPalette._gather_commands``), ``Widget``'s scrollbar properties,
``Screen.dismiss``, ``Screen.get_widget_and_offset_at`` and
``App.action_command_palette`` (which reads ``App._nodes``): textual is pinned to 8.2, and
``apply_textual_guards`` says when a name it expects is not there.
"""

from __future__ import annotations

from rich._wrap import divide_line as _rich_divide_line
from textual import content as _content
from textual import work
from textual.app import App
from textual.await_complete import AwaitComplete
from textual.command import CommandList, CommandPalette
from textual.geometry import Offset
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.widget import Widget
from textual.widgets import OptionList

_textual_move_page = OptionList._move_page
_textual_list_visible = CommandPalette._watch__list_visible
# the search's coroutine inside Textual's @work wrapper (functools.wraps keeps it)
_textual_gather = getattr(CommandPalette._gather_commands, "__wrapped__", None)
_textual_vertical_bar = Widget.vertical_scrollbar
_textual_horizontal_bar = Widget.horizontal_scrollbar
_textual_dismiss = Screen.dismiss
_textual_widget_at = Screen.get_widget_and_offset_at
_textual_open_palette = App.action_command_palette
_applied = False
PALETTE_ID = "--command-palette"  # the id Textual gives the palette it opens


def _move_page(self: OptionList, direction: int) -> None:
    """PageUp/PageDown: Textual pages by the lines it laid out, and lays none out while the
    list has no height (the command palette opened in a terminal two rows high), so the
    move raised KeyError. With nothing laid out it does nothing, as on an empty list."""
    if (self.highlighted or 0) not in self._index_to_line:
        return
    _textual_move_page(self, direction)


def _divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """Text folded to no width at all (an option list squeezed to nothing in a 10×3
    terminal) made rich chop words into pieces of 0 cells: ValueError. With no width, words
    are kept whole, as with every other overflow."""
    return _rich_divide_line(text, width, fold=fold and width > 0)


def _watch__list_visible(self: CommandPalette) -> None:
    """The palette's search, finishing after the palette's widgets were taken down (its
    session closing with the palette open), showed or hid a list that was gone: NoMatches.
    With no list, there is nothing to show or hide."""
    if not self.query(CommandList):
        return
    _textual_list_visible(self)


@work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
async def _gather_commands(self: CommandPalette, search_value: str) -> None:
    """The palette's first search, started as it is shown, began after its widgets were
    taken down (its session closing as the palette opened): NoMatches, in a worker that
    ends the app. With no list to fill, there is nothing to search for."""
    if not self.query(CommandList):
        return
    assert _textual_gather is not None
    await _textual_gather(self, search_value)


def _bar_of(textual_bar: property, vertical: bool) -> property:
    """A scroll animated after its widget was taken down (a help page scrolled as its
    screen closed) set the widget's scrollbar, which Textual makes on first use and starts as
    a widget of its own; made after the widget's children were closed, it was never closed:
    its task, left pending, was destroyed with it ("Task was destroyed but it is pending!",
    an error in the server's log). A widget being taken down gets a bar that is never
    started, and none is kept."""

    def bar(self: Widget) -> ScrollBar:
        made = self._vertical_scrollbar if vertical else self._horizontal_scrollbar
        if made is None and (self._closing or self._closed):
            spare = ScrollBar(vertical=vertical, name="vertical" if vertical else "horizontal")
            spare.display = False
            return spare
        return textual_bar.__get__(self)

    return property(bar, doc=textual_bar.__doc__)


def _dismiss(self: Screen[object], result: object = None) -> AwaitComplete:
    """Textual's dismiss answers for the screen and pops the one in front, whichever it is.
    A dialog's answer that reached it once it was no longer in front (two Enters in one
    read: the second after the first had closed it; or an Enter read just before another
    screen opened over it) answered a second time, InvalidStateError on the answer already
    given, and popped another screen (the lobby under it, or the one over it). Only the
    screen in front closes: a late answer is dropped, and a dialog still open under another
    one waits to be answered again when it is in front."""
    if self is not self.app.screen:
        return AwaitComplete.nothing()
    return _textual_dismiss(self, result)


def _widget_and_offset_at(self: Screen[object], x: int, y: int
                          ) -> tuple[Widget | None, Offset | None]:
    """A click (a drag) on a widget taken down since the screen was last laid out (a
    notification gone, a box closed, in the same read as the click) found it in the last
    layout, with no parent: the text selection took its parent's region, AttributeError,
    and the session ended. A widget no longer in the screen is no widget there, as in a gap
    between widgets."""
    widget, offset = _textual_widget_at(self, x, y)
    if widget is not None and widget.parent is None and not isinstance(widget, Screen):
        return None, None
    return widget, offset


def _action_command_palette(self: App[object]) -> None:
    """ctrl+p, Escape and ctrl+p again in one read: the second palette was made while the
    first, closed, was still being taken down, under the same id (DuplicateIds, and the
    session ended). Until the first is gone, the key does nothing; pressed again, it opens."""
    if any(node.id == PALETTE_ID for node in self._nodes):  # (the app's screens, all)
        return
    _textual_open_palette(self)


def apply_textual_guards() -> None:
    """Once per process; every app of this project calls it when its module is loaded."""
    global _applied
    if _applied:
        return
    if getattr(_content, "divide_line", None) is not _rich_divide_line:
        raise RuntimeError("textual.content no longer wraps with rich's divide_line: "
                           "check ecarte_tui/ui/textual_guards.py against this Textual")
    if _textual_gather is None:
        raise RuntimeError("CommandPalette._gather_commands is no longer a @work wrapper: "
                           "check ecarte_tui/ui/textual_guards.py against this Textual")
    OptionList._move_page = _move_page  # type: ignore[method-assign]
    CommandPalette._watch__list_visible = _watch__list_visible  # type: ignore[method-assign]
    CommandPalette._gather_commands = _gather_commands  # type: ignore[method-assign]
    Screen.dismiss = _dismiss  # type: ignore[assignment]
    Screen.get_widget_and_offset_at = _widget_and_offset_at  # type: ignore[method-assign]
    App.action_command_palette = _action_command_palette  # type: ignore[method-assign]
    Widget.vertical_scrollbar = _bar_of(_textual_vertical_bar, True)  # type: ignore[method-assign]
    Widget.horizontal_scrollbar = _bar_of(_textual_horizontal_bar, False)  # type: ignore[method-assign]
    _content.divide_line = _divide_line  # type: ignore[attr-defined]
    _applied = True
