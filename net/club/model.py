"""What a live table is: its options, its seats and their people, its game and rounds.

Plain data shared by the club, the house, the pool's rounds and the screens; it imports
none of them, so none of them imports another through it.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ecarte_tui.bot_seat import BotSeat
from ecarte_tui.engine import PRESETS, EcnError, Rules, RulesError
from ecarte_tui.engine.rules import parse_value
from ecarte_tui.table import Table
from net.club.clubhouse.options import ClubOptions, ClubOptionsError

if TYPE_CHECKING:
    from net.club.pool_tables import RoundState
    from net.store.rematches import Rematch

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase if c not in "IO")
BOT_PREFIX = "bot:"


class ClubError(ValueError):
    """A request refused with a message for the player: no such table, table full..."""


@dataclass(frozen=True, slots=True)
class TableOptions:
    preset: str = "classic"
    overrides: tuple[tuple[str, str], ...] = ()
    opponent: str = "human"  # or "bot:LEVEL"
    club: ClubOptions = ClubOptions()  # pool, stake, wagers, French rule... (RULES.md §9)

    def rules(self) -> Rules:
        rules = Rules.named(self.preset)
        for name, value in self.overrides:
            rules = rules.with_text(name, value)
        return rules

    def to_json(self) -> dict[str, object]:
        return {"preset": self.preset, "overrides": dict(self.overrides),
                "opponent": self.opponent, "club": self.club.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> TableOptions:
        overrides = data.get("overrides") or {}
        assert isinstance(overrides, dict)
        club = data.get("club") or {}
        assert isinstance(club, dict)
        return cls(
            str(data.get("preset", "classic")),
            tuple((str(k), str(v)) for k, v in overrides.items()),
            str(data.get("opponent", "human")),
            ClubOptions.from_json(club),
        )

    def check(self) -> None:
        """RulesError for an unknown preset, parameter or value, or options that cannot go
        together (checked before creating)."""
        if self.preset not in PRESETS:
            raise RulesError(f"unknown rules preset {self.preset!r}")
        for name, value in self.overrides:
            parse_value(name, value)
        self.rules()
        try:
            self.club.check()
        except ClubOptionsError as e:
            raise RulesError(str(e)) from e
        if self.club.stake and self.opponent.startswith(BOT_PREFIX):
            raise RulesError("the server's bot plays for no stake: set the stake to 0")
        if self.club.pool and self.opponent.startswith(BOT_PREFIX):
            raise RulesError("a pool is three people at one table: play a pool against two "
                             "bots with `ecarte play --pool`")


@dataclass
class SeatState:
    player_id: str | None = None
    name: str | None = None
    sessions: int = 0
    dropped_at: float | None = None

    @property
    def is_bot(self) -> bool:
        return bool(self.player_id and self.player_id.startswith(BOT_PREFIX))


@dataclass
class LiveTable:
    code: str
    options: TableOptions
    seats: list[SeatState]
    table: Table | None = None
    bots: list[BotSeat | None] = field(default_factory=lambda: [None, None])
    watchers: int = 0
    finished: bool = False
    forfeit: int | None = None  # the seat that lost by not coming back
    closed_why: str | None = None  # closed without a result while people sat there: why
    listeners: list[Callable[[LiveTable], None]] = field(default_factory=list)
    rounds: RoundState | None = None  # pool and French-rule tables only
    rematch: Rematch | None = None  # a finished match: one player asked to play again
    # the hand and score the lobbies were last told of: they are told when a hand starts
    # or is scored, not at every card
    lobby_progress: tuple[int, tuple[int, int]] = (0, (0, 0))
    bot_pace: float | None = None  # seconds between a bot's moves its player chose (None:
    # the club's ``--bot-delay``)

    @property
    def record_id(self) -> str:
        """The id of the match being played here, in the ledger and the ratings."""
        if self.rounds is not None:
            return round_record_id(self.code, self.rounds.number)
        return self.code

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        return "playing" if self.table is not None else "open"

    def seat_of(self, player_id: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.player_id == player_id:
                return i
        return None

    def notify(self) -> None:
        for cb in list(self.listeners):
            cb(self)


def broken_record(exc: EcnError) -> str:
    """Why a stored table's record cannot be brought back: for the server's log, the
    player's word and ``ecarte tables``, said the same way."""
    return f"its record is broken at line {exc.line}: {exc.reason}"


def round_record_id(code: str, number: int) -> str:
    """A round's record id: ``CODE`` for the first, ``CODE.2``, ``CODE.3``... after."""
    return code if number <= 1 else f"{code}.{number}"
