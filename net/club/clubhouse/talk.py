"""Table talk: short chat lines between the players and the gallery at one table.

The 19th-century gallery talked around the table (001, 003: bystanders "advise"; 004:
"galerijen"); here a line is at most ``MAX_CHARS`` characters, each speaker has a token
bucket (a burst of ``BURST`` lines, then one every ``1 / RATE`` seconds), and a player may
mute the gallery, after which watchers' lines are not delivered to him, or all the talk
(an opponent who will not stop), after which only his own lines are; a line kept from
him so is not shown to him later either, when he hears everyone again.

A line arrives from a remote terminal and is shown on other people's terminals, so
``clean_line`` removes every escape sequence (CSI, OSC, DCS..., 7-bit and 8-bit) and every
control or format character (C0, C1, DEL, bidi overrides, zero-width characters), turns
line breaks into spaces and caps runs of combining marks: a chat line can never move a
cursor, set a title, write to the clipboard or reverse the text of the next line. Screens
must still show it as plain text (``rich.text.Text``), never as Textual markup.

``say`` returns one ``ChatDelivery`` per recipient: the server sends each line only to
the recipient it names. A line said ``only_to`` one member (a backer who has seen his
player's hand talks to that player alone) reaches him and the speaker, and nobody else,
now or from the history.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

MAX_CHARS = 200
MAX_RAW = 4_000  # longer input is refused before it is even cleaned
BURST = 5
RATE = 0.5  # lines per second, sustained
HISTORY = 50
MAX_COMBINING = 2

ROLES = ("player", "watcher")
HEAR_ALL, MUTE_GALLERY, MUTE_ALL = "", "gallery", "all"
MUTINGS = (HEAR_ALL, MUTE_GALLERY, MUTE_ALL)  # a player's ``m`` goes round them

_ESCAPES = re.compile(
    r"""
      \x1b\[[0-?]*[ -/]*[@-~]?                # CSI ... final byte
    | \x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?   # OSC ... BEL or ST (or to the end)
    | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?  # DCS, SOS, PM, APC ... ST
    | \x1b[ -/]*[0-~]?                        # any other ESC sequence (or a lone ESC)
    | \x9b[0-?]*[ -/]*[@-~]?                  # 8-bit CSI
    | [\x90\x98\x9d\x9e\x9f][^\x07\x9c\x1b]*(?:\x07|\x9c|\x1b\\)?  # 8-bit DCS/SOS/OSC/PM/APC
    """,
    re.VERBOSE,
)
_SPACES = re.compile(r"\s+")
_DROP_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


class TalkError(ValueError):
    """A line refused, with a message for the speaker (too long, too fast, not seated)."""


def clean_line(text: str, max_combining: int = MAX_COMBINING) -> str:
    """``text`` made safe to show on any terminal, on one line (see the module docstring)."""
    text = _ESCAPES.sub("", text)
    out: list[str] = []
    marks = 0
    for ch in text:
        if ch in "\t\n\r\v\f\x85\u2028\u2029":
            out.append(" ")
            marks = 0
            continue
        cat = unicodedata.category(ch)
        if cat in _DROP_CATEGORIES:
            continue
        if cat in ("Mn", "Me"):
            marks += 1
            # a mark needs a base: on a space it would be left at the line's start by the
            # strip below, or change when spaces are collapsed
            if marks > max_combining or not out or out[-1].isspace():
                continue
        else:
            marks = 0
        out.append(ch)
    return _SPACES.sub(" ", "".join(out)).strip()


class TokenBucket:
    """``capacity`` tokens, refilled at ``rate`` per second; a line costs one."""

    def __init__(
        self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.capacity = capacity
        self.rate = rate
        self.clock = clock
        self.tokens = float(capacity)
        self.stamp = clock()

    def _refill(self) -> None:
        t = self.clock()
        self.tokens = min(self.capacity, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t

    def take(self, cost: float = 1.0) -> float:
        """Spend ``cost`` tokens: 0.0 if done, else the seconds to wait (nothing spent)."""
        self._refill()
        if self.tokens >= cost:
            self.tokens -= cost
            return 0.0
        return (cost - self.tokens) / self.rate


@dataclass(frozen=True, slots=True)
class ChatLine:
    seq: int
    sender: str
    name: str
    role: str  # "player" or "watcher"
    text: str  # already clean
    to: str | None = None  # said to this member only (and seen by the speaker)
    to_name: str = ""


@dataclass(frozen=True, slots=True)
class ChatDelivery:
    recipient: str
    line: ChatLine


@dataclass
class _Member:
    name: str
    role: str


class TableTalk:
    """The chat of one table. Members are player ids with a display name and a role."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        max_chars: int = MAX_CHARS,
        burst: int = BURST,
        rate: float = RATE,
        history: int = HISTORY,
    ) -> None:
        self.clock = clock
        self.max_chars = max_chars
        self.burst = burst
        self.rate = rate
        self._members: dict[str, _Member] = {}
        # Kept after a member leaves, so leaving and coming back resets neither.
        self._buckets: dict[str, TokenBucket] = {}
        self._muted: set[str] = set()  # who hears no watcher
        self._deaf: set[str] = set()  # who hears nobody but himself
        self._history: deque[ChatLine] = deque(maxlen=history)
        # Lines kept from a member by his muting: hearing everyone again does not bring
        # them back (an opponent muted for abuse is not read afterwards either).
        self._withheld: dict[str, set[ChatLine]] = {}
        self._seq = 0

    # ------------------------------------------------------------------ members

    def join(self, member: str, name: str, role: str) -> None:
        """Add (or update) a member; ``role`` is "player" or "watcher"."""
        if role not in ROLES:
            raise TalkError(f"unknown role {role!r}")
        self._members[member] = _Member(clean_line(name) or "?", role)

    def set_role(self, member: str, role: str) -> None:
        """A watcher takes a seat (the pool, the French rule) or a player leaves it."""
        if member not in self._members:
            raise TalkError("not at this table")
        if role not in ROLES:
            raise TalkError(f"unknown role {role!r}")
        self._members[member].role = role

    def leave(self, member: str) -> None:
        self._members.pop(member, None)

    @property
    def members(self) -> dict[str, str]:
        """Member id -> role."""
        return {m: v.role for m, v in self._members.items()}

    def mute_gallery(self, member: str, muted: bool = True) -> None:
        """Stop (or resume) delivering watchers' lines to ``member`` (meant for players)."""
        self.set_muting(member, MUTE_GALLERY if muted else HEAR_ALL)

    def gallery_muted(self, member: str) -> bool:
        return member in self._muted or member in self._deaf

    def set_muting(self, member: str, level: str) -> None:
        """``HEAR_ALL``, ``MUTE_GALLERY`` (no watcher's line) or ``MUTE_ALL`` (nobody's)."""
        if level not in MUTINGS:
            raise TalkError(f"unknown muting {level!r}")
        self._muted.discard(member)
        self._deaf.discard(member)
        if level == MUTE_GALLERY:
            self._muted.add(member)
        elif level == MUTE_ALL:
            self._deaf.add(member)

    def muting(self, member: str) -> str:
        if member in self._deaf:
            return MUTE_ALL
        return MUTE_GALLERY if member in self._muted else HEAR_ALL

    # ------------------------------------------------------------------ talking

    def _hears(self, recipient: str, line: ChatLine) -> bool:
        if line.to is not None and recipient not in (line.sender, line.to):
            return False
        if recipient == line.sender:
            return True
        if recipient in self._deaf:
            return False
        return line.role != "watcher" or recipient not in self._muted

    def say(self, sender: str, text: str, only_to: str | None = None,
            to_name: str = "") -> list[ChatDelivery]:
        """Clean, check and address a line (to ``only_to`` alone, shown as ``to_name`` if he
        is away, if given); TalkError (nothing sent) if it is refused."""
        member = self._members.get(sender)
        if member is None:
            raise TalkError("you are not at this table")
        if len(text) > MAX_RAW:
            raise TalkError(f"a message is at most {self.max_chars} characters")
        clean = clean_line(text)
        if not clean:
            raise TalkError("nothing to say: the message is empty")
        if len(clean) > self.max_chars:
            raise TalkError(
                f"a message is at most {self.max_chars} characters (this one has {len(clean)})"
            )
        bucket = self._buckets.get(sender)
        if bucket is None:
            bucket = self._buckets[sender] = TokenBucket(self.burst, self.rate, self.clock)
        wait = bucket.take()
        if wait > 0:
            raise TalkError(f"not so fast: you may speak again in {max(1, round(wait))} s")
        self._seq += 1
        to = self._members.get(only_to) if only_to is not None else None
        line = ChatLine(self._seq, sender, member.name, member.role, clean, only_to,
                        to.name if to is not None else clean_line(to_name))
        return self._keep(line)

    def _keep(self, line: ChatLine) -> list[ChatDelivery]:
        """Add ``line`` to the history, note who his muting keeps it from, address it."""
        if len(self._history) == self._history.maxlen:
            oldest = self._history[0]
            for lines in self._withheld.values():
                lines.discard(oldest)
        self._history.append(line)
        for member in self._muted | self._deaf:
            if line.to is None or member in (line.sender, line.to):
                if not self._hears(member, line):
                    self._withheld.setdefault(member, set()).add(line)
        return [ChatDelivery(r, line) for r in self._members if self._hears(r, line)]

    def hear(self, line: ChatLine) -> list[ChatDelivery]:
        """A line said at this table on another node of the club (checked and limited
        there): kept, and addressed to the members here."""
        return self._keep(line)

    def history_for(self, member: str) -> list[ChatLine]:
        """The recent lines ``member`` may read (for someone who just sat down): not those
        his muting kept from him when they were said."""
        withheld = self._withheld.get(member, set())
        return [line for line in self._history
                if self._hears(member, line) and line not in withheld]
