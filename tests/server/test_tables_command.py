"""``ecarte tables``: the operator sees the club's unfinished tables (who, since when, the
chips waiting on them, a record the club cannot bring back) and closes one without a
result, every chip in escrow going back; never while the club runs, whose processes hold
their tables and would write over the closing."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from server_harness import (
    Seat,
    club_server,
    generous_limits,
    new_key,
    registered_pair,
)

from ecarte_tui.cli import main
from ecarte_tui.engine.rules import PRESETS
from net.club.clubhouse.purse import STARTING_PURSE, Ledger
from net.commands.tables import close, table_of, unfinished
from net.store.club_store import Store
from net.store.ledger_db import ClubDB

BROKEN = "hand\ndealer Q\n"
ANN, BOB, CAL = "SHA256:ann", "SHA256:bob", "SHA256:cal"


def _club(target, ann: str = ANN) -> None:
    """ann and bob at BADT, whose record is broken, 10 chips staked and cal's 7 wagered on
    it; dan waiting at OPEN, nothing on it."""
    store = Store(target)
    for key, name in ((ann, "ann"), (BOB, "bob"), (CAL, "cal"), ("SHA256:dan", "dan")):
        store.register(key, name)
    store.create_table("BADT", {"preset": "classic"}, (ann, BOB), ("ann", "bob"), BROKEN,
                       "playing")
    store.create_table("OPEN", {"preset": "classic"}, ("SHA256:dan", None), ("dan", None), "",
                       "open")
    store.close()
    db = ClubDB(target)
    ledger = Ledger(db)
    ledger.open_game("BADT/1", (ann, BOB), 10, PRESETS["classic"])
    ledger.place_wager("BADT/1", CAL, ann, 7)
    db.close()


def _purses(target) -> dict[str, int]:
    db = ClubDB(target)
    try:
        ledger = Ledger(db)
        return {p: ledger.purse(p) for p in (ANN, BOB, CAL)}
    finally:
        db.close()


def _cli(capsys, target, *args: str) -> tuple[int, str, str]:
    where = ["--store", target] if isinstance(target, str) else ["--data-dir",
                                                                  str(target.parent)]
    code = main(["tables", *where, *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_unfinished_tables_are_listed_with_their_escrow_and_a_broken_record(
        club_db_target, capsys):
    _club(club_db_target)
    rows = {r.code: r for r in unfinished(club_db_target)}
    assert set(rows) == {"BADT", "OPEN"}
    bad, waiting = rows["BADT"], rows["OPEN"]
    assert bad.players == ("ann", "bob") and bad.status == "playing"
    assert bad.escrow > 2 * 10 and (bad.escrow - 7) % 2 == 0  # both stakes' escrow, the wager
    assert bad.problem.startswith("its record is broken at line 2: ")
    assert (waiting.players, waiting.escrow, waiting.problem) == (("dan", "-"), 0, "")
    code, out, _ = _cli(capsys, club_db_target)
    assert code == 0 and "2 unfinished tables" in out
    assert "cannot be brought back: its record is broken at line 2" in out
    assert "ecarte tables --close BADT" in out
    code, out, _ = _cli(capsys, club_db_target, "--json")
    assert {t["code"]: t["escrow"] for t in json.loads(out)["tables"]} == {
        "BADT": bad.escrow, "OPEN": 0}


def test_closing_a_table_gives_back_every_chip_on_it(club_db_target, capsys):
    _club(club_db_target)
    code, out, err = _cli(capsys, club_db_target, "--close", "badt")
    assert code == 0, err
    assert "Table BADT is closed without a result" in out
    assert "went back:" in out and "to ann" in out and "7 to cal" in out
    assert _purses(club_db_target) == {ANN: STARTING_PURSE, BOB: STARTING_PURSE,
                                       CAL: STARTING_PURSE}
    store = Store(club_db_target)
    try:
        row = store.table("BADT")
        assert row is not None and (row.status, row.ecn) == ("closed", BROKEN)
    finally:
        store.close()
    assert [r.code for r in unfinished(club_db_target)] == ["OPEN"]
    _, out, _ = _cli(capsys, club_db_target, "--close", "OPEN")
    assert "No chips were in escrow on it." in out
    assert unfinished(club_db_target) == []


@pytest.mark.parametrize(("code", "why"), [
    ("NOPE", "no table NOPE"),
    ("DONE", "table DONE is finished already: nothing to close"),
])
def test_a_table_that_cannot_be_closed_changes_nothing(club_db_target, capsys, code, why):
    _club(club_db_target)
    store = Store(club_db_target)
    store.create_table("DONE", {}, (ANN, BOB), ("ann", "bob"), "", "playing")
    store.save_table("DONE", status="finished", winner=ANN)
    store.close()
    before = (unfinished(club_db_target), _purses(club_db_target))
    status, _, err = _cli(capsys, club_db_target, "--close", code)
    assert status == 1 and why in err
    assert (unfinished(club_db_target), _purses(club_db_target)) == before


def test_no_club_is_made_where_there_is_none(tmp_path, capsys):
    where = tmp_path / "nothing" / "club.db"
    code, _, err = _cli(capsys, where, "--close", "BADT")
    assert code == 1 and "no club in" in err
    assert not where.parent.exists()


def test_table_of_a_ledger_game():
    assert [table_of(g) for g in ("KJWY/2", "KJWY.3/1", "KJWY/12")] == ["KJWY"] * 3


async def test_a_table_left_out_is_closed_while_the_club_runs(tmp_path, caplog):
    """ann is told her table was left out; closed while the club runs, the next sweep
    forgets it (she is no longer told), and the next start does not try it again."""
    ann_key = new_key()
    target = tmp_path / "club.db"
    _club(target, ann=ann_key.get_fingerprint("sha256"))
    caplog.set_level(logging.ERROR, logger="net.game_server")
    async with club_server(tmp_path, limits=generous_limits()) as server:
        assert server.broken == ["BADT"]
        seat = await Seat.connect(server.port, "ann", key=ann_key)
        await seat.wait_for("Your game at table BADT could not be")
        await seat.client.close()
        said = await asyncio.to_thread(close, target, "BADT")
        assert "The club is running: within five seconds its process lets" in said
        server.club.sweep()  # (the server's own sweep does it within five seconds)
        assert "BADT" not in server.club.left_out and "OPEN" in server.club.tables
        seat = await Seat.connect(server.port, "ann", key=ann_key)
        await seat.wait_for("OPEN")  # the lobby, dan's table in it
        await seat.quiet(gap=0.5)  # (the word of a lost table comes with the lobby)
        assert "could not be" not in seat.text()
        await seat.client.close()
    assert [r.code for r in unfinished(target)] == ["OPEN"]
    caplog.clear()
    async with club_server(tmp_path, limits=generous_limits()) as server:
        assert server.broken == [] and "BADT" not in server.club.tables
        assert not [r for r in caplog.records if "BADT" in r.getMessage()]


async def test_a_table_in_play_is_closed_while_its_players_sit_there(tmp_path):
    """Both players see why their game ended, take no more moves there, and the table's row
    keeps the record as it was when it was closed."""
    keys = {"anna": new_key(), "ben": new_key()}
    async with club_server(tmp_path) as server:
        anna, ben, code = await registered_pair(server.port, keys)
        for seat in (anna, ben):
            await seat.wait_for("drew the higher card")
        said = await asyncio.to_thread(close, tmp_path / "club.db", code)
        assert f"Table {code} is closed without a result" in said
        for seat in (anna, ben):
            await seat.wait_for("operator closed this table without a result", timeout=30)
        assert code not in server.club.tables
        row = server.club.store.table(code)
        assert row is not None and row.status == "closed"
        for seat in (anna, ben):
            seat.press(b"\r")  # (the draw's box, had it stayed, would choose the dealer)
            await seat.quiet()
        assert server.club.store.table(code) == row  # nothing written over it
        anna.press(b"q")
        await anna.wait_for("C L U B")
        for seat in (anna, ben):
            await seat.close()
    async with club_server(tmp_path) as again:
        assert code not in again.club.tables


async def test_a_staked_game_closed_while_it_is_played_gives_every_chip_back(tmp_path):
    """The stakes and a watcher's wager go back and everyone whose chips moved is told; a
    move made before the sweep is not written over the closed row, and none is taken
    after it."""
    from server_harness import Clock
    from test_bot_takes_a_staked_seat import ANN as ANNA
    from test_bot_takes_a_staked_seat import BOB as BEN
    from test_bot_takes_a_staked_seat import GUS, make_club, play

    from ecarte_tui.table import TableError
    from net.club import TableOptions
    from net.club.clubhouse.options import ClubOptions
    from net.club.clubhouse.purse import Settlement, game_id

    club = make_club(tmp_path, Clock())
    lt, a = club.create(ANNA, TableOptions("classic", club=ClubOptions(stake=5)))
    _, b = club.sit(lt.code, BEN)
    for seat in (a, b):
        club.connected(lt, seat)
    house, table = club.house, lt.table
    assert house is not None and table is not None
    house.live = True  # (serving: a settlement first seen here is told here)
    told: list[Settlement] = []
    house.settlement_listeners.append(lambda _code, settlement: told.append(settlement))
    house.place_wager(lt, GUS.id, b, 40)
    first = game_id(lt.record_id, 1)
    await play(table, (a, b), until=lambda: house.ledger.game(first).status == "playing")

    said = await asyncio.to_thread(close, tmp_path / "club.db", lt.code)
    # (players the store never registered are named by their key)
    assert "chips in escrow on it went back" in said and f"40 to {GUS.id}" in said
    row = club.store.table(lt.code)
    assert row is not None and row.status == "closed"
    seat = table.match.to_move
    if seat is not None:  # a move before the process lets the table go: not stored
        table.submit(seat, sorted(table.match.legal_actions(seat), key=str)[0])
    assert club.store.table(lt.code) == row
    club.sweep()
    assert lt.code not in club.tables and lt.finished
    assert lt.closed_why is not None and "operator closed" in lt.closed_why
    assert {s.game_id for s in told} == {first} and told[0].winner is None
    assert {house.ledger.purse(p) for p in (ANNA.id, BEN.id, GUS.id)} == {STARTING_PURSE}
    assert house.ledger.escrow_total() == 0
    seat = table.match.to_move if table.match.to_move is not None else 0
    try:
        table.submit(seat, sorted(table.match.legal_actions(seat), key=str)[0])
    except TableError as e:
        assert "closed" in str(e)
    else:
        raise AssertionError("a move was taken at a closed table")


async def test_a_table_closed_reaches_every_machine_of_the_club(tmp_path, postgres_url):
    keys = {"anna": new_key(), "ben": new_key()}
    async with club_server(tmp_path / "one", store=postgres_url, shared=True) as one, \
            club_server(tmp_path / "two", store=postgres_url, shared=True) as two:
        anna, ben, code = await registered_pair(one.port, keys, two.port)
        for seat in (anna, ben):
            await seat.wait_for("drew the higher card")
        said = await asyncio.to_thread(close, postgres_url, code)
        assert "No chips were in escrow on it.\nThe club is running: within five" in said
        for seat in (anna, ben):
            await seat.wait_for("operator closed this table without a result", timeout=30)
        assert code not in one.club.tables and code not in two.club.tables
        for seat in (anna, ben):
            seat.press(b"\r")
            await seat.quiet()
        row = one.club.store.table(code)
        assert row is not None and row.status == "closed"
        for seat in (anna, ben):
            await seat.close()
    assert code not in [r.code for r in unfinished(postgres_url)]


async def test_a_pool_closed_while_it_runs_abandons_its_round_and_gives_the_stakes_back(
        tmp_path):
    from server_harness import Clock
    from test_bot_takes_a_staked_seat import play
    from test_pool_forfeit import make_club, pool_of_three

    from net.store import RoundStore

    club = make_club(tmp_path, Clock())
    lt = pool_of_three(club, stake=1)
    house = club.house
    assert house is not None and house.ledger.escrow_total() > 0  # the round's stakes
    table = lt.table
    assert table is not None
    await play(table, (0, 1), until=lambda: table.match.to_move is not None)
    said = close(tmp_path / "club.db", lt.code)
    assert "chips in escrow on it went back" in said
    seat = table.match.to_move
    assert seat is not None  # a move before the sweep writes the round: abandoned again
    table.submit(seat, sorted(table.match.legal_actions(seat), key=str)[0])
    club.sweep()
    assert lt.code not in club.tables and lt.closed_why is not None
    assert [r.status for r in RoundStore(club.store).rounds_of(lt.code)] == ["abandoned"]
    assert house.ledger.escrow_total() == 0
    assert {house.ledger.purse(p) for p in ("SHA256:ann", "SHA256:bob", "SHA256:cleo")} == {
        STARTING_PURSE}


async def test_a_match_that_ends_before_the_sweep_is_neither_archived_nor_rated(tmp_path):
    """Closed while its last hand is played: the move that ends the match, made before the
    process's sweep, lets the table go instead of archiving, rating or paying it."""
    from server_harness import Clock
    from test_bot_takes_a_staked_seat import ANN as ANNA
    from test_bot_takes_a_staked_seat import BOB as BEN
    from test_bot_takes_a_staked_seat import make_club, play

    from net.club import TableOptions

    club = make_club(tmp_path, Clock())
    lt, a = club.create(ANNA, TableOptions("classic", (("target", "1"),)))
    _, b = club.sit(lt.code, BEN)
    for seat in (a, b):
        club.connected(lt, seat)
    table, house = lt.table, club.house
    assert table is not None and house is not None
    await play(table, (a, b), until=lambda: table.match.to_move is not None)
    close(tmp_path / "club.db", lt.code)
    await play(table, (a, b), until=lambda: table.match.is_over)
    assert lt.code not in club.tables and lt.closed_why is not None
    assert not (tmp_path / "archive").exists() or not list((tmp_path / "archive").iterdir())
    assert not house.ratings.recorded(lt.record_id)
    assert house.ratings.rating(ANNA.id) == house.ratings.rating(BEN.id)  # (both untouched)
    row = club.store.table(lt.code)
    assert row is not None and row.status == "closed" and row.winner is None


