"""Pool écarté at this keyboard (RULES.md §9, 001 and 003): you and two bots; two play, the
third waits, and the loser of each game gives his seat to the one waiting.

Each game of the pool is its own one-game match (``games_to_win`` forced to 1) on a fresh
table, and ``ecarte_tui.pool.Pool`` (the club's logic too) keeps the rotation, the streaks
and the pools taken. While you wait, the two bots play their game on your screen, which
watches the public table (seat None): it is never sent a hidden hand. A pool is not saved:
it lasts as long as the app, and the saved normal game, if any, is left alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from ..bot_seat import BotSeat, Chooser
from ..engine import Rules
from ..pool import Pool, PoolResult
from ..table import Table, Update
from .local_game import GameOptions
from .narration import verb
from .players import make_opponent

PLAYER = "You"
BOT_NAMES = ("Bot Anne", "Bot Henri")


def pool_rules(options: GameOptions) -> Rules:
    """A game of the pool is one game of the chosen rules."""
    return replace(options.make_rules(), games_to_win=1)


def _obj(name: str) -> str:
    return "you" if name == PLAYER else name


class PoolRound:
    """One game of the pool: its table, your seat (None while you wait) and the bots' seats.

    Duck-types ``LocalGame`` for the app (``table``, ``start``, ``stop``, ``set_delay``,
    ``in_progress``)."""

    def __init__(self, pool: Pool, number: int, table: Table, bots: Mapping[int, Chooser],
                 delay: float) -> None:
        self.pool = pool
        self.number = number
        self.table = table
        self.names: tuple[str, str] = (table.names[0], table.names[1])
        self.seat: int | None = self.names.index(PLAYER) if PLAYER in self.names else None
        self.bot_seats = [BotSeat(table, seat, bot, delay) for seat, bot in bots.items()]
        self.hurried = False
        self._result: PoolResult | None = None
        self._unwatch: Callable[[], None] | None = None

    @property
    def watching(self) -> bool:
        return self.seat is None

    def start(self) -> None:
        """Sit the bots down; must run inside the event loop (once the screen listens)."""
        self._unwatch = self.table.watch(None, self._moved)
        for bot in self.bot_seats:
            bot.start()

    def stop(self) -> None:
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None
        for bot in self.bot_seats:
            bot.stop()

    def set_delay(self, delay: float) -> None:
        if not self.hurried:
            for bot in self.bot_seats:
                bot.delay = delay

    def hurry(self) -> None:
        """The bots play the rest of their game at once (you skip the wait): they sit down
        again with no delay, so a pause already begun does not hold them back."""
        if self.hurried:
            return
        self.hurried = True
        for bot in self.bot_seats:
            bot.stop()
        self.bot_seats = [BotSeat(self.table, b.seat, b.bot, 0.0) for b in self.bot_seats]
        for bot in self.bot_seats:
            bot.start()

    @property
    def in_progress(self) -> bool:
        return self.table.status != "over"

    def _moved(self, update: Update) -> None:
        if update.status == "over":
            _ = self.result  # the pool records the game before anyone reads it

    @property
    def result(self) -> PoolResult | None:
        """The pool's record of this game once it is over (recorded once)."""
        m = self.table.match
        if self._result is None and m.is_over and m.match_winner is not None:
            self._result = self.pool.record_game(self.names[m.match_winner])
        return self._result


class LocalPool:
    """The pool of the evening: ``Pool`` with you and two bots, and the game being played."""

    def __init__(self, rule: str, options: GameOptions, delay: float,
                 opponent: Chooser | None = None) -> None:
        """``opponent`` plays for both bots (tests); otherwise each is a bot of the level."""
        self.pool = Pool((PLAYER, *BOT_NAMES), rule)
        self.options = options
        self.rules = pool_rules(options)
        self.delay = delay
        seed = options.seed
        self.bots: dict[str, Chooser] = {
            name: opponent or make_opponent(options.level, None if seed is None else seed + i + 1)
            for i, name in enumerate(BOT_NAMES)
        }
        self.round: PoolRound | None = None

    def next_round(self) -> PoolRound:
        """The next game, between the pool's pairing (after the last one is recorded)."""
        if self.round is not None and self.round.result is None:
            raise ValueError("the pool's game is not over yet")
        number = len(self.pool.games) + 1
        names = self.pool.pairing
        seed = self.options.seed
        table = Table.new(self.rules, names, None if seed is None else seed + number - 1,
                          self.options.first_dealer)
        table.tags["Bot"] = self.options.level
        table.tags["Pool"] = f"{self.pool.rule} game {number}"
        bots = {seat: self.bots[name] for seat, name in enumerate(names) if name != PLAYER}
        self.round = PoolRound(self.pool, number, table, bots, self.delay)
        return self.round

    def waiting_banner(self, hurried: bool = False) -> str:
        a, b = self.pool.pairing
        tail = "skipping" if hurried else "s skips"  # (78 columns at 80x24)
        return f"You wait: {a} plays {b} — you come in against the winner · {tail}"

    def last_line(self) -> str:
        """The last game in a few words, for the board (at most the board's width)."""
        if not self.pool.games:
            return ""
        g = self.pool.games[-1]
        return f"{g.winner} beat {_obj(g.loser)}"


def result_lines(result: PoolResult, pool: Pool) -> list[str]:
    """What the game-over dialog says: who won, who takes the pool, who comes in."""
    winner, loser, entering = result.game.winner, result.loser, result.entering
    lines = [f"{verb(winner, 'win', 'wins')} game {result.game.number} of the pool."]
    if result.pool_taken:
        lines.append(f"{verb(winner, 'take', 'takes')} pool {result.pool_number}!")
    else:
        lines.append(f"{winner}: {pool.run[winner]} of {pool.wins_needed} in a row toward "
                     f"pool {pool.pool_number}.")
    if entering == PLAYER:
        lines.append(f"You come in against {winner}; {loser} waits.")
    elif loser == PLAYER:
        lines.append(f"You wait: {entering} comes in against {winner}.")
    else:
        lines.append(f"{entering} comes in against {_obj(winner)}; {loser} waits.")
    return lines
