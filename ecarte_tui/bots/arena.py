"""Bots against bots, with duplicate deals, to measure them.

Each deal sequence is played twice with the seats swapped (same shuffles), so the luck of
the cards mostly cancels. Every match depends only on the seed, its preset and its index,
so results are the same whatever the number of worker processes; only the timings change.
Several presets are played on the same deal sequences, so they can be compared.

Besides who wins, the arena says how each bot fares by the way a hand's play began (the
commitments before the play carry the penalty for insisting), times every decision both
in processor time and in elapsed time, and can write every match as ECN.
"""

from __future__ import annotations

import math
import os
import random
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.actions import KING, Kind
from ..engine.ecn import Record, write_ecn
from ..engine.match import HandRecord, Match, Phase
from ..engine.rules import PRESETS, Rules
from ..engine.view import seat_view
from . import LEVELS, Bot, make_oracle
from .oracle import PARTIAL_SIGHTS, PartialOracle
from .spec import bot_from_spec, parse_spec

ARENA_LEVELS = (*LEVELS, "oracle", *PARTIAL_SIGHTS)
POOL_START = "forkserver"
"""How the workers of ``--jobs`` start: not by fork, which in a process with threads (a
test runner's, a served app's) can copy a lock some thread held and hang the worker."""


def check_level(spec: str) -> str:
    """``spec`` if the arena can play it (a level, or the expert with options), else a
    ValueError that says why."""
    if spec in ARENA_LEVELS:
        return spec
    level, _ = parse_spec(spec)
    if level not in LEVELS:
        raise ValueError(f"unknown bot {level!r} (known: {', '.join(ARENA_LEVELS)})")
    return spec

# Named groups of presets for ``--rules``. "decisive": the presets whose rules change the
# decisions before the play (who is at risk after a refusal, whether the dealer must
# change a card); academie differs from classic only in a penalised vole.
PRESET_GROUPS: dict[str, tuple[str, ...]] = {
    "decisive": ("classic", "britannica", "nl"),
    "all": tuple(PRESETS),
}

# How a hand's play began, from one bot's side. The first three are commitments before
# any exchange, which put someone at risk (Rules.penalized says whom after a refusal).
DECISIONS: tuple[str, ...] = (
    "play",  # I was the elder and played without proposing
    "refuse",  # I was the dealer and refused the first proposal
    "refused",  # I was the elder, proposed, and the dealer refused
    "faced_play",  # I was the dealer and the elder played without proposing
    "exchanged",  # the play began after one exchange or more
    "unplayed",  # the hand ended before the play (a turned-up king ended the game)
)
# per decision: hands, at_risk, penalties, voles, lost (< 3 tricks), points won, points lost
FIELDS = ("hands", "at_risk", "penalties", "voles", "lost", "points_for", "points_against")


def _zero_tally() -> dict[str, list[int]]:
    return {d: [0] * len(FIELDS) for d in DECISIONS}


@dataclass(slots=True)
class MatchStats:
    """One match, from the two bots' side (index 0 = first bot named, 1 = second)."""

    winner: int
    hands: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    voles: list[int] = field(default_factory=lambda: [0, 0])
    at_risk: list[int] = field(default_factory=lambda: [0, 0])
    penalties: list[int] = field(default_factory=lambda: [0, 0])
    # decision times in ms, when there was a choice: elapsed (wall) and this thread's CPU
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    cpu: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    before_play: tuple[list[bool], list[bool]] = field(default_factory=lambda: ([], []))
    decisions: tuple[dict[str, list[int]], dict[str, list[int]]] = field(
        default_factory=lambda: (_zero_tally(), _zero_tally())
    )
    preset: str = "classic"
    pair: int = 0
    swapped: bool = False
    record: str | None = None  # the ECN file's name, with --record


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the arena seed and indices, the same on every platform."""
    return random.Random("/".join(str(p) for p in parts)).getrandbits(63)


def _make(level: str, seed: int, match: Match, seat: int) -> Bot:
    if level == "oracle":
        return make_oracle(match, seat, seed)
    if level in PARTIAL_SIGHTS:
        return PartialOracle(match, seat, level, seed)
    return bot_from_spec(level, seed)


def record_name(preset: str, pair: int, swapped: bool) -> str:
    """The file of one match: its preset, its pair and whether the seats are swapped."""
    return f"{preset}-pair{pair:04d}-{'swapped' if swapped else 'unswapped'}.ecn"


def how_play_began(rec: HandRecord) -> tuple[str, int] | None:
    """("play" or "refuse", the seat that committed) when the play began on a commitment
    before any exchange; ("exchanged", -1) after one; None if the play never began."""
    acts = rec.actions
    if not acts:
        return None
    seat, first = acts[0]
    if first.kind is Kind.PLAY:
        return ("play", seat)
    if first.kind is Kind.PROPOSE and len(acts) > 1 and acts[1][1].kind is Kind.REFUSE:
        return ("refuse", acts[1][0])
    return ("exchanged", -1)


def decision_of(rec: HandRecord, seat: int) -> str:
    """Which of ``DECISIONS`` a hand was, from ``seat``'s side."""
    began = how_play_began(rec)
    if began is None:
        return "unplayed"
    kind, who = began
    if kind == "play":
        return "play" if who == seat else "faced_play"
    if kind == "refuse":
        return "refuse" if who == seat else "refused"
    return "exchanged"


