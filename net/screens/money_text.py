"""What the screens say about chips: a table's option marks, its open pot, a purse, and what
a settlement moved for one player. Text only (the ledger decides; nothing here moves chips).

The pot is public (totals per player only: who wagered what is each bettor's own business).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from net.club.clubhouse.options import ClubOptions
from net.club.clubhouse.purse import Settlement, Wager, game_id

if TYPE_CHECKING:
    from ecarte_tui.table import Table
    from net.club import LiveTable
    from net.club.house import House
    from net.screens.club_app import ClubApp

POOL_MARKS = {"loser_out": "pool 001", "two_in_row": "pool 003"}


def chips(n: int) -> str:
    return f"{n} chip{'' if n == 1 else 's'}"


def club_marks(opts: ClubOptions) -> list[str]:
    """Short marks of a table's club options for the lobby's list (defaults say nothing)."""
    marks = []
    if opts.pool is not None:
        marks.append(POOL_MARKS.get(opts.pool, f"pool {opts.pool}"))
    if opts.stake:
        marks.append(f"stake {opts.stake}")
    if not opts.wagers:
        marks.append("no bets")
    if opts.french_rule:
        marks.append("French")
    if opts.jeux_de_regle:
        marks.append("jdr")
    return marks


def pot_text(wagers: Iterable[Wager], players: tuple[str, str],
             names: Mapping[str, str]) -> str:
    """"wagers: 120 on ANNA, 40 on BEN": the totals on each player, nothing about bettors."""
    totals = dict.fromkeys(players, 0)
    for w in wagers:
        totals[w.on_player] = totals.get(w.on_player, 0) + w.amount
    if not any(totals.values()):
        return "wagers: none yet"
    return "wagers: " + ", ".join(f"{totals[p]} on {names.get(p, p)}" for p in players)


def settlement_lines(s: Settlement, me: str, names: Mapping[str, str],
                     stake: int) -> list[str]:
    """What a settlement moved for ``me`` (a player or a bettor), in their words."""
    out: list[str] = []
    winner = s.winner
    number = s.game_id.rpartition("/")[2]
    if winner is None:
        if s.credits.get(me):  # (nothing to say of a game nobody had chips on)
            out.append(f"Nothing is paid on game {number}: {chips(s.credits[me])} back to "
                       "your purse")
        return out
    bettors = {w.bettor for w in s.wagers}  # (a player never wagers on his own game)
    loser = next((p for p in s.credits if p != winner and p not in bettors), None)
    if stake and me == winner:
        who = names.get(loser, loser) if loser else "your opponent"
        # nothing paid: a game won by forfeit while not ahead on points (the table's score)
        out.append(f"Stake: {who} pays you {chips(s.stake_paid)}" if s.stake_paid
                   else "Stake: nothing to pay (you were not ahead on points)")
    elif stake and me == loser:
        out.append(f"Stake: you pay {names.get(winner, winner)} {chips(s.stake_paid)}"
                   if s.stake_paid else "Stake: nothing to pay (you were not behind on points)")
    mine = [w for w in s.wagers if w.bettor == me]
    for w in mine:
        on = names.get(w.on_player, w.on_player)
        paid = w.payout or 0
        if paid > w.amount:
            out.append(f"You won {chips(paid - w.amount)} on {on}")
        elif paid == w.amount:
            out.append(f"Your {chips(w.amount)} on {on} are returned: nobody took the "
                       "other side")
        else:
            out.append(f"You lost your {chips(w.amount)} on {on}")
    return out


def current_game(table: Table) -> int:
    """The number (1-based) of the game being played or about to be (as the house counts)."""
    m = table.match
    n = len(m.games)
    return n if n and m.games[-1].winner is None else n + 1


def names_of(lt: LiveTable) -> dict[str, str]:
    return {s.player_id: s.name or s.player_id for s in lt.seats if s.player_id}


def money_lines(house: House, lt: LiveTable, me: str | None) -> list[str]:
    """The table's money at a glance: stake, the session's purse, the current pot."""
    from net.club.house import has_purse

    opts = lt.options.club
    lines = []
    if opts.stake:
        lines.append(f"Stake: {chips(opts.stake)} a point")
    if me is not None and has_purse(me):
        lines.append(f"Your purse: {chips(house.ledger.purse(me))}")
    players = (lt.seats[0].player_id, lt.seats[1].player_id)
    if opts.wagers and lt.table is not None and players[0] and players[1]:
        gid = game_id(lt.record_id, current_game(lt.table))
        wagers = house.ledger.wagers(gid)
        lines.append(pot_text(wagers, (players[0], players[1]), names_of(lt)))
        seat = lt.seat_of(me) if me else None
        if house.betting_game(lt) is not None and seat is None:
            lines.append("bets open: $ to wager")
    return lines


def who_with_purse(app: ClubApp) -> str:
    """The lobby's header: who the player is, and (with a purse) how many chips he has."""
    from net.club.house import has_purse

    who = app.who_text()
    player, house = app.player, app.club.house
    if player is not None and house is not None and has_purse(player.id):
        try:
            who += f" · purse {chips(house.ledger.purse(player.id))}"
        except sqlite3.OperationalError:  # the store away: the purse is shown when back
            pass
    return who
