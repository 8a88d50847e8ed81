"""The club server on loopback, and SSH clients that read their screen and play like people.

Kept out of conftest.py so test modules import it by a name no other test folder uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import asyncssh
from ssh_harness import ScreenClient

from net.bench.screen_player import DONE, next_move
from net.game_server import GameServer, ServerConfig
from net.ssh.limits import Limits


@contextlib.asynccontextmanager
async def club_server(data_dir: Path, **config: Any) -> AsyncIterator[GameServer]:
    config.setdefault("bot_delay", 0.05)
    server = GameServer(ServerConfig(data_dir, host="127.0.0.1", port=0, **config))
    await server.start()
    try:
        yield server
    finally:
        await server.aclose()


FRAME_GUARD = 0.025
"""How long a scripted player waits after a whole frame for another one before reading the
screen (a move often draws two frames a few milliseconds apart)."""


def generous_limits(**changes: Any) -> Limits:
    """Room for many loopback clients from one address."""
    values: dict[str, Any] = {"max_connections": 100, "max_connections_per_ip": 100}
    values.update(changes)
    return Limits(**values)


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


class Seat:
    """One SSH client with a pyte screen, and the scripted player that drives it."""

    def __init__(self, client: ScreenClient, name: str, seed: int = 0) -> None:
        self.client = client
        self.name = name
        self.rng = random.Random(seed)
        self.moves: list[str] = []
        self.on_screen: Callable[[Seat], None] | None = None

    @classmethod
    async def connect(cls, port: int, name: str = "guest", seed: int = 0,
                      size: tuple[int, int] = (80, 24), **kwargs: Any) -> Seat:
        client = await ScreenClient.connect(port, size=size, username=name, **kwargs)
        return cls(client, name, seed)

    def text(self) -> str:
        return self.client.text()

    async def wait_for(self, needle: str, timeout: float = 45.0) -> str:
        """Until ``needle`` is on the screen; the timeout only ends a wait that failed."""
        if not await self.client.wait_for(needle, timeout):
            raise AssertionError(f"{self.name}: {needle!r} never appeared; screen:\n{self.text()}")
        return self.text()

    async def wait_gone(self, needle: str, timeout: float = 45.0) -> str:
        """Until ``needle`` is no longer on the screen (checked whenever output arrives)."""
        deadline = time.monotonic() + timeout
        while needle in self.text():
            if not await self.client.next_data(deadline - time.monotonic()):
                raise AssertionError(f"{self.name}: {needle!r} stayed; screen:\n{self.text()}")
        return self.text()

    async def quiet(self, gap: float = 0.08, timeout: float = 5.0) -> None:
        """Until no output has arrived for ``gap`` seconds (a frame is complete), looked at
        every ``gap`` seconds: a key whose effect comes late (a lone Esc, input held back
        after a flood) has had at least that long."""
        deadline = time.monotonic() + timeout
        seen = len(self.client.raw)
        while time.monotonic() < deadline:
            await asyncio.sleep(gap)
            if len(self.client.raw) == seen:
                return
            seen = len(self.client.raw)

    async def settled(self, gap: float = 0.08, timeout: float = 5.0,
                      after_frame: float | None = None) -> None:
        """Until no output has arrived for ``gap`` seconds since the last byte (how the
        scripted player waits for a frame to be complete before reading it). With
        ``after_frame``, a shorter silence is enough once the output ends with a whole
        frame (the client reads the synchronized-output markers): the screen is not
        half drawn, and the guard lets a frame that follows at once arrive too."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            wait = gap
            if after_frame is not None and self.client.frame_complete:
                wait = after_frame
            if not await self.client.next_data(min(wait, deadline - time.monotonic())):
                return

    def press(self, key: bytes) -> None:
        self.client.send(key)

    async def type(self, text: str) -> None:
        """Key by key, as a person types (test_input_order sends bursts on purpose)."""
        for ch in text:
            self.press(ch.encode())
            await asyncio.sleep(0.03)

    async def replace_input(self, text: str) -> None:
        """Empty the focused input (ctrl+u) and type ``text``."""
        self.press(b"\x15")
        await self.quiet(0.05)
        await self.type(text)

    async def play(self, until: Callable[[str], bool] | None = None,
                   timeout: float = 90.0) -> str:
        """Answer every prompt until the match is over (or ``until(screen)``)."""
        deadline = time.monotonic() + timeout
        stuck_since = time.monotonic()
        while time.monotonic() < deadline:
            await self.settled(after_frame=FRAME_GUARD)
            screen = self.text()
            if until is not None and until(screen):
                return screen
            move = next_move(screen, self.rng)
            if move is DONE and until is None:
                # the result comes in more than one frame (the log's line, then the box):
                # the whole silence before the screen is handed back
                await self.settled()
                return self.text()
            if move is None or move is DONE:
                if time.monotonic() - stuck_since > 30:
                    raise AssertionError(f"{self.name} waited 30 s; screen:\n{screen}")
                # the screen changing, or a moment passing for an ``until`` that reads
                # something else (the server, another player's screen)
                await self.client.next_data(0.05)
                continue
            stuck_since = time.monotonic()
            self.moves.append(move.why)
            self.press(move.key)
            await self.client.next_data(2.0)  # the screen answers every key it asks for
        raise AssertionError(f"{self.name}: no end in {timeout} s; screen:\n{self.text()}")

    def click(self, x: int, y: int) -> None:
        """A left click on the cell at column ``x``, row ``y`` (from 0; SGR mouse)."""
        self.press(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m".encode())

    def _toast_at(self, start: str) -> tuple[int, int] | None:
        """The cell of the notification whose first line begins with ``start``, if shown."""
        for y, row in enumerate(self.text().split("\n")):
            left, bar, right = row.partition("▌")  # a notification's left edge
            if bar and right.strip().startswith(start):
                return len(left) + 2, y
        return None

    async def dismiss_toast(self, start: str, timeout: float = 15.0) -> None:
        """Once the notification beginning with ``start`` is shown, click it away, as a
        person would to read what it covers (it would go by itself some seconds later)."""
        deadline = time.monotonic() + timeout
        while (cell := self._toast_at(start)) is None:
            if not await self.client.next_data(deadline - time.monotonic()):
                raise AssertionError(f"{self.name}: no notification {start!r}; screen:\n"
                                     f"{self.text()}")
        self.click(*cell)
        while self._toast_at(start) is not None:
            if not await self.client.next_data(deadline - time.monotonic()):
                raise AssertionError(f"{self.name}: the notification {start!r} stayed; "
                                     f"screen:\n{self.text()}")

    async def close(self) -> None:
        await self.client.close()


def table_code(screen: str) -> str:
    m = re.search(r"join ([A-Z]{4})", screen)
    assert m, f"no table code on screen:\n{screen}"
    return m.group(1)


async def open_table(seat: Seat) -> str:
    """From the lobby: a new table against a person (the dialog's defaults); its code."""
    await seat.wait_for("C L U B")
    seat.press(b"n")
    await seat.wait_for("A new table")
    seat.press(b"\r")
    return table_code(await seat.wait_for("Waiting for an opponent"))


async def play_the_bot(seat: Seat) -> None:
    """From the lobby: a game against the server's bot (the dialog's defaults), begun."""
    await seat.wait_for("C L U B")
    seat.press(b"b")
    await seat.wait_for("A new table")
    seat.press(b"\r")
    await seat.wait_for("Écarté ·")


async def who_chooses(a: Seat, b: Seat) -> tuple[Seat, Seat]:
    """(the seat that chooses the dealer, the other), once the draw's prompts are up."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for seat, other in ((a, b), (b, a)):
            await seat.settled()
            if "choose who deals" in seat.text() and "chooses who deals" in other.text():
                return seat, other
    raise AssertionError(f"no chooser:\n{a.text()}\n{b.text()}")


async def pair_at_the_draw(port: int) -> tuple[Seat, Seat]:
    """Two guests at a new table (one opens it, the other joins by its code), the draw for
    the deal made: (the one who chooses the dealer, the other)."""
    anna = await Seat.connect(port, "anna", seed=1)
    code = await open_table(anna)
    ben = await Seat.connect(port, "ben", seed=2, command=f"join {code}")
    for seat in (anna, ben):
        await seat.wait_for("drew the higher card")
    return await who_chooses(anna, ben)


async def first_visit(port: int, name: str, key: asyncssh.SSHKey, **kwargs: Any) -> Seat:
    """A new key's first visit: the name it is offered (its user name) taken with Enter."""
    seat = await Seat.connect(port, name, key=key, **kwargs)
    await seat.wait_for("first visit")
    seat.press(b"\r")
    return seat


async def registered_pair(port: int, keys: dict[str, asyncssh.SSHKey],
                          ben_port: int | None = None) -> tuple[Seat, Seat, str]:
    """anna (first visit: takes her name) opens a table and ben joins it by its code; both
    connect with their keys in ``keys``, ben to ``ben_port`` if given (another node of the
    club). Returns the two seats and the table's code."""
    anna = await first_visit(port, "anna", keys["anna"], seed=1)
    code = await open_table(anna)
    ben = await first_visit(ben_port or port, "ben", keys["ben"], seed=2,
                            command=f"join {code}")
    return anna, ben, code


class Clock:
    """A clock a test moves by hand (``clock.now += 3600``): timeouts without waiting."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
