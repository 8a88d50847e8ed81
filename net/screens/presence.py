"""Who is away from a table, in words: the banner a player or a watcher reads above the felt.

Pure functions of the club's bookkeeping, so the countdown is easy to test with a fake clock.
"""

from __future__ import annotations

import math

from net.club import Club, LiveTable
from net.club.identity import GUEST_ID_PREFIX

FORFEIT_KEYS = "w take the win · b play on against the bot"
ROUND_FORFEIT_KEYS = "w take the game (the table goes on)"


def clock_text(seconds: float) -> str:
    """``4:12``: minutes and seconds left, rounded up so 0:00 means the time is out."""
    s = max(0, math.ceil(seconds))
    return f"{s // 60}:{s % 60:02d}"


def seat_name(lt: LiveTable, seat: int) -> str:
    return lt.seats[seat].name or "ABAB"[seat]


def away_banner(club: Club, lt: LiveTable, seat: int | None) -> tuple[str, str] | None:
    """(text, severity) for the banner, or None when everybody is at the table.

    A player reads about the opponent; a watcher about both seats.
    """
    if lt.finished:
        return None
    seats = (1 - seat,) if seat is not None else (0, 1)
    parts: list[str] = []
    timed_out = False
    for s in seats:
        left = club.reconnect_left(lt, s)
        if left is None or lt.seats[s].player_id is None:
            continue
        name = seat_name(lt, s)
        if left > 0:
            parts.append(f"Waiting for {name} to reconnect ({clock_text(left)})")
        else:
            timed_out = True
            player_id = lt.seats[s].player_id or ""
            gone = (f"{name} left (a guest cannot come back)"
                    if player_id.startswith(GUEST_ID_PREFIX) else None)
            if seat is None:
                parts.append(gone or f"{name} has not come back")
            else:
                keys = FORFEIT_KEYS if lt.rounds is None else ROUND_FORFEIT_KEYS
                parts.append(f"{gone or f'{name} did not come back'}: {keys}")
    if not parts:
        return None
    return " · ".join(parts), "error" if timed_out else "warning"


def counting_down(club: Club, lt: LiveTable, seat: int | None) -> bool:
    """The banner shows a reconnection clock (``away_banner``'s "(4:12)"): the screen must
    redraw every second until it runs out. Once the time is out nothing moves by itself."""
    if lt.finished:
        return False
    seats = (1 - seat,) if seat is not None else (0, 1)
    for s in seats:
        left = club.reconnect_left(lt, s)
        if left is not None and left > 0 and lt.seats[s].player_id is not None:
            return True
    return False


def may_claim(club: Club, lt: LiveTable, seat: int | None, bot: bool = False) -> bool:
    """The opponent's time is out: this player may take the win or (``bot``) call in the
    bot; a pool or French-rule table takes no bot, and a round won already no claim."""
    if seat is None or seat > 1 or lt.finished or lt.table is None:
        return False
    if lt.rounds is not None and (bot or lt.rounds.forfeit is not None
                                  or lt.table.match.is_over):
        return False
    left = club.reconnect_left(lt, 1 - seat)
    return left is not None and left <= 0
