"""``--store URL`` for every command that opens a club kept in PostgreSQL, with its default
in the environment: a URL on a command line, password and all, is shown by ``ps`` to every
user of the machine; an environment (a systemd ``EnvironmentFile=`` of mode 0600) is not."""

from __future__ import annotations

import argparse
import os

STORE_ENV = "ECARTE_STORE"


def add_store_argument(p: argparse.ArgumentParser, help_text: str) -> None:
    p.add_argument("--store", metavar="URL",
                   help=f"{help_text} (default: ${STORE_ENV}, when it is set; a password is "
                        "better there, or in ~/.pgpass, than on a command line)")


def store_url(args: argparse.Namespace) -> str | None:
    """The ``--store`` given, else ``$ECARTE_STORE``, else None (SQLite)."""
    return args.store or os.environ.get(STORE_ENV) or None


def shown_password(args: argparse.Namespace) -> bool:
    """Whether the command line's ``--store`` URL holds a password (``ps`` shows it)."""
    if not args.store:
        return False
    try:
        from psycopg.conninfo import conninfo_to_dict

        return bool(conninfo_to_dict(args.store).get("password"))
    except Exception:  # (psycopg missing, or a URL it cannot read: said elsewhere)
        return False


PASSWORD_SHOWN = (f"the store's password on the command line is shown by ps to every user "
                  f"of this machine: put the URL in ${STORE_ENV} (a systemd EnvironmentFile "
                  "of mode 0600) or the password in ~/.pgpass")
