"""The rows of the leaderboard and of a player's record, as text, from the store and ratings.

Kept apart from the screens so the numbers can be checked without drawing anything. Names
always come from the store (the players table, or the name a seat had at the table), never
from a raw key fingerprint.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from net.club import BOT_PREFIX, TableOptions
from net.club.clubhouse.ratings import PlayerRecord, RatingBook, Standing
from net.club.identity import GUEST_ID_PREFIX
from net.screens.table_rows import rules_text
from net.store.club_store import Store, StoredTable

LEADERBOARD_SIZE = 10
MATCHES_SHOWN = 20
UNKNOWN = "(unknown)"
_DATE = re.compile(r'^\[Date "([^"]*)"\]', re.MULTILINE)


@dataclass(frozen=True, slots=True)
class LeaderRow:
    rank: int
    name: str
    rating: int  # rounded for show; the book keeps it unrounded
    matches: int
    wins: int
    mine: bool


@dataclass(frozen=True, slots=True)
class MatchRow:
    code: str
    seat: int  # the reader's seat in that match (the replay shows that side)
    date: str
    opponent: str
    rules: str
    result: str
    change: str  # "+16.0", "-7.7", or "unrated"


def is_registered(player_id: str | None) -> bool:
    """A player with a key: not a guest, not a bot (only they are rated)."""
    return bool(player_id) and not player_id.startswith((GUEST_ID_PREFIX, BOT_PREFIX))  # type: ignore[union-attr]


def player_name(store: Store, player_id: str) -> str:
    player = store.player(player_id)
    return player.name if player is not None else UNKNOWN


def _leader_row(store: Store, s: Standing, viewer: str | None) -> LeaderRow:
    return LeaderRow(s.rank, player_name(store, s.player), round(s.rating), s.rated_matches,
                     s.match_wins, s.player == viewer)


def leaderboard_rows(store: Store, book: RatingBook, viewer: str | None,
                     limit: int = LEADERBOARD_SIZE) -> list[LeaderRow]:
    """The top ``limit`` players; the viewer's own row is added below them when they are
    rated but not among them."""
    rows = [_leader_row(store, s, viewer) for s in book.leaderboard(limit)]
    if viewer is not None and not any(r.mine for r in rows):
        own = book.standing(viewer)
        if own is not None:
            rows.append(_leader_row(store, own, viewer))
    return rows


def record_text(rec: PlayerRecord) -> str:
    """The record's numbers in two lines."""
    rated = f"{rec.rated_matches} rated match{'es' if rec.rated_matches != 1 else ''}"
    return (
        f"Rating {round(rec.rating)} ({rated}) · matches {rec.matches}, won {rec.match_wins}"
        f" · games {rec.games}, won {rec.wins}\n"
        f"Hands {rec.hands} · voles {rec.voles} · kings {rec.kings} · points {rec.points}"
    )


def _opponent(store: Store, st: StoredTable, other: int) -> str:
    pid = st.seats[other]
    if pid is not None and is_registered(pid):
        player = store.player(pid)
        if player is not None:
            return player.name  # today's name, if they changed it since
    return st.names[other] or UNKNOWN


def _rules(st: StoredTable) -> str:
    try:
        return rules_text(TableOptions.from_json(st.options).rules())
    except (ValueError, AssertionError):  # an old or damaged options record
        return "?"


def match_rows(store: Store, book: RatingBook | None, player_id: str,
               limit: int = MATCHES_SHOWN) -> list[MatchRow]:
    """The player's finished matches, newest first, with the rating each one moved."""
    rows = []
    for st in store.finished_for(player_id, limit):
        seat = 0 if st.seats[0] == player_id else 1
        found = _DATE.search(st.ecn)
        if st.winner is None:
            result = "no result"
        else:
            result = "won" if st.winner == player_id else "lost"
        rated = book.match_rating(st.code) if book is not None else None
        change = "unrated"
        if rated is not None and rated.rated and player_id in rated.players:
            change = f"{rated.delta[rated.players.index(player_id)]:+.1f}"
        rows.append(MatchRow(st.code, seat, found.group(1) if found else "", _opponent(
            store, st, 1 - seat), _rules(st), result, change))
    return rows
