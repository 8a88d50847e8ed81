"""Rule parameters and the five presets of RULES.md §8: every disagreement is a parameter."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

_PRESET_NAMES = ("classic", "academie", "regles", "britannica", "nl")
FIRST_DEALER = ("lowest_deals", "highest_deals", "higher_chooses")
KING_DEADLINE = ("own_first_card", "opening_lead")
PENALIZED = ("committer", "elder")
PENALTY_ON_VOLE = ("cap", "add")


class RulesError(ValueError):
    """An unknown preset, parameter or value."""


@dataclass(frozen=True, slots=True)
class Rules:
    preset: str = "classic"
    first_dealer: str = "higher_chooses"
    dealer_min_discard: int = 1
    king_deadline: str = "own_first_card"
    penalized: str = "committer"
    penalty_on_vole: str = "cap"
    target: int = 5
    games_to_win: int = 1
    ace_high: bool = False

    def __post_init__(self) -> None:
        if self.preset not in _PRESET_NAMES:
            raise RulesError(f"unknown rules preset {self.preset!r}")
        _check("first_dealer", self.first_dealer, FIRST_DEALER)
        _check("king_deadline", self.king_deadline, KING_DEADLINE)
        _check("penalized", self.penalized, PENALIZED)
        _check("penalty_on_vole", self.penalty_on_vole, PENALTY_ON_VOLE)
        if self.dealer_min_discard not in (0, 1):
            raise RulesError(f"dealer_min_discard must be 0 or 1, not {self.dealer_min_discard}")
        if not 1 <= self.target <= 99:
            raise RulesError(f"target must be between 1 and 99, not {self.target}")
        if not 1 <= self.games_to_win <= 9:
            raise RulesError(f"games_to_win must be between 1 and 9, not {self.games_to_win}")
        if not isinstance(self.ace_high, bool):
            raise RulesError("ace_high must be yes or no")

    @classmethod
    def named(cls, preset: str = "classic", **overrides: Any) -> Rules:
        """A preset, with parameters overridden one by one (typed values)."""
        if preset not in PRESETS:
            known = ", ".join(PRESETS)
            raise RulesError(f"unknown rules preset {preset!r} (known: {known})")
        base = PRESETS[preset]
        for name in overrides:
            if name not in PARAMETERS:
                raise RulesError(f"unknown rule parameter {name!r}")
        return replace(base, **overrides)

    def with_text(self, name: str, value: str) -> Rules:
        """Override one parameter from its text form, as written in ECN tags or on the CLI."""
        return replace(self, **{name: parse_value(name, value)})

    def params(self) -> dict[str, Any]:
        """Every rule parameter in force (the ``params`` of ``ecarte replay --json``)."""
        d = asdict(self)
        d.pop("preset")
        return d

    def differences(self) -> dict[str, Any]:
        """Parameters that differ from the preset, to write them back as ECN tags."""
        base = PRESETS[self.preset].params()
        return {k: v for k, v in self.params().items() if base[k] != v}


PARAMETERS: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.name != "preset")


def _check(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise RulesError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def parse_value(name: str, value: str) -> Any:
    """The typed value of a parameter given as text; RulesError for anything unknown."""
    if name not in PARAMETERS:
        raise RulesError(f"unknown rule parameter {name!r}")
    if name == "ace_high":
        if value not in ("yes", "no"):
            raise RulesError(f"ace_high must be yes or no, not {value!r}")
        return value == "yes"
    if name in ("dealer_min_discard", "target", "games_to_win"):
        if not (value.isascii() and value.isdigit()):  # '²'.isdigit() but int('²') fails
            raise RulesError(f"{name} must be a whole number, not {value!r}")
        return int(value)
    return value


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


PRESETS: dict[str, Rules] = {
    # 001: the modern English rules; the default.
    "classic": Rules("classic", "higher_chooses", 1, "own_first_card", "committer", "cap"),
    # 000: Académie des jeux / Méry, L'Arbitre des jeux (1847).
    "academie": Rules("academie", "lowest_deals", 1, "own_first_card", "committer", "add"),
    # 002: French rules "L'Ecarté", two winning games.
    "regles": Rules("regles", "higher_chooses", 0, "opening_lead", "committer", "add", 5, 2),
    # 003: Encyclopaedia Britannica (1911).
    "britannica": Rules("britannica", "highest_deals", 0, "own_first_card", "elder", "cap"),
    # 004: the Dutch rules ("Hoe speel je").
    "nl": Rules("nl", "lowest_deals", 1, "opening_lead", "elder", "add"),
}

PRESET_DESCRIPTIONS: dict[str, str] = {
    "classic": "Modern rules (001): the one who insists pays 2; the dealer changes at least 1.",
    "academie": "Académie des jeux (000): the refusal point is added, a vole can make 3.",
    "regles": "French club rules (002): dealer may keep his hand; two games to win.",
    "britannica": "Britannica 1911 (003): only the elder is at risk, 2 and no more.",
    "nl": "Dutch rules (004): only the elder is at risk; a penalised vole scores 3.",
}

SOURCES: dict[str, str] = {
    "academie": "000",
    "classic": "001",
    "regles": "002",
    "britannica": "003",
    "nl": "004",
}
