"""``suggest``: the expert's choice put into one sentence a player understands.

The sentence argues for the action: it quotes the fact that makes it better than the next
best (the chance of the point, of the vole, the tricks, or of winning the match), or says
that the two are about as good and why this one is named (the treatises' choice, or a
shade ahead on the deals weighed). It never quotes a figure that speaks against the action
without saying so. The treatises' choice is computed here (``ClassicBot``), not read from
the expert, so the words stay right whether or not the expert keeps the treatises' answer
before the play.

Figures: "100%" and "0%" only when every (or no) sampled deal does it; a share that would
round to either is given to a tenth ("99.6%"). Only ``ActionEval``'s value, point, vole,
tricks and deals are relied on (``samples``, when present, only sharpens "about as good").
"""

from __future__ import annotations

import math
from dataclasses import replace

from ..engine.actions import ACCEPT, KING, PLAY, PROPOSE, REFUSE, Action, Kind
from ..engine.cards import STRENGTH, card_label, in_hand_order
from ..engine.match import Phase
from ..engine.view import SeatView
from . import Suggestion
from .classic import ClassicBot
from .expert import ActionEval, ExpertBot

ADVICE_EFFORT = 1.0  # the same search as the expert opponent: well under a second
TINY = 1e-9  # below this two shares are the same number (sums of weights, not noise)
KEEP_QUIET = "keep the king quiet"  # a reason that opens so advises *not* to announce

_WORD = {PLAY: "play without proposing", PROPOSE: "propose", REFUSE: "refuse", ACCEPT: "accept"}
_NAME = {PLAY: "playing", PROPOSE: "proposing", REFUSE: "refusing", ACCEPT: "accepting"}
_HOW = {PLAY: "as dealt", REFUSE: "as dealt", PROPOSE: "after an exchange",
        ACCEPT: "after an exchange"}


def advise(view: SeatView, seed: int = 0) -> Suggestion:
    """The expert's recommended action for ``view`` and why."""
    legal = view.legal
    if not legal:
        raise ValueError("there is nothing to do: no legal action in this view")
    bot = ExpertBot(seed, ADVICE_EFFORT)
    target = view.rules.target
    quiet = ""
    if KING in legal:
        if bot.announce_now(view):
            if view.scores[view.seat] + 1 >= target:
                return Suggestion(KING, "announce the king of trumps: its point wins the game")
            return Suggestion(KING, "announce the king of trumps: 1 point now")
        # would it announce if it were its turn? Then only waiting holds it back.
        point_matters = bot.announce_now(replace(view, to_move=view.seat))
        if view.to_move != view.seat:
            if point_matters:
                return Suggestion(KING, f"{KEEP_QUIET} until your first card: your "
                                  "opponent then leads without knowing where it is")
            return Suggestion(KING, f"{KEEP_QUIET}: its point cannot change the match, and "
                              "announcing it tells your opponent where it is")
        if not point_matters:
            quiet = f" ({KEEP_QUIET}: its point cannot change the match)"
    options = [a for a in legal if a is not KING]
    if not options:
        return Suggestion(KING, f"{KEEP_QUIET}: its point cannot change the match")
    if len(options) == 1:
        a = options[0]
        return Suggestion(a, f"{a.label()} is the only legal move{quiet}")
    evals = bot.evaluate(view)
    treatise = treatise_choice(view, options)
    return Suggestion(evals[0].action, reason(view, evals, treatise) + quiet)


def treatise_choice(view: SeatView, options: list[Action]) -> Action | None:
    """What the treatises (the ``classic`` bot) would do here, the king aside."""
    try:
        a = ClassicBot().choose(replace(view, legal=tuple(options)))
    except (AssertionError, ValueError):
        return None
    return a if a in options else None


def reason(view: SeatView, evals: list[ActionEval], treatise: Action | None) -> str:
    """Why ``evals[0]`` (the expert's choice; the rest best first) is the one to take."""
    a = evals[0].action
    if a.kind is Kind.CARD:
        return _card_reason(view, evals)
    if a.kind is Kind.DISCARD:
        return _discard_reason(evals, treatise, view.hand)
    return _bid_reason(view, evals, treatise)


# ------------------------------------------------------------------ figures in words


