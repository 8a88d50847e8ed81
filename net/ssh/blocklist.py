"""The operator's list of who may not come in: a stranger who abuses a public club is kept
out by address, by key or by name, without a restart (the file is read again whenever it
changes; the server also ends the sessions it now refuses).

One entry per line, ``#`` starts a comment::

    203.0.113.7            an address (IPv4 or IPv6)
    198.51.100.0/24        a network
    SHA256:Vq3...          a key's fingerprint, as the server's INFO log shows it at login
    ssh-ed25519 AAAA...    a public key, as in authorized_keys
    name:Troll             a registered player's name (any case)

A key or name keeps its holder out with or without the key: a connection that offers a
refused key is ended, so it cannot come back in as a guest. A guest is kept out by address.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from net.ssh.watched_file import WatchedFile

log = logging.getLogger(__name__)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
REFUSED = "You may not play at this club (its operator's decision)."


@dataclass(frozen=True)
class Entries:
    networks: tuple[Network, ...] = ()
    fingerprints: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()  # lower case

    def __len__(self) -> int:
        return len(self.networks) + len(self.fingerprints) + len(self.names)

    def __or__(self, other: Entries) -> Entries:
        networks = self.networks + tuple(n for n in other.networks if n not in self.networks)
        return Entries(networks, self.fingerprints | other.fingerprints,
                       self.names | other.names)


def parse(text: str, source: str = "blocklist") -> Entries:
    """The entries of a list; a line that is none of them is logged and skipped."""
    networks: list[Network] = []
    fingerprints: set[str] = set()
    names: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.lower().startswith("name:") and line[5:].strip():
            names.add(line[5:].strip().lower())
        elif line.startswith("SHA256:"):
            fingerprints.add(line.split()[0])
        elif line.startswith(("ssh-", "ecdsa-", "sk-")):
            try:
                key = asyncssh.import_public_key(line)
            except (asyncssh.KeyImportError, ValueError) as e:
                log.warning("%s line %d: not a public key (%s); skipped", source, number, e)
                continue
            fingerprints.add(key.get_fingerprint("sha256"))
        else:
            try:
                networks.append(ipaddress.ip_network(line, strict=False))
            except ValueError:
                log.warning("%s line %d: %r is not an address, a network, a key or "
                            "name:NAME; skipped", source, number, line)
    return Entries(tuple(networks), frozenset(fingerprints), frozenset(names))


@dataclass
class Blocklist:
    """The list in ``path`` (none while the file does not exist), kept current; on a club
    of several machines, with the other machines' lists (``share``)."""

    path: Path | None
    entries: Entries = field(default_factory=Entries)  # this machine's file's
    others: Entries = field(default_factory=Entries)  # the club's other machines'
    version: int = 0  # counts the changes (each reader enforces a change once)
    text: str = ""  # the file's text ("" without a file), as the other machines read it
    file: WatchedFile = field(init=False)
    _all: Entries = field(init=False, default_factory=Entries)

    def __post_init__(self) -> None:
        self.file = WatchedFile(self.path, "the block list")
        self._all = self.entries | self.others

    def refresh(self) -> bool:
        """Read the file again if it changed (a stat otherwise); True if its list changed."""
        changed, text = self.file.read_if_changed()
        if not changed:
            return False
        before = self.entries
        self.text = text or ""
        if text is None:
            self.entries = Entries()
        else:
            self.entries = parse(text, str(self.path))
            n = len(self.entries)
            log.info("block list %s: %d %s", self.path, n, "entry" if n == 1 else "entries")
        if self.entries == before:
            return False
        return self._changed()

    def share(self, others: Entries) -> bool:
        """The other machines' lists, read from the club's store; True if they changed."""
        if others == self.others:
            return False
        self.others = others
        log.info("block list of the club's other machines: %d entries", len(others))
        return self._changed()

    def _changed(self) -> bool:
        self._all = self.entries | self.others
        self.version += 1
        return True

    def address(self, ip: str) -> bool:
        try:
            addr = ipaddress.ip_address(ip)
        except ValueError:
            return False
        if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
            addr = addr.ipv4_mapped  # (a dual-stack socket's IPv4 client)
        return any(addr in n for n in self._all.networks if n.version == addr.version)

    def key(self, fingerprint: str | None) -> bool:
        return fingerprint is not None and fingerprint in self._all.fingerprints

    def name(self, name: str | None) -> bool:
        return name is not None and name.lower() in self._all.names

    def refuses(self, ip: str, fingerprint: str | None, name: str | None = None) -> bool:
        return self.address(ip) or self.key(fingerprint) or self.name(name)
