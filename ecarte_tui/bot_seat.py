"""A bot sitting at a table: it watches its seat like a screen does and submits like a player.

The bot thinks in a worker thread so that a server's event loop (and every other player's
screen) keeps moving while it searches; its moves come at a pace a person can follow.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from typing import Protocol

from .bots.match_value import first_dealer_for
from .engine import Action, IllegalAction, SeatView
from .table import Table, TableError, Update


class Chooser(Protocol):
    name: str

    def choose(self, view: SeatView) -> Action | None: ...


def _decision_key(table: Table) -> tuple[int, int, int, str, int | None]:
    m = table.match
    rec = m.hand
    return (len(m.hands_log), len(rec.actions) if rec else 0, sum(m.games_won),
            table.status, table.waiting_for)


class BotSeat:
    """Drives one seat of ``table`` with ``bot``; ``delay`` seconds between its moves."""

    def __init__(self, table: Table, seat: int, bot: Chooser, delay: float = 0.8) -> None:
        self.table = table
        self.seat = seat
        self.bot = bot
        self.delay = delay
        self._task: asyncio.Task[None] | None = None
        self._unwatch: object = None
        self._closed = False

    def start(self) -> None:
        self._unwatch = self.table.watch(self.seat, self._on_update)

    def stop(self) -> None:
        self._closed = True
        if callable(self._unwatch):
            self._unwatch()
        if self._task is not None:
            self._task.cancel()

    def _on_update(self, update: Update) -> None:
        if self._closed or not self._has_decision():
            return
        if self._task is None or self._task.done():
            # A context of its own: this is called by whoever moved the table (a served
            # player's app), and the kept task would keep that app's context (Textual's
            # active_app), so the whole app, for as long as the table lasts.
            self._task = asyncio.get_running_loop().create_task(
                self._act(), context=contextvars.Context())

    def _has_decision(self) -> bool:
        t = self.table
        status = t.status
        if status == "choose":
            return t.waiting_for == self.seat
        if status == "between":
            return not t.has_asked_next_hand(self.seat)
        if status == "play":
            waiting = t.waiting_for
            if waiting is not None and waiting != self.seat:
                return False  # e.g. the dealer may still announce the king: wait for him
            return bool(t.match.legal_actions(self.seat))
        return False

    async def _act(self) -> None:
        while not self._closed and self._has_decision():
            key = _decision_key(self.table)
            await asyncio.sleep(self.delay)
            if self._closed or key != _decision_key(self.table):
                continue
            t = self.table
            if t.status == "choose":  # the deal, which the match value favours
                with contextlib.suppress(TableError):
                    t.choose_dealer(self.seat, first_dealer_for(t.match.rules, self.seat))
                continue
            if t.status == "between":
                t.ready(self.seat)
                continue
            view = t.view(self.seat)
            action = await asyncio.to_thread(self.bot.choose, view)
            if self._closed or key != _decision_key(self.table):
                continue
            if action is None:
                t.pass_king(self.seat)
                if not view.my_turn:
                    return  # nothing more to decide until the table moves on
                continue
            try:
                t.submit(self.seat, action)
            except IllegalAction:  # the table moved under us; look again
                continue
