"""A game at this keyboard against a bot: the table, the bot's seat, and the saved game.

Only local play comes here; a served app is handed its table and never reads or writes
files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..bot_seat import BotSeat, Chooser
from ..engine import Rules
from ..table import Table
from .players import make_opponent
from .settings import Settings

PLAYER_SEAT = 0


@dataclass(frozen=True)
class GameOptions:
    """What the home screen or ``ecarte play`` asks for."""

    level: str = "expert"
    rules: str = "classic"
    target: int | None = None  # None: the preset's
    games_to_win: int | None = None
    seed: int | None = None
    first_dealer: int | None = None  # tests fix the dealer; a player draws for it

    @classmethod
    def from_settings(cls, s: Settings, seed: int | None = None) -> GameOptions:
        return cls(s.bot_level, s.rules, s.target, s.games_to_win, seed)

    def make_rules(self) -> Rules:
        overrides: dict[str, int] = {}
        if self.target is not None:
            overrides["target"] = self.target
        if self.games_to_win is not None:
            overrides["games_to_win"] = self.games_to_win
        return Rules.named(self.rules, **overrides)


def bot_name(level: str) -> str:
    """Short, so it fits the chips and seat lines; the level is kept in the record's tags."""
    return "Bot"


def new_table(options: GameOptions, player: str = "Player") -> Table:
    names = (player, bot_name(options.level))
    if PLAYER_SEAT == 1:
        names = (names[1], names[0])
    table = Table.new(options.make_rules(), names, options.seed, options.first_dealer)
    table.tags["Bot"] = options.level
    return table


class LocalGame:
    """A table with the player in one seat and a bot in the other."""

    def __init__(self, table: Table, opponent: Chooser, seat: int = PLAYER_SEAT,
                 delay: float = 0.8) -> None:
        self.table = table
        self.seat = seat
        self.opponent = opponent
        self.bot_seat = BotSeat(table, 1 - seat, opponent, delay)
        self.saved_as: Path | None = None  # its saved game's file, once it has one

    @classmethod
    def create(cls, options: GameOptions, delay: float, opponent: Chooser | None = None
               ) -> LocalGame:
        table = new_table(options)
        bot = opponent or make_opponent(options.level, options.seed)
        return cls(table, bot, PLAYER_SEAT, delay)

    @classmethod
    def resume(cls, record: str, delay: float, opponent: Chooser | None = None) -> LocalGame:
        """A saved game; raises EcnError if the record is broken."""
        table = Table.from_record(record)
        level = table.tags.get("Bot", "random")
        bot = opponent or make_opponent(level)
        return cls(table, bot, PLAYER_SEAT, delay)

    def start(self) -> None:
        """Sit the bot down; must run inside the event loop."""
        self.bot_seat.start()

    def stop(self) -> None:
        self.bot_seat.stop()

    def set_delay(self, delay: float) -> None:
        self.bot_seat.delay = delay

    @property
    def in_progress(self) -> bool:
        return self.table.status != "over"
