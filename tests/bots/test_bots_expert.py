"""The expert finds forced wins, stays deterministic, and advises with reasons."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from bots_support import c, drive, hand_from

from ecarte_tui.bots import Suggestion, make_bot, make_oracle, suggest
from ecarte_tui.bots.expert import ExpertBot
from ecarte_tui.bots.solver import make_solver
from ecarte_tui.bots.treatises import king_of_trumps
from ecarte_tui.engine import (
    ACCEPT,
    KING,
    PLAY,
    PROPOSE,
    Action,
    Kind,
    Match,
    Phase,
    Rules,
    discard,
    play_card,
    seat_view,
)
from ecarte_tui.engine.cards import cards_of


def winning_leads(solve, lead: int, follow: int, trump: int, ace_high: bool = False) -> list[int]:
    """The cards ``lead`` may lead and still take 3 tricks against ``follow``, perfectly."""
    from ecarte_tui.bots.solver import follow_options
    from ecarte_tui.engine.cards import HIGHER, SUIT_MASK

    out = []
    for card in cards_of(lead):
        resp, follower_wins = follow_options(card, follow, SUIT_MASK[trump], HIGHER[ace_high])
        worst = 5
        for r in cards_of(resp):
            rest, frest = lead & ~(1 << card), follow & ~(1 << r)
            if follower_wins:
                t = 4 - solve(frest, rest)
            else:
                t = 1 + solve(rest, frest)
            worst = min(worst, t)
        if worst >= 3:
            out.append(card)
    return out


def random_deals(seed: int) -> Iterator[tuple[int, int, int]]:
    """Endless (elder hand, dealer hand, turn-up) deals from one seed."""
    rng = random.Random(seed)
    while True:
        deck = list(range(32))
        rng.shuffle(deck)
        yield sum(1 << x for x in deck[:5]), sum(1 << x for x in deck[5:10]), deck[10]


def one_winning_lead(seed: int) -> tuple[int, int, int, int]:
    """(elder hand, dealer hand, turn-up, the one lead that makes the point)."""
    for a, b, up in random_deals(seed):
        trump = up >> 3
        if a >> king_of_trumps(trump) & 1:
            continue
        leads = winning_leads(make_solver(trump, False), a, b, trump)
        if len(leads) == 1:
            return a, b, up, leads[0]
    raise AssertionError("unreachable")


def known_position(a: int, b: int, up: int) -> Match:
    """Elder A holds ``a`` and has seen every other card but B's ``b``.

    Under the ``regles`` rules the dealer may keep his hand, so A changes 5 cards four
    times and then the last card of the stock, while B keeps his: A's discards show him
    all 21 other cards, and the play starts with A to lead.
    """
    rest = [x for x in range(32) if not (a | b | 1 << up) >> x & 1]
    mine = cards_of(a)
    first, junk = rest[:5], rest[5:]
    stock = junk[:15] + mine[:4] + [junk[15]] + [mine[4]]
    m = Match(Rules.named("regles"), first_dealer=1)
    m.start_hand(first, cards_of(b), up, stock, dealer=1)
    for _ in range(4):
        m.apply(PROPOSE)
        m.apply(ACCEPT)
        m.apply(discard(m.hands[0]))
        m.apply(discard(0))
    m.apply(PROPOSE)
    m.apply(ACCEPT)
    m.apply(discard(1 << junk[15]))
    assert m.phase is Phase.TRICKS and m.to_move == 0 and m.hands[0] == a
    return m


def test_expert_finds_the_only_winning_lead() -> None:
    for seed in range(3):
        a, b, up, lead = one_winning_lead(seed)
        m = known_position(a, b, up)
        view = seat_view(m, 0)
        assert view.legal.count(KING) == 0
        assert make_bot("expert", seed).choose(view) == play_card(lead)


def point_only_against_the_treatises(seed: int) -> tuple[int, int, int, set[int]]:
    """(elder hand, dealer hand, turn-up, the leads that make the point when the dealer
    plays by the treatises) for a deal where no lead makes it against perfect defence."""
    from ecarte_tui.bots.playout import PolicyPlay

    for a, b, up in random_deals(seed):
        trump = up >> 3
        if (a | b) >> king_of_trumps(trump) & 1:
            continue
        if winning_leads(make_solver(trump, False), a, b, trump):
            continue
        policy = PolicyPlay(trump, False)
        good = set()
        for card in cards_of(a):
            reply = policy.follow(b, card)
            mine = not policy.heads(card, reply)
            rest, frest = a & ~(1 << card), b & ~(1 << reply)
            if mine + policy.best_tricks(rest, frest, mine) >= 3:
                good.add(card)
        if good and len(good) < 5:
            return a, b, up, good
    raise AssertionError("unreachable")


def test_expert_plays_for_sensible_replies_when_perfect_defence_beats_every_lead() -> None:
    # the dealer cannot see the elder's cards: a lead that makes the point against the
    # treatises' replies beats one that loses to them, though both lose to perfect play
    # (on these deals an expert that expects perfect replies leads another card)
    for seed in (0, 4, 8):
        a, b, up, good = point_only_against_the_treatises(seed)
        view = seat_view(known_position(a, b, up), 0)
        action = make_bot("expert", seed).choose(view)
        assert action is not None and action.card in good


def test_oracle_plays_perfectly() -> None:
    a, b, up, lead = one_winning_lead(7)
    m = Match(Rules(), first_dealer=1)
    rest = [x for x in range(32) if not (a | b | 1 << up) >> x & 1]
    m.start_hand(cards_of(a), cards_of(b), up, rest, dealer=1)
    m.apply(PLAY)
    oracle = make_oracle(m, 0, 1)
    assert "sees all cards" in oracle.name
    assert oracle.choose(seat_view(m, 0)) == play_card(lead)


def test_expert_is_deterministic_and_instances_do_not_interfere() -> None:
    def actions(bots: tuple, seed: int) -> list[tuple[int, Action]]:
        m = Match(Rules.named("academie"), first_dealer=0)
        drive(m, bots, rng=random.Random(seed))
        return [x for h in m.hands_log for x in h.actions]

    first = actions((ExpertBot(5, 0.3), make_bot("classic", 1)), 9)
    # other experts at work in the same process in between change nothing
    actions((ExpertBot(8, 0.3), ExpertBot(9, 0.3)), 3)
    assert actions((ExpertBot(5, 0.3), make_bot("classic", 1)), 9) == first


def test_every_level_is_deterministic_for_a_seed() -> None:
    for level in ("random", "easy", "classic"):
        logs = []
        for _ in range(2):
            m = Match(Rules(), first_dealer=1)
            drive(m, (make_bot(level, 3), make_bot("random", 4)), rng=random.Random(2))
            logs.append([x for h in m.hands_log for x in h.actions])
        assert logs[0] == logs[1]


def test_suggest_gives_a_legal_action_and_a_reason() -> None:
    """(How fast: ``ecarte arena`` prints CPU and wall time per decision; no test times it.)"""
    rng = random.Random(4)
    rules = [Rules.named(p) for p in ("classic", "regles", "nl")]
    seen_kinds = set()
    for i in range(60):
        m = Match(rules[i % 3], first_dealer=i & 1)
        m.deal(rng)
        steps = rng.randrange(12)
        for _ in range(steps):
            if m.to_move is None:
                break
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
        for seat in (0, 1):
            view = seat_view(m, seat)
            if not view.legal:
                continue
            s = suggest(view, seed=i)
            assert isinstance(s, Suggestion)
            assert s.action in view.legal
            assert s.reason.strip()
            seen_kinds.add(s.action.kind)
    assert {Kind.CARD, Kind.DISCARD} <= seen_kinds


def test_suggest_names_the_chance_of_the_point() -> None:
    a, b, up, lead = one_winning_lead(1)
    s = suggest(seat_view(known_position(a, b, up), 0))
    assert s.action == play_card(lead)
    # the one winning lead makes the point in every deal, the next best card in none
    assert "3 tricks or more in all" in s.reason and "against none with" in s.reason


def test_announces_the_king_and_waits_as_dealer_under_own_first_card() -> None:
    # classic rules (own_first_card): B, the dealer, holds the king of hearts
    m = hand_from("7S 8S 9S 7D 8D", "KH TS AS 9D TD", "7H")
    m.apply(PLAY)
    bot = make_bot("expert", 1)
    waiting = seat_view(m, 1)
    assert waiting.legal == (KING,)
    assert bot.choose(waiting) is None  # the elder leads without knowing where it is
    m.apply(play_card(c("7S")))
    mine = seat_view(m, 1)
    assert KING in mine.legal
    assert bot.choose(mine) is KING


def test_announces_at_once_under_opening_lead() -> None:
    m = hand_from("7S 8S 9S 7D 8D", "KH TS AS 9D TD", "7H", Rules.named("nl"))
    m.apply(PLAY)
    assert make_bot("expert", 1).choose(seat_view(m, 1)) is KING


def test_before_the_play_the_search_decides_and_flags_the_treatises_choice() -> None:
    # margin 0 (the default): the best estimate wins, whatever the treatises say
    m = hand_from("KS 9D 7H JD 7C", None, "8D")
    evals = ExpertBot(2, margin=0.0).evaluate(seat_view(m, 0))
    assert {e.action for e in evals} == {PLAY, PROPOSE}
    assert evals[0].value >= evals[1].value
    assert [e.treatise for e in evals].count(True) == 1
    assert evals[0].deals == evals[1].deals >= 64  # the same deals, at least a batch


def test_discards_race_and_the_best_weighed_longest_comes_first() -> None:
    m = hand_from("KD 9S 7H 8C QC", None, "8D")
    m.apply(PROPOSE)
    m.apply(ACCEPT)
    evals = ExpertBot(3).evaluate(seat_view(m, 0))
    king = 1 << c("KD")
    assert all(e.action.kind is Kind.DISCARD and not e.action.cards & king for e in evals)
    most = max(e.deals for e in evals)
    assert evals[0].deals == most
    assert evals[0].value >= max(e.value for e in evals if e.deals == most)
    assert min(e.deals for e in evals) < most  # the poor ones were dropped early
    assert sum(e.treatise for e in evals) == 1


def test_the_deals_of_bids_and_discards_scale_on_their_own() -> None:
    # bid_effort and discard_effort multiply the deals of their decisions only (on top of
    # effort), so an experiment can give more to one kind of decision
    bid = seat_view(hand_from("KS 9D 7H JD 7C", None, "8D"), 0)
    m = hand_from("KD 9S 7H 8C QC", None, "8D")
    m.apply(PROPOSE)
    m.apply(ACCEPT)
    swap = seat_view(m, 0)

    def used(bot: ExpertBot, view: object) -> int:
        return max(e.deals for e in bot.evaluate(view))  # type: ignore[arg-type]

    assert used(ExpertBot(2, bid_effort=2), bid) >= 384  # a first batch of 2 x 192
    assert used(ExpertBot(2, bid_effort=0.1), bid) <= 115  # at most 0.1 x 1,152
    assert used(ExpertBot(2, bid_effort=0.1), swap) == used(ExpertBot(2), swap)
    assert used(ExpertBot(2, discard_effort=0.1), swap) <= 57  # at most 0.1 x 576
    assert used(ExpertBot(2, discard_effort=0.1), bid) == used(ExpertBot(2), bid)


class _PlanChecker(ExpertBot):
    """Plays as the expert and, at each card with a choice, weighs the cards both ways."""

    def __init__(self) -> None:
        super().__init__(3, 0.2)
        self.planned = ExpertBot(3, 0.2, info_sets=True)
        self.compared = self.lower = 0

    def choose(self, view):  # type: ignore[no-untyped-def]
        if view.phase is Phase.TRICKS and view.to_move == view.seat and len(view.legal) > 1:
            seeing = {e.action: e.value for e in self.evaluate(view)}
            for e in self.planned.evaluate(view):
                assert e.value <= seeing[e.action] + 1e-12
                self.lower += e.value < seeing[e.action] - 1e-12
                self.compared += 1
        return super().choose(view)


def test_planning_without_seeing_his_cards_never_values_a_card_higher() -> None:
    # the same deals weighed both ways: a plan the same across deals he cannot tell apart
    # takes no more than the best play on each deal, and on some it takes less
    checker = _PlanChecker()
    drive(Match(Rules(), first_dealer=1), (checker, make_bot("classic", 2)),
          rng=random.Random(4))
    assert checker.compared > 20
    assert checker.lower > 0


def test_with_every_card_known_the_plan_is_the_best_play() -> None:
    for seed in range(2):
        a, b, up, _ = one_winning_lead(seed)
        view = seat_view(known_position(a, b, up), 0)
        seeing = {e.action: e.value for e in ExpertBot(seed).evaluate(view)}
        planned = {e.action: e.value for e in ExpertBot(seed, info_sets=True).evaluate(view)}
        assert planned == pytest.approx(seeing)