def pct(x: float) -> str:
    """A share in per cent: "100%" or "0%" only when it is exactly so, else never rounded
    to either ("99.6%", "0.4%")."""
    if x >= 1 - TINY:
        return "100%"
    if x <= TINY:
        return "0%"
    r = round(100 * x)
    if 1 <= r <= 99:
        return f"{r}%"
    for digits in (1, 2):
        d = f"{100 * x:.{digits}f}"
        if float(d) not in (0.0, 100.0):
            return f"{d}%"
    return "under 0.01%" if x < 0.5 else "over 99.99%"


def pct_or_none(x: float) -> str:
    """The other side of a comparison: "none" when nothing at all, else ``pct``."""
    return "none" if x <= TINY else pct(x)


def share(x: float, n: int) -> str:
    """How often something happens over the ``n`` deals weighed: "in all 120 deals" only
    when every one does it, "in none of the 120 deals", or "in 76% of 120 deals"."""
    if x >= 1 - TINY:
        return f"in all {n} deals"
    if x <= TINY:
        return f"in none of the {n} deals"
    return f"in {pct(x)} of {n} deals"


def _two(x: float, y: float) -> tuple[str, str]:
    """Two chances in per cent, with a tenth more when whole numbers would hide the gap."""
    a, b = pct(x), pct(y)
    if a == b and abs(x - y) > TINY and 0 < x < 1 and 0 < y < 1:
        a, b = f"{100 * x:.1f}%", f"{100 * y:.1f}%"
    return a, b


def odds(x: float, y: float) -> str:
    """Two chances of winning the match side by side."""
    a, b = _two(x, y)
    if a == b:
        return f"{a} to win the match either way"
    return f"{a} against {b} to win the match"


def odds_with(x: float, y: float, other: str) -> str:
    """This action's chance of winning the match, and ``other``'s (a card)."""
    a, b = _two(x, y)
    if a == b:
        return f"{a} to win the match, a shade more than with {other}"
    return f"{a} to win the match, against {b} with {other}"


def gap(d: float) -> str:
    """A difference of chances, as a player reads it ("3%", "0.4%")."""
    d = abs(d)
    if d >= 0.005:
        return f"{round(100 * d)}%"
    if d >= 0.0005:
        return f"{100 * d:.1f}%"
    return "under 0.1%"


def paired(a: ActionEval, b: ActionEval) -> tuple[float, float, int]:
    """How much more often ``a`` wins the match than ``b``, the standard error of that,
    and over how many deals. Both are weighed on the same deals (the first ``n`` when one
    was dropped early from a race), so the difference is taken deal by deal; without the
    per-deal values, a plain bound from the number of deals stands in for the error."""
    sa, sb = getattr(a, "samples", ()), getattr(b, "samples", ())
    n = min(a.deals, b.deals)
    d = a.value - b.value
    if sa and sb and min(len(sa), len(sb)) > 1:
        n = min(len(sa), len(sb))
        diffs = [x - y for x, y in zip(sa[:n], sb[:n], strict=True)]
        m = sum(diffs) / n
        if len(sa) != len(sb) or a.deals != b.deals:
            d = m  # the values themselves are over different deals: not comparable
        return d, math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1) / n), n
    if a.deals != b.deals:
        return d, math.inf, n
    return d, 0.25 / math.sqrt(max(1, n)), n


def clearly_better(a: ActionEval, b: ActionEval) -> bool:
    """Does ``a`` beat ``b`` by more than the noise of the deals weighed?"""
    d, se, _ = paired(a, b)
    return d > TINY and d > se


def _cards_text(mask: int, hand: tuple[int, ...] = ()) -> str:
    """Cards as the player's hand shows them (trumps first, high to low)."""
    if not mask:
        return "keeping your hand"
    return " ".join(card_label(c) for c in in_hand_order(mask, hand))


# ------------------------------------------------------------------ before the play


