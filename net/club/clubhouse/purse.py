"""Purses, stakes and the gallery's wagers: écarté au cercle (seed 004) with virtual chips.

Every player has a purse of chips kept by the server (never money), opened with
``STARTING_PURSE`` chips the first time the player needs it. Chips only move between purses
and escrow, so the total of all purses plus escrow is always ``STARTING_PURSE`` times the
number of purses, and no purse can go below zero (checked before every debit, and by a
``CHECK (chips >= 0)`` in the schema as a last guard).

Stakes. Seed 004, "Écarté om inzetten": "Elk punt heeft een vaste geldwaarde of
chipwaarde" (each point has a fixed money or chip value), and "elk wedstrijdpunt een vaste
som waard was" (each point was worth a fixed sum). Our reading: every point a player scores
is worth ``stake`` chips paid by the opponent. The two players' points cancel each other,
so at the end of a game the loser pays the winner ``stake * (winner's points - loser's
points)``. 004's "le vole en de troefheer leveren bonussen op" is already in the points (a
vole scores 2 or 3, the king 1, RULES.md §6), so they are paid through the points and carry
no extra multiplier. Escrow: when the game opens, each player puts ``stake * max_points``
in escrow, where ``max_points`` is the largest points difference a game can end with
(``max_points_difference``); the loser can therefore always pay, and the unused escrow goes
back at settlement. A player who cannot cover the escrow cannot start a staked game.

Wagers. Watchers wager on a game's winner before its first hand (004, "Écarté au Cercle:
... toeschouwers (galerijen) mogen op de uitkomst wedden"). The chips leave the purse when
the wager is placed. The wagers on a game form one pot, shared by the winning side in
proportion to its wagers (pari-mutuel: the club adds or keeps nothing, so no chips are
created). If nobody backed the winner, or everybody did, every wager is returned.

Restart. ``settle`` is idempotent (settling twice pays once) and runs in one transaction;
after a restart ``recover`` settles the unsettled games that ended while the server was
down and leaves the wagers of games still being played in escrow.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from net.store.ledger_db import ClubDB, now

if TYPE_CHECKING:
    from ecarte_tui.engine import Match, Rules

STARTING_PURSE = 1000
MAX_STAKE = 100  # chips per point (a table option)
MAX_WAGER = 100_000


class LedgerError(ValueError):
    """A wager, stake or settlement refused, with a message for the player.

    ``player`` names whose purse was short, when that is the reason (a staked game is
    refused for either player).
    """

    def __init__(self, message: str, player: str | None = None) -> None:
        super().__init__(message)
        self.player = player


# ---------------------------------------------------------------------- pure arithmetic


def max_points_difference(rules: Rules) -> int:
    """The largest points difference a game can end with (RULES.md §6-§7).

    Before the last hand the winner has at most ``target - 1``. The king's point ends the
    game the moment it reaches the target (000, 001), so after it the winner still has at
    most ``target - 1``; the tricks then add at most 3 (a penalised vole, ``add``) or 2
    (``cap``). The loser has at least 0.
    """
    return rules.target - 1 + (3 if rules.penalty_on_vole == "add" else 2)


def stake_escrow(stake: int, rules: Rules) -> int:
    """Chips each player puts in escrow at a staked game: enough to pay any result."""
    return stake * max_points_difference(rules)


def stake_transfer(stake: int, winner_points: int, loser_points: int, escrow_each: int) -> int:
    """Chips the loser pays the winner: ``stake`` per point of difference (004), never more
    than the escrow (a forfeit's score may be anything) and never less than zero."""
    return max(0, min(stake * (winner_points - loser_points), escrow_each))


def split_pot(wagers: Sequence[tuple[int, str, int]], winner: str) -> dict[int, int]:
    """Pari-mutuel payouts of ``(wager id, on player, amount)`` when ``winner`` wins.

    Each winning wager gets its amount back plus its share of the losing side's chips,
    ``amount * losing / winning`` rounded down; the few chips left by rounding go one each
    to the largest fractions (ties: the earlier wager). Everything is returned when one side
    is empty. The payouts always add up to the pot.
    """
    winning = sum(a for _, on, a in wagers if on == winner)
    losing = sum(a for _, on, a in wagers if on != winner)
    if winning == 0 or losing == 0:
        return {i: a for i, _, a in wagers}
    out = {i: 0 for i, _, _ in wagers}
    fractions: list[tuple[int, int]] = []
    paid = 0
    for i, on, a in wagers:
        if on != winner:
            continue
        share, rest = divmod(a * losing, winning)
        out[i] = a + share
        paid += share
        fractions.append((-rest, i))
    for _, i in sorted(fractions)[: losing - paid]:
        out[i] += 1
    return out


# ---------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Wager:
    id: int
    game_id: str
    bettor: str
    on_player: str
    amount: int
    payout: int | None  # None while in escrow


@dataclass(frozen=True, slots=True)
class Game:
    game_id: str
    players: tuple[str, str]  # seat order (A, B)
    stake: int
    escrow_each: int
    status: str  # 'betting', 'playing', 'settled', 'void'
    winner: str | None
    score: tuple[int, int] | None

    @property
    def is_open(self) -> bool:
        """Its chips are still in escrow."""
        return self.status in ("betting", "playing")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: its winner and final score (seat order), or ``winner=None`` for a
    game abandoned without a result (everything in escrow is returned)."""

    winner: str | None
    score: tuple[int, int] | None = None


VOIDED = Outcome(None)


@dataclass(frozen=True, slots=True)
class Settlement:
    game_id: str
    winner: str | None  # None: the game was voided
    stake_paid: int  # chips the loser paid the winner
    credits: dict[str, int]  # chips returned to each purse by this settlement
    wagers: tuple[Wager, ...]
    already: bool = False  # True: it had been settled before; nothing was paid now


@dataclass(frozen=True, slots=True)
class Recovery:
    settled: tuple[str, ...]
    voided: tuple[str, ...]
    still_open: tuple[str, ...]


def game_id(table_code: str, game_number: int) -> str:
    """The ledger's id of a game: the table's code and the game's number (1-based)."""
    return f"{table_code}/{game_number}"


def match_outcomes(match: Match, players: tuple[str, str]) -> list[Outcome | None]:
    """Each game of ``match`` as an Outcome (None while unfinished), game 1 first.

    For ``recover``: the server reads its finished and running tables' ECN and answers from
    these which ledger games ended while it was down.
    """
    out: list[Outcome | None] = []
    for g in match.games:
        if g.winner is None:
            out.append(None)
        else:
            out.append(Outcome(players[g.winner], (g.score[0], g.score[1])))
    return out


# ---------------------------------------------------------------------- the ledger


class Ledger:
    """Purses, stakes and wagers in the ``club_*`` tables of a ``ClubDB``."""

    def __init__(self, db: ClubDB, starting_purse: int = STARTING_PURSE) -> None:
        self.db = db
        self.starting_purse = starting_purse

    # ------------------------------------------------------------------ purses

    def purse(self, player: str) -> int:
        """Chips in ``player``'s purse (a purse not yet opened holds the starting amount)."""
        rows = self.db.read("SELECT chips FROM club_purses WHERE player = ?", (player,))
        return int(rows[0][0]) if rows else self.starting_purse

    def open_purse(self, player: str) -> int:
        with self.db.tx() as db:
            return self._chips(db, player)

    def _chips(self, db: sqlite3.Connection, player: str) -> int:
        row = db.execute("SELECT chips FROM club_purses WHERE player = ?", (player,)).fetchone()
        if row is not None:
            return int(row[0])
        db.execute(
            "INSERT INTO club_purses (player, chips, created) VALUES (?, ?, ?)",
            (player, self.starting_purse, now()),
        )
        self._journal(db, player, self.starting_purse, "purse opened", None)
        return self.starting_purse

    def _move(
        self, db: sqlite3.Connection, player: str, delta: int, reason: str, game: str | None
    ) -> None:
        chips = self._chips(db, player)
        if chips + delta < 0:  # callers check first with a better message; this is the guard
            raise LedgerError(f"{-delta} chips would overdraw the purse: it holds {chips}")
        if delta:
            db.execute(
                "UPDATE club_purses SET chips = chips + ? WHERE player = ?", (delta, player)
            )
            self._journal(db, player, delta, reason, game)

    @staticmethod
    def _journal(
        db: sqlite3.Connection, player: str, delta: int, reason: str, game: str | None
    ) -> None:
        db.execute(
            "INSERT INTO club_journal (player, delta, reason, game_id, at) VALUES (?, ?, ?, ?, ?)",
            (player, delta, reason, game, now()),
        )

    def journal(self, player: str, limit: int = 20) -> list[tuple[int, str, str | None, str]]:
        """The latest movements of a purse: (delta, reason, game id, time), newest first."""
        rows = self.db.read(
            "SELECT delta, reason, game_id, at FROM club_journal WHERE player = ? "
            "ORDER BY id DESC LIMIT ?",
            (player, limit),
        )
        return [(int(d), str(r), g, str(t)) for d, r, g, t in rows]

    # ------------------------------------------------------------------ games and stakes

    def check_stake(self, player: str, stake: int, rules: Rules) -> str | None:
        """Why ``player`` cannot sit at a table with this stake, or None (for the lobby)."""
        if stake < 0 or stake > MAX_STAKE:
            return f"a stake is 0 to {MAX_STAKE} chips a point"
        need = stake_escrow(stake, rules)
        have = self.purse(player)
        if have < need:
            return _escrow_message(stake, rules, have)
        return None

    def open_game(
        self,
        game: str,
        players: tuple[str, str],
        stake: int = 0,
        rules: Rules | None = None,
    ) -> Game:
        """Open a game for wagers (and its stake, escrowed from both players now).

        Call it when the pairing is known, before the first hand. Opening the same game
        again with the same players and stake returns it unchanged (safe after a restart).
        """
        if isinstance(stake, bool) or not isinstance(stake, int) or not 0 <= stake <= MAX_STAKE:
            raise LedgerError(f"a stake is a whole number of chips from 0 to {MAX_STAKE}")
        if players[0] == players[1]:
            raise LedgerError("a game needs two different players")
        if stake and rules is None:
            raise LedgerError("a staked game needs its rules (target, penalty on the vole)")
        escrow = stake_escrow(stake, rules) if stake and rules is not None else 0
        with self.db.tx() as db:
            existing = self._game(db, game)
            if existing is not None:
                if existing.players != players or existing.stake != stake:
                    raise LedgerError(f"game {game} is already open with other players or stake")
                return existing
            for p in players:
                have = self._chips(db, p)
                if have < escrow:
                    assert rules is not None
                    raise LedgerError(_escrow_message(stake, rules, have), player=p)
            db.execute(
                "INSERT INTO club_games (game_id, player_a, player_b, stake, escrow_each, status,"
                " created) VALUES (?, ?, ?, ?, ?, 'betting', ?)",
                (game, players[0], players[1], stake, escrow, now()),
            )
            for p in players:
                self._move(db, p, -escrow, "stake escrow", game)
            out = self._game(db, game)
        assert out is not None
        return out

    def close_betting(self, game: str) -> None:
        """No more wagers: the first hand of the game is being dealt (004)."""
        with self.db.tx() as db:
            g = self._require(db, game)
            if g.status == "betting":
                db.execute("UPDATE club_games SET status = 'playing' WHERE game_id = ?", (game,))

    def game(self, game: str) -> Game | None:
        with self.db.reading() as db:
            return self._game(db, game)

    def unsettled(self) -> list[Game]:
        """Games whose stakes and wagers are still in escrow."""
        with self.db.reading() as db:
            rows = db.execute(
                "SELECT game_id FROM club_games WHERE status IN ('betting', 'playing') "
                "ORDER BY rowid"
            ).fetchall()
            return [g for (gid,) in rows if (g := self._game(db, gid)) is not None]

    @staticmethod
    def _game(db: sqlite3.Connection, game: str) -> Game | None:
        row = db.execute(
            "SELECT game_id, player_a, player_b, stake, escrow_each, status, winner, score_a,"
            " score_b FROM club_games WHERE game_id = ?",
            (game,),
        ).fetchone()
        if row is None:
            return None
        score = None if row[7] is None else (int(row[7]), int(row[8]))
        return Game(row[0], (row[1], row[2]), row[3], row[4], row[5], row[6], score)

    def _require(self, db: sqlite3.Connection, game: str) -> Game:
        g = self._game(db, game)
        if g is None:
            raise LedgerError(f"there is no game {game} in the ledger")
        return g

    # ------------------------------------------------------------------ wagers

    def place_wager(self, game: str, bettor: str, on_player: str, amount: int) -> Wager:
        """A watcher's wager on ``on_player`` winning; the chips go into escrow now."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise LedgerError("a wager is a whole number of chips, at least 1")
        if amount > MAX_WAGER:
            raise LedgerError(f"a wager is at most {MAX_WAGER} chips")
        with self.db.tx() as db:
            g = self._require(db, game)
            if g.status != "betting":
                why = "the game has begun" if g.status == "playing" else "the game is over"
                raise LedgerError(f"wagers are closed: {why}")
            if bettor in g.players:
                raise LedgerError("players may not wager on their own game")
            if on_player not in g.players:
                raise LedgerError(f"{on_player} is not playing this game")
            if db.execute(
                "SELECT 1 FROM club_wagers WHERE game_id = ? AND bettor = ?", (game, bettor)
            ).fetchone():
                raise LedgerError("you have already wagered on this game")
            have = self._chips(db, bettor)
            if amount > have:
                raise LedgerError(
                    f"a wager of {amount} chips would overdraw your purse: you have {have}",
                    player=bettor,
                )
            db.execute(
                "INSERT INTO club_wagers (game_id, bettor, on_player, amount, placed)"
                " VALUES (?, ?, ?, ?, ?)",
                (game, bettor, on_player, amount, now()),
            )
            self._move(db, bettor, -amount, "wager", game)
            # (game, bettor) is unique: the new row's id, on either backend
            wid = db.execute("SELECT id FROM club_wagers WHERE game_id = ? AND bettor = ?",
                             (game, bettor)).fetchone()[0]
        assert wid is not None
        return Wager(wid, game, bettor, on_player, amount, None)

    def wagers(self, game: str) -> list[Wager]:
        rows = self.db.read(
            "SELECT id, game_id, bettor, on_player, amount, payout FROM club_wagers "
            "WHERE game_id = ? ORDER BY id",
            (game,),
        )
        return [Wager(*r) for r in rows]

    # ------------------------------------------------------------------ settling

    def settle(
        self, game: str, winner: str, score: tuple[int, int] | None = None
    ) -> Settlement:
        """Pay the stake and the wagers of a finished game, once.

        ``score`` is the game's final score in seat order (needed when there is a stake).
        Settling again with the same winner returns the first settlement (``already``) and
        pays nothing; with another winner it is refused.
        """
        with self.db.tx() as db:
            g = self._require(db, game)
            if g.status == "settled":
                if g.winner != winner:
                    raise LedgerError(f"game {game} was already settled for {g.winner}")
                return self._settlement(db, g, already=True)
            if g.status == "void":
                raise LedgerError(f"game {game} was voided: its chips were returned")
            if winner not in g.players:
                raise LedgerError(f"{winner} did not play game {game}")
            if g.stake and score is None:
                raise LedgerError("a staked game is settled with its final score")
            w = g.players.index(winner)
            paid = 0
            if g.stake:
                assert score is not None
                paid = stake_transfer(g.stake, score[w], score[1 - w], g.escrow_each)
                self._move(db, winner, g.escrow_each + paid, "stake won", game)
                self._move(db, g.players[1 - w], g.escrow_each - paid, "stake returned", game)
            rows = db.execute(
                "SELECT id, bettor, on_player, amount FROM club_wagers WHERE game_id = ? "
                "ORDER BY id",
                (game,),
            ).fetchall()
            payouts = split_pot([(i, on, a) for i, _, on, a in rows], winner)
            for i, bettor, _on, a in rows:
                p = payouts[i]
                db.execute("UPDATE club_wagers SET payout = ? WHERE id = ?", (p, i))
                reason = "wager returned" if p == a else "wager won"
                self._move(db, bettor, p, reason, game)
            sa, sb = score if score is not None else (None, None)
            db.execute(
                "UPDATE club_games SET status = 'settled', winner = ?, score_a = ?, score_b = ?,"
                " closed = ? WHERE game_id = ?",
                (winner, sa, sb, now(), game),
            )
            done = self._require(db, game)
            return self._settlement(db, done, already=False)

    def void(self, game: str) -> Settlement:
        """Return every chip of a game abandoned without a result (idempotent)."""
        with self.db.tx() as db:
            g = self._require(db, game)
            if g.status == "void":
                return self._settlement(db, g, already=True)
            if g.status == "settled":
                raise LedgerError(f"game {game} was already settled for {g.winner}")
            for p in g.players:
                self._move(db, p, g.escrow_each, "stake returned", game)
            rows = db.execute(
                "SELECT id, bettor, amount FROM club_wagers WHERE game_id = ?", (game,)
            ).fetchall()
            for i, bettor, a in rows:
                db.execute("UPDATE club_wagers SET payout = ? WHERE id = ?", (a, i))
                self._move(db, bettor, a, "wager returned", game)
            db.execute(
                "UPDATE club_games SET status = 'void', closed = ? WHERE game_id = ?",
                (now(), game),
            )
            return self._settlement(db, self._require(db, game), already=False)

    def _settlement(self, db: sqlite3.Connection, g: Game, already: bool) -> Settlement:
        rows = db.execute(
            "SELECT id, game_id, bettor, on_player, amount, payout FROM club_wagers "
            "WHERE game_id = ? ORDER BY id",
            (g.game_id,),
        ).fetchall()
        wagers = tuple(Wager(*r) for r in rows)
        credits: dict[str, int] = {}
        paid = 0
        if g.status == "void":
            for p in g.players:
                credits[p] = g.escrow_each
        elif g.winner is not None:
            w = g.players.index(g.winner)
            if g.stake and g.score is not None:
                paid = stake_transfer(g.stake, g.score[w], g.score[1 - w], g.escrow_each)
            credits[g.winner] = g.escrow_each + paid
            credits[g.players[1 - w]] = g.escrow_each - paid
        for wg in wagers:
            credits[wg.bettor] = credits.get(wg.bettor, 0) + (wg.payout or 0)
        return Settlement(g.game_id, g.winner, paid, credits, wagers, already)

    def recover(self, resolve: Callable[[Game], Outcome | None]) -> Recovery:
        """After a restart: settle (or void) the open games that ended while we were down.

        ``resolve`` answers for one open game: its Outcome if the game is over (read from
        the store's ECN, e.g. with ``match_outcomes``), ``VOIDED`` if it was abandoned, or
        None if it is still being played, in which case its chips stay in escrow.
        """
        settled: list[str] = []
        voided: list[str] = []
        still: list[str] = []
        for g in self.unsettled():
            outcome = resolve(g)
            if outcome is None:
                still.append(g.game_id)
            elif outcome.winner is None:
                self.void(g.game_id)
                voided.append(g.game_id)
            else:
                self.settle(g.game_id, outcome.winner, outcome.score)
                settled.append(g.game_id)
        return Recovery(tuple(settled), tuple(voided), tuple(still))

    # ------------------------------------------------------------------ totals (audits, tests)

    def purses_total(self) -> int:
        return int(self.db.read("SELECT COALESCE(SUM(chips), 0) FROM club_purses")[0][0])

    def escrow_total(self) -> int:
        """Chips held for open games: stakes of both players and unsettled wagers."""
        stakes = self.db.read(
            "SELECT COALESCE(SUM(2 * escrow_each), 0) FROM club_games "
            "WHERE status IN ('betting', 'playing')"
        )[0][0]
        wagers = self.db.read(
            "SELECT COALESCE(SUM(amount), 0) FROM club_wagers WHERE payout IS NULL"
        )[0][0]
        return int(stakes) + int(wagers)

    def minted(self) -> int:
        """Chips ever given out: the starting purse of every purse opened."""
        n = self.db.read("SELECT COUNT(*) FROM club_purses")[0][0]
        return int(n) * self.starting_purse

    def richest(self, limit: int = 10, exclude: Iterable[str] = ()) -> list[tuple[str, int]]:
        """The fullest purses, for a lobby board."""
        skip = set(exclude)
        rows = self.db.read(
            "SELECT player, chips FROM club_purses ORDER BY chips DESC, player LIMIT ?",
            (limit + len(skip),),
        )
        return [(p, int(c)) for p, c in rows if p not in skip][:limit]


def _escrow_message(stake: int, rules: Rules, have: int) -> str:
    most = max_points_difference(rules)
    need = stake * most
    return (
        f"a stake of {stake} chips a point needs {need} chips in escrow ({stake} x {most}, "
        f"the most a game to {rules.target} can be lost by): the purse holds only {have}"
    )
