"""A player's hand is his to show (issue 14, item 2), through a real server: every byte a
backer is sent is scanned for the cards he may not see; a backer who is shown a hand talks
to that player only; a wager keeps a watcher on its side."""

from __future__ import annotations

import asyncio

from leak_check import LABELS, SeenCards
from server_harness import club_server, generous_limits
from test_server_gallery import (
    back,
    card_turn,
    later_hand,
    raw_text,
    seat_four,
    show_hand,
    toasts,
    toggle_backer,
    until_turn,
    wait_toast,
)
from test_server_talk import say
from test_server_wagers import wager

from ecarte_tui.engine import cards_of
from net.club import TableOptions


def hand_turn(n: int):
    """Anna's card turn in hand ``n`` (no dialog open on either player's screen)."""
    reached = later_hand(n)
    return lambda screen: reached(screen) and card_turn(screen)


def member_id(server, name: str) -> str:
    return server.store._db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()[0]


async def test_a_backer_sees_his_players_cards_only_while_the_player_shows_them(tmp_path):
    async with club_server(tmp_path, seed=41, limits=generous_limits()) as server:
        lt, a, b, w1, w2 = await seat_four(server, TableOptions("academie", (("target", "11"),)))
        seen = SeenCards(lt.table)
        a.client.watch_for_leaks(seen, 0)
        b.client.watch_for_leaks(seen, 1)
        w1.client.watch_for_leaks(seen, None)  # he backs ben, who shows him nothing yet
        w2.client.watch_for_leaks(seen, None)

        await until_turn(a, b, card_turn)
        await back(w1, 1)
        await w1.wait_for("you back ben")
        # ben is told, and how to show his hand (read on his screen: the toast is drawn in
        # pieces around what it covers, nothing repaints the whole table in one piece)
        await wait_toast(b, "wil backs you: v to show him your hand")
        await until_turn(a, b, hand_turn(2))  # a whole hand backing ben without his leave
        await w1.quiet()
        assert w1.client.leaks == [], w1.client.leaks[0]
        assert "you back ben (hand not shown)" in w1.text()
        assert "v Backers" in b.text()
        assert w1.client.frames_checked > 10
        assert not any(LABELS[c] in w1.text() for c in cards_of(lt.table.match.hands[1]))

        # ben shows him the hand: from now on he may see seat B's cards
        w1.client.watch_for_leaks(seen, 1)
        await show_hand(b, w1)
        await w1.quiet()
        shown = cards_of(lt.table.match.hands[1])
        assert shown and all(LABELS[c] in w1.text() for c in shown), w1.text()

        # ben takes it back: the next screen is the public table, and so is every later one
        await toggle_backer(b)
        await w1.wait_for("you back ben (hand not shown)")
        await w1.quiet()
        assert not any(LABELS[c] in w1.text() for c in shown), w1.text()
        w1.client.watch_for_leaks(seen, None)
        frames = w1.client.frames_checked
        await until_turn(a, b, later_hand(4))
        await w1.quiet()
        assert w1.client.frames_checked > frames + 10
        for seat in (a, b, w1, w2):
            assert seat.client.leaks == [], seat.client.leaks[0]
        assert "whose hand you see" not in w1.text()
        for seat in (a, b, w1, w2):
            await seat.close()


async def test_a_backer_shown_the_hand_talks_to_his_player_alone(tmp_path):
    async with club_server(tmp_path, seed=42, limits=generous_limits()) as server:
        lt, a, b, w1, w2 = await seat_four(server, TableOptions("academie", (("target", "5"),)))
        await until_turn(a, b, card_turn)
        await back(w1, 1)
        await w1.wait_for("you back ben (hand not shown)")
        await say(w1, "OPENQX")  # not shown anything: he talks to the whole table
        for seat in (a, b, w2):
            await seat.wait_for("wil: OPENQX")

        await show_hand(b, w1)
        await w1.wait_for("/ talk to ben")
        marks = {id(s): len(s.client.raw) for s in (a, w2)}
        await say(w1, "SECRETQX")
        await b.wait_for("wil → ben: SECRETQX")
        await w1.wait_for("wil → ben: SECRETQX")
        # taken back: what he saw this game still stays between them until it ends
        await toggle_backer(b)
        await w1.wait_for("you back ben (hand not shown)")
        await say(w1, "AFTERQX")
        await b.wait_for("wil → ben: AFTERQX")
        await asyncio.gather(a.quiet(0.3), w2.quiet(0.3))
        for seat in (a, w2):
            sent = raw_text(seat, marks[id(seat)])
            assert "SECRETQX" not in sent and "AFTERQX" not in sent, seat.name
            assert "SECRETQX" not in raw_text(seat) and "AFTERQX" not in raw_text(seat)
        # ...and nobody who comes to the table later reads it in the history
        talk = server.club.house.talk(lt.code)
        for who in ("anna", "xavi"):
            lines = [x.text for x in talk.history_for(member_id(server, who))]
            assert "OPENQX" in lines and "SECRETQX" not in lines and "AFTERQX" not in lines
        for seat in (a, b, w1, w2):
            await seat.close()


async def test_a_watcher_stays_on_the_side_he_wagered_on(tmp_path):
    async with club_server(tmp_path, seed=43, limits=generous_limits()) as server:
        lt, a, b, w1, w2 = await seat_four(server, TableOptions("academie", (("target", "5"),)))
        gallery = server.club.house.gallery(lt)
        wil, xavi = member_id(server, "wil"), member_id(server, "xavi")
        await wager(w1, 50)  # on anna, before the first hand
        await w1.wait_for("You wagered 50 chips on anna")
        await w1.quiet()

        await back(w1, 1)  # ben: refused, and nothing changes
        await wait_toast(w1, "You may not back one player after wagering on the other")
        assert gallery.backing(wil) is None
        assert "no hidden card is ever shown here" in w1.text()
        await back(w1, 0)  # anna, whom he wagered on: fine
        await w1.wait_for("you back anna (hand not shown)")

        # the other way round: backing ben forbids a wager on anna
        await back(w2, 1)
        await w2.wait_for("you back ben (hand not shown)")
        await wager(w2, 20)  # the dialog's first choice: anna
        await w2.wait_for("You back the other player")
        assert [w.bettor for w in server.house.ledger.wagers(f"{lt.code}/1")] == [wil]
        assert gallery.backing(xavi) == gallery.players[1]
        assert "You wagered" not in toasts(w2.text())
        for seat in (a, b, w1, w2):
            await seat.close()
