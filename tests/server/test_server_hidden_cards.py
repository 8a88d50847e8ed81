"""Many seeded games through the server, every frame to every client checked: nobody is ever
shown a card hidden from them (the opponent's unplayed cards, any discard not their own, the
stock), players and watchers alike, under every way of announcing the king."""

from __future__ import annotations

import asyncio

import pytest
from leak_check import CheckedClient, SeenCards
from server_harness import Seat, club_server, generous_limits, new_key

from net.club import TableOptions
from net.store import Player

PRESETS = ("nl", "regles", "britannica", "academie")
HANDS = 3
"""Hands scanned at least under each preset. A match to 3 points may end in one hand (how
the scripted players play depends on what they read, and so on timing): then another match
is played at a new table, until there were as many."""


@pytest.mark.parametrize("preset", PRESETS)
async def test_no_frame_ever_shows_a_hidden_card(tmp_path, preset):
    async with club_server(tmp_path, seed=11, limits=generous_limits()) as server:
        opened = asyncio.Lock()  # one table's game starts at a time: its deal is seeded
        # from the club's generator then

        async def one_match(i: int, preset: str, n: int) -> int:
            """A new table: its host comes back to it, an opponent joins, a guest watches;
            the match is played out with every frame checked. Returns its hands."""
            keys = (new_key(), new_key())
            players = [server.store.register(k.get_fingerprint("sha256"), f"p{i}{n}{s}")
                       for s, k in enumerate(keys)]
            lt, _ = server.club.create(Player(players[0].id, players[0].name),
                                       TableOptions(preset, (("target", "3"),)))
            a = Seat(await CheckedClient.connect(server.port, size=(80, 24), key=keys[0]),
                     players[0].name, seed=10 * i + 100 * n)
            await a.wait_for(f"Table {lt.code}")  # back at the table they opened
            await a.dismiss_toast("Welcome back")  # (it would cover a prompt for 5 s)
            async with opened:
                b = Seat(await CheckedClient.connect(server.port, size=(80, 24), key=keys[1],
                                                     command=f"join {lt.code}"),
                         players[1].name, seed=10 * i + 100 * n + 1)
                await b.wait_for("Écarté ·")
            seen = SeenCards(lt.table)
            a.client.watch_for_leaks(seen, 0)
            b.client.watch_for_leaks(seen, 1)
            w = await CheckedClient.connect(server.port, size=(80, 24),
                                            command=f"watch {lt.code}")
            w.watch_for_leaks(seen, None)
            await asyncio.gather(a.play(timeout=110), b.play(timeout=110))
            assert lt.table.status == "over"
            for c in (a.client, b.client, w):
                assert c.leaks == [], c.leaks[0]
                assert c.frames_checked > 10
            # players saw faces (their own cards), the watcher saw played cards too
            assert a.client.labels_seen and w.labels_seen
            for c in (a.client, b.client, w):
                await c.close()
            return len(lt.table.match.hands_log)

        async def matches(i: int, preset: str) -> int:
            hands = n = 0
            while hands < HANDS:
                hands += await one_match(i, preset, n)
                n += 1
            return hands

        # each preset on its own server (a test each, so they spread over the workers)
        assert await matches(PRESETS.index(preset), preset) >= HANDS
