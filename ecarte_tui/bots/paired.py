"""Two arena runs on the same deals, compared match by match.

Each match of a run is replayed with the same deals by a run with the same seed, so the
difference between two versions of a bot is measured on paired matches: most matches end
the same way and only those that differ carry the difference, which makes it far more
precise than comparing two win rates (``ecarte arena ... --baseline FILE``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path


class BaselineError(ValueError):
    """A baseline that cannot be compared with this run (the message says why)."""


@dataclass(frozen=True, slots=True)
class Paired:
    """The first bot's win rate in this run against the baseline, on the same matches."""

    preset: str
    matches: int
    rate: float
    base_rate: float
    diff: float  # rate - base_rate
    half_width: float  # of the 95% interval of ``diff``
    differ: int  # matches whose winner changed


def load_baseline(path: Path, seed: int, wanted: list[str]) -> dict[str, object]:
    """An earlier ``ecarte arena --json`` summary, checked before this run starts."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise BaselineError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BaselineError(f"{str(path)!r} is not JSON: {e}") from None
    presets = data.get("presets") if isinstance(data, dict) else None
    if not isinstance(presets, dict) or not all(
        isinstance(p, dict) and _is_outcomes(p.get("outcomes")) for p in presets.values()
    ):
        raise BaselineError(f"{str(path)!r} is not the output of `ecarte arena --json`")
    if data.get("seed") != seed:
        raise BaselineError(
            f"{str(path)!r} was played with seed {data.get('seed')}, this run with {seed}: "
            "the deals differ, so the matches cannot be paired"
        )
    there = list(presets)
    if not set(wanted) & set(there):
        raise BaselineError(
            f"{str(path)!r} played {', '.join(there)}, this run {', '.join(wanted)}: "
            "no matches in common"
        )
    return data


def _is_outcomes(rows: object) -> bool:
    """A list of ``[pair, swapped, winner]`` rows of whole numbers."""
    return isinstance(rows, list) and all(
        isinstance(r, list) and len(r) == 3
        and all(isinstance(x, int) and not isinstance(x, bool) for x in r)
        for r in rows
    )


def compare(summary: dict[str, object], baseline: dict[str, object]) -> list[Paired]:
    """For each preset both runs played, the paired difference in the first bot's wins."""
    mine = summary["presets"]
    theirs = baseline["presets"]
    assert isinstance(mine, dict) and isinstance(theirs, dict)
    out = []
    for preset, block in mine.items():
        if preset not in theirs:
            continue
        now = {(p, s): w for p, s, w in block["outcomes"]}
        before = {(p, s): w for p, s, w in theirs[preset]["outcomes"]}
        keys = sorted(now.keys() & before.keys())
        n = len(keys)
        # the two matches of a duplicate pair share their deals: the pair is the unit
        by_pair: dict[int, list[int]] = {}
        for k in keys:
            by_pair.setdefault(k[0], []).append((now[k] == 0) - (before[k] == 0))
        units = list(by_pair.values())
        if len(units) < 2:
            continue
        mean = sum(sum(u) for u in units) / n
        var = sum((sum(u) - mean * len(u)) ** 2 for u in units) / (len(units) - 1)
        half = 1.96 * math.sqrt(var / len(units)) * len(units) / n
        out.append(Paired(
            preset, n,
            sum(now[k] == 0 for k in keys) / n,
            sum(before[k] == 0 for k in keys) / n,
            mean, half, sum(1 for u in units for x in u if x),
        ))
    if not out:
        raise BaselineError("the baseline has no matches in common with this run "
                            "(other presets, or fewer than two duplicate pairs)")
    return out


def format_paired(rows: list[Paired], first: str, path: Path,
                  baseline: dict[str, object]) -> str:
    bots = baseline.get("bots")
    was = ""
    if isinstance(bots, dict) and bots:
        first_there = next(iter(bots.values()))
        if isinstance(first_there, dict) and first_there.get("level"):
            was = f", where BOT1 was {first_there['level']}"
    lines = [f"{first} against the baseline {path}{was} (the same matches, paired):"]
    for r in rows:
        lines.append(
            f"  {r.preset}: {100 * r.rate:.1f}% against {100 * r.base_rate:.1f}%, "
            f"{100 * r.diff:+.1f} ± {100 * r.half_width:.1f} points (95%), "
            f"{r.matches} matches, {r.differ} with another winner"
        )
    return "\n".join(lines)
