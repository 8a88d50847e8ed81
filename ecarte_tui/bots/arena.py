"""Bots against bots, with duplicate deals, to measure them.

Each deal sequence is played twice with the seats swapped (same shuffles), so the luck of
the cards mostly cancels. Every match depends only on the seed and its index, so results
are the same whatever the number of worker processes; only the timings change.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..engine.actions import KING
from ..engine.match import Match
from ..engine.rules import Rules
from ..engine.view import seat_view
from . import LEVELS, Bot, make_bot, make_oracle

ARENA_LEVELS = (*LEVELS, "oracle")


@dataclass(slots=True)
class MatchStats:
    """One match, from the two bots' side (index 0 = first bot named, 1 = second)."""

    winner: int
    hands: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    voles: list[int] = field(default_factory=lambda: [0, 0])
    at_risk: list[int] = field(default_factory=lambda: [0, 0])
    penalties: list[int] = field(default_factory=lambda: [0, 0])
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the arena seed and indices, the same on every platform."""
    return random.Random("/".join(str(p) for p in parts)).getrandbits(63)


def _make(level: str, seed: int, match: Match, seat: int) -> Bot:
    if level == "oracle":
        return make_oracle(match, seat, seed)
    return make_bot(level, seed)


def play_match(
    levels: tuple[str, str], rules: Rules, seed: int, pair: int, swapped: bool
) -> MatchStats:
    """Play one match of the pair ``pair``; ``swapped`` puts the first bot in seat B."""
    deal_rng = random.Random(derive_seed("deals", seed, pair))
    first_dealer = derive_seed("first", seed, pair) & 1
    m = Match(rules, first_dealer=first_dealer)
    # seat -> index of the bot (0 = first named)
    index = (1, 0) if swapped else (0, 1)
    bots = [
        _make(levels[index[s]], derive_seed("bot", seed, pair, index[s]), m, s) for s in (0, 1)
    ]
    stats = MatchStats(winner=-1)
    while not m.is_over:
        m.deal(deal_rng)
        asked = -1
        while m.to_move is not None:
            mover = m.to_move
            other = 1 - mover
            rec = m.hand
            assert rec is not None
            if asked != len(rec.actions) and m.legal_actions(other):
                # the king out of turn: ask the waiting seat once per position
                asked = len(rec.actions)
                a = bots[other].choose(seat_view(m, other))
                if a is not None:
                    _apply(m, a, other, bots[other])
                    continue
            view = seat_view(m, mover)
            start = time.perf_counter()
            a = bots[mover].choose(view)
            elapsed = (time.perf_counter() - start) * 1000
            if sum(1 for x in view.legal if x is not KING) > 1:
                stats.times[index[mover]].append(elapsed)
            if a is None:
                raise RuntimeError(f"{bots[mover].name} passed although it is to move")
            _apply(m, a, mover, bots[mover])
    for rec in m.hands_log:
        stats.hands += 1
        for s in (0, 1):
            i = index[s]
            stats.points[i] += rec.points[s]
            if rec.complete and rec.tricks[s] == 5:
                stats.voles[i] += 1
            if rec.at_risk == s:
                stats.at_risk[i] += 1
                if rec.complete and rec.tricks[s] < 3:
                    stats.penalties[i] += 1
    assert m.match_winner is not None
    stats.winner = index[m.match_winner]
    return stats


def _apply(m: Match, action: object, seat: int, bot: Bot) -> None:
    legal = m.legal_actions(seat)
    if action not in legal:
        raise RuntimeError(f"{bot.name} chose an illegal action: {action!r}")
    m.apply(action, seat)  # type: ignore[arg-type]


def _play_pair(args: tuple[tuple[str, str], Rules, int, int]) -> tuple[MatchStats, MatchStats]:
    levels, rules, seed, pair = args
    return (
        play_match(levels, rules, seed, pair, False),
        play_match(levels, rules, seed, pair, True),
    )


def run_pairs(
    levels: tuple[str, str],
    rules: Rules,
    pairs: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[MatchStats]:
    """Play ``pairs`` duplicate pairs; results in pair order whatever ``jobs`` is."""
    tasks = [(levels, rules, seed, p) for p in range(pairs)]
    out: list[MatchStats] = []
    results: Iterator[tuple[MatchStats, MatchStats]]
    if jobs > 1 and pairs > 1:
        import multiprocessing

        with multiprocessing.get_context().Pool(jobs) as pool:
            results = pool.imap(_play_pair, tasks, chunksize=max(1, min(16, pairs // (8 * jobs))))
            for i, (a, b) in enumerate(results):
                out += [a, b]
                if progress:
                    progress(i + 1)
    else:
        for i, task in enumerate(tasks):
            a, b = _play_pair(task)
            out += [a, b]
            if progress:
                progress(i + 1)
    return out


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pair_interval(results: list[MatchStats], who: int) -> tuple[float, float]:
    """95% normal interval on the mean score per duplicate pair (0, 1/2 or 1)."""
    scores = [
        ((results[i].winner == who) + (results[i + 1].winner == who)) / 2
        for i in range(0, len(results) - 1, 2)
    ]
    n = len(scores)
    if n < 2:
        return (0.0, 1.0)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1)
    half = 1.959964 * math.sqrt(var / n)
    return (max(0.0, mean - half), min(1.0, mean + half))


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    k = (len(s) - 1) * q
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def bot_keys(levels: tuple[str, str]) -> tuple[str, str]:
    """Names for the report: "expert#1"/"expert#2" when both are the same level."""
    if levels[0] == levels[1]:
        return (f"{levels[0]}#1", f"{levels[1]}#2")
    return levels


def summarize(
    levels: tuple[str, str], results: list[MatchStats], rules: Rules, seed: int
) -> dict[str, object]:
    """The arena's JSON object (the contract of ``ecarte arena --json``)."""
    n = len(results)
    hands = sum(r.hands for r in results)
    bots: dict[str, object] = {}
    for i, key in enumerate(bot_keys(levels)):
        wins = sum(1 for r in results if r.winner == i)
        times = [t for r in results for t in r.times[i]]
        at_risk = sum(r.at_risk[i] for r in results)
        lo, hi = wilson(wins, n)
        plo, phi = pair_interval(results, i)
        bots[key] = {
            "level": levels[i],
            "wins": wins,
            "win_rate": round(wins / n, 4) if n else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "ci95_pairs": [round(plo, 4), round(phi, 4)],
            "points_per_hand": round(sum(r.points[i] for r in results) / hands, 4)
            if hands
            else 0.0,
            "vole_rate": round(sum(r.voles[i] for r in results) / hands, 4) if hands else 0.0,
            "at_risk_rate": round(at_risk / hands, 4) if hands else 0.0,
            "penalty_rate": round(sum(r.penalties[i] for r in results) / hands, 4)
            if hands
            else 0.0,
            "decision_ms": {
                "p50": round(percentile(times, 0.5), 3),
                "p99": round(percentile(times, 0.99), 3),
                "max": round(max(times), 3) if times else 0.0,
                "decisions": len(times),
            },
        }
    return {
        "matches": n,
        "pairs": n // 2,
        "rules": rules.preset,
        "seed": seed,
        "hands": hands,
        "hands_per_match": round(hands / n, 3) if n else 0.0,
        "bots": bots,
    }


