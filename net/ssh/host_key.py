"""The server's persistent Ed25519 host key, and how users recognise and reach it.

The key must survive restarts (otherwise every client sees a "host key changed"
warning) and must never be readable by other local users.
"""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh

from net.ssh.private_file import write_private

HOST_KEY_FILENAME = "ssh_host_ed25519_key"


def load_or_create_host_key(data_dir: str | os.PathLike[str]) -> asyncssh.SSHKey:
    """Read the host key from `data_dir`, creating it (mode 0600) on first start."""
    directory = Path(data_dir)
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = directory / HOST_KEY_FILENAME
    if path.exists():
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        return asyncssh.read_private_key(path)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="ecarte host key")
    write_private(path, key.export_private_key("openssh"))
    return key


def host_key_fingerprint(key: asyncssh.SSHKey) -> str:
    """'SHA256:...' exactly as `ssh-keygen -l` and ssh's first-connect prompt show it."""
    return key.get_fingerprint("sha256")


def fingerprint_of(data: bytes) -> str:
    """The fingerprint of a host key file's contents, or why it cannot be read."""
    try:
        return host_key_fingerprint(asyncssh.import_private_key(data))
    except (asyncssh.KeyImportError, ValueError) as e:
        return f"not a private key ({e})"


def join_command(host: str, port: int, command: str | None = None) -> str:
    """The ssh command a player types; `-t` is needed when a command is given."""
    parts = ["ssh"]
    if command:
        parts.append("-t")
    if port != 22:
        parts += ["-p", str(port)]
    parts.append(host)
    if command:
        parts.append(command)
    return " ".join(parts)
