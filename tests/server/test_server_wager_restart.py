"""``kill -9`` the real server between placing wagers and the end of the game: after the
restart the wagers are still in escrow, and when the game ends they are settled exactly,
once, with every chip accounted for."""

from __future__ import annotations

import asyncio

from server_harness import Seat, new_key, registered_pair
from server_process import ServerProcess, free_port
from test_server_wagers import conserved, wager, watcher

from net.club.clubhouse.purse import Ledger
from net.store.ledger_db import ClubDB


async def test_wagers_survive_kill_9_and_settle_once(tmp_path):
    data = tmp_path / "data"
    server = ServerProcess(data, free_port(), "--bot-delay", "0.05")
    await server.start()
    keys = {n: new_key() for n in ("anna", "ben", "carl", "dora")}
    clients: list[Seat] = []
    try:
        anna, ben, code = await registered_pair(server.port, keys)
        carl = await watcher(server.port, "carl", keys["carl"], code)
        dora = await watcher(server.port, "dora", keys["dora"], code)
        clients = [anna, ben, carl, dora]
        await wager(carl, 100)
        await carl.wait_for("You wagered 100 chips on anna")
        await wager(dora, 30, on_b=True)
        await dora.wait_for("You wagered 30 chips on ben")

        gid = f"{code}/1"
        ledger = Ledger(ClubDB(data / "club.db"))  # the server's file, read from here
        placed = {w.bettor: w for w in ledger.wagers(gid)}
        assert sorted(w.amount for w in placed.values()) == [30, 100]
        carl_id = next(b for b, w in placed.items() if w.amount == 100)
        dora_id = next(b for b, w in placed.items() if w.amount == 30)
        minted = ledger.minted()

        server.kill()  # no chance to save anything more
        assert await server.wait() == -9
        for c in clients:
            await c.close()
        clients = []

        await server.start()
        # nothing lost: the wagers are in escrow, the purses short of them
        assert {w.bettor: (w.amount, w.payout) for w in ledger.wagers(gid)} == {
            carl_id: (100, None), dora_id: (30, None)}
        assert (ledger.purse(carl_id), ledger.purse(dora_id)) == (900, 970)
        assert conserved(ledger) and ledger.minted() == minted

        anna = await Seat.connect(server.port, "anna", seed=3, key=keys["anna"])
        ben = await Seat.connect(server.port, "ben", seed=4, key=keys["ben"])
        clients = [anna, ben]
        for seat in (anna, ben):  # (clicked away: it would cover a prompt for 5 s)
            await seat.dismiss_toast("Welcome back")

        def settled(_screen: str) -> bool:
            g = ledger.game(gid)
            return g is not None and g.status == "settled"

        await asyncio.gather(anna.play(until=settled), ben.play(until=settled))
        game = ledger.game(gid)
        anna_won = game.winner == game.players[0]
        assert (ledger.purse(carl_id), ledger.purse(dora_id)) == (
            (1030, 970) if anna_won else (900, 1100))
        assert conserved(ledger) and ledger.escrow_total() == 0
        # settled once: one credit for each bettor on this game
        for bettor in (carl_id, dora_id):
            credits = [j for j in ledger.journal(bettor) if j[2] == gid and j[0] > 0]
            assert len(credits) == (1 if (bettor == carl_id) == anna_won else 0)
        ledger.db.close()
    finally:
        for c in clients:
            await c.close()
        await server.stop()
