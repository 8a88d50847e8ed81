"""Helpers shared by the engine tests: set up exact deals, snapshot a match, play at random.

Card ids are never written by hand in the tests: cards are named by their ECN tokens
("KS", "TH") and turned into ids with ``c()``, so a test reads like the rule it checks.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ecarte_tui.engine import (
    A,
    B,
    Match,
    Rules,
    parse_card,
    play_card,
    summary,
    write_ecn,
)

ALL_CARDS = frozenset(range(32))


def c(token: str) -> int:
    """The id of one card token, e.g. ``c("KS")``."""
    return parse_card(token)


def cs(tokens: str) -> list[int]:
    """The ids of space-separated tokens, in order."""
    return [parse_card(t) for t in tokens.split()]


def mask(tokens: str) -> int:
    m = 0
    for x in cs(tokens):
        m |= 1 << x
    return m


def card(token: str):  # noqa: ANN201 - returns an Action
    """The action of playing that card."""
    return play_card(c(token))


def set_hand(
    m: Match,
    a: str,
    b: str,
    up: str,
    dealer: int,
    stock_top: str = "",
) -> None:
    """Start a hand with A's and B's five cards, the turn-up and the first cards of the stock.

    The rest of the stock follows in card-id order, so a test only names the cards it needs.
    """
    hand_a, hand_b, turned, top = cs(a), cs(b), c(up), cs(stock_top)
    used = set(hand_a) | set(hand_b) | {turned} | set(top)
    assert len(used) == 11 + len(top), "the test names a card twice"
    stock = top + [x for x in range(32) if x not in used]
    m.start_hand(hand_a, hand_b, turned, stock, dealer=dealer)


def new_hand(
    rules: Rules | None = None,
    *,
    a: str,
    b: str,
    up: str,
    dealer: int = B,
    stock_top: str = "",
) -> Match:
    m = Match(rules or Rules())
    set_hand(m, a, b, up, dealer, stock_top)
    return m


def run(m: Match, *lines: str) -> None:
    """Apply ECN-style action lines such as ``"A play"``, ``"B KS"``, ``"A discard 7S 8H"``."""
    from ecarte_tui.engine import Action

    for line in lines:
        seat, text = line.split(maxsplit=1)
        m.apply(Action.parse(text), "AB".index(seat))


def snapshot(m: Match) -> tuple:
    """Everything a match holds, as text: the record, every attribute, the JSON summary."""
    attrs = tuple(sorted((k, repr(v)) for k, v in vars(m).items()))
    return (
        write_ecn(m),
        attrs,
        tuple(m.hands),
        m.phase,
        m.to_move,
        tuple(m.scores),
        tuple(m.games_won),
        repr(summary(m)),
    )


def played_cards(m: Match) -> set[int]:
    out: set[int] = set()
    for _leader, lead, follow, _winner in m.tricks_played:
        out.update((lead, follow))
    if m.led >= 0:
        out.add(m.led)
    return out


def discarded_cards(m: Match, seat: int) -> set[int]:
    out: set[int] = set()
    for d in m.discards[seat]:
        out.update(x for x in range(32) if d >> x & 1)
    return out


def cards_of_mask(m_: int) -> set[int]:
    return {x for x in range(32) if m_ >> x & 1}


def random_playout(
    rng: random.Random,
    rules: Rules,
    check: Callable[[Match], None] | None = None,
    max_hands: int = 200,
) -> Match:
    """A whole match with random legal actions chosen from both seats' legal actions.

    Choosing among both seats lets the non-mover announce the king when he may.
    ``check(match)`` runs after every action.
    """
    m = Match(rules, first_dealer=rng.getrandbits(1))
    hands = 0
    while not m.is_over:
        hands += 1
        assert hands <= max_hands, "the match never ends"
        m.deal(rng)
        if check:
            check(m)
        steps = 0
        while m.to_move is not None:
            steps += 1
            assert steps < 100, "the hand never ends"
            choices = [(s, a) for s in (A, B) for a in m.legal_actions(s)]
            seat, action = choices[rng.randrange(len(choices))]
            m.apply(action, seat)
            if check:
                check(m)
    return m


def all_plain_actions() -> list:
    """Every word action and every card action (discards are built by the caller)."""
    from ecarte_tui.engine import ACCEPT, KING, PLAY, PROPOSE, REFUSE

    return [PLAY, PROPOSE, ACCEPT, REFUSE, KING, *(play_card(x) for x in range(32))]


# Four deals in terms of the elder (E) and the dealer (D), spades trumps (7S turned up), each
# with a legal script that gives the stated result (checked by the engine as it is played).
DEALS = {
    # the elder takes 3 tricks (le point)
    ("E", False): ("QS JS TS 7H 8H", "AS 9H TH AH 7D",
                   "E QS|D AS|E JS|D 7D|E TS|D AH|E 7H|D 9H|D TH|E 8H"),
    # the elder takes all five (la vole)
    ("E", True): ("KS QS JS AS TS", "7H 8H 9H TH AH",
                  "E KS|D 7H|E QS|D 8H|E JS|D 9H|E AS|D TH|E TS|D AH"),
    # the dealer takes 3
    ("D", False): ("AS 9H TH AH 7D", "QS JS TS 7H 8H",
                   "E AS|D QS|D JS|E 7D|D TS|E AH|D 7H|E 9H|E TH|D 8H"),
    # the dealer takes all five
    ("D", True): ("7H 8H 9H TH AH", "KS QS JS AS TS",
                  "E 7H|D TS|D KS|E 8H|D QS|E 9H|D JS|E TH|D AS|E AH"),
}

DECISIONS = {
    "play": ["E play"],
    "refuse": ["E propose", "D refuse"],
    "exchange": ["E propose", "D accept", "E discard 7C", "D discard 8C", "E play"],
}


def seats(dealer):
    return {"D": "AB"[dealer], "E": "AB"[1 - dealer]}


def lines(text, dealer):
    s = seats(dealer)
    return [s[x[0]] + x[1:] for x in text]


def play_deal(m, dealer, winner_role, vole, decision):
    """Deal one of DEALS to the match with ``dealer`` and play it with ``decision`` first."""
    e_cards, d_cards, script = DEALS[(winner_role, vole)]
    stock_top = ""
    if decision == "exchange":  # E and D each hold one club instead of a card of the deal
        e_list, d_list = e_cards.split(), d_cards.split()
        stock_top = f"{e_list[-1]} {d_list[-1]}"
        e_cards = " ".join([*e_list[:-1], "7C"])
        d_cards = " ".join([*d_list[:-1], "8C"])
    by_seat = {dealer: d_cards, 1 - dealer: e_cards}
    set_hand(m, by_seat[A], by_seat[B], "7S", dealer, stock_top)
    run(m, *lines(DECISIONS[decision], dealer))
    run(m, *lines(script.split("|"), dealer))




# ECN.md "Example", verbatim.
EXAMPLE = """\
# Worked example of 001: Anna holds the king of trumps, plays without proposing,
# takes two tricks.
[Rules "classic"]
[A "Anna"]
[B "Ben"]

hand
dealer B
A KS 7S QH JH 8D
B QS JS AH KD 9C
up 8S
stock KH QD JD AD TD 9D 7D KC QC JC AC TC 8C 7C TH 9H 8H 7H AS TS 9S
A play
A king
A QH
B AH
A JH
B JS
B KD
A 8D
B 9C
A KS
A 7S
B QS
"""

# ECN.md "ecarte replay", verbatim (params is elided there with "...").
EXAMPLE_JSON = """
{
  "rules": "classic",
  "params": {"first_dealer": "higher_chooses", "dealer_min_discard": 1, "...": "..."},
  "hands": [
    {"dealer": "B", "trump": "S", "turn_up_king": false,
     "king": "A", "at_risk": "A", "tricks": {"A": 2, "B": 3},
     "points": {"A": 1, "B": 2}, "complete": true}
  ],
  "games": [{"score": {"A": 1, "B": 2}, "winner": null}],
  "match_winner": null
}
"""
