"""A player's record and list of matches are read by his seats, not through every finished
match of the club: the lobby reads them on the event loop at each change of its list, and
a club that has run for months has tens of thousands (``ecarte bench store``: 78 ms a read
with 50,000 before, 0.2 ms now)."""

from __future__ import annotations

import random

from net.bench.store_bench import fill
from net.store.club_store import _FINISHED, Store, record_of


def test_the_record_and_the_list_are_found_by_the_seat_indexes(tmp_path):
    store = Store(tmp_path / "club.db")
    fill(store, 300, random.Random(1))
    plan = " ".join(str(row[3]) for row in store._db.execute(
        f"EXPLAIN QUERY PLAN SELECT COUNT(*) FROM ({_FINISHED}) AS g", ("SHA256:x",) * 4))
    for index in ("tables_seat_a", "tables_seat_b", "rounds_seat_a", "rounds_seat_b"):
        assert index in plan, plan
    assert "tables_status" not in plan and "SCAN tables" not in plan, plan


def test_the_record_counts_plain_matches_and_rounds_and_nothing_else(tmp_path):
    store = Store(tmp_path / "club.db")
    players = fill(store, 200, random.Random(2))
    me = players[0]
    rows = store._db.execute("SELECT seat_a, seat_b, winner FROM tables").fetchall()
    mine = [r for r in rows if me in (r[0], r[1])]
    assert record_of(store._db, me) == (len(mine), sum(r[2] == me for r in mine))
    # an unfinished table and a pool's rounds: the rounds count, their table does not
    store.create_table("OPEN", {}, (me, "SHA256:other"), ("me", "other"), "", "playing")
    store.create_table("POOL", {}, (me, "SHA256:other"), ("me", "other"), "", "finished")
    with store._tx() as db:
        for n, winner in ((1, me), (2, "SHA256:other")):
            db.execute("INSERT INTO rounds (record_id, code, number, seat_a, seat_b, ecn, "
                       "status, winner, updated) VALUES (?, 'POOL', ?, ?, 'SHA256:other', "
                       "'', 'finished', ?, '2026-12-07')",
                       (f"POOL.{n}" if n > 1 else "POOL", n, me, winner))
    played, won = record_of(store._db, me)
    assert (played, won) == (len(mine) + 2, sum(r[2] == me for r in mine) + 1)
    listed = store.finished_for(me, limit=500)
    assert len(listed) == played and {"POOL", "POOL.2"} <= {t.code for t in listed}
    assert "OPEN" not in {t.code for t in listed}


def test_a_name_is_found_case_blind_through_an_index(tmp_path):
    """A first visit and a rename look the name up case-blind; with tens of thousands of
    players a scan of the table would hold the event loop at each."""
    store = Store(tmp_path / "club.db")
    store.register("SHA256:anna", "Anna")
    for sql in ("SELECT 1 FROM players WHERE lower(name) = lower(?)",
                "SELECT id FROM players WHERE lower(name) = lower(?) AND id != ?"):
        args = ("ANNA", "SHA256:x")[:sql.count("?")]
        plan = " ".join(str(row[3]) for row in store._db.execute(f"EXPLAIN QUERY PLAN {sql}",
                                                                 args))
        assert "players_lower_name" in plan and "SCAN players" not in plan, plan
    assert store.name_taken("aNNa") and not store.name_taken("annie")
