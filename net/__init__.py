"""The Écarté club over SSH. Its packages, each importing only those above it:

- ``net.store``: the club's store, SQLite or PostgreSQL behind one interface;
- ``net.club``: the club's domain (tables, seats, rounds, house, rooms), no Textual, no SSH;
- ``net.club_sync``: one club across processes and machines (tables as logs, nodes, leases);
- ``net.ssh``: the SSH transport serving one Textual app per session;
- ``net.screens``: the club's screens (lobby, tables, gallery), the app that strings them;
- ``net.game_server`` puts them together; ``net.commands``: ``ecarte serve|host|join``;
  ``net.bench``: ``ecarte bench ssh``; ``net/deploy``: HAProxy in front of several nodes.

The transport's public names are exported here lazily, so importing ``net.club`` or
``net.store`` never loads Textual or asyncssh.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from net.ssh.limits import Limits
    from net.ssh.served_app import harden_app, keep_alive, run_app_over_ssh, serve_app
    from net.ssh.server import GameSSHServer, start_server
    from net.ssh.session_info import SessionInfo

_EXPORTS = {
    "GameSSHServer": "net.ssh.server",
    "Limits": "net.ssh.limits",
    "SessionInfo": "net.ssh.session_info",
    "harden_app": "net.ssh.served_app",
    "keep_alive": "net.ssh.served_app",
    "run_app_over_ssh": "net.ssh.served_app",
    "serve_app": "net.ssh.served_app",
    "start_server": "net.ssh.server",
}

__all__ = [
    "GameSSHServer",
    "Limits",
    "SessionInfo",
    "harden_app",
    "keep_alive",
    "run_app_over_ssh",
    "serve_app",
    "start_server",
]


def __getattr__(name: str) -> Any:
    """Import the public names on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'net' has no attribute {name!r}")
    return getattr(import_module(module), name)
