"""A scripted player that reads a terminal screen, as a person would, and says which key to
press: the "client brain" of the end-to-end tests and of ``ecarte bench ssh``.

It knows nothing of the game's state but the text on its own screen, so whatever it can do,
a remote player can do with the same bytes; and it acts only on the prompts the table shows.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

ENTER = b"\r"


@dataclass(frozen=True, slots=True)
class Move:
    key: bytes
    why: str


DONE = Move(b"", "the match is over")

# (text on screen, keys to choose from, why); the first line found wins. Dialogs come
# first: while one is open, the table's own prompt is still visible behind it.
_RULES: tuple[tuple[str, tuple[bytes, ...], str], ...] = (
    ("who deals the first hand?", (b"d",), "choose the dealer"),
    ("Continue  ⏎", (ENTER,), "close the draw"),
    ("Next hand  ⏎", (ENTER,), "next hand"),
    ("Announce it before the first lead?", (b"k", b"x"), "king before the lead"),
    ("c “Cards!”", (b"p", b"c", b"c"), "play or propose"),
    ("a accept · r refuse", (b"a", b"r"), "answer the proposal"),
    ("Your lead: choose a card.", (ENTER,), "lead"),
    (": your card.", (ENTER,), "follow"),
    ("You hold the king of trumps.", (b"k",), "announce the king"),
    ("enter next hand", (ENTER,), "next hand"),
)
_MATCH_OVER = ("win the match!", "wins the match.", "The match is over.")
_DRAW_BOX = re.compile(r"Draw for the deal(?!:)")
"""The draw's box by its title (the log's line says "Draw for the deal:"): a notice can
cover the box's "Continue" button, and the table's prompt behind the box still shows."""


def next_move(screen: str, rng: random.Random) -> Move | None:
    """The key for what the screen asks now; None to wait; ``DONE`` once the match is over."""
    if any(text in screen for text in _MATCH_OVER):
        return DONE
    if "Choose your discards" in screen:
        if "none chosen yet" in screen:
            return Move(b"1", "mark a card to discard")
        if " chosen: " in screen:
            return Move(ENTER, "discard")
    if _DRAW_BOX.search(screen) and "who deals the first hand?" not in screen:
        return Move(ENTER, "close the draw")
    for text, keys, why in _RULES:
        if text in screen:
            return Move(rng.choice(keys), why)
    return None
