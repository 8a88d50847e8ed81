"""``ecarte tables``: the operator sees the club's unfinished tables (who, since when, the
chips waiting on them, a record the club cannot bring back) and closes one without a
result, every chip in escrow going back; never while the club runs, whose processes hold
their tables and would write over the closing."""

from __future__ import annotations

import asyncio
import json
import logging
import time

import pytest
from server_harness import Seat, club_server, generous_limits, new_key

from ecarte_tui.cli import main
from ecarte_tui.engine.rules import PRESETS
from net.club.clubhouse.purse import STARTING_PURSE, Ledger
from net.commands.status import StatusError
from net.commands.tables import close, table_of, unfinished
from net.store.club_store import Store
from net.store.ledger_db import ClubDB
from net.store.serving import Serving, ServingRow

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


async def test_a_running_club_keeps_its_tables_and_a_closed_one_stays_closed(tmp_path, caplog):
    """Refused while the club serves (ann is told that her table was left out); closed once
    it is stopped, the table is not brought back at the next start (nothing logged), and
    ann is no longer told it was lost."""
    ann_key = new_key()
    target = tmp_path / "club.db"
    _club(target, ann=ann_key.get_fingerprint("sha256"))
    caplog.set_level(logging.ERROR, logger="net.game_server")
    async with club_server(tmp_path, limits=generous_limits()) as server:
        assert server.broken == ["BADT"]
        with pytest.raises(StatusError, match="the club is running"):
            await asyncio.to_thread(close, target, "BADT")
        assert "OPEN" in server.club.tables
        seat = await Seat.connect(server.port, "ann", key=ann_key)
        await seat.wait_for("Your game at table BADT could not be")  # (as the test below)
        await seat.client.close()
    assert {r.code for r in unfinished(target)} == {"BADT", "OPEN"}
    assert await asyncio.to_thread(close, target, "BADT")
    caplog.clear()
    async with club_server(tmp_path, limits=generous_limits()) as server:
        assert server.broken == [] and "BADT" not in server.club.tables
        assert "OPEN" in server.club.tables
        assert not [r for r in caplog.records if "BADT" in r.getMessage()]
        assert server.club.left_out == {}
        seat = await Seat.connect(server.port, "ann", key=ann_key)
        await seat.wait_for("OPEN")  # the lobby, dan's table in it
        await seat.quiet(gap=0.5)  # (the word of a lost table comes with the lobby)
        assert "could not be" not in seat.text()
        await seat.client.close()


def test_closing_is_refused_while_a_process_may_still_serve(club_db_target, capsys):
    """A process on another machine not heard from lately (stuck, or cut off from the
    database) may still hold the table: the closing waits for it to be gone."""
    _club(club_db_target)
    now = time.time()
    store = Store(club_db_target)
    try:
        Serving(store).say(ServingRow("far:78", "far", "another-machine", 78, 2222, "0.1.0",
                                      now - 900, now - 600, 1, 0, 0))
    finally:
        store.close()
    before = (unfinished(club_db_target), _purses(club_db_target))
    code, _, err = _cli(capsys, club_db_target, "--close", "BADT")
    assert code == 1 and "the club is running (1 process serving or not heard from" in err
    assert (unfinished(club_db_target), _purses(club_db_target)) == before
