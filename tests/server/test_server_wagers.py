"""Stakes and the gallery's wagers through the real server (004): a watcher wagers before the
first hand, refusals change nothing and say why, the pot is shown to everyone at the table,
and the settlement is exact, told to each one involved, and conserves every chip."""

from __future__ import annotations

import asyncio

from server_harness import Seat, club_server, generous_limits, new_key, table_code

SHIFT_TAB = b"\x1b[Z"
STAKE = 5


def conserved(ledger) -> bool:
    return ledger.purses_total() + ledger.escrow_total() == ledger.minted()


async def staked_table(port: int, keys: dict) -> tuple[Seat, Seat, str]:
    """anna opens a table with a stake of 5 through the dialog; ben sits down."""
    anna = await Seat.connect(port, "anna", seed=1, key=keys["anna"])
    await anna.wait_for("first visit")
    anna.press(b"\r")
    await anna.wait_for("C L U B")
    await anna.wait_for("purse 1000 chips")  # the lobby's header shows the purse
    anna.press(b"n")
    await anna.wait_for("Club options")
    await anna.quiet(0.2)
    for _ in range(6):  # from the first field (Opponent) to the stake (it scrolls into view)
        anna.press(b"\t")
        await anna.quiet(0.05)
    await anna.type(str(STAKE))
    anna.press(b"\r")
    code = table_code(await anna.wait_for("Waiting for an opponent"))
    ben = await Seat.connect(port, "ben", seed=2, key=keys["ben"], command=f"join {code}")
    await ben.wait_for("first visit")
    ben.press(b"\r")
    return anna, ben, code


async def watcher(port: int, name: str, key, code: str) -> Seat:
    seat = await Seat.connect(port, name, key=key, command=f"watch {code}")
    await seat.wait_for("first visit")
    seat.press(b"\r")
    await seat.wait_for("Watching table")
    await seat.quiet(0.2)
    return seat


async def wager(seat: Seat, amount: int, on_b: bool = False) -> None:
    seat.press(b"$")
    await seat.wait_for("A wager on game 1")
    await seat.quiet(0.1)
    if on_b:
        seat.press(SHIFT_TAB)  # from the amount back to the player wagered on
        await seat.quiet(0.1)
        seat.press(b"\x1b[C")  # → the other player
        await seat.quiet(0.1)
        seat.press(b"\t")  # to the amount
        await seat.quiet(0.1)
    await seat.type(str(amount))
    seat.press(b"\r")


async def test_wagers_before_the_first_hand_settle_exactly(tmp_path):
    keys = {n: new_key() for n in ("anna", "ben", "carl", "dora", "eve")}
    async with club_server(tmp_path, limits=generous_limits()) as server:
        ledger = server.house.ledger
        anna, ben, code = await staked_table(server.port, keys)
        lt = server.club.tables[code]
        assert lt.options.club.stake == STAKE
        await anna.wait_for("Draw for the deal")  # ben is seated
        ids = {n: s.player_id for n, s in zip(("anna", "ben"), lt.seats, strict=True)}
        carl = await watcher(server.port, "carl", keys["carl"], code)
        dora = await watcher(server.port, "dora", keys["dora"], code)

        # an overdraft is refused in the dialog, and nothing moves
        await wager(carl, 5000)
        await carl.wait_for("overdraw")
        assert ledger.wagers(f"{code}/1") == []
        await carl.replace_input("120")  # a wager that fits
        carl.press(b"\r")
        await carl.wait_for("You wagered 120 chips on anna")
        await wager(dora, 40, on_b=True)
        await dora.wait_for("You wagered 40 chips on ben")
        wagers = ledger.wagers(f"{code}/1")
        assert sorted((w.amount, w.on_player) for w in wagers) == [
            (40, ids["ben"]), (120, ids["anna"])]
        carl_id = next(w.bettor for w in wagers if w.amount == 120)
        dora_id = next(w.bettor for w in wagers if w.amount == 40)
        assert ledger.purse(carl_id) == 880 and ledger.purse(dora_id) == 960
        assert conserved(ledger)
        # the pot (totals only) is shown at the table (the players': below)
        for seat in (carl, dora):
            screen = await seat.wait_for("120 on anna")
            assert "40 on" in screen

        # the game begins: a late wager is refused with its reason, nothing changes
        await asyncio.gather(anna.play(until=lambda s: "trick 2/5" in s),
                             ben.play(until=lambda s: "trick 2/5" in s))
        for seat in (anna, ben):
            assert "120 on anna" in seat.text()
        await anna.wait_for("Stake: 5 chips")  # the money panel (behind the draw's box before)
        eve = await watcher(server.port, "eve", keys["eve"], code)
        eve.press(b"$")
        await eve.wait_for("No more wagers")
        assert len(ledger.wagers(f"{code}/1")) == 2

        escrow = STAKE * 7  # classic: to 5, a capped vole (max difference 4 + 2 + 1)
        before = {"anna": ledger.purse(ids["anna"]), "ben": ledger.purse(ids["ben"])}
        assert before["anna"] == before["ben"] == 1000 - ledger.game(f"{code}/1").escrow_each
        assert ledger.game(f"{code}/1").escrow_each in (escrow, STAKE * 6)

        def settled(_screen: str) -> bool:
            return ledger.game(f"{code}/1").status == "settled"

        await asyncio.gather(anna.play(until=settled), ben.play(until=settled))
        game = ledger.game(f"{code}/1")
        assert game.status == "settled"
        w = 0 if game.winner == ids["anna"] else 1
        loser = 1 - w
        diff = game.score[w] - game.score[loser]
        names = ("anna", "ben")
        assert ledger.purse(ids[names[w]]) == 1000 + STAKE * diff
        assert ledger.purse(ids[names[loser]]) == 1000 - STAKE * diff
        if w == 0:
            assert (ledger.purse(carl_id), ledger.purse(dora_id)) == (1040, 960)
        else:
            assert (ledger.purse(carl_id), ledger.purse(dora_id)) == (880, 1120)
        assert conserved(ledger) and ledger.escrow_total() == 0
        # each one involved is told what moved
        await (carl if w == 0 else dora).wait_for("You won")
        await (dora if w == 0 else carl).wait_for("You lost your")
        await (anna if w == 0 else ben).wait_for("pays you")
        await (ben if w == 0 else anna).wait_for("Stake: you pay")
        for s in (anna, ben, carl, dora, eve):
            await s.close()
