"""Helpers for the clubhouse tests: exact deals and whole matches played out."""

from __future__ import annotations

import random

from ecarte_tui.engine import Match, Rules, parse_card


def cards(tokens: str) -> list[int]:
    """Card ids from ECN tokens, e.g. ``cards("KS QS 7H")``."""
    return [parse_card(t) for t in tokens.split()]


def deal(match: Match, hand_a: str, hand_b: str, up: str, dealer: int) -> None:
    """Start a hand with exactly these cards; the stock is the 21 others, in id order."""
    a, b, u = cards(hand_a), cards(hand_b), parse_card(up)
    used = {*a, *b, u}
    stock = [c for c in range(32) if c not in used]
    match.start_hand(a, b, u, stock, dealer=dealer)


def play_out(match: Match, seed: int = 0) -> Match:
    """Play ``match`` to its end with random legal actions (deals from a seeded shuffle)."""
    rng = random.Random(seed)
    if match.first_dealer is None:
        match.first_dealer = 0
    while not match.is_over:
        if match.needs_deal:
            match.deal(rng)
            continue
        legal = list(match.legal_actions())
        match.apply(rng.choice(legal))
    return match


def finished_match(seed: int = 0, rules: Rules | None = None) -> Match:
    return play_out(Match(rules or Rules()), seed)
