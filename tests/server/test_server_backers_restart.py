"""``kill -9`` the real server while a watcher backs a player who shows him the hand: after
the restart he still backs that player, still sees the hand, may still advise him, and
still may not change sides in the game (issue 14, item 6)."""

from __future__ import annotations

import asyncio

from leak_check import LABELS
from server_harness import Seat, new_key, registered_pair
from server_process import ServerProcess, free_port
from test_server_gallery import DOWN, TAB, back, card_turn, toggle_backer, wait_toast
from test_server_wagers import watcher

from ecarte_tui.engine import cards_of, read_ecn
from net.store import Store

NOTE = "RSTQZX"


def annas_hand(data) -> list[str]:
    """Anna's unplayed cards, from the record the server stored."""
    store = Store(data / "club.db")
    try:
        code = store.tables("playing")[0].code
        match = read_ecn(store.table(code).ecn).match
    finally:
        store.close()
    return [LABELS[c] for c in cards_of(match.hands[0])]


async def shows(seat: Seat, labels: list[str], timeout: float = 10.0) -> None:
    """Every one of ``labels`` is on the screen (a toast may cover a card for a while)."""
    for _ in range(int(timeout / 0.1)):
        if all(label in seat.text() for label in labels):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{seat.name} does not show {labels}:\n{seat.text()}")


async def test_backing_and_the_grant_survive_kill_9(tmp_path):
    data = tmp_path / "data"
    server = ServerProcess(data, free_port(), "--bot-delay", "0.05")
    await server.start()
    keys = {n: new_key() for n in ("anna", "ben", "carl")}
    clients: list[Seat] = []
    try:
        anna, ben, code = await registered_pair(server.port, keys)
        carl = await watcher(server.port, "carl", keys["carl"], code)
        clients = [anna, ben, carl]
        await asyncio.gather(anna.play(until=card_turn),
                             ben.play(until=lambda _s: card_turn(anna.text())))
        await back(carl, 0)
        await carl.wait_for("you back anna (hand not shown)")
        await toggle_backer(anna)
        await carl.wait_for("you back anna, whose hand you see")
        cards = annas_hand(data)
        assert cards
        await shows(carl, cards)

        server.kill()
        assert await server.wait() == -9
        for c in clients:
            await c.close()
        clients = []

        banner = await server.start()
        assert "restored 1 table" in banner
        store = Store(data / "club.db")
        assert store.table(code).status == "playing"
        store.close()
        anna = await Seat.connect(server.port, "anna", seed=3, key=keys["anna"])
        ben = await Seat.connect(server.port, "ben", seed=4, key=keys["ben"])
        clients = [anna, ben]
        for seat in (anna, ben):  # (clicked away: it would cover the talk for 5 s)
            await seat.dismiss_toast("Welcome back")
        carl = await Seat.connect(server.port, "carl", key=keys["carl"], command=f"watch {code}")
        clients.append(carl)

        # he still backs anna, who still shows him her hand
        await carl.wait_for("you back anna, whose hand you see")
        assert annas_hand(data) == cards
        await shows(carl, cards)
        assert "s Advise" in carl.text()
        anna.press(b"v")
        await anna.wait_for("carl · sees your hand")
        anna.press(b"\x1b")

        # he may still advise her
        carl.press(b"s")
        await carl.wait_for("Advise anna")
        carl.press(DOWN)
        await carl.quiet(0.05)
        carl.press(TAB)
        await carl.quiet(0.05)
        await carl.type(NOTE)
        carl.press(b"\r")
        await wait_toast(carl, "Advice sent to anna")
        await anna.wait_for(NOTE)

        # and his side in this game is kept: no switching to ben
        await back(carl, 1)
        await wait_toast(carl, "You back the other player in this game")
        await carl.quiet()
        assert "you back anna, whose hand you see" in carl.text()
    finally:
        for c in clients:
            await c.close()
        await server.stop()