def _bid_reason(view: SeatView, evals: list[ActionEval], treatise: Action | None) -> str:
    """Play or propose (elder), refuse or accept (dealer): the hand as dealt against an
    exchange, over the same deals."""
    c = evals[0]
    o = next(e for e in evals if e.action is not c.action)
    a, b = c.action, o.action
    head = _WORD.get(a, a.label())
    other = _NAME.get(b, b.label())
    if clearly_better(c, o):
        fact = _bid_fact(view, c, o)
        text = f"{head}: {fact}; {odds(c.value, o.value)}"
        if treatise is not None and treatise is not a:
            text += f" (the treatises would {_WORD.get(treatise, treatise.label())})"
        return text
    if min(c.value, o.value) >= 1 - TINY:
        return f"{head}: the match is won either way; you make the point {share(c.point, c.deals)}"
    if max(c.value, o.value) <= TINY:
        return f"{head}: the match is lost either way"
    if treatise is a:
        if o.value > c.value + TINY:
            return (f"{head}: the treatises' choice; {other} comes out {gap(o.value - c.value)}"
                    f" better, within the noise of {c.deals} deals")
        return f"{head}: about as good as {other} ({odds(c.value, o.value)}); the treatises' choice"
    if c.value > o.value + TINY:
        return f"{head}: about as good as {other} ({odds(c.value, o.value)}), a shade ahead"
    return f"{head}: about as good as {other} ({odds(c.value, o.value)})"


def _bid_fact(view: SeatView, c: ActionEval, o: ActionEval) -> str:
    """The fact that makes ``c`` better than ``o`` (``c`` wins more matches)."""
    how_c, how_o = _HOW.get(c.action, ""), _HOW.get(o.action, "")
    n = c.deals
    dp, dv = c.point - o.point, c.vole - o.vole
    point = (f"{how_c} you make the point {share(c.point, n)}, against "
             f"{pct_or_none(o.point)} {how_o}")
    vole = (f"{how_c} you win the vole (all 5 tricks) {share(c.vole, n)}, against "
            f"{pct_or_none(o.vole)} {how_o}")
    at_risk = _at_risk_as_dealt(view)
    granted = f"more often ({pct(o.point)} against {pct(c.point)})"
    if c.action in (PROPOSE, ACCEPT) and at_risk == view.seat:
        stakes = f"{how_o} you make the point {granted}, but a lost hand would cost you 2 points"
    elif c.action is REFUSE and at_risk == 1 - view.seat:
        stakes = f"an exchange makes the point {granted}, but if you refuse the elder risks 2"
    else:
        stakes = ""
    if dp > TINY and dp >= dv:
        return point
    # the vole, unless the 2 points at stake weigh more: the hand as dealt is lost more
    # often than the vole is gained
    if dv > TINY and dv >= -dp and not (stakes and dp < -TINY and dv < 1 - o.point):
        return vole
    if dp < -TINY and stakes:
        return stakes
    if dv > TINY:
        return vole
    if dp < -TINY:
        return f"though {how_o} you make the point {granted}, the score favours it"
    return f"you make the point {share(c.point, n)} either way, but the score favours it"


def _at_risk_as_dealt(view: SeatView) -> int | None:
    """The seat that loses 2 points if it fails when the hand is played as dealt."""
    if view.exchanges or view.elder is None:
        return None
    if view.phase is Phase.DECIDE:
        return view.seat
    if view.phase is Phase.ANSWER:
        return view.seat if view.rules.penalized == "committer" else view.elder
    return None


# ------------------------------------------------------------------ the discards


def _discard_reason(evals: list[ActionEval], treatise: Action | None,
                    hand: tuple[int, ...] = ()) -> str:
    """The discard named is the best of those weighed, or the treatises' one with the
    best weighed named and how much more often it wins."""
    c = evals[0]
    k = len(evals)
    head = c.action.label()
    point = f"after the draw you make the point {share(c.point, c.deals)}"
    if k == 1:
        return f"{head}: the only discard worth weighing; {point}"
    # a race drops the poor candidates early: only those weighed to the end compare
    most = max(e.deals for e in evals)
    top = max((e for e in evals if e.deals == most), key=lambda e: e.value)
    is_top = c.deals == most and c.value >= top.value - TINY
    t_eval = next((e for e in evals if e.action == treatise), None)
    if c.action == treatise:
        if is_top:
            return f"{head}: the treatises' discard and the best of {k} weighed; {point}"
        d, _, n = paired(top, c)
        return (f"{head}: the treatises' discard; the best of {k} weighed, "
                f"{_cards_text(top.action.cards, hand)}, wins the match {gap(d)} more often, "
                f"within the noise of {n} deals")
    if is_top:
        if t_eval is None:
            return f"{head}: the best of {k} weighed; {point}"
        mine = _cards_text(t_eval.action.cards, hand)
        d, se, n = paired(c, t_eval)
        if d > TINY and d > se and n < c.deals:
            return (f"{head}: the best of {k} weighed; the treatises' {mine} fell "
                    f"{gap(d)} behind in the first {n} deals and was dropped")
        if d > TINY and d > se:
            return (f"{head}: the best of {k} weighed; the treatises' {mine} wins the match "
                    f"{gap(d)} less often")
        if d > TINY:
            return (f"{head}: the best of {k} weighed, a shade ahead of the treatises' "
                    f"{mine} (within noise)")
        return f"{head}: the best of {k} weighed, about as good as the treatises' {mine}"
    d, _, n = paired(top, c)
    return (f"{head}: about as good as the best of {k} weighed, "
            f"{_cards_text(top.action.cards, hand)} ({gap(d)} apart over {n} deals)")