async def test_a_game_opened_after_the_closing_is_voided_where_the_row_is_read(tmp_path):
    """ben sits down at anna's table just after the operator closed it, on the node that
    holds it: that node opens the table's first game and escrows the stakes. Another
    node's change brings the row (closed) to this one before its sweep: the table is let
    go, and the stakes go back (they stayed in escrow, the game 'betting' for ever;
    random input on two nodes with closings, seed 2025)."""
    from server_harness import Clock
    from test_bot_takes_a_staked_seat import ANN as ANNA
    from test_bot_takes_a_staked_seat import BOB as BEN
    from test_bot_takes_a_staked_seat import make_club

    from net.club import TableOptions
    from net.club.clubhouse.options import ClubOptions
    from net.club.clubhouse.purse import game_id

    club = make_club(tmp_path, Clock())
    lt, _ = club.create(ANNA, TableOptions("classic", club=ClubOptions(stake=5)))
    close(tmp_path / "club.db", lt.code)  # (nothing staked yet: nothing to give back)
    club.sit(lt.code, BEN)  # (this node has not swept since)
    house = club.house
    assert house is not None
    first = game_id(lt.record_id, 1)
    assert house.ledger.game(first).is_open and house.ledger.escrow_total() > 0
    club.refresh(lt.code)  # (another process's change of the row, read here)
    assert lt.code not in club.tables and lt.closed_why is not None
    assert house.ledger.game(first).status == "void"
    assert house.ledger.escrow_total() == 0
    assert {house.ledger.purse(p) for p in (ANNA.id, BEN.id)} == {STARTING_PURSE}


