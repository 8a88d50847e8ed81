"""``ecarte tables``: the operator's view of the club's unfinished tables, and closing one.

A table whose stored record cannot be read is left out at every start (logged each time),
its row "playing" and its stakes in escrow for ever; a table of two players who never come
back lingers until the club lets it go. The operator needs to see them (who, since when,
how many chips wait on them, whether the record reads) and a way out: closing one without
a result, every chip in escrow going back, as the club itself closes a game both players
left. The club may be running: a closed table's row is never written again, and every
process lets the table go at its next sweep, telling the players there.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from ecarte_tui.engine import EcnError, read_ecn
from net.club.clubhouse.purse import Ledger, LedgerError
from net.club.model import TableOptions, broken_record
from net.commands.players import minute_of
from net.commands.status import StatusError, club_name, open_readonly, read_status
from net.commands.store_option import add_store_argument, store_url
from net.store.club_store import RoundStore, Store, StoreError
from net.store.ledger_db import ClubDB
from net.store.postgres import PgConnection, first_line

UNFINISHED = ("open", "playing")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from net.commands.serve import default_data_dir

    p.add_argument("--data-dir", type=Path, default=None,
                   help=f"the server's data directory (default: {default_data_dir()})")
    add_store_argument(p, "the club's PostgreSQL (postgresql://...), as given to ecarte serve")
    p.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    p.add_argument("--close", metavar="CODE",
                   help="close the unfinished table CODE without a result: every chip in "
                        "escrow on it goes back (the club may be running: its players are "
                        "told within five seconds)")


@dataclass(frozen=True, slots=True)
class TableRow:
    code: str
    status: str  # 'open' (waiting for a player) or 'playing'
    players: tuple[str, str]  # the names, '-' for a seat nobody took
    created: str  # ISO dates, UTC
    updated: str
    escrow: int  # chips held on its games: stakes and wagers
    problem: str  # why the club cannot bring it back ('' when its record reads)


def run(args: argparse.Namespace) -> int:
    from net.commands.serve import default_data_dir

    target: Path | str = store_url(args) or (args.data_dir or default_data_dir()) / "club.db"
    try:
        if args.close:
            print(close(target, args.close.strip().upper()))
            return 0
        rows = unfinished(target)
    except (StatusError, StoreError, LedgerError) as e:
        print(f"ecarte tables: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"club": club_name(target), "tables": [asdict(r) for r in rows]},
                         indent=2))
    else:
        print(report(club_name(target), rows))
    return 0


def unfinished(target: Path | str) -> list[TableRow]:
    """The club's open and playing tables, the longest untouched first."""
    db = open_readonly(target, "tables")
    try:
        tables = db.execute(
            "SELECT code, status, name_a, name_b, seat_a, seat_b, options, ecn, created, "
            "updated FROM tables WHERE status IN ('open', 'playing') ORDER BY updated, code"
        ).fetchall()
        escrow = _escrow(db)
    except Exception as e:  # (the database's errors, whichever driver)
        raise StatusError(f"cannot read {club_name(target)}: {first_line(e)}") from e
    finally:
        db.close()
    rows = []
    for code, status, name_a, name_b, seat_a, seat_b, options, ecn, created, updated in tables:
        names = tuple(str(n) if n else (str(s) if s else "-")
                      for n, s in ((name_a, seat_a), (name_b, seat_b)))
        rows.append(TableRow(str(code), str(status), (names[0], names[1]), str(created),
                             str(updated), escrow.get(str(code), 0),
                             unreadable(str(options), str(ecn or ""))))
    return rows


def _escrow(db: sqlite3.Connection | PgConnection) -> dict[str, int]:
    """Chips in escrow by table code: both stakes of each open game and its wagers."""
    out: dict[str, int] = {}
    try:
        rows = db.execute(
            "SELECT g.game_id, 2 * g.escrow_each + COALESCE((SELECT SUM(w.amount) FROM "
            "club_wagers w WHERE w.game_id = g.game_id), 0) FROM club_games g "
            "WHERE g.status IN ('betting', 'playing')").fetchall()
    except Exception as e:  # (the database's errors, whichever driver)
        if "club_games" in str(e):
            return out  # a club whose server never opened its purses: nothing staked
        raise
    for game, chips in rows:
        code = table_of(str(game))
        out[code] = out.get(code, 0) + int(chips)
    return out


