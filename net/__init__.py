"""Serve Textual apps over SSH: one app per session, all in the server's event loop."""

from net.limits import Limits
from net.served_app import harden_app, run_app_over_ssh, serve_app
from net.session_info import SessionInfo
from net.ssh_server import GameSSHServer, start_server

__all__ = [
    "GameSSHServer",
    "Limits",
    "SessionInfo",
    "harden_app",
    "run_app_over_ssh",
    "serve_app",
    "start_server",
]
