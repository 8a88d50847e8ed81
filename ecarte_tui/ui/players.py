"""The opponents and the hint: one place to switch between the bots module and a fallback.

The table screen never imports this: it does not know whether its opponent is a bot. Only
the local game (and the hint key, which asks the expert about the player's own view) does.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import Any

from ..bot_seat import Chooser
from ..engine import KING, Action, Kind, SeatView


class RandomChooser:
    """Plays a random legal move: the stand-in while no bot is available, and for tests."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action | None:
        legal = list(view.legal)
        if not legal:
            return None
        if KING in legal:
            return KING  # announcing is never worse for a player who cannot plan
        return self.rng.choice(legal)


def _bots() -> Any | None:
    try:
        return importlib.import_module("ecarte_tui.bots")
    except ImportError:
        return None


def bot_levels() -> tuple[str, ...]:
    """The levels a player may choose; just "random" while the bots are not installed."""
    bots = _bots()
    levels = getattr(bots, "LEVELS", None) if bots else None
    if not levels:
        return ("random",)
    names = tuple(levels) if not isinstance(levels, dict) else tuple(levels.keys())
    return tuple(str(n) for n in names)


def level_description(level: str) -> str:
    """One line about a bot level, for the menus."""
    bots = _bots()
    levels = getattr(bots, "LEVELS", None) if bots else None
    if isinstance(levels, dict) and level in levels:
        return str(levels[level])
    return "Random: any legal card or word, at random." if level == "random" else ""


def default_level() -> str:
    levels = bot_levels()
    for wanted in ("expert", "medium", "normal"):
        if wanted in levels:
            return wanted
    return levels[-1]


def make_opponent(level: str, seed: int | None = None) -> Chooser:
    """A bot of ``level``; a random player if the bots module or the level is unavailable."""
    bots = _bots()
    make_bot = getattr(bots, "make_bot", None) if bots else None
    if make_bot is None or level not in bot_levels():
        return RandomChooser(seed)
    try:
        return make_bot(level, seed=seed)  # type: ignore[no-any-return]
    except TypeError:
        return make_bot(level)  # type: ignore[no-any-return]
    except (KeyError, ValueError):
        return RandomChooser(seed)


KEEP_QUIET = "keep the king quiet"  # how the expert's advice *not* to announce opens


@dataclass(frozen=True)
class Hint:
    action: Action | None
    reason: str


def hint_for(view: SeatView) -> Hint:
    """The expert's suggestion for this view, with its reason (runs in a worker thread)."""
    bots = _bots()
    suggest = getattr(bots, "suggest", None) if bots else None
    if suggest is None:
        return Hint(None, "No expert is installed: hints need the bots module.")
    if not view.legal:  # (a backer's view of his player, say: nothing for this seat to do)
        return Hint(None, "Nothing to decide here now.")
    result = suggest(view)
    if result is None:
        return Hint(None, "Nothing to suggest now.")
    if isinstance(result, tuple):
        action, reason = result[0], str(result[1]) if len(result) > 1 else ""
        return Hint(action, reason)
    if isinstance(result, Action):
        return Hint(result, "")
    action, reason = getattr(result, "action", None), str(getattr(result, "reason", ""))
    if action is KING and reason.startswith(KEEP_QUIET):
        # the king is the only legal action, but the advice is not to take it (yet): the
        # hint says so in its own words rather than "announce the king — keep it quiet"
        return Hint(None, reason[0].upper() + reason[1:])
    return Hint(action, reason)


_RESTATED: dict[Kind, tuple[str, ...]] = {
    Kind.PLAY: ("play without proposing",),
    Kind.PROPOSE: ("propose",),
    Kind.ACCEPT: ("accept",),
    Kind.REFUSE: ("refuse",),
    Kind.KING: ("announce the king of trumps", "announce the king"),
}


def reason_after_action(action: Action, reason: str) -> str:
    """The expert's reason without the action it opens with ("play K♠: wins 3 tricks..."
    gives "wins 3 tricks..."): the hint names the action once, in the player's own card
    labels, and the reason says why."""
    label = action.label()
    heads = set(_RESTATED.get(action.kind, ()))
    heads.add(f"play {label}" if action.kind is Kind.CARD else label)
    head, sep, rest = reason.partition(": ")
    if sep and head in heads and rest:
        return rest
    if reason.startswith(f"{label} is "):  # "K♠ is the only legal move"
        return "it" + reason[len(label):]
    return reason


def action_words(action: Action, label: str) -> str:
    """An action as the hint says it: "play K♠", "propose", "discard 7♠ 8♥"."""
    kind = action.kind
    if kind is Kind.CARD:
        return f"play {label}"
    if kind is Kind.DISCARD:
        return f"discard {label}" if label else "keep your hand"
    return {
        Kind.PLAY: "play without proposing (“We play!”)",
        Kind.PROPOSE: "propose (“Cards!”)",
        Kind.ACCEPT: "accept",
        Kind.REFUSE: "refuse (“We play!”)",
        Kind.KING: "announce the king",
    }[kind]