def table_of(game: str) -> str:
    """The table a ledger game belongs to: ``KJWY/2`` and a pool's ``KJWY.3/1`` -> KJWY."""
    return game.rsplit("/", 1)[0].split(".", 1)[0]


def unreadable(options: str, ecn: str) -> str:
    """Why a table's stored row cannot be brought back ('' when it can be read)."""
    try:
        TableOptions.from_json(json.loads(options)).rules()
    except Exception as e:  # (whatever a hand-edited row holds: said, never raised)
        return f"its options cannot be read: {first_line(e) or type(e).__name__}"
    if not ecn:
        return ""
    try:
        read_ecn(ecn)
    except EcnError as e:
        return broken_record(e)
    except ValueError as e:
        return f"its record cannot be read: {first_line(e)}"
    return ""


def close(target: Path | str, code: str) -> str:
    """Close the unfinished table ``code`` without a result, every chip in escrow on its
    games back to its owner; what was done, for the operator. The club may be running: its
    row, once closed, is never written again, and each process lets the table go at its
    next sweep (``Club.follow_closings``), its players told."""
    status = read_status(target, time.time())
    serving = len(status.serving)
    store = Store(target)
    try:
        row = store.table(code)
        if row is None:
            raise StoreError(f"no table {code} in {club_name(target)} (ecarte tables lists "
                             "the unfinished ones)")
        if row.status not in UNFINISHED:
            raise StoreError(f"table {code} is {row.status} already: nothing to close")
        # closed first: a process that opens a game on it before its sweep gives that
        # game's chips back at the sweep (or as it stops, or at its next start)
        store.save_table(code, status="closed")
        RoundStore(store).abandon(code)
        returned = _void_games(target, code)
        names = {who: (p.name if (p := store.player(who)) else who) for who in returned}
    finally:
        store.close()
    said = f"Table {code} is closed without a result; its record is kept as it was."
    if not returned:
        said += " No chips were in escrow on it."
    else:
        back = ", ".join(f"{n} to {names[who]}" for who, n in sorted(returned.items()))
        said += f" The {sum(returned.values())} chips in escrow on it went back: {back}."
    if serving:
        said += (f"\nThe club is running: within five seconds its "
                 f"{'process lets' if serving == 1 else f'{serving} processes let'} the table "
                 "go, and its players are told.")
    return said


def _void_games(target: Path | str, code: str) -> dict[str, int]:
    """Void every game of table ``code`` still in escrow: chips returned, by player id."""
    db = ClubDB(target)
    try:
        ledger = Ledger(db)
        returned: dict[str, int] = {}
        for game in ledger.unsettled():
            if table_of(game.game_id) != code:
                continue
            done = ledger.void(game.game_id)
            for who, n in done.credits.items():
                if n:  # (an unstaked game is in the ledger too, with nothing on it)
                    returned[who] = returned.get(who, 0) + n
        return returned
    finally:
        db.close()


def report(club: str, rows: list[TableRow]) -> str:
    """What the operator reads: one line a table, a table that cannot be read said why."""
    lines = [f"Club: {club}",
             f"{len(rows)} unfinished table{'s' if len(rows) != 1 else ''}"
             + (", the longest untouched first:" if len(rows) > 1 else ":" if rows else "")]
    if rows:
        width = max(len("players"), *(len(" vs ".join(r.players)) for r in rows))
        lines.append(f"  code  {'status':<8} {'players':<{width}}  opened            "
                     "last change       escrow")
        for r in rows:
            lines.append(f"  {r.code:<5} {r.status:<8} {' vs '.join(r.players):<{width}}  "
                         f"{minute_of(r.created)}  {minute_of(r.updated)}  {r.escrow:>6}")
            if r.problem:
                lines.append(f"        cannot be brought back: {r.problem}")
                lines.append(f"        (left out at every start: ecarte tables --close "
                             f"{r.code} gives its chips back)")
    return "\n".join(lines)
