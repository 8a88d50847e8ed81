"""The one live, authoritative game: seats, watchers, deals, and an update stream per seat.

Every action enters the engine here and nowhere else. Whoever sits in a seat (a person at
this keyboard, a bot, a player over SSH) submits actions and receives updates the same way,
and receives only its own seat's view: a bug in a screen cannot leak the opponent's hand.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Protocol, cast

from .engine import (
    KING,
    Action,
    DealError,
    Event,
    IllegalAction,
    Kind,
    Match,
    Phase,
    Record,
    Rules,
    SeatView,
    draw_first_dealer,
    read_ecn,
    seat_view,
    write_ecn,
)
from .engine.deal import FirstDealDraw, deal_rng
from .engine.ecn import RESIGNED, TERMINATION

log = logging.getLogger(__name__)
RECORDS_AWAY = ("the move could not be recorded (the club's records do not answer): try "
                "again in a moment")
NOT_YET_LOGGED = ("The club's records do not answer just now: the table is shown as soon as "
                  "they do.")  # a screen opened while a step waits to be written


class TableError(ValueError):
    """A request the table refuses (not a rule of the game): e.g. choosing the dealer twice."""


@dataclass(frozen=True, slots=True)
class Update:
    """What one seat (or a watcher, seat None) is sent after every change."""

    view: SeatView
    event: Event | None = None  # the step that caused it, in the receiver's public form
    said: str | None = None  # what the table speaks aloud ("Cards!", "How many?", ...)
    status: str = ""  # the table's state: "draw", "choose", "play", "between", "over"
    waiting_for: int | None = None  # whose decision the table is waiting for
    draw: FirstDealDraw | None = None
    ready: tuple[bool, bool] = (False, False)  # who has asked for the next hand
    # a step this seat asked for, refused after the fact: another process wrote first and
    # the step, checked again against the log, is no longer legal (``Table.retry``)
    refused: IllegalAction | TableError | None = None


Listener = Callable[[Update], None]
Guard = Callable[[Match, int, Action], str | None]
"""Why a table option forbids ``seat`` this ``action`` now, or None (asked before the engine)."""

Entry = tuple[str, int, str]
"""One step of a table's log: (verb, seat, argument), e.g. ("submit", 0, "KS"), ("ready", 1, "").
A table's state is its beginning plus its entries, applied in order (``Table.apply_entry``)."""


class Journal(Protocol):
    """Where a table shared by several processes writes its steps (net/club_sync)."""

    def catch_up(self, table: Table) -> None:
        """Apply the steps other processes wrote since ``table.seq`` (``apply_entry``)."""

    def append(self, table: Table, entry: Entry) -> bool:
        """Write ``entry`` as step ``table.seq + 1``; False if another process wrote it first."""

    def rebuild(self, table: Table) -> None:
        """Make ``table`` the replay of the whole log (``reset_from``), after a lost race."""


class DeferredJournal(Journal, Protocol):
    """A journal that writes without keeping the caller waiting (a database across the
    network): the step is checked and applied here at once, and shown to nobody until the
    log has it (``Table.confirm``); after a lost race the journal rebuilds the table and
    checks the step again (``Table.retry``)."""

    @property
    def deferring(self) -> bool:
        """Whether steps are written later now (an event loop runs the writer)."""

    def write_later(self, table: Table, entry: Entry, held: list[Event | None]) -> None:
        """Write ``entry`` as step ``table.seq`` (applied here already, its publishes held)."""


@dataclass
class _Watch:
    seat: int | None
    callback: Listener
    late: bool = False  # subscribed while the table was ahead of its log: not shown it yet


def spoken(event: Event, names: tuple[str, str]) -> str | None:
    """What a player says aloud for an action, as at a real table (000, 001, 004)."""
    kind = event.action.kind
    if kind is Kind.PROPOSE:
        return "Cards!"
    if kind is Kind.PLAY or kind is Kind.REFUSE:
        return "We play!"
    if kind is Kind.ACCEPT:
        return "How many?"
    if kind is Kind.KING:
        return "I have the king!"
    if kind is Kind.DISCARD:
        n = event.count
        words = ["None.", "One.", "Two.", "Three.", "Four.", "Five."]
        return words[n] if n < len(words) else f"{n}."
    return None