def play_match(
    levels: tuple[str, str],
    rules: Rules,
    seed: int,
    pair: int,
    swapped: bool,
    record: Path | None = None,
) -> MatchStats:
    """Play one match of the pair ``pair``; ``swapped`` puts the first bot in seat B.

    The deals depend on the seed and the pair, not on the preset: every preset plays the
    same shuffles. With ``record``, the match is written there as ECN.
    """
    deal_rng = random.Random(derive_seed("deals", seed, pair))
    first_dealer = derive_seed("first", seed, pair) & 1
    m = Match(rules, first_dealer=first_dealer)
    # seat -> index of the bot (0 = first named)
    index = (1, 0) if swapped else (0, 1)
    bots = [
        _make(levels[index[s]], derive_seed("bot", seed, pair, index[s]), m, s) for s in (0, 1)
    ]
    stats = MatchStats(winner=-1, preset=rules.preset, pair=pair, swapped=swapped)
    while not m.is_over:
        m.deal(deal_rng)
        for mover in movers(m, bots):
            view = seat_view(m, mover)
            wall0, cpu0 = time.perf_counter(), time.thread_time()
            a = bots[mover].choose(view)
            cpu = (time.thread_time() - cpu0) * 1000
            wall = (time.perf_counter() - wall0) * 1000
            if sum(1 for x in view.legal if x is not KING) > 1:
                i = index[mover]
                stats.times[i].append(wall)
                stats.cpu[i].append(cpu)
                stats.before_play[i].append(view.phase is not Phase.TRICKS)
            if a is None:
                raise RuntimeError(f"{bots[mover].name} passed although it is to move")
            _apply(m, a, mover, bots[mover])
    count_hands(m, index, stats)
    if record is not None:
        stats.record = write_record(m, levels, index, seed, pair, swapped, record)
    return stats


def movers(m: Match, bots: Sequence[Bot]) -> Iterator[int]:
    """The seat to move at each position of the hand, until it ends; the caller makes the
    move. Before each, the waiting seat is asked once whether it announces the king."""
    asked = -1
    while m.to_move is not None:
        announced, asked = king_out_of_turn(m, bots, asked)
        if not announced and m.to_move is not None:
            yield m.to_move


def king_out_of_turn(m: Match, bots: Sequence[Bot], asked: int) -> tuple[bool, int]:
    """Ask the waiting seat, once per position (``asked``: the position last asked),
    whether it announces the king now; (announced, the position asked)."""
    rec = m.hand
    assert rec is not None and m.to_move is not None
    other = 1 - m.to_move
    if asked == len(rec.actions) or not m.legal_actions(other):
        return False, asked
    a = bots[other].choose(seat_view(m, other))
    if a is None:
        return False, len(rec.actions)
    _apply(m, a, other, bots[other])
    return True, len(rec.actions) - 1


def count_hands(m: Match, index: tuple[int, int], stats: MatchStats) -> MatchStats:
    """Add a finished match's hands and winner to ``stats`` (``index``: seat -> bot); the
    same from the live match as from its ECN record."""
    for rec in m.hands_log:
        stats.hands += 1
        for s in (0, 1):
            i = index[s]
            stats.points[i] += rec.points[s]
            vole = rec.complete and rec.tricks[s] == 5
            lost = rec.complete and rec.tricks[s] < 3
            risk = rec.at_risk == s
            penalty = risk and lost
            stats.voles[i] += vole
            stats.at_risk[i] += risk
            stats.penalties[i] += penalty
            t = stats.decisions[i][decision_of(rec, s)]
            for k, v in enumerate(
                (1, risk, penalty, vole, lost, rec.points[s], rec.points[1 - s])
            ):
                t[k] += v
    assert m.match_winner is not None
    stats.winner = index[m.match_winner]
    return stats


