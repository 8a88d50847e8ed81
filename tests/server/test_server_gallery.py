"""The gallery through a real server: a watcher backs a player, sees that hand and never the
other, and his advice reaches the backed player's terminal and nobody else's (every byte
sent to the others is scanned)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from leak_check import LABELS, CheckedClient, SeenCards
from server_harness import Seat, club_server, generous_limits, new_key

from ecarte_tui.engine import cards_of
from net.club import TableOptions
from net.club.clubhouse.options import ClubOptions
from net.store import Player

DOWN, TAB, ENTER = b"\x1b[B", b"\t", b"\r"
NOTE = "ADVZQX"


def card_turn(screen: str) -> bool:
    return "Your lead: choose a card." in screen or ": your card." in screen


def later_hand(n: int) -> Callable[[str], bool]:
    """Hand ``n`` is dealt, or the match is over."""
    def reached(screen: str) -> bool:
        return f" · hand {n} · " in screen.split("\n", 1)[0] or "The match is over." in screen
    return reached


def raw_text(seat: Seat, start: int = 0, end: int | None = None) -> str:
    return bytes(seat.client.raw[start:end]).decode("utf-8", "replace")


async def seat_four(server, options: TableOptions):
    """anna (A) and ben (B) at a new table, wil and xavi watching; every client checked."""
    keys = [new_key() for _ in range(4)]
    ids = [server.store.register(k.get_fingerprint("sha256"), n)
           for k, n in zip(keys, ("anna", "ben", "wil", "xavi"), strict=True)]
    lt, _ = server.club.create(Player(ids[0].id, ids[0].name), options)

    async def connect(i: int, seed: int, command: str | None = None) -> Seat:
        client = await CheckedClient.connect(server.port, size=(80, 24), key=keys[i],
                                             command=command)
        return Seat(client, ids[i].name, seed=seed)

    a = await connect(0, 3)
    await a.wait_for(f"Table {lt.code}")
    await a.dismiss_toast("Welcome back")  # it would cover her prompt and talk for 5 s
    b = await connect(1, 4, f"join {lt.code}")
    await b.wait_for("Écarté ·")
    w1 = await connect(2, 0, f"watch {lt.code}")
    w2 = await connect(3, 0, f"watch {lt.code}")
    for w in (w1, w2):
        await w.wait_for("Watching table")
    return lt, a, b, w1, w2


async def until_turn(a: Seat, b: Seat, turn: Callable[[str], bool]) -> None:
    """Both play on until ``turn`` is true of anna's screen."""
    await asyncio.gather(a.play(until=turn), b.play(until=lambda _s: turn(a.text())))


def toasts(screen: str) -> str:
    """The notifications on a screen, their wrapped lines joined."""
    parts = [line.split("▌", 1)[1].strip() for line in screen.split("\n") if "▌" in line]
    return " ".join(p for p in parts if p)