@dataclass
class Table:
    """A match at a table. Create with :meth:`new` or :meth:`from_record`."""

    match: Match
    names: tuple[str, str] = ("A", "B")
    rng: random.Random = field(default_factory=deal_rng)  # the OS's unless seeded (deal_rng)
    tags: dict[str, str] = field(default_factory=dict)
    draw: FirstDealDraw | None = None
    persist: Callable[[Table], None] | None = None  # called before anyone is shown a change
    guard: Guard | None = None  # a table option that forbids more than the rules (e.g. 004)
    # the same option seen from a seat: its view's legal actions without the forbidden ones,
    # so the prompt, the hints and a backer's advice never offer what the guard refuses
    restrict: Callable[[SeatView], SeatView] | None = None
    journal: Journal | None = None  # set when other processes share this table's log
    unwritten: bool = False  # a step applied here was refused by the store: replay the log
    closed: str | None = None  # why the table takes no more steps (closed by the operator)
    seq: int = 0  # steps applied (the log's sequence number of the last one)
    _watchers: list[_Watch] = field(default_factory=list)
    _ready: list[bool] = field(default_factory=lambda: [False, False])
    _king_gate: int | None = None
    _held: list[Event | None] | None = None  # publishes held until the step is in the log
    _replaying: bool = False  # applying another process's step: it persisted it already

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        rules: Rules,
        names: tuple[str, str] = ("A", "B"),
        seed: int | None = None,
        first_dealer: int | None = None,
        *,
        rng: random.Random | None = None,
        day: str | None = None,
    ) -> Table:
        """A new match; the first dealer is drawn (RULES.md §2) unless given. Without a seed
        the cards come from the operating system's generator and no ``Seed`` tag is written.
        A shared table passes its own ``rng`` (keyed deals) and the ``day`` it began."""
        rng = rng if rng is not None else deal_rng(seed)
        tags = {"A": names[0], "B": names[1], "Date": day or date.today().isoformat()}
        if seed is not None:
            tags["Seed"] = str(seed)
        table = cls(Match(rules), names, rng, tags)
        if first_dealer is not None:
            table.match.first_dealer = first_dealer
            table._deal()
        else:
            table.draw = draw_first_dealer(rules, rng)
            if table.draw.dealer is not None:
                table.match.first_dealer = table.draw.dealer
                table._deal()
        return table

    @classmethod
    def from_record(cls, text: str, seed: int | None = None) -> Table:
        """Resume a saved game (ECN); raises EcnError on a broken record."""
        record = read_ecn(text)
        rng = deal_rng(seed)
        names = record.names
        table = cls(record.match, names, rng, dict(record.tags))
        if table.match.phase is Phase.TRICKS:
            table._open_king_gate()
        if not record.match.hands_log:
            table.draw = draw_first_dealer(record.match.rules, rng)
            if table.draw.dealer is not None:
                table.match.first_dealer = table.draw.dealer
                table._deal()
        return table

    # ------------------------------------------------------------------ reading

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def status(self) -> str:
        m = self.match
        if m.is_over:
            return "over"
        if not m.hands_log:
            return "choose" if self.draw and self.draw.chooser is not None else "draw"
        if m.needs_deal:
            return "between"
        return "play"

    @property
    def waiting_for(self) -> int | None:
        """Whose decision the table waits for (None when it waits for nobody or for both)."""
        status = self.status
        if status == "choose":
            assert self.draw is not None
            return self.draw.chooser
        if status == "between":
            if self._ready[0] != self._ready[1]:
                return 0 if not self._ready[0] else 1
            return None
        if self._king_gate is not None:
            return self._king_gate
        return self.match.to_move

    def view(self, seat: int | None) -> SeatView:
        view = seat_view(self.match, seat)
        return self.restrict(view) if self.restrict is not None and seat is not None else view

    def update(self, seat: int | None, event: Event | None = None) -> Update:
        public = event
        if event is not None and event.action.kind is Kind.DISCARD and event.seat != seat:
            public = Event(event.seat, Action(Kind.DISCARD, 0), event.count)
        said = spoken(event, self.names) if event is not None else None
        return Update(
            self.view(seat), public, said, self.status, self.waiting_for, self.draw,
            (self._ready[0], self._ready[1]),
        )

    def record(self) -> Record:
        return Record(self.match, dict(self.tags))

    def record_text(self) -> str:
        """The whole match as ECN (for saving: it holds every hidden card)."""
        return write_ecn(self.record())

    # ------------------------------------------------------------------ watching

    @property
    def ahead_of_log(self) -> bool:
        """Steps applied here that the shared log does not hold yet (the club's database
        is slow or away): nobody may be shown them, a screen opening now included."""
        return self.unwritten or bool(getattr(self.journal, "pending", 0))

    def watch(self, seat: int | None, callback: Listener) -> Callable[[], None]:
        """Subscribe a seat's screen (or a watcher, seat None); returns the unsubscribe.
        The first update comes at once, or once the log holds every step applied here."""
        w = _Watch(seat, callback, late=self.ahead_of_log)
        self._watchers.append(w)
        if not w.late:
            callback(self.update(seat))

        def unsubscribe() -> None:
            if w in self._watchers:
                self._watchers.remove(w)

        return unsubscribe

    def _publish(self, event: Event | None = None) -> None:
        if self._held is not None:
            self._held.append(event)
            return
        if self.persist is not None and not self._replaying:
            self.persist(self)
        ahead = None
        for w in list(self._watchers):
            if w.late:
                if ahead is None:
                    ahead = self.ahead_of_log
                if ahead:
                    continue
                w.late = False
                w.callback(self.update(w.seat))  # the whole table, as its first update
            else:
                w.callback(self.update(w.seat, event))

    # ------------------------------------------------------------------ the shared log

    def _step(self, entry: Entry) -> None:
        """Apply one step of this process; with a journal, write it to the shared log first.

        The step is applied here, then written as the log's next step; only then is anyone
        shown it. If another process wrote that step first, the table becomes the log's replay
        and the step is checked again against it: refused as usual if no longer legal. A
        deferred journal writes after this returns (the step is shown when it is written).
        """
        if self.closed is not None:
            raise TableError(self.closed)
        journal = self.journal
        if journal is None:
            self.apply_entry(entry)
            return
        deferred = bool(getattr(journal, "deferring", False))
        try:
            if self.unwritten:  # a step applied here was never written: back to the log
                journal.rebuild(self)
                self.unwritten = False
            if not deferred:
                journal.catch_up(self)
        except Exception as e:  # the log cannot be read: nothing was applied
            log.warning("table log not read: %s", e, exc_info=True)
            raise TableError(RECORDS_AWAY) from e
        for _attempt in range(5):
            self._held = []
            try:
                self.apply_entry(entry)
                held = self._held
            finally:
                self._held = None
            if not held:
                return  # nothing changed (e.g. asking twice for the next hand)
            if deferred:
                self.seq += 1
                cast(DeferredJournal, journal).write_later(self, entry, held)
                return
            try:
                appended = journal.append(self, entry)
            except Exception as e:  # the store cannot take it (full, locked, away)
                self._unapply(journal)
                log.warning("table step not written: %s", e, exc_info=True)
                raise TableError(RECORDS_AWAY) from e
            if appended:
                self.seq += 1
                for event in held:
                    self._publish(event)
                return
            journal.rebuild(self)
        raise TableError("the table is busy: try again")

    def _unapply(self, journal: Journal) -> None:
        """Undo a step applied here that the log did not take: the table becomes the log's
        replay again, now if the log can be read, else before its next step."""
        self.unwritten = True
        try:
            journal.rebuild(self)
        except Exception:  # (the next step, or the next catch-up, rebuilds it)
            return
        self.unwritten = False

    def confirm(self, held: list[Event | None], stored: bool) -> None:
        """A deferred step is in the log: show it. ``stored`` False: later steps of this
        process are still on their way, so the state here is theirs and is not stored."""
        self._replaying = not stored
        try:
            for event in held:
                self._publish(event)
        finally:
            self._replaying = False

    def retry(self, entry: Entry) -> None:
        """A deferred step that lost its race, checked again against the log's replay; its
        seat is told if it is refused now."""
        try:
            self._step(entry)
        except (IllegalAction, TableError) as e:
            self.refuse(entry[1], e)

    def refuse(self, seat: int, why: IllegalAction | TableError) -> None:
        """Tell ``seat``'s screens that a step it asked for is refused (``Update.refused``)."""
        for w in list(self._watchers):
            if w.seat == seat and not w.late:
                w.callback(replace(self.update(seat), refused=why))

    def apply_entry(self, entry: Entry) -> None:
        """One step by its log entry (this process's, or another's when catching up)."""
        verb, seat, arg = entry
        if verb == "submit":
            self._submit(seat, Action.parse(arg))
        elif verb == "pass_king":
            self._pass_king(seat)
        elif verb == "choose":
            self._choose_dealer(seat, int(arg))
        elif verb == "ready":
            self._ready_for_next(seat)
        elif verb == "forfeit":
            self._forfeit(seat, resigned=arg == RESIGNED)
        else:
            raise TableError(f"unknown step {verb!r} in the table's log")

    def replay_entry(self, entry: Entry) -> None:
        """Another process's step, read from the log: shown here, not persisted again."""
        self._replaying = True
        try:
            self.apply_entry(entry)
        finally:
            self._replaying = False
        self.seq += 1

    def reset_from(self, fresh: Table) -> None:
        """Take the state of ``fresh`` (the log's replay), keeping watchers and hooks, and
        show every watcher where the table really is."""
        self.match, self.rng, self.tags, self.draw = fresh.match, fresh.rng, fresh.tags, fresh.draw
        self._ready, self._king_gate, self.seq = fresh._ready, fresh._king_gate, fresh.seq
        self.unwritten = False  # (the log's state: a screen waiting for it is shown it)
        self._replaying = True
        try:
            self._publish()
        finally:
            self._replaying = False

    def read_log_again(self) -> None:
        """Asked by a screen waiting for its first update: a table whose step the store
        refused, and which could not read its log back then, reads it now if it can (else
        nobody might act again: the player to move is not shown the table)."""
        if self.unwritten and self.journal is not None:
            with contextlib.suppress(Exception):  # (still away: asked again later)
                self.journal.rebuild(self)

    # ------------------------------------------------------------------ acting

    def submit(self, seat: int, action: Action) -> None:
        """Apply a seat's action; IllegalAction (with a reason) leaves everything unchanged."""
        self._step(("submit", seat, str(action)))

    def _submit(self, seat: int, action: Action) -> None:
        m = self.match
        if (
            self._king_gate is not None
            and seat != self._king_gate
            and action.kind is Kind.CARD
            and m.phase is Phase.TRICKS
        ):
            raise IllegalAction(
                seat,
                f"wait: {self.names[self._king_gate]} may still announce the king "
                "before the first lead",
            )
        why = self.guard(m, seat, action) if self.guard is not None else None
        if why is not None:
            raise IllegalAction(seat, why.replace("{", "{{").replace("}", "}}"))
        was_playing = m.phase is Phase.TRICKS
        m.apply(action, seat)
        if action.kind is Kind.KING and self._king_gate == seat:
            self._king_gate = None
        if not was_playing and m.phase is Phase.TRICKS:
            self._open_king_gate()
        n = action.cards.bit_count() if action.kind is Kind.DISCARD else 0
        if m.needs_deal:
            self._ready = [False, False]
        self._publish(Event(seat, action, n))

    def pass_king(self, seat: int) -> None:
        """The seat will not announce the king now (lets the elder lead under opening_lead)."""
        self._step(("pass_king", seat, ""))

    def _pass_king(self, seat: int) -> None:
        if self._king_gate == seat:
            self._king_gate = None
            self._publish()

    def _open_king_gate(self) -> None:
        """Under ``opening_lead`` the dealer must be able to announce before the elder leads.

        Without this, a quick opponent could lead before a person has read the screen.
        """
        m = self.match
        self._king_gate = None
        if m.rules.king_deadline != "opening_lead" or m.played[0] or m.played[1]:
            return
        dealer = m.dealer
        if m.king_may_announce(dealer):
            self._king_gate = dealer

    def choose_dealer(self, seat: int, dealer: int) -> None:
        """The winner of the draw chooses who deals (``higher_chooses``, 001)."""
        self._step(("choose", seat, str(dealer)))

    def _choose_dealer(self, seat: int, dealer: int) -> None:
        if self.status != "choose" or self.draw is None or self.draw.chooser != seat:
            raise TableError(f"{self.names[seat]} does not choose the dealer now")
        if dealer not in (0, 1):
            raise TableError(f"no such seat {dealer!r}")
        self.match.first_dealer = dealer
        self.draw = FirstDealDraw(self.draw.cards, self.draw.redraws, dealer, seat)
        self._deal()

    def ready(self, seat: int) -> None:
        """The seat asks for the next hand; it is dealt when both have asked."""
        self._step(("ready", seat, ""))

    def _ready_for_next(self, seat: int) -> None:
        if self.status != "between":
            return
        if self._ready[seat]:
            return  # asked already: nothing changes
        self._ready[seat] = True
        if all(self._ready):
            self._deal()
        else:
            self._publish()

    def _deal(self) -> None:
        try:
            self.match.deal(self.rng)
        except DealError as e:  # pragma: no cover - the status checks prevent it
            raise TableError(str(e)) from None
        self._ready = [False, False]
        self._king_gate = None
        self._publish()

    def forfeit(self, seat: int) -> None:
        """``seat`` did not come back in time: the other seat wins the game in progress and
        the match. The record says so (``[Forfeit "B"]``, ECN.md), so the store, the archive,
        the ledger and every screen read one result; stored and shown like any change."""
        self._step(("forfeit", seat, ""))

    def resign(self, seat: int) -> None:
        """``seat`` gives the match up: as ``forfeit``, said so (``[Termination
        "resigned"]``). The same step as a forfeit, so a node of an older version reads it."""
        self._step(("forfeit", seat, RESIGNED))

    def _forfeit(self, seat: int, resigned: bool = False) -> None:
        try:
            self.match.forfeit(seat, resigned)
        except IllegalAction as e:
            raise TableError(str(e)) from None
        self.tags["Forfeit"] = "AB"[seat]
        how = "did not come back"
        if resigned:
            self.tags[TERMINATION], how = RESIGNED, RESIGNED
        self.tags["Result"] = f"{'AB'[1 - seat]} wins: {self.names[seat]} {how}"
        self._ready = [False, False]
        self._king_gate = None
        self._publish()

    def has_asked_next_hand(self, seat: int) -> bool:
        return self._ready[seat]

    def may_announce(self, seat: int) -> bool:
        return KING in self.match.legal_actions(seat)
