"""The operator's block list as read from its file: each kind of entry, bad lines skipped
with a warning, and a change noticed (once) without a restart."""

from __future__ import annotations

import logging
import os

import asyncssh

from net.ssh.blocklist import Blocklist, parse


def test_each_kind_of_entry_is_read_and_a_bad_line_is_skipped_with_its_number(caplog):
    key = asyncssh.generate_private_key("ssh-ed25519")
    public = key.export_public_key().decode().strip()
    other = asyncssh.generate_private_key("ssh-ed25519").get_fingerprint("sha256")
    caplog.set_level(logging.WARNING, logger="net.ssh.blocklist")
    entries = parse("\n".join([
        "# strangers",
        "203.0.113.7",
        "198.51.100.0/24   # a whole network",
        "2001:db8::/32",
        other,
        public + " troll@home",
        "name:Troll",
        "not-an-address",
        "ssh-ed25519 garbage",
        "",
    ]), "blocklist")
    b = Blocklist(None, entries)
    assert b.address("203.0.113.7") and not b.address("203.0.113.8")
    assert b.address("198.51.100.200") and b.address("::ffff:198.51.100.9")
    assert b.address("2001:db8::1") and not b.address("2001:db9::1")
    assert not b.address("?")  # (an address the socket could not give)
    assert b.key(other) and b.key(key.get_fingerprint("sha256")) and not b.key(None)
    assert b.name("troll") and b.name("TROLL") and not b.name("trollope")
    assert b.refuses("10.0.0.1", None, "Troll") and not b.refuses("10.0.0.1", None, "anna")
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 2
    assert "line 8" in warned[0] and "not-an-address" in warned[0]
    assert "line 9" in warned[1] and "not a public key" in warned[1]
    assert len(entries) == 6


def test_a_change_to_the_file_is_read_once_and_a_removed_file_lets_everyone_in(tmp_path):
    path = tmp_path / "blocklist"
    b = Blocklist(path)
    assert not b.refresh() and b.version == 0  # no file: nobody is kept out
    path.write_text("203.0.113.7\n")
    assert b.refresh() and b.address("203.0.113.7") and b.version == 1
    assert not b.refresh() and b.version == 1  # unchanged: not read again
    path.write_text("203.0.113.7\n# a note\n")
    os.utime(path, (1, 1))  # (same second as before on a coarse clock: the size differs)
    assert not b.refresh() and b.version == 1, "a comment changes nobody's access"
    path.write_text("name:troll\n")
    assert b.refresh() and b.name("Troll") and not b.address("203.0.113.7")
    path.unlink()
    assert b.refresh() and not b.name("troll") and b.version == 3
