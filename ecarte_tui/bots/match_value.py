"""The chance of winning the match from a score: what the expert maximises, not tricks.

A Markov model of whole hands: each hand gives the dealer or the elder a bonus point (the
turned-up or announced king) and then 1, 2 or 3 points for the tricks, with frequencies
measured in self-play (``HAND_OUTCOMES``). From that, a small dynamic
programme gives P(win the game | my score, his score, who deals), and the games combine
into P(win the match). The same score is worth more to the player about to deal or not,
and a point matters much more at 3-3 than at 0-4, which is the whole point.
"""

from __future__ import annotations

from ..engine.rules import Rules

# (probability, bonus to the dealer, bonus to the elder, trick points to the dealer, trick
# points to the elder): the outcomes of a hand, and how often each comes
Outcomes = tuple[tuple[float, int, int, int, int], ...]

# Measured over 20,000 hands of classic-bot self-play (the dealer's
# bonus is the turned-up king or a king drawn in the exchanges). ``cap`` rules first, then
# ``add`` rules, where a penalised vole scores 3.
HAND_OUTCOMES_CAP: Outcomes = (
    (0.1982, 0, 0, 0, 1),
    (0.1863, 0, 0, 1, 0),
    (0.1535, 1, 0, 1, 0),
    (0.1022, 0, 1, 0, 1),
    (0.1010, 1, 0, 0, 1),
    (0.0559, 1, 0, 2, 0),
    (0.0525, 0, 0, 2, 0),
    (0.0491, 0, 1, 1, 0),
    (0.0481, 0, 1, 0, 2),
    (0.0405, 0, 0, 0, 2),
    (0.0127, 1, 0, 0, 2),
)
HAND_OUTCOMES_ADD: Outcomes = (
    (0.1982, 0, 0, 0, 1),
    (0.1863, 0, 0, 1, 0),
    (0.1535, 1, 0, 1, 0),
    (0.1022, 0, 1, 0, 1),
    (0.1010, 1, 0, 0, 1),
    (0.0541, 1, 0, 2, 0),
    (0.0525, 0, 0, 2, 0),
    (0.0491, 0, 1, 1, 0),
    (0.0464, 0, 1, 0, 2),
    (0.0405, 0, 0, 0, 2),
    (0.0127, 1, 0, 0, 2),
    (0.0018, 1, 0, 3, 0),
    (0.0018, 0, 1, 0, 3),
)


def hand_outcomes(rules: Rules) -> Outcomes:
    """The outcome table for these rules (normalised)."""
    return _normalised(HAND_OUTCOMES_ADD if rules.penalty_on_vole == "add"
                       else HAND_OUTCOMES_CAP)


def _normalised(table: Outcomes) -> Outcomes:
    total = sum(t[0] for t in table)
    return tuple((p / total, bd, be, td, te) for p, bd, be, td, te in table)


class MatchValue:
    """P(this seat wins the match), for one rule set. Cheap to query, built lazily.

    ``sides``: the hands' outcomes when this seat deals and when the other does (each in
    the dealer's and the elder's terms), where the two play unalike; by default both are
    the self-play table, the two seats alike."""

    def __init__(self, rules: Rules, sides: tuple[Outcomes, Outcomes] | None = None) -> None:
        self.target = rules.target
        self.games_to_win = rules.games_to_win
        if sides is None:
            sides = (hand_outcomes(rules),) * 2
        self._sides = tuple(_normalised(t) for t in sides)
        self._game: dict[tuple[int, int, bool], float] = {}
        self._match: dict[tuple[int, int], float] = {}

    def game_win(self, me: int, opp: int, i_deal: bool) -> float:
        """P(I win this game) with the scores given, ``i_deal`` for the next hand."""
        target = self.target
        if me >= target:
            return 1.0
        if opp >= target:
            return 0.0
        key = (me, opp, i_deal)
        v = self._game.get(key)
        if v is not None:
            return v
        # fill bottom-up for big targets, to stay clear of the recursion limit
        if target > 30 and not self._game:
            for s in range(2 * target - 2, -1, -1):
                for a in range(max(0, s - target + 1), min(s, target - 1) + 1):
                    b = s - a
                    for d in (False, True):
                        self._game_step(a, b, d)
            return self._game[key]
        return self._game_step(me, opp, i_deal)

    def _game_step(self, me: int, opp: int, i_deal: bool) -> float:
        target = self.target
        total = 0.0
        for p, bd, be, td, te in self._sides[0 if i_deal else 1]:
            if i_deal:
                bm, bo, tm, to = bd, be, td, te
            else:
                bm, bo, tm, to = be, bd, te, td
            a, b = me + bm, opp + bo
            if a >= target:
                total += p
                continue
            if b >= target:
                continue
            a, b = a + tm, b + to
            if a >= target:
                total += p
            elif b < target:
                total += p * self.game_win(a, b, not i_deal)
        self._game[(me, opp, i_deal)] = total
        return total

    def match_win(self, games_me: int, games_opp: int) -> float:
        """P(I win the match) at the start of a game, with these games won."""
        g = self.games_to_win
        if games_me >= g:
            return 1.0
        if games_opp >= g:
            return 0.0
        key = (games_me, games_opp)
        v = self._match.get(key)
        if v is None:
            # who deals first in the next game is a coin toss from here: average it
            q = 0.5 * (self.game_win(0, 0, True) + self.game_win(0, 0, False))
            v = q * self.match_win(games_me + 1, games_opp) + (1 - q) * self.match_win(
                games_me, games_opp + 1
            )
            self._match[key] = v
        return v

    def value(self, me: int, opp: int, i_deal: bool, games_me: int, games_opp: int) -> float:
        """P(I win the match) with these game scores and games won."""
        win = self.match_win(games_me + 1, games_opp)
        lose = self.match_win(games_me, games_opp + 1)
        return lose + (win - lose) * self.game_win(me, opp, i_deal)