def write_record(
    m: Match,
    levels: tuple[str, str],
    index: tuple[int, int],
    seed: int,
    pair: int,
    swapped: bool,
    folder: Path,
) -> str:
    """Write the match as ECN (as the app saves a game: ``write_ecn`` of a ``Record``),
    atomically, so an interrupted run never leaves half a record; returns the file name."""
    keys = bot_keys(levels)
    tags = {
        "A": keys[index[0]],
        "B": keys[index[1]],
        "Event": f"ecarte arena {levels[0]} {levels[1]}",
        "Seed": str(seed),
        "Pair": str(pair),
        "Swapped": "yes" if swapped else "no",
    }
    name = record_name(m.rules.preset, pair, swapped)
    path = folder / name
    tmp = folder / f".{name}.{os.getpid()}.tmp"
    tmp.write_text(write_ecn(Record(m, tags)), encoding="utf-8")
    os.replace(tmp, path)
    return name


def _apply(m: Match, action: object, seat: int, bot: Bot) -> None:
    legal = m.legal_actions(seat)
    if action not in legal:
        raise RuntimeError(f"{bot.name} chose an illegal action: {action!r}")
    m.apply(action, seat)  # type: ignore[arg-type]


_Task = tuple[tuple[str, str], Rules, int, int, Path | None]


def _play_pair(args: _Task) -> tuple[MatchStats, MatchStats]:
    levels, rules, seed, pair, record = args
    return (
        play_match(levels, rules, seed, pair, False, record),
        play_match(levels, rules, seed, pair, True, record),
    )


def run_pairs(
    levels: tuple[str, str],
    rules: Rules,
    pairs: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    record: Path | None = None,
) -> list[MatchStats]:
    """Play ``pairs`` duplicate pairs; results in pair order whatever ``jobs`` is."""
    return run_presets(levels, [rules], pairs, seed, jobs, progress, record)[rules.preset]


