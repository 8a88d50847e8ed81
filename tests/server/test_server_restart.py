"""``kill -9`` the real server mid-hand, start it again: the table is back exactly where it
was, and its players sit down again with their keys."""

from __future__ import annotations

import asyncio

import asyncssh
from server_harness import Seat, new_key, registered_pair
from server_process import ServerProcess, free_port

from net.store import Store


def top_line(screen: str) -> str:
    return screen.split("\n", 1)[0]


def own_cards(screen: str) -> list[str]:
    return [r[:38] for r in screen.split("\n")[15:21]]


async def welcomed_back(port: int, keys: dict[str, asyncssh.SSHKey], at: str
                        ) -> tuple[Seat, Seat, dict[str, list[str]]]:
    """anna and ben connect again with their keys, each sent back to the table, which shows
    ``at``: (anna, ben, each one's cards as drawn)."""
    anna = await Seat.connect(port, "anna", seed=3, key=keys["anna"])
    ben = await Seat.connect(port, "ben", seed=4, key=keys["ben"])
    for seat in (anna, ben):
        await seat.wait_for("Welcome back")
        await seat.wait_for(at)
    await asyncio.gather(anna.quiet(), ben.quiet())
    return anna, ben, {"anna": own_cards(anna.text()), "ben": own_cards(ben.text())}


async def test_kill_9_mid_hand_then_restart_brings_the_table_back(tmp_path):
    data = tmp_path / "data"
    server = ServerProcess(data, free_port(), "--bot-delay", "0.05")
    banner = await server.start()
    assert "host key fingerprint: SHA256:" in banner
    assert f"ssh -p {server.port} 127.0.0.1" in banner
    assert f"block list:           {data / 'blocklist'} (none: write" in banner  # where to
    assert "every other machine's" not in banner  # (one machine: its workers share it)
    keys = {"anna": new_key(), "ben": new_key()}
    try:
        anna, ben, code = await registered_pair(server.port, keys)

        def mid_hand(screen: str) -> bool:
            return "trick 2/5" in top_line(screen)

        await asyncio.gather(anna.play(until=mid_hand), ben.play(until=mid_hand))
        await asyncio.gather(anna.quiet(), ben.quiet())
        before = {"anna": own_cards(anna.text()), "ben": own_cards(ben.text())}
        top = top_line(anna.text())
        store = Store(data / "club.db")
        ecn_before = store.table(code).ecn
        store.close()

        server.kill()
        assert await server.wait() == -9
        for c in (anna, ben):
            await c.close()

        banner = await server.start()
        assert "restored 1 table" in banner
        store = Store(data / "club.db")
        assert store.table(code).ecn == ecn_before  # nothing lost, nothing added
        store.close()

        anna, ben, cards = await welcomed_back(server.port, keys, "trick 2/5")
        assert top_line(anna.text()) == top
        assert cards == before
        assert "reconnect" not in anna.text() and "reconnect" not in ben.text()

        # the game goes on where it stopped
        def next_trick(screen: str) -> bool:
            return "trick 3/5" in top_line(screen)

        await asyncio.gather(anna.play(until=next_trick), ben.play(until=next_trick))
        for c in (anna, ben):
            await c.close()
    finally:
        await server.stop()
