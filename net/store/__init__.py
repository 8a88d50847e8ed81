"""The club's store, one interface over two backends: SQLite (WAL) in the data directory,
the embedded default, or PostgreSQL (``postgres.py``, the same SQL through a sqlite3-like
connection). ``club_store`` keeps players, tables, rounds and galleries; ``ledger_db`` the
purses, wagers and ratings; ``net.club_sync.sync_store`` the rows that keep processes in step.
"""

from net.store.club_store import (
    SCHEMA,
    SCHEMA_VERSION,
    GalleryStore,
    Player,
    RoundRecord,
    RoundStore,
    Store,
    StoredTable,
    StoreError,
    check_name,
)

__all__ = ["SCHEMA", "SCHEMA_VERSION", "GalleryStore", "Player", "RoundRecord", "RoundStore",
           "Store", "StoreError", "StoredTable", "check_name"]
