"""The end of a hand (tricks, points and why) and the end of the match (who won, again?)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ...engine import SeatView
from ..narration import outcome_lines
from ..widgets.felt import Look


def _score_line(view: SeatView, names: tuple[str, str]) -> str:
    me = view.seat or 0
    opp = 1 - me
    return (f"Score: {names[me]} {view.scores[me]} · {names[opp]} {view.scores[opp]}"
            f"  (game to {view.rules.target})")


def _tricks_line(view: SeatView, names: tuple[str, str]) -> str:
    me = view.seat or 0
    opp = 1 - me
    if not view.tricks:
        return "No trick was played."
    return f"Tricks: {names[me]} {view.tricks_won[me]} · {names[opp]} {view.tricks_won[opp]}"


def _games_line(view: SeatView, names: tuple[str, str]) -> str:
    me = view.seat or 0
    opp = 1 - me
    return f"Games: {names[me]} {view.games_won[me]} · {names[opp]} {view.games_won[opp]}"


def quit_word(app: object) -> str:
    """What ``q`` at the table is called in this app: "Quit", or a club's "Lobby"."""
    return str(getattr(app, "quit_title", "Quit"))


class _ResultScreen(ModalScreen[str | None]):
    """A dialog on a hand's outcome (the end of a hand, or of the match)."""

    def __init__(self, view: SeatView, names: tuple[str, str], look: Look) -> None:
        super().__init__()
        self.view = view
        self.names = names
        self.look = look

    def summary(self, no_points: str | None, games_class: str) -> ComposeResult:
        """Tricks, the points and why, the score and (a longer match) the games."""
        view, names = self.view, self.names
        yield Static(_tricks_line(view, names), classes="line")
        lines = outcome_lines(view, names) or ([no_points] if no_points else [])
        for line in lines:
            yield Static("• " + line, classes="line")
        yield Static(_score_line(view, names), classes="line strong")
        if view.rules.games_to_win > 1:
            yield Static(_games_line(view, names), classes=games_class)


class HandOverScreen(_ResultScreen):
    """Between hands: what happened, and the player confirms the next deal."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,n", "next", "Next hand", key_display="⏎"),
        Binding("escape", "look", "See the table"),
        Binding("q", "quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        view, names = self.view, self.names
        me = view.seat or 0
        with Vertical(id="dialog", classes="dialog"):
            if view.game_winner is not None:
                who = "You win" if view.game_winner == me else f"{names[view.game_winner]} wins"
                yield Static(f"{who} game {view.game_number}!", classes="title")
            else:
                yield Static(f"Hand {view.hand_number} is over", classes="title")
            yield from self.summary("No points.", "line")
            with Horizontal(classes="buttons"):
                yield Button("Next hand  ⏎", id="next", variant="primary")
                yield Button("Quit  q", id="quit")

    def action_next(self) -> None:
        self.dismiss("next")

    def action_look(self) -> None:
        self.dismiss(None)

    def action_quit(self) -> None:
        self.dismiss("quit")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)


class GameOverScreen(_ResultScreen):
    """The match is won: the final score and a new game."""

    # No button has the focus: an Enter meant for "next hand", pressed as the match ends,
    # must not open a new game (n, h, q and the mouse choose).
    AUTO_FOCUS = ""  # (None would mean "the app's", which focuses the first button)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", "New game"),
        Binding("h", "choose('home')", "Home"),
        Binding("q", "choose('quit')", "Quit"),
        Binding("escape", "choose('look')", "See the table"),
    ]

    def compose(self) -> ComposeResult:
        view, names = self.view, self.names
        me = view.seat or 0
        winner = view.match_winner
        can_new = hasattr(self.app, "action_new_game") and getattr(self.app, "can_start_games",
                                                                   False)
        with Vertical(id="dialog", classes="dialog"):
            if winner == me:
                yield Static("You win the match!", classes="title win")
            elif winner is not None:
                yield Static(f"{names[winner]} wins the match.", classes="title")
            else:
                yield Static("The match is over.", classes="title")
            yield from self.summary(None, "line strong")
            # q does here what it does at the table (the app names it: a served club's q
            # goes back to the lobby, so "Home" and "Quit" are one button there)
            quit_title = quit_word(self.app)
            with Horizontal(classes="buttons"):
                if can_new:
                    # a served club says "New table" and "Lobby" (the app names them)
                    new_title = getattr(self.app, "new_game_title", "New game")
                    home_title = getattr(self.app, "home_title", "Home")
                    yield Button(f"{new_title}  n", id="new", variant="primary")
                    if home_title != quit_title:
                        yield Button(f"{home_title}  h", id="to-home")
                yield Button(f"{quit_title}  q", id="quit")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose" and parameters and parameters[0] in ("new", "home"):
            return bool(getattr(self.app, "can_start_games", False))
        return True

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss("home" if event.button.id == "to-home" else event.button.id)
