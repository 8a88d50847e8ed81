"""What one seat may see (DESIGN.md, "Hidden information"): the only thing bots and screens get.

Built from the match by copying out public facts and the seat's own cards; nothing here holds
a reference to the match, so a widget or a bot cannot reach the opponent's hand through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action, Kind, discard
from .cards import cards_of, sorted_hand
from .match import SEATS, A, Match, Phase
from .rules import Rules


@dataclass(frozen=True, slots=True)
class Event:
    """One public step of the hand. An opponent's discard keeps only its ``count``."""

    seat: int
    action: Action
    count: int = 0

    def describe(self, names: tuple[str, str] = ("A", "B"), ascii_only: bool = False) -> str:
        who = names[self.seat]
        kind = self.action.kind
        if kind is Kind.DISCARD:
            n = self.count
            took = "keeps the hand" if n == 0 else f"discards {n}, takes {n}"
            if self.action.cards:
                return f"{who} {took} ({self.action.label(ascii_only)[8:]})"
            return f"{who} {took}"
        if kind is Kind.CARD:
            return f"{who} plays {self.action.label(ascii_only)}"
        return {
            Kind.PLAY: f'{who}: "We play!"',
            Kind.PROPOSE: f'{who}: "Cards!"',
            Kind.ACCEPT: f'{who}: "How many?"',
            Kind.REFUSE: f'{who}: "We play!" (refuses)',
            Kind.KING: f'{who}: "I have the king!"',
        }[kind]


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    lead: int
    follow: int
    winner: int


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished or running hand, as far as it is public."""

    number: int
    dealer: int
    trump: int
    turn_up: int
    turn_up_king: bool
    king: int | None
    at_risk: int | None
    tricks: tuple[int, int]
    points: tuple[int, int]
    complete: bool
    over: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int | None  # None: a watcher, who sees only the public table
    rules: Rules
    phase: Phase
    to_move: int | None
    legal: tuple[Action, ...]
    hand_number: int  # 0 before the first deal
    game_number: int
    dealer: int | None
    elder: int | None
    hand: tuple[int, ...]  # own cards, trumps first
    own_discards: tuple[int, ...]  # masks, one per own exchange
    opponent_discards: tuple[int, ...]  # counts only, one per opponent exchange
    opponent_cards: int  # how many cards the opponent holds (0 for a watcher)
    cards_in_hand: tuple[int, int]  # how many cards each seat holds (public)
    discard_counts: tuple[tuple[int, ...], tuple[int, ...]]  # per seat, per exchange (public)
    turn_up: int | None
    trump: int | None
    stock_size: int
    exchanges: int
    tricks: tuple[Trick, ...]
    trick_lead: int | None  # the card led to the current trick, if any
    leader: int | None
    tricks_won: tuple[int, int]
    king: int | None  # who announced the king of trumps
    at_risk: int | None
    scores: tuple[int, int]
    games_won: tuple[int, int]
    hand_points: tuple[int, int]
    events: tuple[Event, ...]  # this hand, public form
    previous: tuple[HandSummary, ...]  # the hands before this one
    game_winner: int | None
    match_winner: int | None
    forfeit: int | None = None  # the seat that lost the match by not coming back
    resigned: bool = False  # ... or rather by resigning it

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat

    @property
    def opponent(self) -> int:
        assert self.seat is not None, "a watcher has no opponent"
        return 1 - self.seat

    @property
    def hand_mask(self) -> int:
        m = 0
        for c in self.hand:
            m |= 1 << c
        return m

    def visible_cards(self) -> set[int]:
        """Every card face this view shows, to check it against what must stay hidden."""
        seen = set(self.hand)
        for m in self.own_discards:
            seen.update(cards_of(m))
        for t in self.tricks:
            seen.update((t.lead, t.follow))
        if self.trick_lead is not None:
            seen.add(self.trick_lead)
        if self.turn_up is not None:
            seen.add(self.turn_up)
        for e in self.events:
            seen.update(cards_of(e.action.cards))
        for a in self.legal:
            seen.update(cards_of(a.cards))
        for h in self.previous:
            seen.add(h.turn_up)
        return seen


def progress(match: Match) -> tuple[int, tuple[int, int]]:
    """The hand's number (0 before the first deal) and the current game's score, as
    ``seat_view`` gives them: a club's list of tables shows these for every table, and a
    whole view (with a summary of every hand before) per table and per fill was most of
    its cost."""
    rec = match.hand
    if rec is None:
        return 0, (0, 0)
    game = match.games[rec.game]
    return len(match.hands_log), (game.score[0], game.score[1])


def seat_view(match: Match, seat: int | None) -> SeatView:
    """The view of ``seat``: its own hand and discards, and what is public.

    ``seat=None`` is a watcher's view: no hand, no discards, no legal actions.
    """
    rec = match.hand
    legal: Sequence[Action] = () if seat is None else match.legal_actions(seat)
    if rec is None:
        return SeatView(
            seat, match.rules, match.phase, match.to_move, tuple(legal), 0, 0, None, None, (),
            (), (), 0, (0, 0), ((), ()), None, None, 0, 0, (), None, None, (0, 0), None, None,
            (0, 0), tuple(match.games_won), (0, 0), (), (), None, match.match_winner,
            match.forfeited, match.resigned,
        )
    events = []
    for s, action in rec.actions:
        if action.kind is Kind.DISCARD:
            n = action.cards.bit_count()
            events.append(Event(s, action if s == seat else discard(0), n))
        else:
            events.append(Event(s, action))
    game = match.games[rec.game]
    own = () if seat is None else tuple(match.discards[seat])
    if seat is None:
        opp_discards: tuple[int, ...] = ()
        opp_cards = 0
        hand: tuple[int, ...] = ()
    else:
        opp_discards = tuple(m.bit_count() for m in match.discards[1 - seat])
        opp_cards = match.hands[1 - seat].bit_count()
        hand = tuple(sorted_hand(cards_of(match.hands[seat]), rec.trump, match.rules.ace_high))
    in_play = match.phase is Phase.TRICKS
    previous = tuple(_summary(match, i) for i in range(len(match.hands_log) - 1))
    return SeatView(
        seat=seat,
        rules=match.rules,
        phase=match.phase,
        to_move=match.to_move,
        legal=tuple(legal),
        hand_number=len(match.hands_log),
        game_number=rec.game + 1,
        dealer=rec.dealer,
        elder=1 - rec.dealer,
        hand=hand,
        own_discards=own,
        opponent_discards=opp_discards,
        opponent_cards=opp_cards,
        cards_in_hand=(match.hands[0].bit_count(), match.hands[1].bit_count()),
        discard_counts=(
            tuple(m.bit_count() for m in match.discards[0]),
            tuple(m.bit_count() for m in match.discards[1]),
        ),
        turn_up=rec.up,
        trump=rec.trump,
        stock_size=match.stock_size,
        exchanges=match.exchanges,
        tricks=tuple(Trick(*t) for t in match.tricks_played),
        trick_lead=match.led if in_play and match.led >= 0 else None,
        leader=match.leader if in_play else None,
        tricks_won=(rec.tricks[A], rec.tricks[1 - A]),
        king=rec.king,
        at_risk=rec.at_risk,
        scores=(game.score[0], game.score[1]),
        games_won=(match.games_won[0], match.games_won[1]),
        hand_points=(rec.points[0], rec.points[1]),
        events=tuple(events),
        previous=previous,
        game_winner=game.winner,
        match_winner=match.match_winner,
        forfeit=match.forfeited,
        resigned=match.resigned,
    )


def _summary(match: Match, i: int) -> HandSummary:
    h = match.hands_log[i]
    return HandSummary(
        i + 1, h.dealer, h.trump, h.up, h.turn_up_king, h.king, h.at_risk,
        (h.tricks[0], h.tricks[1]), (h.points[0], h.points[1]), h.complete, h.over,
    )


def seat_name(seat: int) -> str:
    return SEATS[seat]
