"""What must hold in a club's store whatever its players did, read once the club has stopped.

Random input (``random_input.py``) fails a run on what a client is shown or the club logs;
these are the faults nobody is shown: a chip made or lost, a purse that disagrees with its
journal, a wager never paid, a game over whose stake stays in escrow, a stored record that
``ecarte replay`` could not read, a finished match not archived as stored, a winner that
is not the record's, a finished match not counted (or counted for another winner), a
rating or a record that its matches do not add up to.
"""

from __future__ import annotations

import math
from pathlib import Path

from ecarte_tui.engine import EcnError, read_ecn
from net.club.clubhouse.purse import Ledger
from net.club.clubhouse.ratings import INITIAL_RATING
from net.club.house import rated_pair
from net.store.club_store import RoundStore, Store
from net.store.ledger_db import ClubDB

OVER = ("finished", "cancelled", "closed", "abandoned")
"""A table's or a round's status once nothing more is played there."""


def broken(store_path: Path | str, club_path: Path | str,
           archive: Path | None = None) -> list[str]:
    """Every invariant the club's store (and its ``archive`` folder) breaks, one line each
    (empty: all hold)."""
    store = Store(store_path)
    try:
        problems, over = _records(store)
        finished = {match_id: (seats, winner) for match_id, seats, winner
                    in store.finished_ids()}
        if archive is not None:
            problems += _archived(store, archive, finished)
    finally:
        store.close()
    db = ClubDB(club_path)
    try:
        return problems + _chips(Ledger(db), db, over) + _ratings(db, finished)
    finally:
        db.close()


def finished(store_path: Path | str, club_path: Path | str) -> tuple[int, int]:
    """How many matches the club finished and how many games with a stake or wagers it
    settled or voided: what a run's checks covered."""
    store = Store(store_path)
    try:
        matches = len(store.finished_ids())
    finally:
        store.close()
    db = ClubDB(club_path)
    try:
        (closed,), = db.read("SELECT COUNT(*) FROM club_games WHERE status IN ('settled', 'void')")
    finally:
        db.close()
    return matches, int(closed)


def _records(store: Store) -> tuple[list[str], set[str]]:
    """Each stored record read as ``ecarte replay`` reads it, and the winner its row names;
    returns the problems and the ids of the matches over (whose games must be settled)."""
    problems: list[str] = []
    over: set[str] = set()
    rows = [(t.code, t.seats, t.ecn, t.status, t.winner)
            for t in store.tables("open", "playing", *OVER)]
    rounds = RoundStore(store)
    for code, *_ in list(rows):
        rows += [(r.record_id, r.seats, r.ecn, r.status, r.winner) for r in rounds.rounds_of(code)]
    for record_id, seats, ecn, status, winner in rows:
        if status in OVER:
            over.add(record_id)
        if not ecn.strip():
            continue
        try:
            match = read_ecn(ecn).match
        except EcnError as exc:
            problems.append(f"{record_id} ({status}): its record does not read: {exc}")
            continue
        if status != "finished":
            continue
        won = match.match_winner
        expected = None if won is None else seats[won]
        if winner != expected:
            problems.append(f"{record_id}: the row's winner {winner!r} is not the record's "
                            f"{expected!r}")
    return problems, over


def _archived(store: Store, archive: Path, finished: dict[str, object]) -> list[str]:
    """Each finished match in the archive, as its record in the store."""
    problems = []
    for match_id in finished:
        path = archive / f"{match_id}.ecn"
        stored = store.finished_match(match_id)
        if not path.exists():
            problems.append(f"{match_id}: finished, not archived")
        elif stored is None or path.read_text(encoding="utf-8") != stored.ecn:
            problems.append(f"{match_id}: its archive is not its stored record")
    return problems


def _chips(ledger: Ledger, db: ClubDB, over: set[str]) -> list[str]:
    problems: list[str] = []
    purses, escrow, minted = ledger.purses_total(), ledger.escrow_total(), ledger.minted()
    if purses + escrow != minted:
        problems.append(f"chips not conserved: {purses} in purses + {escrow} in escrow "
                        f"!= {minted} given out")
    for player, chips, journal in db.read(
            "SELECT p.player, p.chips, (SELECT COALESCE(SUM(j.delta), 0) FROM club_journal j "
            "WHERE j.player = p.player) FROM club_purses p"):
        if int(chips) != int(journal):
            problems.append(f"{player}'s purse holds {chips}, its journal adds up to {journal}")
    for (game,) in db.read(
            "SELECT DISTINCT w.game_id FROM club_wagers w JOIN club_games g "
            "ON g.game_id = w.game_id WHERE g.status IN ('settled', 'void') "
            "AND w.payout IS NULL"):
        problems.append(f"{game}: closed with a wager unpaid")
    for game, status in db.read(
            "SELECT game_id, status FROM club_games WHERE status IN ('betting', 'playing')"):
        if game.rpartition("/")[0] in over:
            problems.append(f"{game}: still {status} (chips in escrow) after its match ended")
    return problems


def _ratings(db: ClubDB, finished: dict[str, tuple[tuple[str | None, str | None],
                                                     str | None]]) -> list[str]:
    """Each finished match between two players with a purse counted once, for its winner;
    ratings and records the sums of what was counted."""
    problems: list[str] = []
    counted = {m: w for m, w in db.read("SELECT match_id, winner FROM club_matches")}
    for match_id, (seats, winner) in finished.items():
        if rated_pair(seats) and match_id not in counted:
            problems.append(f"{match_id}: finished between {seats}, never counted")
        elif winner is not None and counted.get(match_id, winner) != winner:
            problems.append(f"{match_id}: counted for {counted[match_id]!r}, won by {winner!r}")
    for player, rating, rated in db.read("SELECT player, rating, rated_matches FROM club_ratings"):
        (deltas, n), = db.read(
            "SELECT COALESCE(SUM(CASE WHEN player_a = ? THEN delta_a ELSE delta_b END), 0), "
            "COUNT(*) FROM club_matches WHERE rated = 1 AND (player_a = ? OR player_b = ?)",
            (player, player, player))
        if not math.isclose(float(rating), INITIAL_RATING + float(deltas), abs_tol=1e-6):
            problems.append(f"{player}'s rating {rating} is not {INITIAL_RATING} + {deltas}")
        if int(rated) != int(n):
            problems.append(f"{player} has {rated} rated matches, {n} recorded")
    for player, matches, wins in db.read("SELECT player, matches, match_wins FROM club_records"):
        (n, won), = db.read(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN winner = ? THEN 1 ELSE 0 END), 0) "
            "FROM club_matches WHERE player_a = ? OR player_b = ?", (player, player, player))
        if (int(matches), int(wins)) != (int(n), int(won)):
            problems.append(f"{player}'s record says {wins} won of {matches}, its matches "
                            f"{won} of {n}")
    return problems
