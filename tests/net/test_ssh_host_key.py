"""The host key is created once (0600), reused, and its fingerprint is what ssh shows."""

from __future__ import annotations

import shutil
import stat
import subprocess

import pytest
from ssh_harness import ScreenClient, serving

from net.ssh.host_key import HOST_KEY_FILENAME, join_command, load_or_create_host_key


async def test_host_key_created_private_and_reused_across_restarts(demo_factory, tmp_path):
    async with serving(demo_factory, tmp_path) as first:
        fingerprint = first.host_key_fingerprint
        client = await ScreenClient.connect(first.port)
        seen = client.conn.get_server_host_key().get_fingerprint("sha256")
        await client.close()
    key_file = tmp_path / HOST_KEY_FILENAME
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert seen == fingerprint and fingerprint.startswith("SHA256:")
    contents = key_file.read_bytes()
    async with serving(demo_factory, tmp_path) as second:
        assert second.host_key_fingerprint == fingerprint
        assert second.join_command() == f"ssh -p {second.port} 127.0.0.1"
        assert second.join_command("cards.example", "join ABCD") == (
            f"ssh -t -p {second.port} cards.example join ABCD"
        )
    assert key_file.read_bytes() == contents


def test_loose_permissions_are_tightened(tmp_path):
    load_or_create_host_key(tmp_path)
    key_file = tmp_path / HOST_KEY_FILENAME
    key_file.chmod(0o644)
    load_or_create_host_key(tmp_path)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="ssh-keygen not installed")
def test_fingerprint_matches_ssh_keygen(tmp_path):
    key = load_or_create_host_key(tmp_path)
    output = subprocess.run(
        ["ssh-keygen", "-l", "-f", str(tmp_path / HOST_KEY_FILENAME)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert output.split()[1] == key.get_fingerprint("sha256")


def test_join_command_defaults_port_22():
    assert join_command("example.org", 22) == "ssh example.org"
    assert (
        join_command("example.org", 2222, "watch XY12") == "ssh -t -p 2222 example.org watch XY12"
    )
