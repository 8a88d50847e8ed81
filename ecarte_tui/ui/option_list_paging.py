"""PageUp and PageDown on a list that has no room yet.

Textual 8.2's ``OptionList`` pages by the lines it has laid out, and lays none out while it
has no height: the command palette opened in a terminal two or three rows high, a PageUp,
and the app ended with a KeyError (over SSH, the player's session). Until Textual checks,
a page move on a list with nothing laid out does nothing, as it would on an empty list.
(Private API: ``_move_page`` and ``_index_to_line``; textual is pinned to 8.2.)
"""

from __future__ import annotations

from textual.widgets import OptionList

_textual_move_page = OptionList._move_page
_applied = False


def _move_page(self: OptionList, direction: int) -> None:
    if (self.highlighted or 0) not in self._index_to_line:  # (no line laid out for it)
        return
    _textual_move_page(self, direction)


def guard_option_list_paging() -> None:
    """Once per process; every app of this project calls it when its module is loaded."""
    global _applied
    if not _applied:
        OptionList._move_page = _move_page  # type: ignore[method-assign]
        _applied = True
