"""Who a session is: a returning player (same key, same name), a new one, or a guest.

A public key's fingerprint is the only identity the server trusts; the SSH user name is
just a suggestion for a first visit. Guests (no key) get a fresh name that is never
stored, and can never take the name of a registered player.
"""

from __future__ import annotations

import re
import secrets

from net.store.club_store import NAME_RE, Player, Store, StoreError, check_name

GUEST_PREFIX = "guest-"
GUEST_ID_PREFIX = "guest:"
RESERVED = ("guest", "bot")


def is_guest(player: Player) -> bool:
    return player.id.startswith(GUEST_ID_PREFIX)


def check_new_name(name: str) -> None:
    """StoreError (a message for the player) for a malformed or reserved name."""
    check_name(name)
    if name.lower().startswith(RESERVED):
        raise StoreError("names starting with 'guest' or 'bot' are kept for the server")


class Identities:
    """Names in use: registered players in the store, guests only while connected."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._guests: set[str] = set()

    def known(self, fingerprint: str) -> Player | None:
        """The player who owns this key, if it has been here before."""
        player = self.store.player(fingerprint)
        if player is not None:
            self.store.seen(fingerprint)
        return player

    def suggest(self, username: str) -> str:
        """A free, valid name close to the SSH user name (the default on the name screen)."""
        base = re.sub(r"[^A-Za-z0-9_.-]", "", username)[:14]
        base = base.lstrip("_.-")
        if not NAME_RE.match(base) or base.lower().startswith(RESERVED):
            base = "player"
        if self.available(base):
            return base
        for n in range(2, 10_000):
            candidate = f"{base[:13]}{n}"
            if self.available(candidate):
                return candidate
        return base  # pragma: no cover - ten thousand namesakes

    def available(self, name: str) -> bool:
        return not self.store.name_taken(name) and name.lower() not in self._guests

    def register(self, fingerprint: str, name: str) -> Player:
        """Store a new player's chosen name; StoreError if it is taken or not allowed."""
        check_new_name(name)
        if name.lower() in self._guests:
            raise StoreError(f"the name {name!r} is taken: choose another")
        return self.store.register(fingerprint, name)

    def guest(self) -> Player:
        """A unique guest for one session; call ``release`` when it ends. The number comes
        from the store: the club's other processes hand out guests too."""
        while True:
            n = self.store.next_number("guest")
            name = f"{GUEST_PREFIX}{n}"
            if name not in self._guests and not self.store.name_taken(name):
                self._guests.add(name)
                # a random id: a guest after a restart must never match an old guest's seat
                return Player(f"{GUEST_ID_PREFIX}{secrets.token_hex(8)}", name)

    def release(self, player: Player) -> None:
        if is_guest(player):
            self._guests.discard(player.name.lower())
