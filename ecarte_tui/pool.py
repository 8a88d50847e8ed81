"""Pool écarté: three players at one table, two play and the third waits (RULES.md §9).

001 ("Variants"): "Pool écarté: with three players, two play and the third waits; the loser
of each game is replaced by the waiting player." 003: "sometimes by three, the third player
taking the place of the loser in the first game, and the pool not being taken except by the
winner of two games in succession."

The two rules differ only in how many games in a row take the pool:

- ``loser_out`` (001): nothing more is asked, so the winner of each game takes the pool;
- ``two_in_row`` (003): only a player who wins two games in succession takes it.

After a pool is taken a new one begins and the rotation goes on (the loser still gives his
seat to the one waiting). The pool board shows who plays, who waits, the games won in a row
(``streak``, the whole evening's run) and the pools taken. A ``Pool`` is plain data: the
server stores ``to_json()`` with the table and rebuilds it with ``from_json`` after a
restart. It lives beside the table (no I/O, no Textual) so that the local pool against two
bots and the club server share it; ``net.club.clubhouse.pool`` re-exports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

POOL_RULES: dict[str, int] = {"loser_out": 1, "two_in_row": 2}
POOL_RULE_DESCRIPTIONS: dict[str, str] = {
    "loser_out": "Pool (001): the loser gives his seat to the one waiting; each game takes "
    "the pool.",
    "two_in_row": "Pool (003): as 001, but the pool goes only to a player who wins two games "
    "in succession.",
}
JSON_VERSION = 1


class PoolError(ValueError):
    """A pool request that cannot be (a winner who is not playing, a broken saved pool)."""


@dataclass(frozen=True, slots=True)
class PoolGame:
    """One finished game of the pool."""

    number: int  # 1-based, over the whole evening
    players: tuple[str, str]  # seat order (A, B)
    winner: str
    pool_taken: bool  # this game took the pool

    @property
    def loser(self) -> str:
        return self.players[1] if self.winner == self.players[0] else self.players[0]


@dataclass(frozen=True, slots=True)
class PoolResult:
    """What ``record_game`` did, for the table to announce."""

    game: PoolGame
    loser: str
    entering: str  # the waiting player, who takes the loser's seat
    seat: int  # the seat the loser left (0 = A, 1 = B)
    streak: int  # the winner's games won in a row
    pool_taken: bool
    pool_number: int  # the pool this game belonged to


@dataclass(frozen=True, slots=True)
class BoardRow:
    player: str
    status: str  # "plays" or "waits"
    seat: int | None
    streak: int  # games won in a row
    toward_pool: int  # games won in a row in the current pool
    games_won: int
    pools_won: int


class Pool:
    """The state of a three-player pool. ``players``: the first two play, the third waits."""

    def __init__(self, players: Sequence[str], rule: str = "two_in_row") -> None:
        if rule not in POOL_RULES:
            raise PoolError(f"unknown pool rule {rule!r} (known: {', '.join(POOL_RULES)})")
        if len(players) != 3 or len(set(players)) != 3:
            raise PoolError("a pool is three different players")
        self.rule = rule
        self.players: tuple[str, str, str] = (players[0], players[1], players[2])
        self.seats: list[str] = [players[0], players[1]]
        self.waiting: str = players[2]
        self.streak: dict[str, int] = dict.fromkeys(self.players, 0)
        self.run: dict[str, int] = dict.fromkeys(self.players, 0)
        self.games_won: dict[str, int] = dict.fromkeys(self.players, 0)
        self.pools_won: dict[str, int] = dict.fromkeys(self.players, 0)
        self.pool_number = 1
        self.games: list[PoolGame] = []

    # ------------------------------------------------------------------ reading

    @property
    def wins_needed(self) -> int:
        """Games in a row that take the pool under this rule."""
        return POOL_RULES[self.rule]

    @property
    def pairing(self) -> tuple[str, str]:
        """Who plays the next game, in seat order."""
        return self.seats[0], self.seats[1]

    @property
    def last_pool_winner(self) -> str | None:
        for g in reversed(self.games):
            if g.pool_taken:
                return g.winner
        return None

    def pool_winners(self) -> list[str]:
        """Who took each pool so far, in order."""
        return [g.winner for g in self.games if g.pool_taken]

    def board(self) -> list[BoardRow]:
        """The pool board: players first in seat order, then the one waiting."""
        rows = []
        for p in (*self.seats, self.waiting):
            seat = self.seats.index(p) if p in self.seats else None
            rows.append(
                BoardRow(
                    p, "plays" if seat is not None else "waits", seat, self.streak[p],
                    self.run[p], self.games_won[p], self.pools_won[p],
                )
            )
        return rows

    # ------------------------------------------------------------------ playing

    def record_game(self, winner: str) -> PoolResult:
        """A game of the pairing is over: streaks, the pool, and the loser gives his seat."""
        if winner not in self.seats:
            who = "waiting" if winner == self.waiting else "not in this pool"
            raise PoolError(f"{winner} did not play this game: {who}")
        seat = 1 - self.seats.index(winner)
        loser = self.seats[seat]
        entering = self.waiting
        pool_number = self.pool_number
        self.streak[winner] += 1
        self.streak[loser] = 0
        self.run[winner] += 1
        self.run[loser] = 0
        self.games_won[winner] += 1
        taken = self.run[winner] >= self.wins_needed
        game = PoolGame(len(self.games) + 1, self.pairing, winner, taken)
        self.games.append(game)
        if taken:
            self.pools_won[winner] += 1
            self.pool_number += 1
            self.run = dict.fromkeys(self.players, 0)
        self.seats[seat] = entering  # 001, 003: the one waiting takes the loser's place
        self.waiting = loser
        return PoolResult(
            game, loser, entering, seat, self.streak[winner], taken, pool_number
        )

    def replace(self, old: str, new: str) -> None:
        """``new`` takes ``old``'s place in the pool (a player left); ``new`` starts afresh."""
        if old not in self.players:
            raise PoolError(f"{old} is not in this pool")
        if new in self.players:
            raise PoolError(f"{new} is already in this pool")
        self.players = tuple(new if p == old else p for p in self.players)  # type: ignore[assignment]
        self.seats = [new if p == old else p for p in self.seats]
        if self.waiting == old:
            self.waiting = new
        for d in (self.streak, self.run, self.games_won, self.pools_won):
            d.pop(old)
            d[new] = 0

    # ------------------------------------------------------------------ saving

    def to_json(self) -> dict[str, Any]:
        return {
            "version": JSON_VERSION,
            "rule": self.rule,
            "players": list(self.players),
            "seats": list(self.seats),
            "waiting": self.waiting,
            "streak": dict(self.streak),
            "run": dict(self.run),
            "games_won": dict(self.games_won),
            "pools_won": dict(self.pools_won),
            "pool_number": self.pool_number,
            "games": [[g.number, list(g.players), g.winner, g.pool_taken] for g in self.games],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pool:
        """Rebuild a saved pool; PoolError if the data does not describe a possible pool."""
        try:
            if data.get("version") != JSON_VERSION:
                raise PoolError(f"unknown pool format {data.get('version')!r}")
            players = [str(p) for p in data["players"]]
            pool = cls(players, str(data["rule"]))
            seats = [str(p) for p in data["seats"]]
            waiting = str(data["waiting"])
            if len(seats) != 2 or sorted([*seats, waiting]) != sorted(players):
                raise PoolError("the saved seats do not match the pool's players")
            pool.seats = seats
            pool.waiting = waiting
            for name in ("streak", "run", "games_won", "pools_won"):
                d = {str(k): int(v) for k, v in data[name].items()}
                if set(d) != set(players) or min(d.values()) < 0:
                    raise PoolError(f"the saved {name} does not match the pool's players")
                setattr(pool, name, d)
            pool.pool_number = int(data["pool_number"])
            pool.games = [
                PoolGame(int(n), (str(ps[0]), str(ps[1])), str(w), bool(t))
                for n, ps, w, t in data["games"]
            ]
        except (KeyError, TypeError, ValueError, IndexError) as e:
            if isinstance(e, PoolError):
                raise
            raise PoolError(f"a broken saved pool: {e}") from None
        return pool

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pool) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]
