"""Scanning every byte a client receives for cards that are hidden from it.

``SeenCards`` follows a table from the server side and records, for every seat (and for a
watcher, seat None) and every hand, the cards that seat may legitimately see: its own cards
and discards, the turn-up, the cards played, and the draw for the first deal. Anything else
is hidden: the opponent's unplayed hand, every discard of the opponent, the stock.

``CheckedClient`` asks the served app for synchronized output, so each frame arrives between
``CSI ? 2026 h`` and ``CSI ? 2026 l``. At each frame's end it checks the pyte screen (and the
frame's raw bytes) against the hidden cards of the hand the frame shows (read from the top
bar, "hand N"): a frame is drawn from one state, so no lag between the table and the screen
can make the check fail wrongly, and every byte is looked at.
"""

from __future__ import annotations

import codecs
import re

from ssh_harness import ScreenClient

from ecarte_tui.engine import cards_of, seat_view
from ecarte_tui.table import Table, Update
from ecarte_tui.ui.card_art import UNICODE, short_label

SYNC_QUERY = b"\x1b[?2026$p"
SYNC_SUPPORTED = b"\x1b[?2026;2$y"
FRAME_END = b"\x1b[?2026l"
LABELS = {c: short_label(c, UNICODE) for c in range(32)}
_HAND = re.compile(r" · hand (\d+)")


class SeenCards:
    """For each (seat, hand number): every card that seat may have seen in that hand."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.allowed: dict[tuple[int | None, int], set[int]] = {}
        self.unwatch = table.watch(None, self._changed)

    def _changed(self, _update: Update) -> None:
        match = self.table.match
        hand = len(match.hands_log)
        for seat in (0, 1, None):
            v = seat_view(match, seat)
            cards = set(v.hand)
            for mask in v.own_discards:
                cards.update(cards_of(mask))
            for t in v.tricks:
                cards.update((t.lead, t.follow))
            if v.trick_lead is not None:
                cards.add(v.trick_lead)
            if v.turn_up is not None:
                cards.add(v.turn_up)
            if hand <= 1 and self.table.draw is not None:
                cards.update(self.table.draw.cards)
            self.allowed.setdefault((seat, hand), set()).update(cards)

    def hidden(self, seat: int | None, hand: int | None) -> set[int]:
        if hand is None:
            hand = len(self.table.match.hands_log)
        return set(range(32)) - self.allowed.get((seat, hand), set())

    def opponent_hidden_now(self, seat: int) -> set[int]:
        """The opponent's unplayed cards and discards right now (for the report)."""
        m = self.table.match
        cards = set(cards_of(m.hands[1 - seat]))
        for mask in m.discards[1 - seat]:
            cards.update(cards_of(mask))
        return cards


class CheckedClient(ScreenClient):
    """A ScreenClient that checks every frame it receives against ``SeenCards``."""

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__(size)
        self.seen: SeenCards | None = None
        self.seat: int | None = None
        self.frames_checked = 0
        self.labels_seen: set[str] = set()
        self.leaks: list[str] = []  # checked by the test (an exception here would vanish)
        self._frame_raw = bytearray()
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode

    def watch_for_leaks(self, seen: SeenCards, seat: int | None) -> None:
        self.seen, self.seat = seen, seat

    def on_data(self, data: bytes, datatype: object) -> None:
        if datatype is not None:  # stderr
            super().on_data(data, datatype)  # type: ignore[arg-type]
            return
        if SYNC_QUERY in data and self.chan is not None:
            self.chan.write(SYNC_SUPPORTED)
        while data:
            end = data.find(FRAME_END)
            piece, data = (data, b"") if end < 0 else (
                data[: end + len(FRAME_END)], data[end + len(FRAME_END):])
            super().on_data(piece, datatype)  # type: ignore[arg-type]
            self._frame_raw += piece
            if end >= 0:
                self._check_frame()

    def _check_frame(self) -> None:
        raw = self._decode(bytes(self._frame_raw))
        self._frame_raw.clear()
        if self.seen is None:
            return
        screen = self.text()
        m = _HAND.search(screen.split("\n", 1)[0])
        hand = int(m.group(1)) if m else None
        hidden = self.seen.hidden(self.seat, hand)
        for card in hidden:
            label = LABELS[card]
            if label in screen or label in raw:
                where = "screen" if label in screen else "raw bytes"
                self.leaks.append(f"seat {self.seat} was shown hidden card {label} ({where}, "
                                  f"hand {hand}):\n{screen}")
        for card in range(32):
            if LABELS[card] in screen:
                self.labels_seen.add(LABELS[card])
        self.frames_checked += 1
