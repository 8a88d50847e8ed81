"""Many seeded games through the server, every frame to every client checked: nobody is ever
shown a card hidden from them (the opponent's unplayed cards, any discard not their own, the
stock), players and watchers alike, under every way of announcing the king."""

from __future__ import annotations

import asyncio

from leak_check import CheckedClient, SeenCards
from server_harness import Seat, club_server, generous_limits, new_key

from net.club import TableOptions
from net.store import Player

PRESETS = ("nl", "regles", "britannica", "academie")


async def test_no_frame_ever_shows_a_hidden_card(tmp_path):
    async with club_server(tmp_path, seed=11, limits=generous_limits()) as server:
        tables = []
        for i, preset in enumerate(PRESETS):
            keys = (new_key(), new_key())
            players = [server.store.register(k.get_fingerprint("sha256"), f"p{i}{s}")
                       for s, k in enumerate(keys)]
            lt, _ = server.club.create(Player(players[0].id, players[0].name),
                                       TableOptions(preset, (("target", "3"),)))
            tables.append((lt, keys, players))
        clients = []
        for i, (lt, keys, players) in enumerate(tables):
            a = Seat(await CheckedClient.connect(server.port, size=(80, 24), key=keys[0]),
                     players[0].name, seed=10 * i)
            await a.wait_for(f"Table {lt.code}")  # back at the table they opened
            b = Seat(await CheckedClient.connect(server.port, size=(80, 24), key=keys[1],
                                                 command=f"join {lt.code}"),
                     players[1].name, seed=10 * i + 1)
            await b.wait_for("Écarté ·")
            seen = SeenCards(lt.table)
            a.client.watch_for_leaks(seen, 0)
            b.client.watch_for_leaks(seen, 1)
            w = await CheckedClient.connect(server.port, size=(80, 24), command=f"watch {lt.code}")
            w.watch_for_leaks(seen, None)
            clients.append((lt, a, b, w))
        await asyncio.gather(*(p.play(timeout=110) for _, a, b, _ in clients for p in (a, b)))
        hands = 0
        for lt, a, b, w in clients:
            assert lt.table.status == "over"
            hands += len(lt.table.match.hands_log)
            for c in (a.client, b.client, w):
                assert c.leaks == [], c.leaks[0]
                assert c.frames_checked > 10
            # players saw faces (their own cards), the watcher saw played cards too
            assert a.client.labels_seen and w.labels_seen
        assert hands >= 3 * len(PRESETS)
        for _, a, b, w in clients:
            await a.close()
            await b.close()
            await w.close()
