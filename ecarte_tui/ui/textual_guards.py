"""Edge cases of Textual 8.2 that ended an app (over SSH, the player's session), found by
random input against a club (tests/server/random_input.py): two in a terminal a few cells
wide or high, a size an SSH client may send, and the command palette's search starting or
finishing as its session closed. Until Textual checks for them, each is answered as
Textual answers the case next to it. They patch private names (``OptionList._move_page``,
``textual.content.divide_line``, ``CommandPalette._watch__list_visible``,
``CommandPalette._gather_commands``): textual is pinned to 8.2, and
``apply_textual_guards`` says when a name it expects is not there.
"""

from __future__ import annotations

from rich._wrap import divide_line as _rich_divide_line
from textual import content as _content
from textual import work
from textual.command import CommandList, CommandPalette
from textual.widgets import OptionList

_textual_move_page = OptionList._move_page
_textual_list_visible = CommandPalette._watch__list_visible
# the search's coroutine inside Textual's @work wrapper (functools.wraps keeps it)
_textual_gather = getattr(CommandPalette._gather_commands, "__wrapped__", None)
_applied = False


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
    _content.divide_line = _divide_line  # type: ignore[attr-defined]
    _applied = True
