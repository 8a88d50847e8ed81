"""A session leaves nothing behind when it ends, and an idle session sends nothing.

A public server sees thousands of short sessions: every one that opened a screen used to
stay in memory for good (Textual's class-level caches kept its app), about 1 MB each. And a
focused text box used to blink, a redraw sent twice a second to every idle client.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import heapq
import random
import tracemalloc
import weakref

from server_harness import Seat, club_server, generous_limits, new_key

from ecarte_tui.bot_seat import BotSeat
from net.club import Club, TableOptions
from net.screens.club_app import ClubApp
from net.ssh.driver import SSHDriver
from net.store import Player, Store

WARM_UP = 1
"""Sessions before the measure: first-time imports, parsed CSS and value caches."""
CHURN = 1
"""Measured sessions (traced by tracemalloc, which makes each four times slower: 9 s of CPU
here). The bounds below are per session: one kept app, or a session's worth of memory
kept, fails the test with one as with more."""
KEPT_PER_SESSION = 100_000
"""Bytes a finished session may leave behind (its player's rows, caches of values that are
bounded anyway). Measured: under 20 KB; a kept app with its screens is over 1 MB."""
SCREENS = (
    (b"?", "esc to go back"),
    (b"l", "L E A D E R B O A R D"),
    (b"r", "R E C O R D"),
    (b"j", "Join a table"),
    (b"n", "A new table"),
)
"""The lobby's keys and a line of the screen or dialog each opens (Esc closes it)."""


def live_apps() -> int:
    gc.collect()
    return sum(isinstance(o, ClubApp) for o in gc.get_objects())


def drop_cancelled_timers() -> None:
    """Let the loop forget its cancelled timers now, as it does by itself once they are
    many (``BaseEventLoop._run_once``): a cancelled timer stays in the loop's heap, with the
    context it was made in, until the time it would have fired."""
    loop = asyncio.get_running_loop()
    kept = []
    for handle in loop._scheduled:  # type: ignore[attr-defined]
        if handle.cancelled():
            handle._scheduled = False
        else:
            kept.append(handle)
    heapq.heapify(kept)
    loop._scheduled = kept  # type: ignore[attr-defined]
    loop._timer_cancelled_count = 0  # type: ignore[attr-defined]


async def apps_settled(expected: int, deadline: float = 15.0) -> int:
    """The live ClubApp count once it is down to ``expected`` (or the deadline passed).

    An ended app is not freed at once even when nothing holds it: asyncio keeps a cancelled
    timer, with the context it was made in (Textual's ``active_app``), until the time it
    would have fired (a toast's, 12 s at most; the idle deadlines, minutes off, are set in
    an empty context for that reason). Those are dropped here rather than waited for; a
    timer still to fire (a live one) is waited for as before.
    """
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    drop_cancelled_timers()
    count = live_apps()
    while count > expected and loop.time() < end:
        await asyncio.sleep(0.25)
        drop_cancelled_timers()
        count = live_apps()
    return count


