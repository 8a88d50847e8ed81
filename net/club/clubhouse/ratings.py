"""Players' ratings (Elo), their records (games, wins, voles, kings) and the leaderboard.

Rating formula: Elo, chosen over Glicko-2 because a club of a few dozen players needs a
number anyone can check by hand, and an écarté match has no draws.

- Every player starts at ``INITIAL_RATING`` = 1500.
- Expected score of A against B: ``E_A = 1 / (1 + 10 ** ((R_B - R_A) / 400))``.
- After a rated match, with ``S_A`` = 1 for the winner and 0 for the loser:
  ``R_A' = R_A + K * (S_A - E_A)``, with ``K`` = 32 for everyone. B moves by the same amount
  the other way (``E_B = 1 - E_A``), so ratings are conserved.
- One update per match (a match is ``games_to_win`` games, RULES.md §7; each game of a pool
  is its own match). Ratings are stored unrounded and shown rounded.

Records count, per player, from the finished match's engine records (``HandRecord``):
matches and matches won, games and games won, hands, voles (hands of 5 tricks, RULES.md §6),
kings (the king of trumps scored, announced or turned up: 004 "of die nu in de hand wordt
gehouden, aangekondigd of omgedraaid is") and points.

``record_match`` is idempotent on the match id, so the server may call it again for every
finished table after a restart (a crash between the end of a match and its rating is then
repaired).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from net.store.ledger_db import ClubDB, now

if TYPE_CHECKING:
    from ecarte_tui.engine import Match

INITIAL_RATING = 1500.0
K_FACTOR = 32.0
SCALE = 400.0


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score of a player rated ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / SCALE))


def elo_update(winner: float, loser: float, k: float = K_FACTOR) -> tuple[float, float]:
    """The new ratings of a match's winner and loser."""
    gain = k * (1.0 - expected_score(winner, loser))
    return winner + gain, loser - gain


@dataclass(frozen=True, slots=True)
class SeatStats:
    """What one seat did in one match."""

    matches: int = 0
    match_wins: int = 0
    games: int = 0
    wins: int = 0
    hands: int = 0
    voles: int = 0
    kings: int = 0
    points: int = 0


def match_stats(match: Match, winner_seat: int | None = None) -> tuple[SeatStats, SeatStats]:
    """Both seats' stats in ``match``; ``winner_seat`` overrides the winner (a forfeit)."""
    winner = match.match_winner if winner_seat is None else winner_seat
    out = []
    for seat in (0, 1):
        voles = kings = points = 0
        for h in match.hands_log:
            if h.complete and h.tricks[seat] == 5:
                voles += 1
            if h.king == seat or (h.turn_up_king and h.dealer == seat):
                kings += 1
            points += h.points[seat]
        finished = [g for g in match.games if g.winner is not None]
        out.append(
            SeatStats(
                matches=1,
                match_wins=int(winner == seat),
                games=len(finished),
                wins=sum(1 for g in finished if g.winner == seat),
                hands=len(match.hands_log),
                voles=voles,
                kings=kings,
                points=points,
            )
        )
    return out[0], out[1]


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    player: str
    rating: float
    rated_matches: int
    matches: int
    match_wins: int
    games: int
    wins: int
    hands: int
    voles: int
    kings: int
    points: int


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    rating: float
    rated_matches: int
    match_wins: int


@dataclass(frozen=True, slots=True)
class MatchRating:
    """What ``record_match`` did: ratings before, and the change (0 for an unrated match)."""

    match_id: str
    players: tuple[str, str]
    winner: str
    rated: bool
    before: tuple[float, float]
    delta: tuple[float, float]
    already: bool = False


_STAT_COLUMNS = ("matches", "match_wins", "games", "wins", "hands", "voles", "kings", "points")


