"""The club's SQLite files are the server's alone: they hold every hidden card of the games
in play (and every discard), so, like the host key, no other local user may read them."""

from __future__ import annotations

from net.store.club_store import Store


def test_the_clubs_sqlite_files_are_readable_by_the_server_only(tmp_path):
    """They hold the hidden cards of every game in play, as the host key is private."""
    old = tmp_path / "old.db"
    for name in ("old.db", "old.db-wal"):  # as a server before this one left them
        (tmp_path / name).write_bytes(b"")
        (tmp_path / name).chmod(0o644)
    for db in (tmp_path / "new.db", old):
        store = Store(db)
        try:
            store.create_table("ABCD", "{}", ("p", None), ("anna", None), "", "open")
            files = list(tmp_path.glob(f"{db.name}*"))
            assert {p.name for p in files} >= {db.name, f"{db.name}-wal", f"{db.name}-shm"}
            for path in files:
                assert path.stat().st_mode & 0o777 == 0o600, path
        finally:
            store.close()
