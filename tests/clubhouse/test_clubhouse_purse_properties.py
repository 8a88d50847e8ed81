"""Random sequences of stakes, wagers and settlements (hypothesis): no purse ever goes
below zero, and the chips in purses plus escrow are always the chips handed out."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from ecarte_tui.engine import Rules
from net.club.clubhouse.purse import MAX_STAKE, Ledger, LedgerError, split_pot
from net.store.ledger_db import ClubDB

PEOPLE = [f"p{i}" for i in range(8)]
RULES = [Rules.named("classic"), Rules.named("nl"), Rules.named("nl", target=11),
         Rules.named("classic", target=3)]


class LedgerMachine(RuleBasedStateMachine):
    @initialize()
    def start(self):
        self.db = ClubDB(":memory:")
        self.ledger = Ledger(self.db)
        self.n = 0
        self.open_games: list[str] = []

    def teardown(self):
        self.db.close()

    def _snapshot(self):
        return self.db.read("SELECT player, chips FROM club_purses ORDER BY player"), \
            self.ledger.escrow_total()

    def _refused(self, call):
        """A refused request must change nothing (except opening a purse)."""
        before = self._snapshot()
        try:
            call()
        except LedgerError:
            after = self._snapshot()
            grown = {p for p, _ in after[0]} - {p for p, _ in before[0]}
            assert [r for r in after[0] if r[0] not in grown] == before[0]
            assert after[1] == before[1]
            return False
        return True

    @rule(a=st.sampled_from(PEOPLE), b=st.sampled_from(PEOPLE),
          stake=st.integers(0, MAX_STAKE), rules=st.sampled_from(RULES))
    def open_game(self, a, b, stake, rules):
        if a == b:
            return
        self.n += 1
        g = f"G/{self.n}"
        if self._refused(lambda: self.ledger.open_game(g, (a, b), stake, rules)):
            self.open_games.append(g)

    @precondition(lambda self: self.open_games)
    @rule(data=st.data(), bets=st.lists(
        st.tuples(st.sampled_from(PEOPLE), st.integers(1, 300) | st.integers(1, 1500),
                  st.integers(0, 1)), min_size=1, max_size=5))
    def wagers(self, data, bets):
        g = data.draw(st.sampled_from(self.open_games))
        players = self.ledger.game(g).players
        for bettor, amount, side in bets:
            self._refused(
                lambda b=bettor, s=side, a=amount: self.ledger.place_wager(g, b, players[s], a)
            )

    @precondition(lambda self: self.open_games)
    @rule(data=st.data())
    def close(self, data):
        self.ledger.close_betting(data.draw(st.sampled_from(self.open_games)))

    @precondition(lambda self: self.open_games)
    @rule(data=st.data(), side=st.integers(0, 1), sa=st.integers(0, 16),
          sb=st.integers(0, 16), twice=st.booleans())
    def settle(self, data, side, sa, sb, twice):
        g = data.draw(st.sampled_from(self.open_games))
        winner = self.ledger.game(g).players[side]
        self.ledger.settle(g, winner, (sa, sb))
        if twice:
            before = self._snapshot()
            assert self.ledger.settle(g, winner, (sa, sb)).already
            assert self._snapshot() == before
        self.open_games.remove(g)

    @precondition(lambda self: self.open_games)
    @rule(data=st.data())
    def void(self, data):
        g = data.draw(st.sampled_from(self.open_games))
        self.ledger.void(g)
        self.open_games.remove(g)

    @invariant()
    def no_purse_below_zero(self):
        if hasattr(self, "ledger"):
            low = self.db.read("SELECT MIN(chips) FROM club_purses")[0][0]
            assert low is None or low >= 0

    @invariant()
    def chips_are_conserved(self):
        if hasattr(self, "ledger"):
            assert self.ledger.purses_total() + self.ledger.escrow_total() == self.ledger.minted()


LedgerMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestLedgerMachine = LedgerMachine.TestCase


@given(st.lists(st.tuples(st.sampled_from("AB"), st.integers(1, 10_000)), max_size=12),
       st.sampled_from("AB"))
def test_split_pot_pays_out_exactly_the_pot(bets, winner):
    wagers = [(i, on, a) for i, (on, a) in enumerate(bets)]
    pay = split_pot(wagers, winner)
    assert sum(pay.values()) == sum(a for _, _, a in wagers)
    losing = sum(a for _, on, a in wagers if on != winner)
    winning = sum(a for _, on, a in wagers if on == winner)
    for i, on, a in wagers:
        if winning and losing:
            if on == winner:  # the fair share, rounded down or up by at most one chip
                assert 0 <= pay[i] - (a + a * losing // winning) <= 1
            else:
                assert pay[i] == 0
        else:
            assert pay[i] == a