async def test_a_club_stopping_before_its_sweep_lets_a_closed_table_go(tmp_path):
    """Closed, then the club stops before its next sweep: it lets the table go as it
    stops (a game it opened since gives its chips back then, not at the next start)."""
    keys = {"anna": new_key(), "ben": new_key()}
    async with club_server(tmp_path) as server:
        anna, ben, code = await registered_pair(server.port, keys)
        for seat in (anna, ben):
            await seat.wait_for("drew the higher card")
        lt = server.club.tables[code]
        await asyncio.to_thread(close, tmp_path / "club.db", code)
        for seat in (anna, ben):
            await seat.close()
    assert lt.closed_why is not None and code not in server.club.tables


async def test_a_seat_taken_on_another_node_as_the_table_is_cancelled_is_refused(
        tmp_path, postgres_url):
    """ben's table, waiting, is cancelled on his node (he left it) just as anna sits down
    on the other, which has not heard yet: her seat is refused, and no game is opened on a
    table the store says was cancelled (it stayed 'betting' for ever: random input on two
    nodes with closings, seed 2127, once a cancelled row was no longer written over)."""
    from net.club import ClubError, TableOptions
    from net.store import Player

    ben, anna = Player("SHA256:ben", "ben"), Player("SHA256:anna", "anna")
    async with club_server(tmp_path / "one", store=postgres_url, shared=True) as one, \
            club_server(tmp_path / "two", store=postgres_url, shared=True) as two:
        lt, _ = one.club.create(ben, TableOptions())
        for _ in range(200):  # (the other node follows the new table)
            if lt.code in two.club.tables:
                break
            await asyncio.sleep(0.05)
        one.club.cancel(lt)  # (his node's sweep, he having left it)
        with pytest.raises(ClubError, match="no longer open"):
            two.club.sit(lt.code, anna)  # (before two has read the cancelling)
        assert lt.code not in two.club.tables
        assert one.house.ledger.game(f"{lt.code}/1") is None
        row = one.store.table(lt.code)
        assert row is not None and row.status == "cancelled" and row.seats[1] is None
