"""The store keeps each live table's gallery, and a database from before galleries is
upgraded when the server starts on it (nothing in it is lost)."""

from __future__ import annotations

import sqlite3

from net.store import SCHEMA, SCHEMA_VERSION, GalleryStore, Store


def tables_in(path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        db.close()


def test_an_old_database_is_upgraded_at_start_and_keeps_its_rows(tmp_path):
    path = tmp_path / "club.db"
    old = sqlite3.connect(path)  # as the server before galleries made it: version 0
    old.executescript(SCHEMA)
    old.execute("INSERT INTO players VALUES ('SHA256:x', 'anna', 'then', 'then')")
    old.commit()
    old.close()
    assert "galleries" not in tables_in(path)

    store = Store(path)
    assert store.player("SHA256:x").name == "anna"
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    galleries = GalleryStore(store)
    galleries.save("ABCD", {"backing": {"w": [1, "SHA256:x", "wil", True]}})
    store.close()
    assert "galleries" in tables_in(path)

    store = Store(path)  # again: nothing to upgrade, nothing lost
    galleries = GalleryStore(store)
    assert galleries.load("ABCD") == {"backing": {"w": [1, "SHA256:x", "wil", True]}}
    galleries.forget("ABCD")
    assert galleries.load("ABCD") is None
    store.close()


def test_a_new_database_is_at_the_current_version(tmp_path):
    store = Store(tmp_path / "club.db")
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert GalleryStore(store).load("NONE") is None
    store.close()
