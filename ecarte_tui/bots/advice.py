"""``suggest``: the expert's choice put into one sentence a player understands."""

from __future__ import annotations

from ..engine.actions import ACCEPT, KING, PLAY, PROPOSE, REFUSE, Kind
from ..engine.view import SeatView
from . import Suggestion
from .expert import ActionEval, ExpertBot

ADVICE_EFFORT = 1.0  # the same search as the expert opponent: well under a second


def _pct(x: float) -> str:
    return f"{round(100 * x)}%"


def advise(view: SeatView, seed: int = 0) -> Suggestion:
    """The expert's recommended action for ``view`` and why."""
    legal = view.legal
    if not legal:
        raise ValueError("there is nothing to do: no legal action in this view")
    bot = ExpertBot(seed, ADVICE_EFFORT)
    target = view.rules.target
    if KING in legal:
        if bot.announce_now(view):
            if view.scores[view.seat] + 1 >= target:
                return Suggestion(KING, "announce the king of trumps: its point wins the game")
            return Suggestion(KING, "announce the king of trumps: 1 point now")
        if view.to_move != view.seat:
            return Suggestion(
                KING,
                "you may announce the king now, but waiting for your first card is better: "
                "your opponent leads without knowing where it is",
            )
    options = [a for a in legal if a is not KING]
    if not options:
        return Suggestion(KING, "announce the king: the point cannot change this game, "
                          "so you may also keep it hidden")
    if len(options) == 1:
        a = options[0]
        return Suggestion(a, f"{a.label()} is the only legal move")
    evals = bot.evaluate(view)
    return Suggestion(evals[0].action, _reason(view, evals))


def _reason(view: SeatView, evals: list[ActionEval]) -> str:
    best = evals[0]
    a = best.action
    n = best.deals
    deals = f"of the {n} deals consistent with what you know"
    if a.kind is Kind.CARD:
        label = a.label()
        if view.tricks_won[view.seat] >= 3:
            if best.vole > 0:
                return f"play {label}: keeps the vole (all 5 tricks) in {_pct(best.vole)} {deals}"
            return f"play {label}: the point is yours; this card loses nothing"
        if best.point == 0:
            return f"play {label}: the point is lost in every one {deals}; this limits the damage"
        return f"play {label}: wins 3 tricks or more in {_pct(best.point)} {deals}"
    names = {PLAY: "playing", PROPOSE: "proposing", ACCEPT: "accepting", REFUSE: "refusing"}
    if a in names:
        other = next(e for e in evals if e.action is not a)
        head = {
            PLAY: f"play without proposing: you take 3 tricks in {_pct(best.point)} of the "
            "deals you may face",
            PROPOSE: f"propose: as it stands your hand takes 3 tricks in "
            f"{_pct(other.point)} of the deals you may face",
            REFUSE: f"refuse: your hand takes 3 tricks in {_pct(best.point)} of the deals "
            "the elder may hold",
            ACCEPT: f"accept: refusing, you would take 3 tricks in {_pct(other.point)} of the "
            "deals the elder may hold",
        }[a]
        return head + _compare(best, other, names[other.action])
    return (
        f"{a.label()}: after the draw you make the point in {_pct(best.point)} of {n} deals, "
        f"the best of {len(evals)} ways to change cards"
    )


def _compare(best: ActionEval, other: ActionEval, other_name: str) -> str:
    """How the choice compares with the other one, in chances of winning the match."""
    odds = f"{_pct(best.value)} against {_pct(other.value)} to win the match"
    if best.value > other.value + 0.005:
        return f"; better than {other_name} ({odds})"
    if best.value >= other.value - 0.005:
        return f"; {other_name} is about as good ({odds})"
    return f"; the classical rule, which {other_name} does not clearly beat ({odds})"