async def gone(seat: Seat, text: str, timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while text in seat.text():
        if loop.time() > end:
            raise AssertionError(f"{seat.name}: {text!r} stayed; screen:\n{seat.text()}")
        await asyncio.sleep(0.01)


async def visit_every_screen(port: int, name: str) -> None:
    """One short session: a new key (the name prompt), then each lobby screen, then leave."""
    seat = await Seat.connect(port, name, key=new_key())
    await seat.wait_for("first visit")
    seat.press(b"\r")
    await seat.wait_for("C L U B")
    for key, text in SCREENS:
        seat.press(key)
        await seat.wait_for(text)
        seat.press(b"\x1b")
        await gone(seat, text)
    await seat.close()


async def test_sessions_that_open_every_screen_leave_no_app_and_no_memory(tmp_path):
    baseline = live_apps()
    async with club_server(tmp_path, limits=generous_limits()) as server:
        for i in range(WARM_UP):
            await visit_every_screen(server.port, f"warm{i}")
        after_warm_up = await apps_settled(baseline)
        was_tracing = tracemalloc.is_tracing()
        if not was_tracing:
            tracemalloc.start()
        try:
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            first = tracemalloc.take_snapshot()
            await asyncio.gather(*(visit_every_screen(server.port, f"churn{i}")
                                   for i in range(CHURN)))
            after_churn = await apps_settled(baseline)
            gc.collect()
            kept = tracemalloc.get_traced_memory()[0] - before
            where = ""
            if kept >= CHURN * KEPT_PER_SESSION:  # what to look at when it fails
                grown = tracemalloc.take_snapshot().compare_to(first, "lineno")[:8]
                where = "".join(f"\n  {stat}" for stat in grown)
        finally:
            if not was_tracing:
                tracemalloc.stop()
    sessions = WARM_UP + CHURN
    assert (after_warm_up, after_churn) == (baseline, baseline), (
        f"{after_churn - baseline} of {sessions} finished sessions' apps are still alive")
    assert kept < CHURN * KEPT_PER_SESSION, (
        f"{CHURN} finished sessions left {kept / 1e6:.2f} MB behind; grown most:{where}")


class FirstLegal:
    name = "first"

    def choose(self, view):
        return view.legal[0] if view.my_turn else None


class Session:
    """Stands for a served app: what Textual's ``active_app`` holds in a session's context."""


async def test_a_bot_keeps_nothing_of_the_session_whose_move_woke_it(tmp_path):
    # A player's move runs in his app's task, and the table calls its bot back from there.
    # The bot's task (kept on the bot for as long as the table lasts) must not keep that
    # task's context: Textual's active_app in it is the player's whole app.
    club = Club(Store(tmp_path / "club.db"), archive_dir=tmp_path / "archive",
                rng=random.Random(7), bot_factory=lambda level, seed: FirstLegal(), bot_delay=0)
    lt, seat = club.create(Player("k1", "anna"), TableOptions("classic", opponent="bot:x"))
    table, bot = lt.table, lt.bots[1 - seat]
    assert table is not None and bot is not None
    in_session: contextvars.ContextVar[Session] = contextvars.ContextVar("in_session")
    mind = BotSeat(table, seat, FirstLegal(), delay=0)  # the player's choices, never started

    async def make_moves(session: Session, moves: int) -> None:
        """The player's app: it moves from its own task, in its own context."""
        in_session.set(session)
        while moves and not lt.finished:
            if mind._has_decision():
                await mind._act()
                moves -= 1
            else:
                await asyncio.sleep(0.001)

    session = Session()
    gone_session = weakref.ref(session)
    # (its own task, as an app is: on Python 3.12+ wait_for runs a bare coroutine in this
    # test's task, whose context would then hold the session itself)
    await asyncio.wait_for(asyncio.create_task(make_moves(session, 8)), 60)
    # then the player leaves mid-match:
    del session  # his table and its bot stay for him to come back
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while bot._task is not None and not bot._task.done() and loop.time() < end:
        await asyncio.sleep(0.001)
    assert not lt.finished
    gc.collect()
    assert gone_session() is None, "the table's bot still holds the session that moved"


async def idle_bytes(seat: Seat, seconds: float = 2.0) -> int:
    """What the client receives in ``seconds`` once the screen has settled."""
    await seat.quiet(gap=1.0, timeout=10.0)
    start = len(seat.client.raw)
    await asyncio.sleep(seconds)
    return len(seat.client.raw) - start


def cursor_shown_after(seat: Seat, text: str) -> bool:
    """The focused box draws its cursor (the cell after ``text``) unlike the cell after it."""
    screen = seat.client.screen
    for y, line in enumerate(screen.display):
        if text in line:
            x = line.index(text) + len(text)
            cursor, beyond = screen.buffer[y][x], screen.buffer[y][x + 1]
            return (cursor.fg, cursor.bg) != (beyond.fg, beyond.bg)
    raise AssertionError(f"{text!r} not on screen:\n{seat.text()}")


async def test_an_idle_session_with_a_focused_text_box_sends_nothing(tmp_path):
    async with club_server(tmp_path, limits=generous_limits()) as server:
        seat = await Seat.connect(server.port, "anna", key=new_key(), colours=True)  # (cursor)
        await seat.wait_for("first visit")
        assert await idle_bytes(seat) == 0, "the name prompt kept sending while idle"
        assert cursor_shown_after(seat, "anna"), "the name prompt's cursor is not drawn"
        seat.press(b"\r")
        await seat.wait_for("C L U B")
        seat.press(b"j")
        await seat.wait_for("Join a table")
        await seat.type("AB")
        await seat.wait_for("AB")
        await seat.quiet(gap=1.0, timeout=10.0)
        driver = only_app()._driver
        assert isinstance(driver, SSHDriver)
        ticks: list[None] = []
        schedule = driver._schedule_tick

        def record() -> None:
            ticks.append(None)
            schedule()

        driver._schedule_tick = record  # type: ignore[method-assign]
        assert await idle_bytes(seat) == 0, "the join dialog kept sending while idle"
        assert cursor_shown_after(seat, "AB"), "the join dialog's cursor is not drawn"
        assert ticks == [], "an idle session's driver ticks before its idle deadline"
        await seat.close()


def only_app() -> ClubApp:
    gc.collect()
    (app,) = (o for o in gc.get_objects() if isinstance(o, ClubApp))
    return app
