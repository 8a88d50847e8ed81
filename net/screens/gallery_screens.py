"""The gallery's dialogs at a club table: whom to back, and what to advise him.

Sources (RULES.md §9): 001 and 003, bystanders back a player and advise him. Names and
labels are drawn as plain ``Text`` (a name is another person's input).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ecarte_tui.engine import Action
from ecarte_tui.ui.widgets.ordered_input import OrderedInput

NOBODY = "nobody"


class BackScreen(ModalScreen[str | None]):
    """Back player A, player B or nobody: dismissed with "0", "1", ``NOBODY`` or None."""

    AUTO_FOCUS = "#back-choice"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    #back-choice { height: auto; max-height: 5; margin-bottom: 1; }
    """

    def __init__(self, names: tuple[str, str], backing: int | None, sees_hand: bool) -> None:
        """``sees_hand``: the table lets a player show his backers his hand."""
        super().__init__()
        self.names = names
        self.backing = backing
        self.sees_hand = sees_hand

    def compose(self) -> ComposeResult:
        now = "nobody" if self.backing is None else self.names[self.backing]
        options = [Option(Text(f"Back {self.names[s]} (seat {'AB'[s]})"), id=str(s))
                   for s in (0, 1)]
        options.append(Option(Text("Back nobody: see the public table only"), id=NOBODY))
        with Vertical(classes="dialog"):
            yield Static("Back a player", classes="title")
            yield Static(Text(f"You back {now}."), classes="line")
            see = ("and sees his hand if the player shows it to him" if self.sees_hand
                   else "(this table does not show a backer the hand)")
            yield Static(f"A backer may advise his player {see}. Sides are fixed while a "
                         "game is being played, and follow your wager.", classes="line",
                         markup=False)
            yield Static("", classes="line")
            yield OptionList(*options, id="back-choice")
            yield Static("enter choose · esc cancel", classes="line club-keys")

    @on(OptionList.OptionSelected, "#back-choice")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AdviceScreen(ModalScreen[tuple[Action | None, str] | None]):
    """A suggestion among the backed player's legal actions, with a short note (or a note
    alone). Dismissed with (action or None, note), or None to send nothing."""

    AUTO_FOCUS = "#advice-choice"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    #advice-choice { height: auto; max-height: 9; margin-bottom: 1; }
    #advice-note { margin-bottom: 1; }
    """

    def __init__(self, player: str, choices: Sequence[tuple[Action, str]]) -> None:
        super().__init__()
        self.player = player
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        options = [Option(Text("say only the note"), id="note")]
        options += [Option(Text(words), id=str(i)) for i, (_, words) in enumerate(self.choices)]
        with Vertical(classes="dialog"):
            yield Static(Text(f"Advise {self.player}"), classes="title")
            if not self.choices:
                yield Static("Nothing to suggest now (not his turn): a note only.",
                             classes="line", markup=False)
            yield OptionList(*options, id="advice-choice")
            yield OrderedInput(placeholder="a short note (optional)", id="advice-note")
            yield Static("enter send · tab note/choice · esc cancel", classes="line club-keys")

    def _send(self) -> None:
        choice = self.query_one("#advice-choice", OptionList)
        index = choice.highlighted
        option = choice.get_option_at_index(index) if index is not None else None
        action = None
        if option is not None and option.id not in (None, "note"):
            action = self.choices[int(option.id)][0]
        self.dismiss((action, self.query_one("#advice-note", Input).value))

    @on(OptionList.OptionSelected, "#advice-choice")
    def _chosen(self, _event: OptionList.OptionSelected) -> None:
        self._send()

    @on(Input.Submitted, "#advice-note")
    def _noted(self, _event: Input.Submitted) -> None:
        self._send()

    def action_cancel(self) -> None:
        self.dismiss(None)
