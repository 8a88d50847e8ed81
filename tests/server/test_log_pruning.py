"""A club left running lets go of what no node needs: the log of a table over for an hour
(its record keeps the match) and the feed rows every node has read; a live table, a table
just finished and a pool still playing keep theirs, and the club plays on. On SQLite and
PostgreSQL alike."""

from __future__ import annotations

import random
import time

import pytest
from test_club_nodes import ANNA, BRUNO, make_node, step

from net.club import TableOptions
from net.club_sync import log_pruning
from net.club_sync.log_pruning import LogPruner, iso, prune_feed, prune_logs
from net.club_sync.sync_store import SyncStore
from net.store.club_store import Store

HOUR = 3600.0


def _table(store: Store, sync: SyncStore, code: str, status: str, age: float,
           steps: int = 3) -> None:
    """A table row ``age`` seconds old with ``steps`` steps in its log."""
    store.create_table(code, {"rules": "classic"}, ("p1", "p2"), ("anna", "bruno"), "",
                       status)
    with store._tx() as db:
        db.execute("UPDATE tables SET updated = ? WHERE code = ?",
                   (iso(time.time() - age), code))
    for seq in range(1, steps + 1):
        assert sync.append_step(code, seq, ("ready", 0, ""), "node")


def _round(store: Store, sync: SyncStore, code: str, record_id: str, status: str) -> None:
    with store._tx() as db:
        db.execute("INSERT INTO rounds (record_id, code, number, status, updated) "
                   "VALUES (?, ?, 1, ?, ?)", (record_id, code, status, iso(0)))
    assert sync.append_step(record_id, 1, ("ready", 0, ""), "node")


def _logged(sync: SyncStore) -> set[str]:
    with sync.store._lock:
        return {r[0] for r in sync.store._db.execute("SELECT code FROM table_log").fetchall()}


@pytest.fixture
def sync(club_db_target):
    store = Store(club_db_target)
    yield SyncStore(store)
    store.close()


def test_only_the_logs_of_tables_over_for_an_hour_go(sync):
    store = sync.store
    _table(store, sync, "OLDF", "finished", 2 * HOUR)
    _table(store, sync, "OLDC", "cancelled", 2 * HOUR, steps=1)
    _table(store, sync, "LIVE", "playing", 2 * HOUR)  # a long game: still played
    _table(store, sync, "JUST", "finished", 600)  # over ten minutes ago
    _table(store, sync, "POOL", "closed", 2 * HOUR, steps=0)  # a pool closed for good
    _round(store, sync, "POOL", "POOL", "finished")
    _round(store, sync, "POOL", "POOL.2", "abandoned")
    _table(store, sync, "OPEN", "playing", 2 * HOUR, steps=0)  # a pool still playing
    _round(store, sync, "OPEN", "OPEN", "finished")
    _round(store, sync, "OPEN", "OPEN.2", "playing")
    before = iso(time.time() - HOUR)
    assert prune_logs(sync, before, batch=2) == 2  # (in batches)
    while prune_logs(sync, before, batch=2):
        pass
    assert _logged(sync) == {"LIVE", "JUST", "OPEN", "OPEN.2"}
    assert store.table("OLDF") is not None, "the record stays"
    assert sync.log_after("LIVE", 0) == [(n, ("ready", 0, "")) for n in (1, 2, 3)]


def test_the_feed_goes_up_to_the_mark_in_batches(sync, monkeypatch):
    monkeypatch.setattr(log_pruning, "FEED_BATCH", 4)
    for n in range(10):
        sync.announce(f"T{n:03d}", "status")
    first = sync.last_ids()[1] - 9
    assert prune_feed(sync, first + 5) == 4  # at most a batch
    assert prune_feed(sync, first + 5) == 2
    assert prune_feed(sync, first + 5) == 0
    _, _, _, feed = sync.changes_after(0, 0)
    assert [code for code, _ in feed] == [f"T{n:03d}" for n in range(6, 10)]


def test_a_node_prunes_once_an_hour_and_the_club_plays_on(club_db_target, tmp_path):
    one = make_node(club_db_target, "one", 11, tmp_path)
    two = make_node(club_db_target, "two", 12, tmp_path)
    clock = [time.time()]
    pruner = LogPruner(SyncStore(one.store), lambda: clock[0], one.node._ids[1])  # type: ignore[union-attr]

    def match() -> tuple[str, object, object]:
        lt1, _ = one.create(ANNA, TableOptions("classic", (("target", "1"),)))
        two.node.read_feed()  # type: ignore[union-attr]
        lt2, _ = two.sit(lt1.code, BRUNO)
        one.node.read_feed()  # type: ignore[union-attr]
        return lt1.code, lt1.table, lt2.table

    done, t1, t2 = match()
    rng = random.Random(3)
    while step({0: t1, 1: t2}, rng) is not None:  # type: ignore[dict-item]
        one.node.read_feed()  # type: ignore[union-attr]
        two.node.read_feed()  # type: ignore[union-attr]
    live, l1, l2 = match()
    step({0: l1, 1: l2}, rng)  # type: ignore[dict-item]
    two.node.read_feed()  # type: ignore[union-attr]
    assert pruner.tick(two.node._ids[1]) is None, "not before an hour"  # type: ignore[union-attr]
    clock[0] += 2 * HOUR  # (the finished table's row says it is over: an hour later)
    with one.store._tx() as con:
        con.execute("UPDATE tables SET updated = ? WHERE code = ?",
                    (iso(clock[0] - 1.5 * HOUR), done))
    tables, _feed = pruner.tick(one.node._ids[1])  # type: ignore[union-attr]
    assert tables == 1 and _logged(SyncStore(one.store)) == {live}
    while step({0: l1, 1: l2}, rng) is not None:  # type: ignore[dict-item]
        one.node.read_feed()  # type: ignore[union-attr]
        two.node.read_feed()  # type: ignore[union-attr]
        assert l1.record_text() == l2.record_text()  # type: ignore[attr-defined]
    assert one.store.table(done).status == "finished"  # type: ignore[union-attr]
    for club in (one, two):
        club.store.close()
