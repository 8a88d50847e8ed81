"""Table options that bind play at a live table, beyond the rules: jeux de règle (004).

The club sets ``table_guard`` as the table's ``guard`` (asked in ``Table.submit`` before the
engine, so a refused proposal changes nothing) and wraps every bot at such a table in
``RuleBoundBot``, which never offers the forbidden proposal. The decision itself is
``net.club.clubhouse.jeu_de_regle`` (the classic bot's classifier, Foster / 003 / Cavendish).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ecarte_tui.engine import Action, Match, SeatView
from ecarte_tui.table import Guard
from net.club.clubhouse.jeu_de_regle import forbidden_by_jeu_de_regle, obey, restrict_view
from net.club.clubhouse.options import ClubOptions

SOURCE = "004"
PREFIX = "jeux de règle: "


class Chooser(Protocol):
    name: str

    def choose(self, view: SeatView) -> Action | None: ...


def jeu_de_regle_refusal(match: Match, seat: int, action: Action) -> str | None:
    """The player's refusal at a jeux-de-règle table: names the rule and its source."""
    why = forbidden_by_jeu_de_regle(match, seat, action)
    if why is None:
        return None
    if why.startswith(PREFIX):
        why = why[len(PREFIX):]
    return f"jeux de règle ({SOURCE}), a rule of this table: {why}"


def table_guard(options: ClubOptions) -> Guard | None:
    """The guard a table with these options needs, or None (no extra rule)."""
    return jeu_de_regle_refusal if options.jeux_de_regle else None


class RuleBoundBot:
    """A bot that sees only what the table allows (the forbidden proposal is not among its
    choices) and, should it still propose, plays instead: it never meets a refusal."""

    def __init__(self, bot: Chooser) -> None:
        self.bot = bot
        self.name = bot.name

    def choose(self, view: SeatView) -> Action | None:
        action = self.bot.choose(restrict_view(view))
        if action is None or view.seat is None:
            return action
        return obey(view, view.seat, action)


def view_restriction(options: ClubOptions) -> Callable[[SeatView], SeatView] | None:
    """What a seat is offered at a table with these options (``Table.restrict``)."""
    return restrict_view if options.jeux_de_regle else None


def bound_bot(bot: Chooser, options: ClubOptions) -> Chooser:
    return RuleBoundBot(bot) if options.jeux_de_regle else bot
