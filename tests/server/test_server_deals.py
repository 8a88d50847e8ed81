"""Fair deals (issue 14, item 10): a server's tables shuffle with the operating system's
generator unless a seed is given (tests, the bench); a seeded server deals the same cards
again; a record of a served game replays from its dealt cards, with no ``Seed`` tag."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ecarte_tui.engine import read_ecn
from net.club import LiveTable, TableOptions
from net.game_server import GameServer, ServerConfig
from net.store import Player

ANNA, BEN, CARL, DORA = (Player(f"SHA256:{n}", n) for n in ("anna", "ben", "carl", "dora"))


def served(data_dir: Path, seed: int | None = None) -> GameServer:
    """The server's own club, store and house (no SSH listener is needed for the tables)."""
    return GameServer(ServerConfig(data_dir, host="127.0.0.1", port=0, seed=seed))


def dealt_table(server: GameServer, a: Player, b: Player) -> LiveTable:
    """A table of two people, the first dealer chosen and the first hand dealt."""
    lt, _ = server.club.create(a, TableOptions())
    server.club.sit(lt.code, b)
    t = lt.table
    assert t is not None
    if t.status == "choose":
        t.choose_dealer(t.waiting_for, 0)
    assert t.match.hands_log
    return lt


def close(server: GameServer) -> None:
    server.house.close()
    server.store.close()


def test_an_unseeded_server_shuffles_with_the_system_generator(tmp_path, monkeypatch):
    def no_twister(*_args: object) -> None:
        raise AssertionError("a served table drew from the Mersenne Twister")

    drawn = []
    system_bits = random.SystemRandom.getrandbits

    def counted(self: random.SystemRandom, k: int) -> int:
        drawn.append(k)
        return system_bits(self, k)

    # SystemRandom overrides these; every other Random draws through them
    for name in ("getrandbits", "random", "seed"):
        monkeypatch.setattr(random.Random, name, no_twister)
    monkeypatch.setattr(random.SystemRandom, "getrandbits", counted)

    server = served(tmp_path)
    try:
        first = dealt_table(server, ANNA, BEN)
        second = dealt_table(server, CARL, DORA)
        assert len(drawn) >= 2 * 31  # at least one Fisher-Yates shuffle per table
        tables = [first.table, second.table]
        assert all(type(t.rng) is random.SystemRandom for t in tables)
        assert tables[0].rng is not tables[1].rng  # no generator shared between tables
        for lt in (first, second):
            text = server.store.table(lt.code).ecn
            assert "[Seed " not in text  # no fake seed for a secret shuffle
            again = read_ecn(text)  # the record holds the cards: it replays as dealt
            assert again.match.hands_log[0].hands == lt.table.match.hands_log[0].hands
    finally:
        close(server)


def deals(data_dir: Path, seed: int) -> list[tuple]:
    server = served(data_dir, seed)
    try:
        out = []
        for a, b in ((ANNA, BEN), (CARL, DORA)):
            lt = dealt_table(server, a, b)
            h = lt.table.match.hands_log[0]
            out.append((lt.code, h.hands, h.up, h.stock, lt.table.tags.get("Seed")))
        return out
    finally:
        close(server)


def test_a_seeded_server_deals_the_same_cards_again(tmp_path):
    one = deals(tmp_path / "one", 7)
    assert one == deals(tmp_path / "two", 7)
    assert all(seed is not None for *_, seed in one)  # a seeded deal says its seed
    assert one != deals(tmp_path / "three", 8)


@pytest.mark.parametrize("seed", [None, 3])
def test_a_served_record_replays_with_or_without_a_seed(tmp_path, seed):
    server = served(tmp_path, seed)
    try:
        lt = dealt_table(server, ANNA, BEN)
        text = lt.table.record_text()
        assert read_ecn(text).match.hands_log[0].stock == lt.table.match.hands_log[0].stock
        assert ("[Seed " in text) == (seed is not None)
    finally:
        close(server)
