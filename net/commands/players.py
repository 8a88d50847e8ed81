"""``ecarte players``: the operator's view of the club's players, and renaming one.

A name is a player's for good and chosen by a stranger: an operator must be able to find
who is behind a name (the key's fingerprint, for the block list) and take an offensive or
misleading name away. Everything shown reads each player's name from the store by id
(leaderboard, match lists, the lobby's records), so a rename shows there at once; the running
processes read it from the store at their sweep (``Store.renames_after``) for the sessions
and tables they hold.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from net.club.identity import check_new_name
from net.commands.status import StatusError, club_name, open_readonly
from net.commands.store_option import add_store_argument, store_url
from net.ssh.blocklist import parse
from net.store.club_store import Store, StoreError, record_of
from net.store.postgres import first_line

SHOWN = 50  # players listed unless --limit says otherwise


def add_arguments(p: argparse.ArgumentParser) -> None:
    from net.commands.serve import default_data_dir

    p.add_argument("--data-dir", type=Path, default=None,
                   help=f"the server's data directory (default: {default_data_dir()})")
    add_store_argument(p, "the club's PostgreSQL (postgresql://...), as given to ecarte serve")
    p.add_argument("--find", metavar="TEXT", default="",
                   help="only the players whose name holds TEXT, or whose key's fingerprint "
                        "begins with it")
    p.add_argument("--limit", type=int, default=SHOWN, metavar="N",
                   help=f"at most N players, the most recently seen first ({SHOWN}; 0: all)")
    p.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    p.add_argument("--rename", nargs=2, metavar=("NAME", "NEW"),
                   help="give the player called NAME the name NEW (the club may be running: "
                        "his sessions and tables say it within five seconds)")


@dataclass(frozen=True, slots=True)
class PlayerRow:
    name: str
    key: str  # the SSH key's fingerprint: what the block list takes
    created: str  # ISO dates, UTC
    last_seen: str
    matches: int  # finished
    won: int


def run(args: argparse.Namespace) -> int:
    from net.commands.serve import default_data_dir

    target: Path | str = store_url(args) or (args.data_dir or default_data_dir()) / "club.db"
    try:
        if args.rename:
            data_dir = args.data_dir or default_data_dir()
            print(rename(target, *args.rename, blocklist=data_dir / "blocklist"))
            return 0
        rows, total = find_players(target, args.find, args.limit)
    except (StatusError, StoreError) as e:
        print(f"ecarte players: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"club": club_name(target), "found": total,
                          "players": [asdict(r) for r in rows]}, indent=2))
    else:
        print(report(club_name(target), rows, total, args.find))
    return 0


def find_players(target: Path | str, find: str = "", limit: int = SHOWN
                 ) -> tuple[list[PlayerRow], int]:
    """The players matching ``find`` (most recently seen first, at most ``limit``; 0: all)
    and how many match in all."""
    db = open_readonly(target, "players")
    try:
        where = ""
        args: tuple[str, ...] = ()
        if find:
            where = "WHERE lower(name) LIKE ? ESCAPE '\\' OR id LIKE ? ESCAPE '\\'"
            args = (f"%{_like(find.lower())}%", f"{_like(find)}%")
        total = int(db.execute(f"SELECT COUNT(*) FROM players {where}", args).fetchone()[0])
        rows = db.execute(
            f"SELECT id, name, created, last_seen FROM players {where} "
            "ORDER BY last_seen DESC, name" + (f" LIMIT {int(limit)}" if limit > 0 else ""),
            args).fetchall()
        return [PlayerRow(str(name), str(pid), str(created), str(seen),
                          *record_of(db, str(pid))) for pid, name, created, seen in rows], total
    except StatusError:
        raise
    except Exception as e:  # (the database's errors, whichever driver)
        raise StatusError(f"cannot read {club_name(target)}: {first_line(e)}") from e
    finally:
        db.close()


def _like(text: str) -> str:
    """``text`` matched literally by LIKE (its wildcards escaped: ``b_`` is not ``b``)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def rename(target: Path | str, name: str, new: str, blocklist: Path | None = None) -> str:
    """Rename the player called ``name``; what was done, for the operator (warned when
    ``blocklist`` kept him out by that name alone: the new one would let him in)."""
    db = open_readonly(target, "players")  # (first: a missing club is not created)
    try:
        found = db.execute("SELECT id, name FROM players WHERE lower(name) = lower(?)",
                           (name,)).fetchone()
    finally:
        db.close()
    if found is None:
        raise StoreError(f"no player is called {name!r} (ecarte players --find {name[:4]})")
    player_id, old = str(found[0]), str(found[1])
    check_new_name(new)
    store = Store(target)
    try:
        store.rename(player_id, new)
    finally:
        store.close()
    warning = ""
    if blocklist is not None and blocklist.is_file():
        entries = parse(blocklist.read_text(errors="replace"), str(blocklist))
        if old.lower() in entries.names and player_id not in entries.fingerprints:
            warning = (f"\nWarning: {blocklist} keeps {old} out by name only: as {new} he "
                       f"may play again. To keep him out, add his key: {player_id}")
    return (f"{old} is now {new} ({player_id}).\n"
            "The leaderboard and the lists of matches say so at once; his sessions open now "
            "and the tables he sits at within five seconds (he is told); the records keep "
            "the name each game was begun under.\n"
            f"The name {old} is free again: to keep it from every new key, add the line "
            f"name:{old} to the block list." + warning)


def report(club: str, rows: list[PlayerRow], total: int, find: str) -> str:
    """What the operator reads: one line a player, the key last (the block list's entry)."""
    which = f" whose name holds {find!r} or whose key begins with it" if find else ""
    lines = [f"Club: {club}",
             f"{total} player{'s' if total != 1 else ''}{which}"
             + (f", the {len(rows)} seen last:" if len(rows) < total else ":")]
    if rows:
        width = max(len("name"), *(len(r.name) for r in rows))
        lines.append(f"  {'name':<{width}}  first came        last seen         "
                     "matches   won  key")
        lines += [f"  {r.name:<{width}}  {minute_of(r.created)}  {minute_of(r.last_seen)}  "
                  f"{r.matches:>7}  {r.won:>4}  {r.key}" for r in rows]
    if len(rows) < total:
        lines.append(f"({total - len(rows)} more: --find TEXT, or --limit 0 for all)")
    return "\n".join(lines)


def minute_of(iso: str) -> str:
    """"2026-12-07 09:40" (UTC) from the store's ISO time."""
    try:
        return datetime.fromisoformat(iso).astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16]