def run_presets(
    levels: tuple[str, str],
    presets: Sequence[Rules],
    pairs: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    record: Path | None = None,
) -> dict[str, list[MatchStats]]:
    """``pairs`` duplicate pairs under each of ``presets`` (the same deals for each), in one
    pool of ``jobs`` workers; each worker writes its own matches' records."""
    if record is not None:
        record.mkdir(parents=True, exist_ok=True)
    tasks: list[_Task] = [(levels, r, seed, p, record) for r in presets for p in range(pairs)]
    out: dict[str, list[MatchStats]] = {r.preset: [] for r in presets}
    results: Iterator[tuple[MatchStats, MatchStats]]
    if jobs > 1 and len(tasks) > 1:
        import multiprocessing

        chunk = max(1, min(16, len(tasks) // (8 * jobs)))
        with multiprocessing.get_context(POOL_START).Pool(jobs) as pool:
            results = pool.imap(_play_pair, tasks, chunksize=chunk)
            for i, (a, b) in enumerate(results):
                out[a.preset] += [a, b]
                if progress:
                    progress(i + 1)
    else:
        for i, task in enumerate(tasks):
            a, b = _play_pair(task)
            out[a.preset] += [a, b]
            if progress:
                progress(i + 1)
    return out


def parse_presets(text: str) -> list[Rules]:
    """``--rules``: presets separated by commas, or a group (``decisive``, ``all``).

    ValueError with a one-line reason for a name that is neither.
    """
    names: list[str] = []
    for word in (w.strip() for w in text.split(",")):
        group = PRESET_GROUPS.get(word, (word,))
        for name in group:
            if name not in PRESETS:
                known = ", ".join([*PRESETS, *PRESET_GROUPS])
                raise ValueError(f"unknown rules preset {word!r} (known: {known})")
            if name not in names:
                names.append(name)
    return [Rules.named(n) for n in names]


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


def _rate(k: int, n: int) -> float:
    return round(k / n, 4) if n else 0.0


def _times(values: list[float]) -> dict[str, float | int]:
    return {
        "p50": round(percentile(values, 0.5), 3),
        "p99": round(percentile(values, 0.99), 3),
        "max": round(max(values), 3) if values else 0.0,
        "decisions": len(values),
    }


def _by_decision(results: list[MatchStats], i: int, hands: int) -> dict[str, object]:
    out: dict[str, object] = {}
    for d in DECISIONS:
        t = [sum(r.decisions[i][d][k] for r in results) for k in range(len(FIELDS))]
        n, risk, pen, vole, lost, won, conceded = t
        out[d] = {
            "hands": n,
            "share": _rate(n, hands),
            "at_risk": risk,
            "penalties": pen,
            "penalty_rate": _rate(pen, n),
            "voles": vole,
            "vole_rate": _rate(vole, n),
            "lost_rate": _rate(lost, n),
            "net_points_per_hand": round((won - conceded) / n, 4) if n else 0.0,
        }
    return out


def _by_phase(results: list[MatchStats], i: int) -> dict[str, object]:
    out: dict[str, object] = {}
    for name, before in (("before_play", True), ("tricks", False)):
        cpu: list[float] = []
        wall: list[float] = []
        for r in results:
            for c, w, b in zip(r.cpu[i], r.times[i], r.before_play[i], strict=True):
                if b is before:
                    cpu.append(c)
                    wall.append(w)
        out[name] = {
            "cpu_p50": round(percentile(cpu, 0.5), 3),
            "cpu_p99": round(percentile(cpu, 0.99), 3),
            "wall_p50": round(percentile(wall, 0.5), 3),
            "wall_p99": round(percentile(wall, 0.99), 3),
            "decisions": len(cpu),
        }
    return out


def summarize(
    levels: tuple[str, str], results: list[MatchStats], rules: Rules | str, seed: int
) -> dict[str, object]:
    """The arena's JSON object for one preset (the contract of ``ecarte arena --json``),
    or for several pooled when ``rules`` is their names joined by commas.

    ``decision_ms`` is elapsed (wall) time and ``decision_cpu_ms`` this thread's processor
    time; ``decisions`` splits the hands by how their play began (``DECISIONS``).
    """
    n = len(results)
    hands = sum(r.hands for r in results)
    bots: dict[str, object] = {}
    for i, key in enumerate(bot_keys(levels)):
        wins = sum(1 for r in results if r.winner == i)
        times = [t for r in results for t in r.times[i]]
        cpu = [t for r in results for t in r.cpu[i]]
        at_risk = sum(r.at_risk[i] for r in results)
        lo, hi = wilson(wins, n)
        plo, phi = pair_interval(results, i)
        bots[key] = {
            "level": levels[i],
            "wins": wins,
            "win_rate": _rate(wins, n),
            "ci95": [round(lo, 4), round(hi, 4)],
            "ci95_pairs": [round(plo, 4), round(phi, 4)],
            "points_per_hand": round(sum(r.points[i] for r in results) / hands, 4)
            if hands
            else 0.0,
            "vole_rate": _rate(sum(r.voles[i] for r in results), hands),
            "at_risk_rate": _rate(at_risk, hands),
            "penalty_rate": _rate(sum(r.penalties[i] for r in results), hands),
            "decision_ms": _times(times),
            "decision_cpu_ms": _times(cpu),
            "decision_ms_by_phase": _by_phase(results, i),
            "decisions": _by_decision(results, i, hands),
        }
    return {
        "matches": n,
        "pairs": n // 2,
        "rules": rules if isinstance(rules, str) else rules.preset,
        "seed": seed,
        "hands": hands,
        "hands_per_match": round(hands / n, 3) if n else 0.0,
        "bots": bots,
    }


def summarize_presets(
    levels: tuple[str, str],
    by_preset: dict[str, list[MatchStats]],
    seed: int,
    record: Path | None = None,
) -> dict[str, object]:
    """All presets pooled (the keys of ``summarize``), with ``presets``: one summary each.

    With one preset the pooled summary is that preset's. The pooled interval treats the
    presets' matches as independent, which they are not quite (the same deals).
    """
    pooled = [r for rs in by_preset.values() for r in rs]
    out = summarize(levels, pooled, ",".join(by_preset), seed)
    out["presets"] = {
        p: {**summarize(levels, rs, p, seed), "outcomes": outcomes(rs)}
        for p, rs in by_preset.items()
    }
    if record is not None:
        out["record_dir"] = str(record)
    return out


def outcomes(results: list[MatchStats]) -> list[list[int]]:
    """``[pair, swapped, winner]`` for every match (winner 0: the first bot named), so
    that another run on the same deals can be compared match by match (``paired``)."""
    return sorted([r.pair, int(r.swapped), r.winner] for r in results)


def format_table(summary: dict[str, object]) -> str:
    """The human-readable arena report: one block per preset, then all of them pooled."""
    presets = summary.get("presets")
    blocks: list[dict[str, object]] = []
    if isinstance(presets, dict) and len(presets) > 1:
        blocks = [*presets.values(), summary]
    else:
        blocks = [summary]
    lines: list[str] = []
    for k, block in enumerate(blocks):
        if k:
            lines.append("")
        title = "all presets pooled: " if k and k == len(blocks) - 1 else ""
        lines += _block(block, title)
    notes = [
        "win rate: matches won; 95% CI: Wilson score interval over matches (duplicate pairs "
        "make it conservative); vole, at risk, penalty: share of hands in which the bot took "
        "all five tricks, risked the penalty for insisting (`ecarte rules`), and paid it.",
        "By how the play began: 'elder plays' = the bot, elder, played without proposing; "
        "'dealer refuses' = the bot, dealer, refused the first proposal; 'refused' = the "
        "bot proposed and was refused; 'after exchange' = the play began after one exchange "
        "or more. n: such hands; pen: of them, penalised (at risk, under 3 tricks); lost: "
        "under 3 tricks; vole: took all five.",
        "Decision times, counted when there was a choice: CPU = the deciding thread's "
        "processor time (time.thread_time), the bot's own cost; wall = elapsed time "
        "(time.perf_counter), which also counts waiting for the processor.",
    ]
    lines.append("")
    lines += [w for note in notes for w in textwrap.wrap(note, 100)]
    return "\n".join(lines)


def _block(summary: dict[str, object], title: str) -> list[str]:
    bots = summary["bots"]
    assert isinstance(bots, dict)
    k = max(12, *(len(key) for key in bots))  # the bot column fits the longest name
    lines = [
        f"{title}{summary['matches']} matches ({summary['pairs']} duplicate pairs), "
        f"rules {summary['rules']}, seed {summary['seed']}, "
        f"{summary['hands']} hands ({summary['hands_per_match']} per match)",
        "",
        f"{'bot':<{k}} {'wins':>6} {'win rate':>9}  {'95% CI (Wilson)':<17} "
        f"{'pts/hand':>8} {'vole':>6} {'at risk':>8} {'penalty':>8}  "
        f"{'CPU ms p50/p99':>16}  {'wall ms p50/p99':>16}",
    ]
    for key, b in bots.items():
        lo, hi = b["ci95"]
        c, w = b["decision_cpu_ms"], b["decision_ms"]
        lines.append(
            f"{key:<{k}} {b['wins']:>6} {100 * b['win_rate']:>8.1f}%  "
            f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]  "
            f"{b['points_per_hand']:>8.3f} {100 * b['vole_rate']:>5.1f}% "
            f"{100 * b['at_risk_rate']:>7.1f}% {100 * b['penalty_rate']:>7.1f}%  "
            f"{c['p50']:>7.2f} /{c['p99']:>7.2f}  {w['p50']:>7.2f} /{w['p99']:>7.2f}"
        )
    cols = (
        ("play", "elder plays", "pen"),
        ("refuse", "dealer refuses", "pen"),
        ("refused", "refused", "pen"),
        ("exchanged", "after exchange", "lost"),
    )
    lines += ["", f"{'':<{k}} " + " ".join(f"{label:^21}" for _, label, _ in cols)]
    lines.append(
        f"{'bot':<{k}} " + " ".join(f"{'n':>6} {w:>6} {'vole':>6}  " for _, _, w in cols)
    )
    for key, b in bots.items():
        cells = []
        for d, _, what in cols:
            t = b["decisions"][d]
            rate = t["penalty_rate"] if what == "pen" else t["lost_rate"]
            cells.append(f"{t['hands']:>6} {100 * rate:>5.1f}% {100 * t['vole_rate']:>5.1f}%  ")
        lines.append(f"{key:<{k}} " + " ".join(cells))
    return lines