def format_table(summary: dict[str, object]) -> str:
    """The human-readable arena report."""
    bots = summary["bots"]
    assert isinstance(bots, dict)
    lines = [
        f"{summary['matches']} matches ({summary['pairs']} duplicate pairs), "
        f"rules {summary['rules']}, seed {summary['seed']}, "
        f"{summary['hands']} hands ({summary['hands_per_match']} per match)",
        "",
        f"{'bot':<12} {'wins':>6} {'win rate':>9}  {'95% CI (Wilson)':<17} "
        f"{'pts/hand':>8} {'vole':>6} {'at risk':>8} {'penalty':>8}  "
        f"{'decision ms p50 / p99':>22}",
    ]
    for key, b in bots.items():
        lo, hi = b["ci95"]
        d = b["decision_ms"]
        lines.append(
            f"{key:<12} {b['wins']:>6} {100 * b['win_rate']:>8.1f}%  "
            f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]  "
            f"{b['points_per_hand']:>8.3f} {100 * b['vole_rate']:>5.1f}% "
            f"{100 * b['at_risk_rate']:>7.1f}% {100 * b['penalty_rate']:>7.1f}%  "
            f"{d['p50']:>10.2f} / {d['p99']:<9.2f}"
        )
    lines += [
        "",
        "win rate: matches won; 95% CI: Wilson score interval over matches (duplicate pairs "
        "make it conservative); vole, at risk, penalty: share of hands in which the bot took "
        "all five tricks, risked the penalty for insisting (`ecarte rules`), and paid it; "
        "decision ms: time to choose, counted when there was a choice.",
    ]
    return "\n".join(lines)
