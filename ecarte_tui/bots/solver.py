"""Exact double-dummy solver for the trick play, on bitmasks, with a transposition table.

Écarté hands hold at most five cards and the follow rules (follow, head, trump) leave few
choices, so the whole tree of the remaining tricks is small: we solve it exactly instead of
guessing. The value is the number of tricks the side to lead still wins; since a hand's
score only grows with the number of tricks, the trick count that minimax gives is also the
one that gives the best score (a monotone payoff keeps the same optimal play).
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.cards import HIGHER, SUIT_MASK

# the suit mask of each card id, so move generation is one table look-up
CARD_SUIT: tuple[int, ...] = tuple(SUIT_MASK[c >> 3] for c in range(32))

LeadSolver = Callable[[int, int], int]


def follow_options(card: int, follower: int, trump_mask: int, higher: tuple[int, ...]) -> tuple[
    int, bool
]:
    """The follower's legal replies to ``card`` (a mask) and whether they win the trick."""
    same = follower & CARD_SUIT[card]
    if same:
        hi = same & higher[card]
        if hi:
            return hi, True
        return same, False
    trumps = follower & trump_mask
    if trumps:
        return trumps, True
    return follower, False


def make_solver(trump: int, ace_high: bool, memo: dict[int, int] | None = None) -> LeadSolver:
    """``solve(leader, follower)``: tricks the leader wins from here, both playing perfectly.

    ``memo`` may be shared between solvers of the same trump and rank order (one hand).
    """
    higher = HIGHER[ace_high]
    tmask = SUIT_MASK[trump]
    card_suit = CARD_SUIT
    table: dict[int, int] = {} if memo is None else memo
    table[0] = 0  # no cards left: no tricks (key of the empty position)

    def solve(lead: int, follow: int) -> int:
        key = (lead << 32) | follow
        v = table.get(key)
        if v is not None:
            return v
        n = lead.bit_count()
        if n == 1:
            c = lead.bit_length() - 1
            if follow & card_suit[c]:
                v = 0 if follow & higher[c] else 1
            else:
                v = 0 if follow & tmask else 1
            table[key] = v
            return v
        best = -1
        m = lead
        while m:
            c = m.bit_length() - 1  # strongest ids first: good cards find cut-offs early
            cb = 1 << c
            m ^= cb
            rest = lead ^ cb
            same = follow & card_suit[c]
            if same:
                resp = same & higher[c]
                wins = resp != 0
                if not wins:
                    resp = same
            else:
                resp = follow & tmask
                wins = resp != 0
                if not wins:
                    resp = follow
            worst = n
            if wins:
                while resp:
                    rb = resp & -resp
                    resp ^= rb
                    val = n - 1 - solve(follow ^ rb, rest)
                    if val < worst:
                        worst = val
                        if worst <= best:
                            break
            else:
                while resp:
                    rb = resp & -resp
                    resp ^= rb
                    val = 1 + solve(rest, follow ^ rb)
                    if val < worst:
                        worst = val
                        if worst <= best:
                            break
            if worst > best:
                best = worst
                if best == n:
                    break
        table[key] = best
        return best

    return solve
