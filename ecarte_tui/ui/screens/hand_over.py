"""The end of a hand (tricks, points and why) and the end of the match (who won, again?).

Both are boxes drawn inside the table (``widgets/table_dialog.py``); this module says what
they hold and which keys choose what.
"""

from __future__ import annotations

from collections.abc import Callable

from ...engine import SeatView
from ..narration import outcome_lines
from ..widgets.table_dialog import DialogContent, DialogLine


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


def summary(view: SeatView, names: tuple[str, str], no_points: str | None,
            games_strong: bool) -> list[DialogLine]:
    """Tricks, the points and why, the score and (a longer match) the games."""
    lines = [DialogLine(_tricks_line(view, names))]
    said = outcome_lines(view, names) or ([no_points] if no_points else [])
    lines += [DialogLine("• " + line) for line in said]
    lines.append(DialogLine(_score_line(view, names), strong=True))
    if view.rules.games_to_win > 1:
        lines.append(DialogLine(_games_line(view, names), strong=games_strong))
    return lines


def hand_over_dialog(view: SeatView, names: tuple[str, str],
                     done: Callable[[str], None]) -> DialogContent:
    """Between hands: what happened, and the player confirms the next deal. ``done`` is told
    "next" (Enter, n), "look" (Esc: see the table) or "quit" (q)."""
    me = view.seat or 0
    if view.game_winner is not None:
        who = "You win" if view.game_winner == me else f"{names[view.game_winner]} wins"
        title = f"{who} game {view.game_number}!"
    else:
        title = f"Hand {view.hand_number} is over"
    return DialogContent(
        "hand", title, tuple(summary(view, names, "No points.", False)),
        (("Next hand  ⏎", "next"), ("Quit  q", "quit")),
        {"enter": "next", "n": "next", "escape": "look"}, done)


def game_over_dialog(view: SeatView, names: tuple[str, str], app: object,
                     done: Callable[[str], None]) -> DialogContent:
    """The match is won: the final score and a new game. ``done`` is told "rematch" (r, the
    table's own key), "new" (n), "home" (h), "quit" (q) or "look" (Esc). No button has the
    focus and Enter chooses nothing: an Enter meant for "next hand", pressed as the match
    ends, must not open a new game."""
    me = view.seat or 0
    winner = view.match_winner
    can_new = hasattr(app, "action_new_game") and bool(getattr(app, "can_start_games", False))
    if winner == me:
        title = "You win the match!"
    elif winner is not None:
        title = f"{names[winner]} wins the match."
    else:
        title = "The match is over."
    # q does here what it does at the table (the app names it: a served club's q goes back
    # to the lobby, so "Home" and "Quit" are one button there)
    quit_title = quit_word(app)
    choices: list[tuple[str, str]] = []
    keys = {"escape": "look"}
    if getattr(app, "offers_rematch", False):  # a served club: the same two play again (r)
        choices.append(("Play again  r", "rematch"))
    if can_new:
        # a served club says "New table" and "Lobby" (the app names them)
        new_title = getattr(app, "new_game_title", "New game")
        home_title = getattr(app, "home_title", "Home")
        choices.append((f"{new_title}  n", "new"))
        keys.update(n="new", h="home")
        if home_title != quit_title:
            choices.append((f"{home_title}  h", "home"))
    choices.append((f"{quit_title}  q", "quit"))
    return DialogContent(
        "match", title, tuple(summary(view, names, None, True)), tuple(choices), keys, done,
        win=winner == me, primary=can_new, focus=False)
