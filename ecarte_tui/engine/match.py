"""The match as one state machine: deals, proposals, exchanges, the king, tricks and scores.

Like python-chess's ``Board``: one mutable object, ``legal_actions`` and ``apply``. Every
check happens before anything changes, so an illegal action leaves the state as it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import overload

from .actions import ACCEPT, CARD_ACTIONS, KING, PLAY, PROPOSE, REFUSE, Action, Kind, discard
from .cards import (
    HIGHER,
    STRENGTH,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_SINGULAR,
    card_str,
    cards_of,
    make_card,
)
from .cards import (
    KING as KING_FACE,
)
from .deal import deal_from, shuffled_deck
from .errors import IllegalAction
from .rules import Rules

A, B = 0, 1
SEATS = "AB"


class Phase(IntEnum):
    DEAL = 0  # waiting for the next deal (or the first)
    DECIDE = 1  # the elder plays or proposes
    ANSWER = 2  # the dealer accepts or refuses
    ELDER_DISCARD = 3
    DEALER_DISCARD = 4
    TRICKS = 5
    OVER = 6  # the match is over


class DealError(ValueError):
    """A deal that cannot be: duplicate cards, wrong counts, a dealer out of turn."""


@dataclass(slots=True)
class HandRecord:
    """One hand as ECN writes it, and its outcome as ``ecarte replay --json`` reports it."""

    dealer: int
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    up: int
    stock: tuple[int, ...]
    game: int
    actions: list[tuple[int, Action]] = field(default_factory=list)
    turn_up_king: bool = False
    king: int | None = None
    at_risk: int | None = None
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    complete: bool = False
    over: bool = False

    @property
    def trump(self) -> int:
        return self.up >> 3


@dataclass(slots=True)
class GameRecord:
    score: list[int] = field(default_factory=lambda: [0, 0])
    winner: int | None = None


_SUBSETS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def _subset_patterns(lo: int, hi: int) -> tuple[tuple[int, ...], ...]:
    """Index sets of a 5-card hand with lo..hi members, smallest discards first."""
    key = (lo, hi)
    if key not in _SUBSETS:
        pats = sorted(
            (p for p in range(32) if lo <= p.bit_count() <= hi),
            key=lambda p: (p.bit_count(), p),
        )
        _SUBSETS[key] = tuple(tuple(j for j in range(5) if p >> j & 1) for p in pats)
    return _SUBSETS[key]


class DiscardChoices(Sequence[Action]):
    """The legal discards, built lazily: 31 of them is too many to make on every call."""

    __slots__ = ("_cards", "_patterns", "hand", "lo", "hi")

    def __init__(self, hand: int, lo: int, hi: int) -> None:
        self.hand = hand
        self.lo = lo
        self.hi = hi
        self._cards = cards_of(hand)
        self._patterns = _subset_patterns(lo, min(hi, len(self._cards)))

    def __len__(self) -> int:
        return len(self._patterns)

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        cards = self._cards
        m = 0
        for j in self._patterns[i]:
            m |= 1 << cards[j]
        return discard(m)

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self._patterns)):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, Action)
            and action.kind is Kind.DISCARD
            and action.cards & ~self.hand == 0
            and self.lo <= action.cards.bit_count() <= self.hi
        )

    def __repr__(self) -> str:
        return f"DiscardChoices({len(self)} discards of {self.lo}..{self.hi})"


_EMPTY: tuple[Action, ...] = ()
_DECIDE = (PLAY, PROPOSE)
_ANSWER = (ACCEPT, REFUSE)

_PHASE_WANTS = {
    Phase.DECIDE: "the elder must play or propose",
    Phase.ANSWER: "the dealer must accept or refuse the proposal",
    Phase.ELDER_DISCARD: "the elder must discard",
    Phase.DEALER_DISCARD: "the dealer must discard",
    Phase.TRICKS: "the cards are being played",
}


class Match:
    """A whole match. Seats are 0 (``A``) and 1 (``B``)."""

    def __init__(self, rules: Rules | None = None, first_dealer: int | None = None) -> None:
        self.rules = rules or Rules()
        self.first_dealer = first_dealer
        self._higher = HIGHER[self.rules.ace_high]
        self._strength = STRENGTH[self.rules.ace_high]
        self.hands_log: list[HandRecord] = []
        self.games: list[GameRecord] = []
        self.games_won = [0, 0]
        self.match_winner: int | None = None
        self.forfeited: int | None = None  # the seat that lost the match by not coming back
        self.resigned = False  # ... or rather by resigning it
        self.phase = Phase.DEAL
        self.to_move: int | None = None
        self.dealer = -1
        self.elder = -1
        self.hands = [0, 0]
        self.stock: tuple[int, ...] = ()
        self.stock_pos = 0
        self.up = -1
        self.trump = -1
        self.king_card = -1
        self.exchanges = 0
        self.discards: tuple[list[int], list[int]] = ([], [])
        self.played = [0, 0]
        self.leader = -1
        self.led = -1
        self.tricks_played: list[tuple[int, int, int, int]] = []
        self._hand: HandRecord | None = None

    # ----------------------------------------------------------------- reading the state

    @property
    def hand(self) -> HandRecord | None:
        """The current (or last) hand's record."""
        return self._hand

    @property
    def game(self) -> GameRecord | None:
        return self.games[-1] if self.games else None

    @property
    def scores(self) -> list[int]:
        g = self.games[-1] if self.games else None
        return list(g.score) if g else [0, 0]

    @property
    def stock_size(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def needs_deal(self) -> bool:
        return self.phase is Phase.DEAL

    @property
    def next_dealer(self) -> int | None:
        """Who deals the next hand; None before the first hand if nobody is set."""
        if self.hands_log:
            return 1 - self.hands_log[-1].dealer
        return self.first_dealer

    def tricks_won(self) -> list[int]:
        return list(self._hand.tricks) if self._hand else [0, 0]

    def king_may_announce(self, seat: int) -> bool:
        return self._king_refusal(seat) is None

    # ----------------------------------------------------------------- dealing

    def deal(self, rng: random.Random, dealer: int | None = None) -> HandRecord:
        """Shuffle and deal the next hand from ``rng``."""
        d = self._check_dealer(dealer)
        cards = deal_from(shuffled_deck(rng))
        hands = (cards.dealer, cards.elder) if d == A else (cards.elder, cards.dealer)
        return self.start_hand(hands[0], hands[1], cards.up, cards.stock, dealer=d)

    def _check_dealer(self, dealer: int | None) -> int:
        if self.phase is Phase.OVER:
            raise DealError(self.over_text())
        if self.phase is not Phase.DEAL:
            raise DealError("the hand is not finished")
        expected = self.next_dealer
        if dealer is None:
            if expected is None:
                raise DealError("nobody has been chosen to deal the first hand")
            return expected
        if dealer not in (A, B):
            raise DealError(f"no such seat {dealer!r}")
        if self.hands_log and dealer != expected:
            last = SEATS[1 - expected]
            raise DealError(
                f"dealer out of turn: {last} dealt the last hand, so {SEATS[expected]} deals"
            )
        return dealer

    def start_hand(
        self,
        hand_a: Sequence[int],
        hand_b: Sequence[int],
        up: int,
        stock: Sequence[int],
        dealer: int | None = None,
    ) -> HandRecord:
        """Start a hand from given cards (an ECN record, a test, a replay)."""
        d = self._check_dealer(dealer)
        if len(hand_a) != 5:
            raise DealError(f"A must be dealt 5 cards, not {len(hand_a)}")
        if len(hand_b) != 5:
            raise DealError(f"B must be dealt 5 cards, not {len(hand_b)}")
        if len(stock) != 21:
            raise DealError(f"the stock must hold 21 cards, not {len(stock)}")
        seen = 0
        for c in (*hand_a, *hand_b, up, *stock):
            if not 0 <= c < 32:
                raise DealError(f"no such card {c!r}")
            if seen >> c & 1:
                raise DealError(f"card {card_str(c)} is dealt twice")
            seen |= 1 << c
        if self.first_dealer is None:
            self.first_dealer = d
        if not self.games or self.games[-1].winner is not None:
            self.games.append(GameRecord())
        rec = HandRecord(d, (tuple(hand_a), tuple(hand_b)), up, tuple(stock), len(self.games) - 1)
        self.hands_log.append(rec)
        self._hand = rec
        self.dealer = d
        self.elder = 1 - d
        self.hands = [sum(1 << c for c in hand_a), sum(1 << c for c in hand_b)]
        self.stock = rec.stock
        self.stock_pos = 0
        self.up = up
        self.trump = up >> 3
        self.king_card = make_card(KING_FACE, self.trump)
        self.exchanges = 0
        self.discards = ([], [])
        self.played = [0, 0]
        self.leader = self.elder
        self.led = -1
        self.tricks_played = []
        self.phase = Phase.DECIDE
        self.to_move = self.elder
        if up & 7 == KING_FACE:
            # Turn-up king: the dealer scores at once, which may end the game (all sources).
            rec.turn_up_king = True
            self._score(d, 1)
        return rec

    # ----------------------------------------------------------------- legal actions

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """What ``seat`` (default: the player to move) may do now."""
        phase = self.phase
        mover = self.to_move
        if seat is None:
            seat = mover
            if seat is None:
                return _EMPTY
        if phase is Phase.TRICKS:
            cards = self._legal_card_mask(seat) if seat == mover else 0
            out = [CARD_ACTIONS[c] for c in cards_of(cards)]
            if self._king_refusal(seat) is None:
                out.append(KING)
            return out
        if seat != mover:
            return _EMPTY
        if phase is Phase.DECIDE:
            return _DECIDE
        if phase is Phase.ANSWER:
            return _ANSWER
        if phase is Phase.ELDER_DISCARD:
            return DiscardChoices(self.hands[seat], 1, min(5, self.stock_size))
        if phase is Phase.DEALER_DISCARD:
            return DiscardChoices(
                self.hands[seat], self.rules.dealer_min_discard, min(5, self.stock_size)
            )
        return _EMPTY

    def _legal_card_mask(self, seat: int) -> int:
        h = self.hands[seat]
        led = self.led
        if led < 0:
            return h
        same = h & SUIT_MASK[led >> 3]
        if same:
            return (same & self._higher[led]) or same
        return (h & SUIT_MASK[self.trump]) or h

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        if seat is None:
            seat = self.to_move
            if seat is None:  # between hands or after the match: nobody may do anything
                return False
        try:
            self._check(action, seat)
        except IllegalAction:
            return False
        return True

    # ----------------------------------------------------------------- applying

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (default: the player to move), or raise IllegalAction."""
        if seat is None:
            if self.to_move is None:
                self._check(action, A)  # raises with the reason
            seat = self.to_move
            assert seat is not None
        elif seat not in (A, B):
            raise IllegalAction(0, f"there is no seat {seat!r}: seats are 0 (A) and 1 (B)")
        self._check(action, seat)
        rec = self._hand
        assert rec is not None
        rec.actions.append((seat, action))
        kind = action.kind
        if kind is Kind.CARD:
            self._play_card(seat, action.card)
        elif kind is Kind.KING:
            rec.king = seat
            self._score(seat, 1)
        elif kind is Kind.PLAY:
            if self.exchanges == 0:
                rec.at_risk = seat
            self._begin_play()
        elif kind is Kind.PROPOSE:
            self.phase = Phase.ANSWER
            self.to_move = self.dealer
        elif kind is Kind.ACCEPT:
            self.phase = Phase.ELDER_DISCARD
            self.to_move = self.elder
        elif kind is Kind.REFUSE:
            if self.exchanges == 0:
                rec.at_risk = self.dealer if self.rules.penalized == "committer" else self.elder
            self._begin_play()
        else:  # DISCARD
            self._exchange(seat, action.cards)

    def _check(self, action: Action, seat: int) -> None:
        """Raise IllegalAction explaining why ``seat`` may not do ``action`` now."""
        phase = self.phase
        kind = action.kind
        if phase is Phase.OVER:
            raise IllegalAction(seat, self.over_text().replace("{", "{{").replace("}", "}}"))
        if phase is Phase.DEAL:
            raise IllegalAction(seat, "the hand is over: the next hand must be dealt first")
        if kind is Kind.KING:
            why = self._king_refusal(seat)
            if why is not None:
                raise IllegalAction(seat, why, king=self.king_card)
            return
        if seat != self.to_move:
            mover = SEATS[self.to_move] if self.to_move is not None else "nobody"
            raise IllegalAction(seat, f"it is {mover}'s turn, not {{who}}'s")
        if phase is Phase.TRICKS:
            if kind is not Kind.CARD:
                raise IllegalAction(seat, f"{{who}} cannot {action}: the play has begun")
            self._check_card(seat, action.card)
            return
        if phase is Phase.DECIDE and kind in (Kind.PLAY, Kind.PROPOSE):
            if self.stock_size == 0:  # cannot happen through apply; kept for safety
                raise IllegalAction(seat, "no proposal can be made: the stock is empty")
            return
        if phase is Phase.ANSWER and kind in (Kind.ACCEPT, Kind.REFUSE):
            return
        if phase in (Phase.ELDER_DISCARD, Phase.DEALER_DISCARD) and kind is Kind.DISCARD:
            self._check_discard(seat, action.cards)
            return
        what = "play a card" if kind is Kind.CARD else str(action).split()[0]
        raise IllegalAction(seat, f"{{who}} cannot {what} now: {_PHASE_WANTS[phase]}")

    def _check_card(self, seat: int, card: int) -> None:
        h = self.hands[seat]
        if not h >> card & 1:
            raise IllegalAction(seat, "{who} {does} not hold {card}", card=card)
        led = self.led
        if led < 0:
            return
        same = h & SUIT_MASK[led >> 3]
        if same:
            higher = same & self._higher[led]
            if higher and not higher >> card & 1:
                best = min(cards_of(higher), key=self._strength.__getitem__)
                raise IllegalAction(
                    seat, "{who} must head the trick: {led} is led and {who} {holds} {card}",
                    led=led, card=best,
                )
            if not same >> card & 1:
                raise IllegalAction(
                    seat, "{who} must follow suit: {led} is led and {who} {holds} {card}",
                    led=led, card=cards_of(same)[0],
                )
            return
        trumps = h & SUIT_MASK[self.trump]
        if trumps and not trumps >> card & 1:
            raise IllegalAction(
                seat,
                f"{{who}} must trump: {{led}} is led, {{who}} {{has}} no "
                f"{SUIT_SINGULAR[led >> 3]} and {{holds}} {{card}} "
                f"({SUIT_NAMES[self.trump]} are trumps)",
                led=led, card=cards_of(trumps)[0],
            )

    def _check_discard(self, seat: int, mask: int) -> None:
        h = self.hands[seat]
        foreign = mask & ~h
        if foreign:
            raise IllegalAction(seat, "{who} {does} not hold {card}", card=cards_of(foreign)[0])
        n = mask.bit_count()
        left = self.stock_size
        if self.phase is Phase.ELDER_DISCARD:
            if n == 0:
                raise IllegalAction(seat, "{who} must discard at least one card")
        elif n < self.rules.dealer_min_discard:
            raise IllegalAction(
                seat,
                "the dealer must change at least one card under these rules "
                f"({self.rules.preset}: dealer_min_discard {self.rules.dealer_min_discard})",
            )
        if n > left:
            cards = "1 card" if left == 1 else f"{left} cards"
            raise IllegalAction(
                seat, f"the stock holds only {cards}: {{who}} may take no more than {left}"
            )

    def _king_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not announce the king now, or None if it may (RULES.md §4)."""
        rec = self._hand
        if rec is None or self.phase is Phase.DEAL or self.phase is Phase.OVER:
            return "{who} cannot announce the king: no hand is being played"
        if self.phase is not Phase.TRICKS:
            return "{who} cannot announce the king before the play has begun"
        if rec.king is not None:
            return "the king has already been announced"
        if not self.hands[seat] >> self.king_card & 1:
            return (
                f"{{who}} cannot announce the king: {{who}} {{does}} not hold {{king}} "
                f"({SUIT_NAMES[self.trump]} are trumps)"
            )
        if self.rules.king_deadline == "own_first_card":
            if self.played[seat]:
                return "{who} announced the king too late: {who} {has} already played a card"
        elif self.played[0] or self.played[1]:
            return "the king is announced too late: the elder has led to the first trick"
        return None

    def _begin_play(self) -> None:
        self.phase = Phase.TRICKS
        self.to_move = self.elder
        self.leader = self.elder

    def _exchange(self, seat: int, mask: int) -> None:
        n = mask.bit_count()
        pos = self.stock_pos
        drawn = 0
        for c in self.stock[pos : pos + n]:
            drawn |= 1 << c
        self.stock_pos = pos + n
        self.hands[seat] = (self.hands[seat] & ~mask) | drawn
        self.discards[seat].append(mask)
        empty = self.stock_pos >= len(self.stock)
        if seat == self.elder:
            if empty:  # the elder emptied the stock: the dealer does not exchange (001)
                self.exchanges += 1
                self._begin_play()
            else:
                self.phase = Phase.DEALER_DISCARD
                self.to_move = self.dealer
        else:
            self.exchanges += 1
            if empty:  # no proposal can be made any more: the play starts (002, 004)
                self._begin_play()
            else:
                self.phase = Phase.DECIDE
                self.to_move = self.elder

    def _play_card(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        self.played[seat] += 1
        led = self.led
        if led < 0:
            self.led = card
            self.to_move = 1 - seat
            return
        if card >> 3 == led >> 3:
            win = seat if self._strength[card] > self._strength[led] else self.leader
        elif card >> 3 == self.trump:
            win = seat
        else:
            win = self.leader
        self.tricks_played.append((self.leader, led, card, win))
        rec = self._hand
        assert rec is not None
        rec.tricks[win] += 1
        self.led = -1
        self.leader = win
        self.to_move = win
        if len(self.tricks_played) == 5:
            rec.complete = True
            self._score_tricks(rec)

    def _score_tricks(self, rec: HandRecord) -> None:
        """Point, vole and the penalty for insisting (RULES.md §6)."""
        winner = A if rec.tricks[A] >= 3 else B
        vole = rec.tricks[winner] == 5
        pts = 2 if vole else 1
        if rec.at_risk == 1 - winner:
            pts = 2 if self.rules.penalty_on_vole == "cap" else pts + 1
        if not self._score(winner, pts):
            self._end_hand()

    def _score(self, seat: int, pts: int) -> bool:
        """Score points; end the game (and maybe the match) the moment the target is reached."""
        rec = self._hand
        game = self.games[-1]
        assert rec is not None
        rec.points[seat] += pts
        game.score[seat] += pts
        if game.score[seat] < self.rules.target:
            return False
        game.winner = seat
        self.games_won[seat] += 1
        self._end_hand()
        if self.games_won[seat] >= self.rules.games_to_win:
            self.match_winner = seat
            self.phase = Phase.OVER
        return True

    def _end_hand(self) -> None:
        rec = self._hand
        assert rec is not None
        rec.over = True
        self.phase = Phase.DEAL
        self.to_move = None

    def forfeit(self, seat: int, resigned: bool = False) -> None:
        """``seat`` did not come back (or ``resigned``): the other seat wins the game being
        played (if one is) and the match. Nothing is played or scored: the points stay as
        they are.

        A match already over cannot be forfeited (IllegalAction, the state unchanged).
        """
        if seat not in (A, B):
            raise IllegalAction(0, f"there is no seat {seat!r}: seats are 0 (A) and 1 (B)")
        if self.phase is Phase.OVER:
            raise IllegalAction(seat, self.over_text().replace("{", "{{").replace("}", "}}"))
        winner = 1 - seat
        game = self.games[-1] if self.games else None
        if game is not None and game.winner is None:
            game.winner = winner
            self.games_won[winner] += 1
        if self._hand is not None:
            self._hand.over = True
        self.match_winner = winner
        self.forfeited = seat
        self.resigned = resigned
        self.phase = Phase.OVER
        self.to_move = None

    def over_text(self) -> str:
        """Why nothing more can happen, e.g. "the match is over: A won it, 2 games to 1"."""
        if self.forfeited is not None:
            loser = SEATS[self.forfeited]
            how = "resigned" if self.resigned else "did not come back"
            return (f"the match is over: {loser} {how} and "
                    f"{SEATS[1 - self.forfeited]} won it by forfeit")
        w = self.match_winner if self.match_winner is not None else 0
        if self.rules.games_to_win == 1:
            g = self.games[-1].score
            return f"the match is over: {SEATS[w]} won it, {g[w]} points to {g[1 - w]}"
        a, b = self.games_won[w], self.games_won[1 - w]
        return f"the match is over: {SEATS[w]} won it, {a} games to {b}"

    # ----------------------------------------------------------------- helpers

    def copy(self) -> Match:
        """An independent copy (records are copied too, so the copy can be played on)."""
        m = Match.__new__(Match)
        m.__dict__.update(self.__dict__)
        m.hands = list(self.hands)
        m.played = list(self.played)
        m.games_won = list(self.games_won)
        m.discards = (list(self.discards[0]), list(self.discards[1]))
        m.tricks_played = list(self.tricks_played)
        m.games = [GameRecord(list(g.score), g.winner) for g in self.games]
        m.hands_log = [_copy_hand(h) for h in self.hands_log]
        m._hand = m.hands_log[-1] if m.hands_log else None
        return m


def _copy_hand(h: HandRecord) -> HandRecord:
    return HandRecord(
        h.dealer, h.hands, h.up, h.stock, h.game, list(h.actions), h.turn_up_king, h.king,
        h.at_risk, list(h.tricks), list(h.points), h.complete, h.over,
    )
