"""``ecarte bench ui``: time to the first drawn table, and from a keypress to the redrawn table.

Runs the real app through Textual's headless driver at 80×24 against a bot that answers at
once. Goals: the first table under 1 s, a keypress redrawn under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time

KEYPRESSES = 60


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


async def _measure() -> dict[str, object]:
    start = time.perf_counter()
    from textual import events
    from textual._compositor import CompositorUpdate
    from textual.screen import Screen

    from ..engine import Rules
    from ..table import Table
    from .app import EcarteApp
    from .players import RandomChooser
    from .screens.table import TableScreen
    from .settings import Settings

    table = Table.new(Rules.named("academie"), ("You", "Bot"), seed=3, first_dealer=1)
    app = EcarteApp(table=table, seat=0, settings=Settings(), opponent=RandomChooser(3),
                    bot_delay=0, save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        while not (isinstance(app.screen, TableScreen) and app.screen.update is not None):
            await asyncio.sleep(0.001)
        await pilot.pause()
        first_table = time.perf_counter() - start
        await pilot.press("c")  # "Cards!": the hand becomes a choice of discards
        for _ in range(200):
            await pilot.pause(0.01)
            screen = app.screen
            if isinstance(screen, TableScreen) and screen.current_prompt().mode in (
                "discard", "card"
            ):
                break
        await pilot.pause()
        driver = app._driver
        assert driver is not None
        writes = [0]
        display = app._display

        def counting_display(screen: Screen[object], renderable: object) -> None:
            # The headless driver skips the terminal; encode the frame as a terminal would.
            display(screen, renderable)  # type: ignore[arg-type]
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)
                writes[0] += 1

        app._display = counting_display  # type: ignore[method-assign]
        samples: list[float] = []
        for i in range(KEYPRESSES):
            key = "right" if i % 2 == 0 else "left"
            await pilot.pause(0.02)
            seen = writes[0]
            t0 = time.perf_counter()
            driver.send_message(events.Key(key, None))
            while writes[0] == seen and time.perf_counter() - t0 < 2:
                await asyncio.sleep(0.0002)
            samples.append((time.perf_counter() - t0) * 1000)
    return {
        "first_table_s": round(first_table, 4),
        "keypress_ms": {
            "p50": round(statistics.median(samples), 3),
            "p99": round(_percentile(samples, 0.99), 3),
        },
    }


def run_ui_bench(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:  # never touch the user's settings
        os.environ.setdefault("XDG_CONFIG_HOME", os.path.join(tmp, "config"))
        os.environ.setdefault("XDG_DATA_HOME", os.path.join(tmp, "data"))
        result = asyncio.run(_measure())
    if getattr(args, "json", False):
        print(json.dumps(result))
    else:
        keys = result["keypress_ms"]
        assert isinstance(keys, dict)
        print(f"first table drawn:      {result['first_table_s']:.3f} s   (goal < 1 s)")
        print(f"keypress to redraw p50: {keys['p50']:.1f} ms  (goal < 50 ms)")
        print(f"keypress to redraw p99: {keys['p99']:.1f} ms")
    return 0
