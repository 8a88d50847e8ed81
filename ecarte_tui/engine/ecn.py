"""ECN, the Écarté game record (ECN.md): reading, writing and the ``replay --json`` summary."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .cards import card_str, parse_card
from .errors import IllegalAction
from .match import SEATS, DealError, Match, Phase
from .rules import PARAMETERS, PRESETS, Rules, RulesError, format_value

SYNTAX = 2  # exit status: not ECN
RULE = 1  # exit status: well-formed, but breaks a rule

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_HEADER = ("dealer", "A", "B", "up", "stock")
_SEAT_WORDS = ("A", "B")  # not ``in SEATS``: that is a substring test, true for "AB"
# [Forfeit "B"]: B did not come back, so A wins the game in progress (if any) and the match.
# A free tag (it changes no play), read at the record's end since tags come first.
FORFEIT = "Forfeit"
# [Termination "resigned"] beside it: the seat resigned rather than left (free, as PGN's).
TERMINATION, RESIGNED = "Termination", "resigned"


class EcnError(ValueError):
    """A record refused at its first bad line; ``status`` is the exit status of ECN.md."""

    def __init__(self, line: int, reason: str, status: int) -> None:
        self.line = line
        self.reason = reason
        self.status = status
        super().__init__(f"{line}: {reason}")

    def located(self, filename: str) -> str:
        return f"{filename}:{self.line}: {self.reason}"


@dataclass
class Record:
    """A match with its tags; ``tags`` keeps the free tags (names, Date, Event, ...)."""

    match: Match
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, str]:
        return (self.tags.get("A", "A"), self.tags.get("B", "B"))


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _cards(tokens: list[str], line: int) -> list[int]:
    out = []
    for t in tokens:
        try:
            out.append(parse_card(t))
        except ValueError:
            raise EcnError(line, f"bad card token {t!r}", SYNTAX) from None
    return out


class _Reader:
    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self.params: list[tuple[int, str, str]] = []
        self.rules_line = 0
        self.match: Match | None = None
        self.header: dict[str, Any] = {}
        self.header_next = -1  # index in _HEADER of the next header line, -1 when none
        self.hand_line = 0
        self.seen = 0
        self.forfeit_line = 0

    def rules(self) -> Rules:
        preset = self.tags.get("Rules", "classic")
        if preset not in PRESETS:
            raise EcnError(self.rules_line, f"unknown rules preset {preset!r}", SYNTAX)
        rules = PRESETS[preset]
        for line, name, value in self.params:
            try:
                rules = rules.with_text(name, value)
            except RulesError as e:
                raise EcnError(line, str(e), SYNTAX) from None
        return rules

    def feed(self, n: int, text: str) -> None:
        line = text.strip()
        if not line or line.startswith("#"):
            return
        if self.header_next >= 0:
            self.header_line(n, line)
            return
        if line.startswith("["):
            self.tag(n, line)
            return
        words = line.split()
        if words[0] == "hand":
            if len(words) != 1:
                raise EcnError(n, "the line 'hand' takes nothing after it", SYNTAX)
            self.start(n)
            return
        if words[0] in _SEAT_WORDS and len(words) >= 2:
            self.action(n, words[0], line[1:].strip())
            return
        raise EcnError(n, f"unknown keyword {words[0]!r}", SYNTAX)

    def tag(self, n: int, line: str) -> None:
        m = _TAG.match(line)
        if not m:
            raise EcnError(n, f"malformed tag {line!r}", SYNTAX)
        if self.match is not None:
            raise EcnError(n, "tags must come before the first hand", SYNTAX)
        name, value = m.group(1), _unescape(m.group(2))
        if name in self.tags or any(p[1] == name for p in self.params):
            raise EcnError(n, f"tag {name!r} is given twice", SYNTAX)
        if name == "Rules":
            if value not in PRESETS:
                raise EcnError(n, f"unknown rules preset {value!r}", SYNTAX)
            self.rules_line = n
            self.tags[name] = value
        elif name[0].islower():
            try:  # the whole value, range included, here: the first bad line is this one
                Rules().with_text(name, value)
            except RulesError as e:
                raise EcnError(n, str(e), SYNTAX) from None
            self.params.append((n, name, value))
        else:
            if name == FORFEIT:
                if value not in _SEAT_WORDS:
                    raise EcnError(
                        n, f"the Forfeit tag names the seat that did not come back, 'A' or "
                        f"'B', not {value!r}", SYNTAX)
                self.forfeit_line = n
            self.tags[name] = value

    def ensure_match(self) -> Match:
        if self.match is None:
            self.match = Match(self.rules())
        return self.match

    def start(self, n: int) -> None:
        match = self.ensure_match()
        if match.phase is Phase.OVER:
            raise EcnError(n, _over(match), RULE)
        if match.phase is not Phase.DEAL:
            raise EcnError(n, "the previous hand is not finished", RULE)
        self.header = {}
        self.header_next = 0
        self.hand_line = n
        self.seen = 0

    def header_line(self, n: int, line: str) -> None:
        want = _HEADER[self.header_next]
        words = line.split()
        if words[0] != want:
            raise EcnError(n, f"the hand is cut off: expected the '{want}' line", SYNTAX)
        match = self.match
        assert match is not None
        if want == "dealer":
            if len(words) != 2 or words[1] not in _SEAT_WORDS:
                raise EcnError(n, "expected 'dealer A' or 'dealer B'", SYNTAX)
            seat = SEATS.index(words[1])
            expected = match.next_dealer
            if match.hands_log and seat != expected:
                raise EcnError(
                    n,
                    f"dealer out of turn: {SEATS[seat]} dealt the last hand, "
                    f"so {SEATS[1 - seat]} deals",
                    RULE,
                )
            self.header["dealer"] = seat
        else:
            cards = _cards(words[1:], n)
            counts = {"A": 5, "B": 5, "up": 1, "stock": 21}
            if len(cards) != counts[want]:
                what = {"A": "A must be dealt", "B": "B must be dealt"}.get(want)
                if want == "up":
                    reason = f"exactly one card is turned up, not {len(cards)}"
                elif want == "stock":
                    reason = f"the stock must hold 21 cards, not {len(cards)}"
                else:
                    reason = f"{what} 5 cards, not {len(cards)}"
                raise EcnError(n, reason, RULE)
            for c in cards:
                if self.seen >> c & 1:
                    raise EcnError(n, f"card {card_str(c)} is dealt twice", RULE)
                self.seen |= 1 << c
            self.header[want] = cards
        self.header_next += 1
        if self.header_next == len(_HEADER):
            self.header_next = -1
            h = self.header
            try:
                match.start_hand(h["A"], h["B"], h["up"][0], h["stock"], dealer=h["dealer"])
            except DealError as e:  # pragma: no cover - every case is checked above
                raise EcnError(n, str(e), RULE) from None

    def action(self, n: int, seat_letter: str, text: str) -> None:
        if self.match is None or not self.match.hands_log:
            raise EcnError(n, "an action before the first 'hand' line", SYNTAX)
        try:
            action = Action.parse(text)
        except ValueError as e:
            raise EcnError(n, str(e), SYNTAX) from None
        match = self.match
        seat = SEATS.index(seat_letter)
        if match.phase is Phase.OVER:
            raise EcnError(n, _over(match), RULE)
        try:
            match.apply(action, seat)
        except IllegalAction as e:
            raise EcnError(n, str(e), RULE) from None

    def finish(self, last_line: int) -> Record:
        if self.header_next >= 0:
            want = _HEADER[self.header_next]
            raise EcnError(
                last_line, f"the hand is cut off: expected the '{want}' line", SYNTAX
            )
        match = self.ensure_match()
        if FORFEIT in self.tags:  # tags come first, but a forfeit ends the record's match
            seat = SEATS.index(self.tags[FORFEIT])
            if match.phase is Phase.OVER:
                raise EcnError(
                    self.forfeit_line,
                    f"{SEATS[seat]} cannot forfeit: {_over(match)}", RULE)
            match.forfeit(seat, resigned=self.tags.get(TERMINATION) == RESIGNED)
        return Record(match, dict(self.tags))


def _over(match: Match) -> str:
    return match.over_text()


def read_ecn(text: str) -> Record:
    """Parse and check a whole record; EcnError at the first bad line."""
    reader = _Reader()
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        if "\x00" in line:
            raise EcnError(n, "this is not a text file", SYNTAX)
        reader.feed(n, line)
    return reader.finish(len(lines))


def write_ecn(record: Record | Match, tags: dict[str, str] | None = None) -> str:
    """The canonical text of a record; reading it back gives the same match."""
    if isinstance(record, Match):
        record = Record(record, dict(tags or {}))
    match = record.match
    out = [f'[Rules "{match.rules.preset}"]']
    for name, value in match.rules.differences().items():
        out.append(f'[{name} "{format_value(value)}"]')
    for name in ("A", "B"):
        if name in record.tags:
            out.append(f'[{name} "{_escape(record.tags[name])}"]')
    for name, value in record.tags.items():
        if name not in ("A", "B", "Rules"):
            out.append(f'[{name} "{_escape(value)}"]')
    if match.forfeited is not None and FORFEIT not in record.tags:  # the match says it
        out.append(f'[{FORFEIT} "{SEATS[match.forfeited]}"]')
        if match.resigned and TERMINATION not in record.tags:
            out.append(f'[{TERMINATION} "{RESIGNED}"]')
    for h in match.hands_log:
        out.append("")
        out.append("hand")
        out.append(f"dealer {SEATS[h.dealer]}")
        out.append("A " + " ".join(card_str(c) for c in h.hands[0]))
        out.append("B " + " ".join(card_str(c) for c in h.hands[1]))
        out.append(f"up {card_str(h.up)}")
        out.append("stock " + " ".join(card_str(c) for c in h.stock))
        for seat, action in h.actions:
            out.append(f"{SEATS[seat]} {action}")
    return "\n".join(out) + "\n"


def summary(record: Record | Match) -> dict[str, Any]:
    """The object ``ecarte replay --json`` prints (ECN.md)."""
    match = record.match if isinstance(record, Record) else record

    def seat(s: int | None) -> str | None:
        return None if s is None else SEATS[s]

    def pair(v: list[int]) -> dict[str, int]:
        return {"A": v[0], "B": v[1]}

    return {
        "rules": match.rules.preset,
        "params": match.rules.params(),
        "hands": [
            {
                "dealer": SEATS[h.dealer],
                "trump": "SHDC"[h.trump],
                "turn_up_king": h.turn_up_king,
                "king": seat(h.king),
                "at_risk": seat(h.at_risk),
                "tricks": pair(h.tricks),
                "points": pair(h.points),
                "complete": h.complete,
            }
            for h in match.hands_log
        ],
        "games": [{"score": pair(g.score), "winner": seat(g.winner)} for g in match.games],
        "match_winner": seat(match.match_winner),
    }


__all__ = [
    "EcnError",
    "PARAMETERS",
    "RULE",
    "Record",
    "SYNTAX",
    "read_ecn",
    "summary",
    "write_ecn",
]
