"""How a shared table's log begins: enough to build the same ``Table`` in every process."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date

from ecarte_tui.engine import Rules
from ecarte_tui.engine.keyed_random import KeyedRandom, new_key
from ecarte_tui.table import Table


@dataclass(frozen=True, slots=True)
class TableGenesis:
    names: tuple[str, str]
    day: str
    key: str  # the secret of the keyed deals (never in a record)
    seed: int | None = None  # a seeded club (tests, the bench): Mersenne deals, Seed tag

    @classmethod
    def new(cls, names: tuple[str, str], seed: int | None) -> TableGenesis:
        return cls(names, date.today().isoformat(), new_key(), seed)

    def to_json(self) -> str:
        return json.dumps({"names": list(self.names), "day": self.day, "key": self.key,
                           "seed": self.seed})

    @classmethod
    def from_json(cls, text: str) -> TableGenesis:
        data = json.loads(text)
        names = data["names"]
        seed = data.get("seed")
        return cls((str(names[0]), str(names[1])), str(data["day"]), str(data["key"]),
                   int(seed) if seed is not None else None)

    def build(self, rules: Rules) -> Table:
        """The table before its first step: the draw for the deal and, if it is decided, the
        first hand, dealt from the keyed generator."""
        if self.seed is not None:
            return Table.new(rules, self.names, seed=self.seed, day=self.day)
        return Table.new(rules, self.names, rng=KeyedRandom(self.key), day=self.day)
