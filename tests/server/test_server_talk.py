"""Table talk through a real server: players and watchers talk, lines are shown as plain
text, a player may mute the gallery (then no watcher's line is even sent to him), and too
long, empty or too fast lines are refused with a message and sent to nobody."""

from __future__ import annotations

import time

from test_server_gallery import card_turn, raw_text, seat_four, toasts, until_turn, wait_toast

from net.club import TableOptions

ENTER, ESC = b"\r", b"\x1b"


async def say(seat, text: str, close: bool = True) -> None:
    """Open the talk, type a line and send it (and close the talk)."""
    seat.press(b"/")
    await seat.wait_for("Table talk")
    await seat.quiet(0.05)
    await seat.type(text)
    seat.press(ENTER)
    if close:
        await seat.quiet(0.1)
        seat.press(ESC)
        await seat.wait_gone("Table talk")  # (a key right after a lone Esc would join it)


async def test_talk_mute_and_limits(tmp_path):
    from server_harness import club_server, generous_limits

    async with club_server(tmp_path, seed=31, limits=generous_limits()) as server:
        lt, a, b, w1, w2 = await seat_four(server, TableOptions("academie", (("target", "5"),)))
        await until_turn(a, b, card_turn)  # past the draw's dialogs

        # a watcher's line reaches everybody, drawn as text (markup is not obeyed)
        await say(w2, "hi [b]X[/b]")
        for seat in (a, b, w1, w2):
            await seat.wait_for("xavi: hi [b]X[/b]")

        # anna mutes the gallery: a mark on her screen; watchers' lines no longer reach her
        a.press(b"m")
        await a.wait_for("gallery muted")
        muted_at = len(a.client.raw)
        await say(w2, "WLINE2")
        await say(b, "BLINE3")
        await a.wait_for("ben: BLINE3")
        for seat in (b, w1):
            await seat.wait_for("xavi: WLINE2")
        await a.quiet(0.3)
        assert "WLINE2" not in raw_text(a, muted_at), "a muted player was sent a watcher's line"

        # m again mutes all the talk (an opponent who will not stop): ben's lines too
        a.press(b"m")
        await a.wait_for("talk muted")
        muted_at = len(a.client.raw)
        await say(b, "BLINE5")
        await say(a, "ALINE6")  # she still speaks, and reads herself
        await a.wait_for("ALINE6")
        await b.wait_for("BLINE5")
        await a.quiet(0.3)
        assert "BLINE5" not in raw_text(a, muted_at), "a player who muted the talk was sent it"

        # and once more: she hears everyone again
        a.press(b"m")
        await a.wait_gone("talk muted")
        await say(w2, "WLINE4")
        await a.wait_for("xavi: WLINE4")

        # refusals: each says why, and nothing is sent
        w1.press(b"/")
        await w1.wait_for("Table talk")
        await w1.quiet(0.05)
        w1.press(ENTER)
        await wait_toast(w1, "Nothing to say: the message is empty")
        w1.press(b"\x1b[200~" + b"L" * 201 + b"\x1b[201~")
        await w1.quiet(0.1)
        w1.press(ENTER)
        await wait_toast(w1, "A message is at most 200 characters (this one has 201)")
        w1.press(b"\x15")  # ctrl+u: empty the input
        await w1.quiet(0.05)
        # a burst of five lines goes through; then (one line every 2 s refills) one is refused.
        # The talk's clock stands still from here, so however long each line takes to come
        # back on a busy machine, nothing refills: the sixth is the one refused.
        talk = server.club.house.talk(lt.code)
        (wil,) = (m for m, who in talk._members.items() if who.name == w1.name)
        assert wil not in talk._buckets  # (his bucket, made at his first line, reads it)
        talk.clock = lambda: 0.0
        refused = None
        for i in range(1, 10):
            w1.press(b"\x1b[200~FAST%d\x1b[201~\r" % i)
            deadline = time.monotonic() + 30
            while not (f"wil: FAST{i}" in w1.text() or "Not so fast" in toasts(w1.text())):
                assert await w1.client.next_data(deadline - time.monotonic()), w1.text()
            if "Not so fast" in toasts(w1.text()):
                refused = i
                break
        assert refused == 6, refused
        await b.wait_for(f"wil: FAST{refused - 1}")
        await b.quiet(0.3)
        for seat in (a, b, w2):
            sent = raw_text(seat)
            assert f"FAST{refused}" not in sent and "L" * 150 not in sent
        for seat in (a, b, w1, w2):
            await seat.close()
