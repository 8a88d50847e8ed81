"""A player's finished matches: plain tables, and each round of a pool or French-rule table."""

from __future__ import annotations

from net.club import TableOptions
from net.club.clubhouse.options import ClubOptions
from net.store import RoundRecord, RoundStore, Store

ANNA, BEN, CLEO = "SHA256:anna", "SHA256:ben", "SHA256:cleo"


def test_rounds_are_listed_as_matches_of_their_players(club_db_target):
    store = Store(club_db_target)
    plain = TableOptions().to_json()
    store.create_table("PLNA", plain, (ANNA, BEN), ("anna", "ben"), "", "open")
    store.save_table("PLNA", ecn="[x]", status="finished", winner=BEN)
    pool = TableOptions(club=ClubOptions(pool="loser_out")).to_json()
    store.create_table("POOL", pool, (ANNA, BEN), ("anna", "ben"), "", "playing")
    rounds = RoundStore(store)
    rounds.save_round(RoundRecord("POOL", "POOL", 1, (ANNA, BEN), "[r1]", "finished", ANNA))
    rounds.save_round(RoundRecord("POOL.2", "POOL", 2, (ANNA, CLEO), "[r2]", "finished", CLEO))
    rounds.save_round(RoundRecord("POOL.3", "POOL", 3, (CLEO, BEN), "[r3]", "playing", None))

    anna = {st.code: st for st in store.finished_for(ANNA)}
    assert set(anna) == {"PLNA", "POOL", "POOL.2"}
    assert anna["POOL.2"].ecn == "[r2]" and anna["POOL.2"].seats == (ANNA, CLEO)
    assert anna["POOL.2"].options["club"]["pool"] == "loser_out"
    assert {st.code for st in store.finished_for(CLEO)} == {"POOL.2"}  # POOL.3 still playing
    assert store.record_for(ANNA) == (3, 1)
    assert store.record_for(CLEO) == (1, 1)
    assert store.record_for(BEN) == (2, 1)
    assert store.finished_match("POOL.2").winner == CLEO
    assert store.finished_match("POOL.3") is None
    assert len(store.finished_for(ANNA, limit=2)) == 2
    store.close()


def test_names_are_unique_whatever_their_case_on_both_stores(club_db_target):
    from net.store import StoreError

    store = Store(club_db_target)
    store.register(ANNA, "anna")
    assert store.name_taken("ANNA")
    try:
        store.register(BEN, "Anna")
    except StoreError as e:
        assert "taken" in str(e)
    else:
        raise AssertionError("a name differing only in case was accepted")
    assert store.player(BEN) is None
    store.close()