class RatingBook:
    """Ratings, records and the leaderboard in the ``club_*`` tables of a ``ClubDB``."""

    def __init__(self, db: ClubDB) -> None:
        self.db = db

    def rating(self, player: str) -> float:
        rows = self.db.read("SELECT rating FROM club_ratings WHERE player = ?", (player,))
        return float(rows[0][0]) if rows else INITIAL_RATING

    def recorded_ids(self) -> set[str]:
        """Every match already counted (a start rates only the others)."""
        return {str(r[0]) for r in self.db.read("SELECT match_id FROM club_matches")}

    def recorded(self, match_id: str) -> bool:
        return bool(self.db.read("SELECT 1 FROM club_matches WHERE match_id = ?", (match_id,)))

    def match_rating(self, match_id: str) -> MatchRating | None:
        """What ``record_match`` did for ``match_id`` (a player's list of matches shows it)."""
        rows = self.db.read(
            "SELECT player_a, player_b, winner, rated, rating_a, rating_b, delta_a, delta_b"
            " FROM club_matches WHERE match_id = ?",
            (match_id,),
        )
        if not rows:
            return None
        r = rows[0]
        return MatchRating(match_id, (r[0], r[1]), r[2], bool(r[3]), (r[4], r[5]),
                           (r[6], r[7]), already=True)

    def standing(self, player: str, min_matches: int = 1) -> Standing | None:
        """A player's place on the whole leaderboard (None before a rated match), so a reader
        outside the top rows still sees their own."""
        rows = self.db.read(
            "SELECT r.rating, r.rated_matches, COALESCE(c.match_wins, 0) FROM club_ratings r"
            " LEFT JOIN club_records c ON c.player = r.player"
            " WHERE r.player = ? AND r.rated_matches >= ?",
            (player, min_matches),
        )
        if not rows:
            return None
        rating, n, wins = rows[0]
        ahead = self.db.read(  # (two ranges of the rating index: an OR would read them all)
            "SELECT (SELECT COUNT(*) FROM club_ratings WHERE rating > ? AND rated_matches >= ?)"
            " + (SELECT COUNT(*) FROM club_ratings WHERE rating = ? AND player < ?"
            " AND rated_matches >= ?)",
            (rating, min_matches, rating, player, min_matches),
        )
        return Standing(int(ahead[0][0]) + 1, player, float(rating), int(n), int(wins))

    def record_match(
        self,
        match_id: str,
        players: tuple[str, str],
        match: Match,
        rated: bool = True,
        winner_seat: int | None = None,
    ) -> MatchRating:
        """Count a finished match in both records and, if ``rated``, in both ratings.

        ``players`` in seat order; ``winner_seat`` for a match won by forfeit. Recording the
        same ``match_id`` again changes nothing and returns what was done the first time.
        """
        winner = match.match_winner if winner_seat is None else winner_seat
        if winner not in (0, 1):
            raise ValueError("the match has no winner yet")
        if players[0] == players[1]:
            raise ValueError("a match needs two different players")
        stats = match_stats(match, winner)
        with self.db.tx() as db:
            row = db.execute(
                "SELECT player_a, player_b, winner, rated, rating_a, rating_b, delta_a, delta_b"
                " FROM club_matches WHERE match_id = ?",
                (match_id,),
            ).fetchone()
            if row is not None:
                return MatchRating(
                    match_id, (row[0], row[1]), row[2], bool(row[3]),
                    (row[4], row[5]), (row[6], row[7]), already=True,
                )
            before = (self._rating(db, players[0]), self._rating(db, players[1]))
            delta = (0.0, 0.0)
            if rated:
                w, lo = elo_update(before[winner], before[1 - winner])
                after = [0.0, 0.0]
                after[winner], after[1 - winner] = w, lo
                delta = (after[0] - before[0], after[1] - before[1])
                for p, r in zip(players, after, strict=True):
                    db.execute(
                        "INSERT INTO club_ratings (player, rating, rated_matches, updated) "
                        "VALUES (?, ?, 1, ?) ON CONFLICT(player) DO UPDATE SET "
                        "rating = excluded.rating, rated_matches = club_ratings.rated_matches + 1, "
                        "updated = excluded.updated",
                        (p, r, now()),
                    )
            for p, s in zip(players, stats, strict=True):
                sets = ", ".join(f"{c} = club_records.{c} + excluded.{c}" for c in _STAT_COLUMNS)
                db.execute(
                    f"INSERT INTO club_records (player, {', '.join(_STAT_COLUMNS)}) "
                    f"VALUES (?, {', '.join('?' for _ in _STAT_COLUMNS)}) "
                    f"ON CONFLICT(player) DO UPDATE SET {sets}",
                    (p, *(getattr(s, c) for c in _STAT_COLUMNS)),
                )
            db.execute(
                "INSERT INTO club_matches (match_id, player_a, player_b, winner, rated, rating_a,"
                " rating_b, delta_a, delta_b, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (match_id, *players, players[winner], int(rated), *before, *delta, now()),
            )
        return MatchRating(match_id, players, players[winner], rated, before, delta)

    def record_ecn(
        self,
        match_id: str,
        players: tuple[str, str],
        ecn: str,
        rated: bool = True,
        winner: str | None = None,
    ) -> MatchRating:
        """``record_match`` from a stored match (``StoredTable.ecn``); ``winner`` is the
        store's winner id, which names the winner of a match won by forfeit.

        Raises ``ecarte_tui.engine.EcnError`` on a broken record.
        """
        from ecarte_tui.engine import read_ecn

        match = read_ecn(ecn).match
        seat = None
        if match.match_winner is None and winner is not None:
            seat = players.index(winner)
        return self.record_match(match_id, players, match, rated, seat)

    @staticmethod
    def _rating(db: sqlite3.Connection, player: str) -> float:
        row = db.execute("SELECT rating FROM club_ratings WHERE player = ?", (player,)).fetchone()
        return float(row[0]) if row else INITIAL_RATING

    def record(self, player: str) -> PlayerRecord:
        """A player's rating and record (all zeros for a newcomer)."""
        rows = self.db.read(
            f"SELECT {', '.join(_STAT_COLUMNS)} FROM club_records WHERE player = ?", (player,)
        )
        stats = [int(x) for x in rows[0]] if rows else [0] * len(_STAT_COLUMNS)
        rated = self.db.read(
            "SELECT rating, rated_matches FROM club_ratings WHERE player = ?", (player,)
        )
        rating, n = (float(rated[0][0]), int(rated[0][1])) if rated else (INITIAL_RATING, 0)
        return PlayerRecord(player, rating, n, *stats)

    def leaderboard(self, limit: int = 10, min_matches: int = 1) -> list[Standing]:
        """The best-rated players with at least ``min_matches`` rated matches.

        Player ids only: the server shows names from its ``players`` table.
        """
        rows = self.db.read(
            "SELECT r.player, r.rating, r.rated_matches, COALESCE(c.match_wins, 0) "
            "FROM club_ratings r LEFT JOIN club_records c ON c.player = r.player "
            "WHERE r.rated_matches >= ? ORDER BY r.rating DESC, r.player LIMIT ?",
            (min_matches, limit),
        )
        return [
            Standing(i + 1, p, float(r), int(n), int(w)) for i, (p, r, n, w) in enumerate(rows)
        ]