# ------------------------------------------------------------------ the tricks


def _card_reason(view: SeatView, evals: list[ActionEval]) -> str:
    """Why this card: it makes the point (or the vole, or saves tricks) more often than
    the next best card, or that card does about as well."""
    c, o = evals[0], evals[1]
    head = f"play {c.action.label()}"
    other = card_label(o.action.card)
    n = c.deals
    mine, theirs = view.tricks_won[view.seat], view.tricks_won[1 - view.seat]
    if mine >= 3:
        return f"{head}: the point is yours; {_vole_fact(c, o, evals, other)}"
    if theirs >= 3 or all(e.point <= TINY for e in evals):
        lost = "the point is lost" if theirs >= 3 else f"the point is lost in all {n} deals"
        return f"{head}: {lost}; {_saving_fact(c, o, evals, other)}"
    if clearly_better(c, o):
        if c.point > o.point + TINY:
            return (f"{head}: wins 3 tricks or more {share(c.point, n)}, against "
                    f"{pct_or_none(o.point)} with {other}")
        if c.vole > o.vole + TINY:
            return (f"{head}: the vole (all 5 tricks) {share(c.vole, n)}, against "
                    f"{pct_or_none(o.vole)} with {other}")
        if c.tricks > o.tricks + TINY:
            return f"{head}: {c.tricks:.1f} tricks on average, against {o.tricks:.1f} with {other}"
        return f"{head}: {odds_with(c.value, o.value, other)}"
    if len(evals) > 2 and all(abs(e.value - c.value) <= TINY for e in evals):
        same = "any other card does as well"
    elif len(evals) > 2 and not any(clearly_better(c, e) for e in evals[1:]):
        same = "any other card does about as well"
    else:
        same = f"{other} does about as well"
    if c.value > o.value + TINY:
        why = ", this one a shade better"
    elif c.tricks > o.tricks + TINY:
        why = ", this one for more tricks"
    elif STRENGTH[view.rules.ace_high][c.action.card] < STRENGTH[view.rules.ace_high][
            o.action.card]:
        why = ": play the lower card"
    else:
        why = ""
    if c.point > TINY:
        return f"{head}: wins 3 tricks or more {share(c.point, n)}; {same}{why}"
    return f"{head}: {same} ({odds(c.value, o.value)}){why}"


def _vole_fact(c: ActionEval, o: ActionEval, evals: list[ActionEval], other: str) -> str:
    """With the point won: what this card does for the vole."""
    n = c.deals
    top = max(e.vole for e in evals)
    if top <= TINY:
        return f"no card wins the vole (all 5 tricks) in any of the {n} deals"
    if c.vole > o.vole + TINY:
        return (f"keeps the vole (all 5 tricks) {share(c.vole, n)}, against "
                f"{pct_or_none(o.vole)} with {other}")
    if c.vole >= top - TINY:
        return f"the vole (all 5 tricks) {share(c.vole, n)}, which no card beats"
    return f"{other} does about as well ({odds(c.value, o.value)})"


def _saving_fact(c: ActionEval, o: ActionEval, evals: list[ActionEval], other: str) -> str:
    """With the point lost: what this card saves."""
    if c.tricks > o.tricks + TINY and c.tricks >= max(e.tricks for e in evals) - TINY:
        return (f"it saves the most tricks ({c.tricks:.1f} on average, against "
                f"{o.tricks:.1f} with {other})")
    if clearly_better(c, o):
        return odds_with(c.value, o.value, other)
    if not any(clearly_better(c, e) or clearly_better(e, c) for e in evals[1:]):
        return "any card does as well"
    return f"{other} does about as well"
