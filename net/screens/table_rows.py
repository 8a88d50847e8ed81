"""One line per table in the lobby: its code, rules, players, score and watchers, as text."""

from __future__ import annotations

from dataclasses import dataclass

from ecarte_tui.engine import Rules, progress
from net.club import Club, LiveTable
from net.screens.money_text import club_marks
from net.screens.presence import clock_text, seat_name


@dataclass(frozen=True, slots=True)
class TableRow:
    code: str
    rules: str
    players: str
    state: str
    watchers: str
    mine: bool
    joinable: bool  # a seat is free, or it is the reader's own


def rules_text(rules: Rules) -> str:
    parts = [rules.preset, f"to {rules.target}"]
    if rules.games_to_win > 1:
        parts.append(f"best of {2 * rules.games_to_win - 1}")
    if rules.ace_high:
        parts.append("ace high")
    return " · ".join(parts)


def table_rules_text(lt: LiveTable) -> str:
    """The rules and the club's options of a table (a pool, a stake), as the lobby lists them."""
    return " · ".join([rules_text(lt.options.rules()), *club_marks(lt.options.club)])


def table_row(club: Club, lt: LiveTable, player_id: str | None) -> TableRow:
    seat = lt.seat_of(player_id) if player_id else None
    free = any(s.player_id is None for s in lt.seats)
    a = seat_name(lt, 0)
    if lt.table is None:
        players = f"{a} · waiting for a player"
        state = "open"
    else:
        players = f"{a} vs {seat_name(lt, 1)}"
        hand_number, scores = progress(lt.table.match)
        if lt.table.status == "over":
            state = "over"
        elif hand_number:
            state = f"hand {hand_number} · {scores[0]}–{scores[1]}"
        else:
            state = "starting"
        away = []
        for i in (0, 1):
            left = club.reconnect_left(lt, i)
            if left is not None and lt.seats[i].player_id is not None:
                away.append(f"{seat_name(lt, i)} away {clock_text(left)}")
        if away:
            state += " · " + ", ".join(away)
    if len(lt.seats) > 2:  # a pool: three seats, the third waits his turn
        seated = sum(1 for s in lt.seats if s.player_id is not None)
        waits = lt.seats[2].name
        players += f" · {waits} waits" if waits else f" · pool {seated}/3"
    if seat is not None:
        state = f"your seat · {state}"
    return TableRow(
        lt.code, table_rules_text(lt), players, state,
        str(lt.watchers) if lt.watchers else "", seat is not None, free or seat is not None,
    )
