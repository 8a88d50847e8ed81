"""The seeded shuffle and the draw for the first deal: chance goes through a Random we are given."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import STRENGTH, card_str
from .rules import Rules


def deal_rng(seed: int | None = None) -> random.Random:
    """Where a table's chance comes from: with a seed, the Mersenne Twister, so the same seed
    deals the same cards (local play, tests, the arena); without one, the operating system's
    generator, whose next deal no record or earlier deal can predict (a server with chips)."""
    return random.Random(seed) if seed is not None else random.SystemRandom()


def shuffled_deck(rng: random.Random) -> list[int]:
    """A Fisher-Yates shuffle on ``getrandbits``: the same seed deals the same cards everywhere.

    ``random.shuffle`` is not promised to stay the same across Python versions; this is.
    """
    deck = list(range(32))
    for i in range(31, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = rng.getrandbits(k)
        while j >= n:
            j = rng.getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards of one hand as the dealer gives them: elder first, 3 then 2 (000, 001)."""

    elder: tuple[int, ...]
    dealer: tuple[int, ...]
    up: int
    stock: tuple[int, ...]


def deal_from(deck: list[int]) -> Deal:
    elder = (deck[0], deck[1], deck[2], deck[6], deck[7])
    dealer = (deck[3], deck[4], deck[5], deck[8], deck[9])
    return Deal(elder, dealer, deck[10], tuple(deck[11:]))


@dataclass(frozen=True, slots=True)
class FirstDealDraw:
    """Each player draws a card (RULES.md §2); ``chooser`` is set when the rules let him choose."""

    cards: tuple[int, int]
    redraws: int
    dealer: int | None
    chooser: int | None

    def describe(self, names: tuple[str, str] = ("A", "B")) -> str:
        a, b = (card_str(c) for c in self.cards)
        text = f"{names[0]} draws {a}, {names[1]} draws {b}"
        if self.chooser is not None:
            return f"{text}: {names[self.chooser]} chooses who deals"
        assert self.dealer is not None
        return f"{text}: {names[self.dealer]} deals"


def draw_first_dealer(rules: Rules, rng: random.Random) -> FirstDealDraw:
    """Draw for the first deal; equal cards draw again, ranked in the game's order."""
    strength = STRENGTH[rules.ace_high]
    redraws = 0
    while True:
        deck = shuffled_deck(rng)
        a, b = deck[0], deck[1]
        if strength[a] != strength[b]:
            break
        redraws += 1
    high = 0 if strength[a] > strength[b] else 1
    if rules.first_dealer == "higher_chooses":
        return FirstDealDraw((a, b), redraws, None, high)
    if rules.first_dealer == "highest_deals":
        return FirstDealDraw((a, b), redraws, high, None)
    return FirstDealDraw((a, b), redraws, 1 - high, None)