def first_deal_chances(rules: Rules) -> tuple[float, float]:
    """P(win the match) from the start for the first dealer and for the first elder. The
    sources give no advice on the choice; in the self-play these frequencies come from, the
    dealer scores 0.93 points a hand and the elder 0.80 (the turned-up king is the
    dealer's), so the model gives the first dealer 50.7% of five-point games."""
    value = MatchValue(rules)
    return value.value(0, 0, True, 0, 0), value.value(0, 0, False, 0, 0)


def first_dealer_for(rules: Rules, chooser: int) -> int:
    """Who deals the first hand, chosen by ``chooser`` (the higher card, 001) for the better
    chance of the match."""
    deal, lead = first_deal_chances(rules)
    return chooser if deal >= lead else 1 - chooser


def first_deal_hint(rules: Rules) -> str:
    """The expert's advice to a player who chooses who deals first, with its reason."""
    deal, lead = first_deal_chances(rules)
    if deal >= lead:
        what, why, best, other = "deal (d)", "the dealer scores the king he turns up", deal, lead
    else:
        what, why, best, other = ("let him deal (o)", "the elder leads and may play or propose",
                                  lead, deal)
    return f"{what} — {why}: {100 * best:.1f}% against {100 * other:.1f}% to win the match"


def points_for_tricks(
    my_tricks: int, at_risk_me: bool, at_risk_opp: bool, cap: bool
) -> tuple[int, int]:
    """(my points, his points) for a finished hand (RULES.md §6)."""
    if my_tricks >= 3:
        pts = 2 if my_tricks == 5 else 1
        if at_risk_opp:
            pts = 2 if cap else pts + 1
        return pts, 0
    pts = 2 if my_tricks == 0 else 1
    if at_risk_me:
        pts = 2 if cap else pts + 1
    return 0, pts


def hand_values(
    mv: MatchValue,
    me: int,
    opp: int,
    i_am_elder: bool,
    games_me: int,
    games_opp: int,
    at_risk: int | None,
    my_seat: int,
    king_me: int,
    king_opp: int,
    cap: bool,
) -> tuple[float, ...]:
    """The match value for each number of tricks 0..5 I may end this hand with.

    ``king_me``/``king_opp`` are king points still to come (announced before the tricks
    end the hand); a point that reaches the target ends the game at once (000, 001).
    """
    target = mv.target
    win = mv.match_win(games_me + 1, games_opp)
    lose = mv.match_win(games_me, games_opp + 1)
    a, b = me + king_me, opp + king_opp
    if a >= target:
        return (win,) * 6
    if b >= target:
        return (lose,) * 6
    out = []
    risk_me = at_risk == my_seat
    risk_opp = at_risk is not None and at_risk != my_seat
    for t in range(6):
        pm, po = points_for_tricks(t, risk_me, risk_opp, cap)
        x, y = a + pm, b + po
        if x >= target:
            out.append(win)
        elif y >= target:
            out.append(lose)
        else:
            out.append(lose + (win - lose) * mv.game_win(x, y, i_am_elder))
    return tuple(out)
