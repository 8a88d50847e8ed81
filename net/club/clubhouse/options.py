"""The club's table options (RULES.md §9), stored as JSON with the table's other options.

Each option is one of the sources' table variants: pool écarté (001, 003), stakes and the
gallery's wagers (004), the French adviser rule (003), backers seeing their player's hand
(001: onlookers "could advise them"), and jeux de règle (004).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from net.club.clubhouse.pool import POOL_RULES
from net.club.clubhouse.purse import MAX_STAKE


class ClubOptionsError(ValueError):
    """Options that cannot go together or are out of range, with a message for the player."""


@dataclass(frozen=True, slots=True)
class ClubOptions:
    pool: str | None = None  # None, "loser_out" (001) or "two_in_row" (003)
    stake: int = 0  # chips per point (004); 0: no stake
    wagers: bool = True  # the gallery may wager on each game (004)
    french_rule: bool = False  # the loser's adviser may take his seat (003)
    backers_see_hand: bool = True  # a player may show his backers his hand (the bound)
    jeux_de_regle: bool = False  # no proposal on a jeu de règle (004)

    def check(self) -> None:
        if self.pool is not None and self.pool not in POOL_RULES:
            raise ClubOptionsError(
                f"unknown pool rule {self.pool!r} (known: {', '.join(POOL_RULES)})"
            )
        if isinstance(self.stake, bool) or not isinstance(self.stake, int):
            raise ClubOptionsError("a stake is a whole number of chips")
        if not 0 <= self.stake <= MAX_STAKE:
            raise ClubOptionsError(f"a stake is 0 to {MAX_STAKE} chips a point")
        if self.pool is not None and self.french_rule:
            raise ClubOptionsError(
                "in a pool the loser's seat goes to the one waiting (001); under the French "
                "rule it goes to his adviser (003): choose one"
            )

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClubOptions:
        """Options from JSON; missing keys take their defaults, unknown keys are refused."""
        known = set(cls.__dataclass_fields__)
        extra = set(data) - known
        if extra:
            raise ClubOptionsError(f"unknown table option {sorted(extra)[0]!r}")
        opts = cls(**dict(data))
        for name in ("wagers", "french_rule", "backers_see_hand", "jeux_de_regle"):
            if not isinstance(getattr(opts, name), bool):
                raise ClubOptionsError(f"{name} must be yes or no")
        opts.check()
        return opts
