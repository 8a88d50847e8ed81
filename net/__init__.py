"""Serve Textual apps over SSH: one app per session, all in the server's event loop.

Exports are resolved lazily so modules like `net.club` don't pull in Textual and
asyncssh just by being imported.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from net.limits import Limits
    from net.served_app import harden_app, keep_alive, run_app_over_ssh, serve_app
    from net.session_info import SessionInfo
    from net.ssh_server import GameSSHServer, start_server

_EXPORTS = {
    "GameSSHServer": "net.ssh_server",
    "Limits": "net.limits",
    "SessionInfo": "net.session_info",
    "harden_app": "net.served_app",
    "keep_alive": "net.served_app",
    "run_app_over_ssh": "net.served_app",
    "serve_app": "net.served_app",
    "start_server": "net.ssh_server",
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
