"""The trick solver agrees with a plain minimax over the engine's own legal moves."""

from __future__ import annotations

import random

from bots_support import c, mask

from ecarte_tui.bots import Bot
from ecarte_tui.bots.classic import ClassicBot
from ecarte_tui.bots.playout import PolicyPlay
from ecarte_tui.bots.solver import make_solver
from ecarte_tui.engine import PLAY, Kind, Match, Rules, seat_view


def engine_minimax(m: Match, seat: int, opponent: Bot | None = None) -> int:
    """Tricks ``seat`` ends the hand with, choosing each card for the most tricks, using only
    the engine: against perfect replies, or against what ``opponent`` plays."""
    rec = m.hand
    assert rec is not None
    if rec.complete:
        return rec.tricks[seat]
    mover = m.to_move
    assert mover is not None
    if mover != seat and opponent is not None:
        action = opponent.choose(seat_view(m, mover))
        assert action is not None
        child = m.copy()
        child.apply(action)
        return engine_minimax(child, seat, opponent)
    results = []
    for a in m.legal_actions():
        if a.kind is not Kind.CARD:
            continue
        child = m.copy()
        child.apply(a)
        results.append(engine_minimax(child, seat, opponent))
    return max(results) if mover == seat else min(results)


def random_position(rng: random.Random, rules: Rules, tricks: int) -> Match:
    """A dealt hand, played without proposing, with ``tricks`` tricks played at random."""
    m = Match(rules, first_dealer=0)
    m.deal(rng)
    m.apply(PLAY)
    while len(m.tricks_played) < tricks or m.led >= 0:
        cards = [a for a in m.legal_actions() if a.kind is Kind.CARD]
        m.apply(rng.choice(cards))
    return m


def test_solver_matches_engine_minimax() -> None:
    rng = random.Random(7)
    for i in range(60):
        rules = Rules.named("classic", ace_high=i % 3 == 0)
        m = random_position(rng, rules, tricks=2 if i % 4 else 1)
        leader = m.to_move
        assert leader is not None
        solve = make_solver(m.trump, rules.ace_high)
        already = m.tricks_won()[leader]
        got = already + solve(m.hands[leader], m.hands[1 - leader])
        assert got == engine_minimax(m, leader)


def test_solver_full_hands_against_engine() -> None:
    rng = random.Random(11)
    for _ in range(3):
        m = random_position(rng, Rules(), tricks=0)
        elder = m.elder
        solve = make_solver(m.trump, False)
        assert solve(m.hands[elder], m.hands[1 - elder]) == engine_minimax(m, elder)


def test_solver_hand_built_positions() -> None:
    # hearts trump; the leader holds K Q of trumps and the K of spades: all three tricks
    solve = make_solver(c("7H") >> 3, False)
    assert solve(mask("KH QH KS"), mask("JH AH 7S")) == 3
    # a lone small trump against three top trumps takes nothing
    assert solve(mask("7H 8S 9S"), mask("KH QH JH")) == 0
    # the follower must head with his king, and his 8 then falls to the leader's other spade
    assert solve(mask("QS JS"), mask("KS 8S")) == 1
    # no spade and no trump left: the leader's queen is thrown on the 8 of diamonds
    assert solve(mask("7S QS"), mask("KS 8D")) == 0


def test_best_play_against_the_treatises_matches_an_engine_search_against_classic() -> None:
    rng = random.Random(5)
    differs = 0
    for i in range(200):
        rules = Rules.named("classic", ace_high=i % 3 == 0)
        m = random_position(rng, rules, tricks=i % 3)
        seat = m.to_move if i % 2 else 1 - m.to_move  # as the leader and as the follower
        assert seat is not None
        policy = PolicyPlay(m.trump, rules.ace_high)
        got = m.tricks_won()[seat] + policy.best_tricks(
            m.hands[seat], m.hands[1 - seat], seat == m.to_move)
        assert got == engine_minimax(m, seat, ClassicBot()), i
        solve = make_solver(m.trump, rules.ace_high)
        exact = solve(m.hands[seat], m.hands[1 - seat]) if seat == m.to_move else (
            m.hands[seat].bit_count() - solve(m.hands[1 - seat], m.hands[seat]))
        assert got >= m.tricks_won()[seat] + exact  # a fixed opponent never does better
        differs += got != m.tricks_won()[seat] + exact
    assert differs > 0  # the treatises' play is not the exact play
