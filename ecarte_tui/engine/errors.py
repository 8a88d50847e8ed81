"""Errors a player understands: which rule, which card."""

from __future__ import annotations

from collections.abc import Callable

from .cards import card_str


class IllegalAction(ValueError):
    """An action the rules forbid; the state is left exactly as it was.

    ``template`` names the player ``{who}`` and the verb forms ``{holds}``/``{has}``/``{does}``
    so that the same error reads "B must head the trick: ... B holds KS" in a record and
    "you must head the trick: ... you hold K♠" on the player's own screen.
    """

    def __init__(self, seat: int, template: str, **cards: int) -> None:
        self.seat = seat
        self.template = template
        self.cards = cards
        super().__init__(self.text())

    def text(self, who: str | None = None, label: Callable[[int], str] = card_str) -> str:
        name = who if who is not None else "AB"[self.seat]
        you = who is not None and who.lower() == "you"
        verbs = {"holds": "hold", "has": "have", "does": "do", "is": "are"} if you else {}
        fmt = {k: verbs.get(k, k) for k in ("holds", "has", "does", "is")}
        fmt.update({k: label(v) for k, v in self.cards.items()})
        msg = self.template.format(who=name, **fmt)
        return msg[0].upper() + msg[1:] if you and msg.startswith("you") else msg

    def personal(self, label: Callable[[int], str] = card_str) -> str:
        """Second person, for the screen of the player who tried it."""
        return self.text("you", label)
