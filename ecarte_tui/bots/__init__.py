"""The bots: players that choose an action from one seat's view, and nothing else.

``make_bot(level, seed)`` builds one; ``LEVELS`` describes them for the menus; ``suggest``
gives the expert's advice with a reason a player understands. A bot is a seat like any
other: the table asks it whenever ``view.legal`` is not empty for its seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..engine.actions import Action
from ..engine.match import Match
from ..engine.view import SeatView


class Bot(Protocol):
    """A player. ``choose`` is called whenever ``view.legal`` is not empty for its seat.

    To move, it returns one of ``view.legal``. Not to move, the only legal action can be
    ``KING`` (announcing out of turn): it returns ``KING`` or None for "not now". Under
    ``own_first_card`` the mover may get ``KING`` among its cards: it returns ``KING``
    first (and is asked again) if it wants to announce.
    """

    name: str

    def choose(self, view: SeatView) -> Action | None: ...


LEVELS: dict[str, str] = {
    "random": "Random: any legal card or word, at random.",
    "easy": "Easy: a beginner who keeps trumps and kings and plays his highest card.",
    "classic": "Classic: plays by the 19th-century treatises' rules (jeux de règle).",
    "expert": "Expert: thinks through the deals you might hold, plays to win the match.",
}


def make_bot(level: str, seed: int | None = None, effort: float = 1.0) -> Bot:
    """A bot of ``level`` (one of ``LEVELS``), deterministic for a given ``seed``.

    ``effort`` scales the expert's search (its deals per decision; 1 is the published
    strength): a server that hosts many bot tables may trade strength for processor time.
    The other levels do not search and ignore it."""
    if not effort > 0:
        raise ValueError(f"the bots' effort must be above 0, not {effort!r}")
    if level == "random":
        from .random_bot import RandomBot

        return RandomBot(seed)
    if level == "easy":
        from .easy import EasyBot

        return EasyBot(seed)
    if level == "classic":
        from .classic import ClassicBot

        return ClassicBot(seed)
    if level == "expert":
        from .expert import ExpertBot

        return ExpertBot(seed, effort)
    known = ", ".join(LEVELS)
    raise ValueError(f"unknown bot level {level!r} (known: {known})")


def make_oracle(match: Match, seat: int, seed: int | None = None) -> Bot:
    """A bot that SEES ALL CARDS of ``match``, the stock's order included, and takes the
    best action outright: the ceiling the arena measures the others against (benchmarks
    only, never an opponent)."""
    from .oracle import OracleBot

    return OracleBot(match, seat, seed)


@dataclass(frozen=True, slots=True)
class Suggestion:
    action: Action
    reason: str


def suggest(view: SeatView, seed: int = 0) -> Suggestion:
    """The expert's advice for ``view`` (which must have a legal action), with a reason."""
    from .advice import advise

    return advise(view, seed)


__all__ = ["Bot", "LEVELS", "Suggestion", "make_bot", "make_oracle", "suggest"]
