"""What ``ecarte backup`` and ``ecarte restore`` say, shared by the SQLite and the
PostgreSQL sides of them."""

from __future__ import annotations


class BackupError(Exception):
    """What keeps the backup (or the restore) from being made, said to the operator as is."""


def counted(tables: int, players: int) -> str:
    """"1 table, 2 players"."""
    return (f"{tables} table{'' if tables == 1 else 's'}, "
            f"{players} player{'' if players == 1 else 's'}")