async def wait_toast(seat: Seat, words: str, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if words in toasts(seat.text()):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{seat.name}: no notification {words!r}; screen:\n{seat.text()}")


async def back(w: Seat, downs: int) -> None:
    w.press(b"g")
    await w.wait_for("Back a player")
    for _ in range(downs):
        w.press(DOWN)
        await w.quiet(0.05)
    w.press(ENTER)


async def toggle_backer(player: Seat, row: int = 0) -> None:
    """The player opens his backers (``v``) and shows the hand to (or takes it back from)
    the backer in ``row``, then closes the dialog."""
    player.press(b"v")
    await player.wait_for("Your backers")
    await player.quiet(0.05)
    for _ in range(row):
        player.press(DOWN)
        await player.quiet(0.05)
    player.press(ENTER)
    await player.quiet(0.1)
    player.press(b"\x1b")
    for _ in range(200):  # a lone Esc is read at the parser's next tick
        await player.quiet(0.05)
        if "Your backers" not in player.text():
            return
    raise AssertionError(f"{player.name}: the backers dialog stayed open:\n{player.text()}")


async def show_hand(player: Seat, backer: Seat, row: int = 0) -> None:
    await toggle_backer(player, row)
    await backer.wait_for("whose hand you see")


async def test_advice_reaches_only_the_backed_player_who_is_seen_by_his_backer(tmp_path):
    async with club_server(tmp_path, seed=21, limits=generous_limits()) as server:
        lt, a, b, w1, w2 = await seat_four(server, TableOptions("academie", (("target", "3"),)))
        seen = SeenCards(lt.table)
        a.client.watch_for_leaks(seen, 0)
        b.client.watch_for_leaks(seen, 1)
        w1.client.watch_for_leaks(seen, 0)  # he will back anna: her cards, never ben's
        w2.client.watch_for_leaks(seen, None)  # backs nobody: the public table only

        await until_turn(a, b, card_turn)
        assert "g Back" in w1.text() and "s Advise" not in w1.text()
        before_backing = len(w1.client.raw)
        await back(w1, 0)  # the first choice: anna
        await w1.wait_for("you back anna (hand not shown)")
        await a.dismiss_toast("wil backs you")  # (it would cover the advice for 5 s)
        await show_hand(a, w1)  # anna shows him her hand
        await w1.wait_for("you back anna, whose hand you see")
        await w1.quiet()
        hand = cards_of(lt.table.match.hands[0])
        assert hand and all(LABELS[c] in w1.text() for c in hand), w1.text()
        assert "s Advise" in w1.text()

        # a game is on: he cannot change sides
        await back(w1, 1)
        await wait_toast(w1, "You back the other player in this game")

        # advice: the first action offered (a card of anna's), with a note
        w1.press(b"s")
        await w1.wait_for("Advise anna")
        w1.press(DOWN)
        await w1.quiet(0.05)
        w1.press(TAB)
        await w1.quiet(0.05)
        await w1.type(NOTE)
        w1.press(ENTER)
        await wait_toast(w1, "Advice sent to anna")
        screen = await a.wait_for(NOTE)
        assert "Advice from wil: play" in screen
        advised = next(c for c in hand if f"play {LABELS[c]}" in screen.replace("\n", " "))
        assert advised in hand
        await asyncio.sleep(0.5)  # whatever else the server sends, it never sends the advice
        assert NOTE in raw_text(a)
        assert NOTE not in raw_text(b), "the opponent was sent the advice"
        assert NOTE not in raw_text(w2), "a watcher backing nobody was sent the advice"
        assert NOTE not in raw_text(w1, 0, before_backing)
        assert "Advice from" not in raw_text(b) + raw_text(w2) + raw_text(w1)

        # it holds until anna acts (she may ignore it), then it is gone
        a.press(ENTER)
        for _ in range(100):
            await asyncio.sleep(0.05)
            if "Advice from" not in a.text():
                break
        assert "Advice from" not in a.text()

        await until_turn(a, b, later_hand(3))
        await w1.quiet()
        for seat in (a, b, w1, w2):
            assert seat.client.leaks == [], seat.client.leaks[0]
            assert seat.client.frames_checked > 10
        assert lt.table.match.hands_log
        for seat in (a, b, w1, w2):
            await seat.close()


async def test_a_backer_sees_no_hand_when_the_table_says_so(tmp_path):
    options = TableOptions("academie", (("target", "5"),),
                           club=ClubOptions(backers_see_hand=False))
    async with club_server(tmp_path, seed=22, limits=generous_limits()) as server:
        lt, a, b, w1, w2 = await seat_four(server, options)
        seen = SeenCards(lt.table)
        w1.client.watch_for_leaks(seen, None)
        await until_turn(a, b, card_turn)
        await back(w1, 0)  # anna, whose turn it is to play a card
        await w1.wait_for("you back anna")
        assert "whose hand you see" not in w1.text()
        w1.press(b"s")
        await w1.wait_for("Advise anna")
        await w1.quiet()
        dialog = w1.text().split("Advise anna", 1)[1].split("enter send", 1)[0]
        assert "say only the note" in dialog
        assert "play " not in dialog and "discard" not in dialog  # no card of hers is named
        w1.press(b"\x1b")
        await until_turn(a, b, later_hand(2))
        assert w1.client.leaks == [] and w1.client.frames_checked > 5
        for seat in (a, b, w1, w2):
            await seat.close()
