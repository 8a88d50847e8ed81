"""How hands end when the expert plays the treatises (``classic``): its own deals and his
apart, for ``MatchValue``'s two sides (the expert's option ``two_sided``).

Self-play gives both seats one table; against a weaker player the expert wins more of
its deals and loses fewer of his, so a score is worth more to it than the symmetric table
says, and a point more or less is weighed accordingly. Measured from the records of
``ecarte arena expert classic --games 300 --rules decisive --seed 101 --jobs 2 --record
DIR`` with ``python -m ecarte_tui.bots.match_tables DIR`` (hands that a king ended early
left out).
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path

from .match_value import Outcomes

# preset -> (the expert deals, the treatises deal); rows (frequency, king to the dealer, king
# to the elder, trick points to the dealer, trick points to the elder)
AGAINST_CLASSIC: dict[str, tuple[Outcomes, Outcomes]] = {
    'britannica': (
        (
            (0.2869, 0, 0, 2, 0),
            (0.2663, 0, 0, 0, 1),
            (0.1392, 1, 0, 2, 0),
            (0.079, 1, 0, 0, 1),
            (0.0773, 0, 1, 0, 1),
            (0.0412, 0, 1, 2, 0),
            (0.0326, 0, 0, 1, 0),
            (0.0258, 0, 0, 0, 2),
            (0.0241, 0, 1, 0, 2),
            (0.0189, 1, 0, 1, 0),
            (0.0052, 1, 0, 0, 2),
            (0.0034, 0, 1, 1, 0),
        ),
        (
            (0.2874, 0, 0, 0, 1),
            (0.2065, 0, 0, 2, 0),
            (0.1067, 1, 0, 0, 1),
            (0.0981, 1, 0, 2, 0),
            (0.0826, 0, 1, 0, 1),
            (0.0602, 0, 0, 0, 2),
            (0.0482, 1, 0, 1, 0),
            (0.0361, 0, 0, 1, 0),
            (0.0361, 0, 1, 0, 2),
            (0.0189, 0, 1, 2, 0),
            (0.0138, 1, 0, 0, 2),
            (0.0052, 0, 1, 1, 0),
        ),
    ),
    'classic': (
        (
            (0.1942, 0, 0, 0, 1),
            (0.1926, 0, 0, 1, 0),
            (0.123, 1, 0, 1, 0),
            (0.0955, 0, 0, 2, 0),
            (0.0793, 0, 1, 0, 1),
            (0.0744, 1, 0, 2, 0),
            (0.0728, 1, 0, 0, 1),
            (0.0566, 0, 0, 0, 2),
            (0.0518, 0, 1, 0, 2),
            (0.0437, 0, 1, 1, 0),
            (0.0162, 1, 0, 0, 2),
        ),
        (
            (0.2172, 0, 0, 0, 1),
            (0.1791, 0, 0, 1, 0),
            (0.136, 1, 0, 1, 0),
            (0.0829, 0, 0, 0, 2),
            (0.0796, 1, 0, 0, 1),
            (0.073, 0, 1, 0, 1),
            (0.0697, 0, 0, 2, 0),
            (0.0614, 0, 1, 0, 2),
            (0.0431, 1, 0, 2, 0),
            (0.0299, 1, 0, 0, 2),
            (0.0216, 0, 1, 1, 0),
            (0.0066, 0, 1, 2, 0),
        ),
    ),
    'nl': (
        (
            (0.2562, 0, 0, 0, 1),
            (0.2297, 0, 0, 2, 0),
            (0.1113, 1, 0, 2, 0),
            (0.083, 1, 0, 0, 1),
            (0.076, 0, 1, 0, 1),
            (0.0601, 0, 0, 3, 0),
            (0.0424, 0, 1, 2, 0),
            (0.0336, 0, 0, 1, 0),
            (0.03, 1, 0, 3, 0),
            (0.0247, 0, 0, 0, 2),
            (0.0247, 0, 1, 0, 2),
            (0.0194, 1, 0, 1, 0),
            (0.0053, 1, 0, 0, 2),
            (0.0035, 0, 1, 1, 0),
        ),
        (
            (0.2726, 0, 0, 0, 1),
            (0.1805, 0, 0, 2, 0),
            (0.1065, 1, 0, 0, 1),
            (0.0866, 0, 1, 0, 1),
            (0.0812, 1, 0, 2, 0),
            (0.0614, 0, 0, 0, 2),
            (0.056, 1, 0, 1, 0),
            (0.0379, 0, 1, 0, 2),
            (0.0361, 0, 0, 1, 0),
            (0.0325, 0, 0, 3, 0),
            (0.0199, 0, 1, 2, 0),
            (0.0144, 1, 0, 0, 2),
            (0.009, 1, 0, 3, 0),
            (0.0054, 0, 1, 1, 0),
        ),
    ),
}


def measure(folder: Path, bot: str = "expert") -> dict[str, tuple[Outcomes, Outcomes]]:
    """From the arena's records (``--record``): per preset, (``bot`` deals, the other deals),
    each row (frequency, king to the dealer, king to the elder, trick points to the dealer,
    to the elder)."""
    from ..engine.ecn import read_ecn, summary

    counts: dict[tuple[str, bool], collections.Counter[tuple[int, int, int, int]]] = (
        collections.defaultdict(collections.Counter))
    for path in sorted(folder.glob("*.ecn")):
        record = read_ecn(path.read_text())
        preset = path.name.split("-")[0]
        expert = "A" if record.tags.get("A", "").startswith(bot) else "B"
        for h in summary(record)["hands"]:
            if not h["complete"]:
                continue
            dealer = h["dealer"]
            elder = "B" if dealer == "A" else "A"
            bd = int(h["turn_up_king"]) + int(h["king"] == dealer)
            be = int(h["king"] == elder)
            row = (bd, be, h["points"][dealer] - bd, h["points"][elder] - be)
            counts[(preset, dealer == expert)][row] += 1
    out: dict[str, tuple[Outcomes, Outcomes]] = {}
    for preset in sorted({p for p, _ in counts}):
        sides = []
        for mine in (True, False):
            c = counts[(preset, mine)]
            n = sum(c.values())
            sides.append(tuple((round(k / n, 4), *row) for row, k in c.most_common()))
        out[preset] = (sides[0], sides[1])
    return out


def main(argv: list[str]) -> None:
    for preset, (mine, his) in measure(Path(argv[0])).items():
        print(f"    {preset!r}: (")
        for table in (mine, his):
            print("        (")
            for row in table:
                print(f"            {row},")
            print("        ),")
        print("    ),")


if __name__ == "__main__":
    main(sys.argv[1:])
