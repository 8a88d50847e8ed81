"""The live tables of a server: who sits where, who dropped, and what the store must remember.

No game rules here (they are in the engine) and no sockets (they are in the SSH layer): the
club only seats players and bots at tables and keeps the store in step with every table.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ecarte_tui.bot_seat import BotSeat
from ecarte_tui.engine import EcnError, RulesError, progress
from ecarte_tui.table import Table
from net.club import play_again, pool_tables
from net.club.house_rules import bound_bot, table_guard, view_restriction
from net.club.model import (
    BOT_PREFIX,
    CODE_ALPHABET,
    ClubError,
    LiveTable,
    SeatState,
    TableOptions,
    broken_record,
)
from net.store.club_store import Player, RoundStore, Store, StoredTable
from net.store.postgres import first_line

log = logging.getLogger(__name__)
ABANDON_SECONDS = 3600.0  # a game its people left this long: the bot's, or closed (sweep)
MAX_GAMES_PER_PLAYER = 5  # tables one player may be seated at, unfinished, at once
TABLE_CLOSED = "this table is closed: it takes no more moves"
CLOSED_BY_OPERATOR = ("The club's operator closed this table without a result: nothing is "
                      "paid on it")
CLOSED_ELSEWHERE = "This table was closed without a result: nothing is paid on it"

if TYPE_CHECKING:
    from net.club.house import FinishedMatch, House, StoredRound
    from net.club_sync.node import ClubNode


def describe(options: TableOptions) -> str:
    """A table's rules in a log line: "classic, to 5", "nl, to 7, best of 3"."""
    rules = options.rules()
    text = f"{rules.preset}, to {rules.target}"
    if rules.games_to_win > 1:
        text += f", best of {2 * rules.games_to_win - 1}"
    return text


def _bot_factory(level: str, seed: int, effort: float = 1.0) -> object:
    from ecarte_tui.bots import make_bot  # imported late: bots are heavy and optional here

    return make_bot(level, seed, effort)


class Club:
    """All live tables of one server, kept in step with the store."""

    def __init__(
        self,
        store: Store,
        archive_dir: Path | None = None,
        reconnect_timeout: float = 300.0,
        bot_delay: float = 0.8,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        bot_factory: Callable[[str, int], object] | None = None,
        bot_effort: float = 1.0,
    ) -> None:
        self.store = store
        self.archive_dir = archive_dir
        self.reconnect_timeout = reconnect_timeout
        self.bot_delay = bot_delay
        self.clock = clock
        # Given a Random (tests, the bench), table codes and deals follow from its seed; else
        # everything comes from the operating system's generator: no deal can be predicted
        # from earlier ones where chips are staked, and no Seed tag is written.
        self.seeded = rng is not None and not isinstance(rng, random.SystemRandom)
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        # ``bot_effort`` scales the expert's search at this club's tables (``make_bot``)
        self.bot_factory = bot_factory or functools.partial(_bot_factory, effort=bot_effort)
        self.tables: dict[str, LiveTable] = {}
        # a table not brought back: why, and its seats (whose players are told)
        self.left_out: dict[str, tuple[str, tuple[str | None, str | None]]] = {}
        # a game its people left this long is the bot's, or closed (see ``sweep``)
        self.abandon_after = ABANDON_SECONDS
        # each table a player leaves lives an hour in memory, in every lobby and across
        # restarts: without a bound one session could open thousands (0: no bound)
        self.max_games = MAX_GAMES_PER_PLAYER
        self._unsaved: set[str] = set()  # tables whose last change the store refused
        self.lobby_listeners: list[Callable[[], None]] = []
        self.house: House | None = None  # purses, ratings, talk (set by the server)
        self.round_pause = pool_tables.ROUND_PAUSE  # pool / French rule: between two rounds
        self.offer_seconds = pool_tables.OFFER_SECONDS  # French rule: to take the seat
        # set when other processes share the club (net/club_sync): tables are logs in the store
        self.node: ClubNode | None = None
        # delivers another node's mail at one table (net/table_room.py sets it)
        self.on_mail: Callable[[LiveTable, dict[str, object]], None] | None = None

    # ------------------------------------------------------------------ lobby

    def open_tables(self) -> list[LiveTable]:
        """Tables to show in the lobby: waiting for a player, or being played."""
        return [t for t in self.tables.values() if not t.finished]

    def lobby_tables(self, player_id: str | None = None) -> list[LiveTable]:
        """What one player's lobby lists: live tables, and their own even if abandoned.

        A table whose players have all been away longer than the reconnection time is
        hidden from others (it is kept, and its players may still come back to it).
        """
        out = []
        for lt in self.open_tables():
            mine = player_id is not None and lt.seat_of(player_id) is not None
            if mine or self._someone_here(lt):
                out.append(lt)
        return out

    def _someone_here(self, lt: LiveTable) -> bool:
        return self._someone_seated(lt) or lt.watchers > 0

    def _someone_seated(self, lt: LiveTable) -> bool:
        """A person seated at the table is here, or may still come back to it."""
        for i, s in enumerate(lt.seats):
            if s.player_id is None or s.is_bot:
                continue
            left = self.reconnect_left(lt, i)
            if left is None or left > 0:
                return True
        return False

    def seats_of(self, player_id: str) -> list[tuple[LiveTable, int]]:
        """The unfinished tables where ``player_id`` has a seat (to take them back)."""
        out = []
        for lt in self.open_tables():
            seat = lt.seat_of(player_id)
            if seat is not None:
                out.append((lt, seat))
        return out

    def find(self, code: str) -> LiveTable:
        key = code.strip().upper()
        lt = self.tables.get(key)
        if lt is None and self.node is not None:
            # opened a moment ago by a player on another process or node, whose news this
            # one has not read yet (a busy process reads it a second later): read it now
            try:
                self.node.read_feed()
            except Exception:  # the store unreachable: the code is simply not known here
                log.exception("reading the club's news for table %s failed", key)
            lt = self.tables.get(key)
        if lt is None:
            raise ClubError(f"there is no table {key!r} on this server")
        return lt

    def _new_code(self) -> str:
        while True:
            code = "".join(self.rng.choice(CODE_ALPHABET) for _ in range(4))
            if code not in self.tables and not self.store.code_exists(code):
                return code

    def _lobby_changed(self) -> None:
        for cb in list(self.lobby_listeners):
            cb()

    lobby_changed = _lobby_changed

    # ------------------------------------------------------------------ tables

    def games_of(self, player_id: str) -> list[LiveTable]:
        """The unfinished tables ``player_id`` is seated at (waiting, playing, or away)."""
        return [lt for lt in self.tables.values()
                if not lt.finished and lt.seat_of(player_id) is not None]

    def _check_games(self, player: Player) -> None:
        """ClubError when ``player`` may not take one more seat."""
        games = self.games_of(player.id)
        if self.max_games and len(games) >= self.max_games:
            codes = ", ".join(sorted(lt.code for lt in games))
            raise ClubError(
                f"you already have {len(games)} unfinished games ({codes}), the most this "
                "club allows at once: finish one first, or resign it (R at its table)")

    def create(self, player: Player, options: TableOptions) -> tuple[LiveTable, int]:
        """A new table with ``player`` in seat A; against a bot it starts at once."""
        options.check()
        self._check_games(player)
        if self.house is not None:
            why = self.house.stake_refusal(player.id, options)
            if why is not None:
                raise ClubError(why)
        seats = [SeatState(player.id, player.name), SeatState()]
        if options.opponent.startswith(BOT_PREFIX):
            level = options.opponent[len(BOT_PREFIX):]
            seats[1] = SeatState(options.opponent, f"Bot ({level})")
        return self.open_table(self._new_code(), options, seats), 0

    def open_table(self, code: str, options: TableOptions, seats: list[SeatState]) -> LiveTable:
        """A new table with these seats (checked by the caller); it starts if both are
        taken."""
        lt = LiveTable(code, options, seats)
        if pool_tables.plays_in_rounds(options):
            pool_tables.setup(lt)
        self.store.create_table(  # (first: a store away leaves no table here either)
            code, options.to_json(), (seats[0].player_id, seats[1].player_id),
            (seats[0].name, seats[1].name), "", "open",
        )
        self.tables[code] = lt
        log.info("table %s opened by %s (%s)", code, seats[0].name, describe(options))
        if seats[1].player_id is not None:
            self._start(lt)
            log.info("table %s: %s vs %s", code, seats[0].name, seats[1].name)
        self._announce(lt.code, "created")
        self._lobby_changed()
        return lt

    new_code = _new_code

    def announce(self, code: str, what: str) -> None:
        """Tell the other nodes that table ``code`` changed (``what``: the feed's word)."""
        self._announce(code, what)

    def rematch(self, lt: LiveTable, player: Player) -> tuple[LiveTable, int] | None:
        """Play a finished match again (``net.club.play_again``): the new table and seat,
        or None while the other player has not said yes."""
        return play_again.ask(self, lt, player)

    def withdraw_rematch(self, lt: LiveTable, player: Player) -> None:
        play_again.withdraw(self, lt, player)

    def sit(self, code: str, player: Player) -> tuple[LiveTable, int]:
        """Take a free seat, or come back to one's own seat (the same key)."""
        lt = self.find(code)
        if lt.finished:
            raise ClubError(f"the game at table {lt.code} is over")
        own = lt.seat_of(player.id)
        if own is not None:
            return lt, own
        free = next((i for i, s in enumerate(lt.seats) if s.player_id is None), None)
        if free is None:
            raise ClubError(f"table {lt.code} is full: you may watch it instead")
        self._check_games(player)
        if self.house is not None:
            why = self.house.stake_refusal(player.id, lt.options)
            if why is not None:
                raise ClubError(why)
        if self.node is not None and free < 2 and not self.node.sync.claim_seat(
                lt.code, free, player.id, player.name):
            self.refresh(lt.code)  # another process seated someone there first
            if lt.finished:  # (or the table was cancelled or closed meanwhile)
                raise ClubError(f"table {lt.code} is no longer open")
            raise ClubError(f"table {lt.code} is full: you may watch it instead")
        if free == pool_tables.WAITING_SEAT:  # a pool's third player: he waits his turn
            pool_tables.third_sat(self, lt, SeatState(player.id, player.name))
            lt.notify()
            self._lobby_changed()
            return lt, free
        self._give_seat(lt, free, SeatState(player.id, player.name))
        self._start(lt)
        log.info("table %s: %s vs %s", lt.code, lt.seats[0].name, lt.seats[1].name)
        self._announce(lt.code, "seats")
        lt.notify()  # the player waiting at the table sees the game start
        self._lobby_changed()
        return lt, free

    def watch(self, code: str) -> LiveTable:
        """Count a watcher in (call ``unwatch`` when they leave)."""
        lt = self.find(code)
        if lt.table is None:
            raise ClubError(f"the game at table {lt.code} has not started: nothing to watch yet")
        lt.watchers += 1
        if self.node is not None:
            self.node.presence(lt, None, +1)
        lt.notify()
        self._lobby_changed()
        return lt

    def unwatch(self, lt: LiveTable) -> None:
        lt.watchers = max(0, lt.watchers - 1)
        if self.node is not None:
            self.node.presence(lt, None, -1)
        lt.notify()
        self._lobby_changed()

    def cancel(self, lt: LiveTable) -> None:
        """Close a table nobody has joined yet (its creator left it)."""
        if lt.table is not None or lt.finished:
            raise ClubError(f"the game at table {lt.code} has started")
        lt.finished = True
        self.tables.pop(lt.code, None)
        self.store.save_table(lt.code, status="cancelled")
        self._announce(lt.code, "status")
        if self.house is not None:
            self.house.abandon(lt)
            self.house.forget(lt.code)
        lt.notify()
        self._lobby_changed()

    def sweep(self) -> None:
        """Housekeeping: close open tables abandoned by their creator, forget finished ones.

        A finished table stays in memory while someone still looks at it; the store and the
        archive keep it for good. A table the store refused a change of is saved again.
        """
        for code in list(self._unsaved):
            lt = self.tables.get(code)
            if lt is None or lt.table is None:
                self._unsaved.discard(code)
            else:
                self._save_record(lt, lt.table)
        self.follow_closings()
        for lt in list(self.tables.values()):
            attached = any(s.sessions for s in lt.seats) or lt.watchers > 0
            if lt.finished and not attached:
                del self.tables[lt.code]
                if self.house is not None:
                    self.house.forget(lt.code)
                for b in lt.bots:
                    if b is not None:
                        b.stop()
            elif lt.table is None and not lt.finished and not attached:
                left = self.reconnect_left(lt, 0)
                if left is not None and left <= 0 and self._in_charge(lt):
                    self.cancel(lt)
            elif (bot := self._abandoned_to_bot(lt)) is not None and self._in_charge(lt):
                log.info("table %s: left by %s for %.0f s, won by the bot", lt.code,
                         lt.seats[1 - bot].name, self.abandon_after)
                self.take_win(lt, bot)
            elif self._abandoned_by_both(lt) and self._in_charge(lt):
                log.info("table %s: left by both players for %.0f s, closed", lt.code,
                         self.abandon_after)
                self._close_without_result(lt)
            elif lt.rounds is not None and not lt.finished and not attached:
                # all gone longer than the reconnection time
                if not self._someone_seated(lt) and self._in_charge(lt):
                    self.close_rounds_table(lt)

    def _abandoned_to_bot(self, lt: LiveTable) -> int | None:
        """The bot's seat at a game its player has left for ``abandon_after`` seconds: he
        may come back to it until then; after, it would stay in memory (and come back at
        every restart) for ever, a cost a stranger could multiply with keys."""
        if lt.finished or lt.table is None or lt.rounds is not None:
            return None
        for bot in (0, 1):
            human = lt.seats[1 - bot]
            if (lt.seats[bot].is_bot and not human.is_bot and human.dropped_at is not None
                    and self.clock() - human.dropped_at >= self.abandon_after):
                return bot
        return None

    def _abandoned_by_both(self, lt: LiveTable) -> bool:
        """A game between two people both away ``abandon_after`` seconds: either could
        have claimed the win; neither came back to."""
        if lt.finished or lt.table is None or lt.rounds is not None:
            return False
        away = [s.dropped_at for s in lt.seats if not s.is_bot]
        return len(away) == 2 and all(
            t is not None and self.clock() - t >= self.abandon_after for t in away)

    def close_rounds_table(self, lt: LiveTable) -> None:
        """A pool or French-rule table plays round after round and never ends by itself: it
        closes once all its people have left it for good. A round being played is abandoned
        (its stakes and wagers go back); the finished rounds stay in the records."""
        RoundStore(self.store).abandon(lt.code)
        self._close_without_result(lt)

    def _close_without_result(self, lt: LiveTable, stored: bool = False) -> None:
        """Closed, every chip in escrow back, let go here and on the other nodes; its
        record stays in the store as it was. ``stored``: closed in the store already."""
        lt.finished = True
        if lt.table is not None:
            lt.table.closed = lt.closed_why or TABLE_CLOSED
        if self.house is not None:
            self.house.abandon(lt)
            self.house.forget(lt.code)
        if not stored:
            self.store.save_table(lt.code, status="closed")
            self._announce(lt.code, "status")
        for b in lt.bots:
            if b is not None:
                b.stop()
        self.tables.pop(lt.code, None)
        lt.notify()
        self._lobby_changed()

    def follow_closings(self) -> None:
        """Let go the tables the operator closed in the store (``ecarte tables --close``,
        run anywhere while the club runs): the players there are told, chips a move put in
        escrow since go back, and the table takes no more moves."""
        held = [code for code, lt in self.tables.items() if not lt.finished]
        for code in self.store.closed_among(held + list(self.left_out)):
            self.left_out.pop(code, None)  # (its players are no longer told it was lost)
            lt = self.tables.get(code)
            if lt is not None and not lt.finished:
                self._let_go_closed(lt)

    def _let_go_closed(self, lt: LiveTable, why: str = "") -> None:
        """The store says the table is closed: it is let go here, its chips in escrow
        back (a game opened here since the closing too)."""
        log.info("table %s: closed %s", lt.code, "elsewhere" if why else "by the operator")
        lt.closed_why = why or CLOSED_BY_OPERATOR
        if lt.rounds is not None:
            RoundStore(self.store).abandon(lt.code)
        self._close_without_result(lt, stored=True)

    def _closed_at_its_end(self, lt: LiveTable, table: Table) -> bool:
        """A match (a pool's round) that ended in the seconds between the operator's
        closing and this process's sweep: not archived, rated or paid, as the closing says;
        the table is let go now."""
        if not table.match.is_over or lt.finished or not self.store.closed_among([lt.code]):
            return False
        self._let_go_closed(lt)
        return True

    def _start(self, lt: LiveTable, ecn: str = "", remote: bool = False) -> None:
        """The table's game; ``remote``: another node started it (and stored it)."""
        names = (lt.seats[0].name or "A", lt.seats[1].name or "B")
        seed = self.rng.getrandbits(64) if self.seeded else None  # None: the OS's shuffles
        if self.node is not None and (not ecn or self.node.sync.has_genesis(lt.record_id)):
            self._attach(lt, self.node.build(lt, seed), remote)  # the shared log's replay
            return
        if ecn:
            table = Table.from_record(ecn, seed=seed)
        else:
            rules = lt.options.rules()
            if lt.rounds is not None:
                rules = pool_tables.round_rules(rules)  # a round is one game
            table = Table.new(rules, names, seed=seed)
        self._attach(lt, table)

    def _attach(self, lt: LiveTable, table: Table, remote: bool = False) -> None:
        lt.table = table
        table.persist = lambda t, lt=lt: self._persist(lt, t)
        table.guard = table_guard(lt.options.club)  # jeux de règle (004)
        table.restrict = view_restriction(lt.options.club)
        if not remote:
            self._persist(lt, table)
        elif self.house is not None:
            self.house.table_moved(lt, table)
        for i, s in enumerate(lt.seats):
            if s.is_bot:
                self._seat_bot(lt, i, s.player_id[len(BOT_PREFIX):])  # type: ignore[index]
        _name_seats(lt)

    def _seat_bot(self, lt: LiveTable, seat: int, level: str) -> None:
        assert lt.table is not None
        if self.node is not None and not self.node.holds(lt.code):
            return  # the node holding the table's lease runs its bots
        bot = self.bot_factory(level, self.rng.getrandbits(32))
        bot = bound_bot(bot, lt.options.club)  # type: ignore[arg-type]
        pace = self.bot_delay if lt.bot_pace is None else lt.bot_pace
        runner = BotSeat(lt.table, seat, bot, delay=pace)
        lt.bots[seat] = runner
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # started by restore() before the loop runs; start_bots() follows
        runner.start()

    def pace_bots(self, lt: LiveTable, pace: float | None) -> None:
        """The bots at ``lt`` move ``pace`` seconds apart (None: the club's pace), as the
        player sitting there set his bot speed; the other nodes are told, since a bot runs
        where the table's lease is, which may be another process or move to one (one that
        starts later asks: ``_ask_pace``)."""
        if pace == lt.bot_pace:
            return
        self._set_pace(lt, pace)
        self.relay(lt.code, {"kind": "pace", "pace": pace})

    def _ask_pace(self, lt: LiveTable) -> None:
        """This node now runs the table's bots, and may have started after its player chose
        their pace: the nodes that know it say it again (``mail``)."""
        if self.node is not None and lt.bot_pace is None:
            self.relay(lt.code, {"kind": "pace?"})

    def _set_pace(self, lt: LiveTable, pace: float | None) -> None:
        lt.bot_pace = pace
        for runner in lt.bots:
            if runner is not None:
                runner.delay = self.bot_delay if pace is None else pace

    def start_bots(self) -> None:
        for lt in self.tables.values():
            for b in lt.bots:
                if b is not None and b._unwatch is None:
                    b.start()

    def _persist(self, lt: LiveTable, table: Table) -> None:
        """Written before the change is shown to anyone (Table.persist)."""
        self._note_progress(lt, table)
        if self._closed_at_its_end(lt, table):
            return
        if lt.rounds is not None:
            pool_tables.persist(self, lt, table)
            return
        m = table.match
        if self.node is not None and table.journal is not None:
            # (on PostgreSQL the record is written with the step: net/club_sync/journal.py)
            written = getattr(table.journal, "stored_seq", None) == table.seq
            # only the replay of the whole log may be stored: a node that replayed an older
            # step (it joined, or it is catching up) must not write over a newer record
            if not written and not self.node.sync.save_if_current(
                    lt.code, table.seq, *self.record_row(lt, table)):
                return
        else:
            self._save_record(lt, table)
        if self.house is not None:
            self.house.table_moved(lt, table)
        if m.is_over and not lt.finished:
            lt.finished = True
            self._archive(lt, table)
            self._lobby_changed()

    def _note_progress(self, lt: LiveTable, table: Table) -> None:
        """The lobbies' "hand 3 · 2–1" follows the game: they refill when a hand is dealt
        or scored (they showed "starting" for the whole of a match)."""
        now = progress(table.match)
        if now != lt.lobby_progress:
            lt.lobby_progress = now
            self._lobby_changed()

    def _save_record(self, lt: LiveTable, table: Table) -> None:
        """The table's row, for a process that holds the table alone: its state here is the
        truth and each save writes the whole record, so a save the store refuses (a full
        disk) is made with the next change or the next sweep; a table that stopped at a
        full disk would be worse than one saved a move late."""
        ecn, status, winner = self.record_row(lt, table)
        try:
            self.store.save_table(lt.code, ecn=ecn, status=status, winner=winner)
        except sqlite3.OperationalError as e:
            if lt.code not in self._unsaved:
                log.warning("table %s not saved (%s): saved again at its next change "
                            "and at each sweep", lt.code, e)
            self._unsaved.add(lt.code)
        else:
            self._unsaved.discard(lt.code)

    def record_row(self, lt: LiveTable, table: Table) -> tuple[str, str, str | None]:
        """The table as its row stores it: (ECN, status, the winner's player id or None)."""
        m = table.match
        winner = None
        if m.is_over and m.match_winner is not None:
            winner = lt.seats[m.match_winner].player_id
        return table.record_text(), "finished" if m.is_over else "playing", winner

    def _archive(self, lt: LiveTable, table: Table) -> None:
        if self.archive_dir is None:
            return
        # (every discard of the match is in its record: the operator's to read, no one else's)
        self.archive_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = self.archive_dir / f"{lt.record_id}.ecn"
        path.write_text(table.record_text(), encoding="utf-8")
        m = table.match
        won = lt.seats[m.match_winner].name if m.match_winner is not None else None
        log.info("table %s finished: %s (%s)", lt.record_id,
                 f"{won} won" if won else "no winner", path)

    # ------------------------------------------------------------------ presence

    def connected(self, lt: LiveTable, seat: int) -> None:
        s = lt.seats[seat]
        s.sessions += 1
        s.dropped_at = None
        if self.node is not None:
            self.node.presence(lt, seat, +1)
        lt.notify()
        self._lobby_changed()

    def disconnected(self, lt: LiveTable, seat: int) -> None:
        s = lt.seats[seat]
        s.sessions = max(0, s.sessions - 1)
        if s.sessions == 0 and not s.is_bot and not lt.finished:
            s.dropped_at = self.clock()
        if self.node is not None:
            self.node.presence(lt, seat, -1)
        lt.notify()
        self._lobby_changed()

    def gone_for_good(self, lt: LiveTable, seat: int) -> None:
        """A guest's session ended: no later session can be him, so nobody waits for him.
        A table still waiting for its opponent closes; in a game his time to come back is
        out at once (the opponent may take the win or call the bot; at a pool, take the
        round, now or when the pool pairs him again)."""
        s = lt.seats[seat]
        if lt.finished or s.sessions or s.player_id is None:
            return
        if lt.rounds is not None and lt.table is None:
            return  # a pool not begun: its seats keep the pool's rules
        if lt.table is None:
            if seat == 0 and lt.seats[1].player_id is None:
                self.cancel(lt)
            return
        s.dropped_at = self.clock() - self.reconnect_timeout
        if self.node is not None:
            self.node.sync.gone(lt.code, s.player_id,
                                self.node.wall() - self.reconnect_timeout)
            self._announce(lt.code, "presence")
        log.info("table %s: %s (a guest) left for good", lt.code, s.name)
        if seat <= 1 and lt.seats[1 - seat].is_bot and not lt.table.match.is_over:
            # nobody will ever sit there again: the bot wins by forfeit, and the table is
            # archived and let go (it stayed in memory, and in every restart, for ever)
            self.take_win(lt, 1 - seat)
            return
        lt.notify()
        self._lobby_changed()

    def _give_seat(self, lt: LiveTable, seat: int, state: SeatState) -> None:
        """Seat ``state`` at ``lt``'s ``seat`` (0 or 1): stored first, so that a store away
        leaves the seat as it was here too (the next try would find it taken, never begun)."""
        seats = [lt.seats[0], lt.seats[1]]
        seats[seat] = state
        self.store.save_table(lt.code, seats=(seats[0].player_id, seats[1].player_id),
                              names=(seats[0].name, seats[1].name))
        lt.seats[seat] = state

    def renamed(self, player: Player) -> bool:
        """The operator renamed ``player.id`` (``ecarte players --rename``, read from the
        store): his seats here, and the tables' screens, say the new name at once (the
        lobbies are told by the caller); whether he sits at any table of this process."""
        found = False
        for lt in list(self.tables.values()):
            seats = [s for s in lt.seats if s.player_id == player.id and s.name != player.name]
            for s in seats:
                s.name = player.name
            if seats:
                found = True
                _name_seats(lt)
                lt.notify()
        return found

    def reconnect_left(self, lt: LiveTable, seat: int) -> float | None:
        """Seconds left for a dropped player to come back, or None if connected."""
        s = lt.seats[seat]
        if s.dropped_at is None:
            return None
        return max(0.0, self.reconnect_timeout - (self.clock() - s.dropped_at))

    def resign(self, lt: LiveTable, seat: int) -> None:
        """``seat`` gives up the match (a pool's or French-rule table's round): the other
        seat wins it by forfeit at the score on the table, stored, settled and rated as
        any forfeit. Against the bot, the way to leave a lost game at once."""
        if lt.table is None:
            raise ClubError(f"the game at table {lt.code} has not started: leave it instead")
        name = lt.seats[seat].name
        if lt.rounds is not None:
            pool_tables.forfeit_round(self, lt, 1 - seat, resigned=True)
            log.info("table %s: %s resigned the round", lt.code, name)
            return
        if lt.finished or lt.table.match.is_over:
            raise ClubError("this game is over already")
        with _forfeit_undone_if_refused(lt, seat):
            lt.table.resign(seat)  # (as ``take_win``: stored, archived, settled, then shown)
        log.info("table %s: %s resigned", lt.code, name)
        lt.notify()
        self._lobby_changed()

    def take_win(self, lt: LiveTable, seat: int) -> None:
        """The opponent did not come back in time: ``seat`` wins by forfeit."""
        other = 1 - seat
        left = self.reconnect_left(lt, other)
        if left is None or left > 0:
            raise ClubError("the opponent may still come back")
        assert lt.table is not None
        if lt.rounds is not None:  # a pool or French-rule table goes on: only the round ends
            pool_tables.forfeit_round(self, lt, seat)
            return
        if lt.finished or lt.table.match.is_over:
            raise ClubError("this game is over already")
        # the record says it ([Forfeit]); stored, archived, settled and rated by _persist
        # like any match that ends, before anyone is shown it
        with _forfeit_undone_if_refused(lt, other):
            lt.table.forfeit(other)
        lt.notify()
        self._lobby_changed()

    def replace_with_bot(self, lt: LiveTable, seat: int, level: str = "expert") -> None:
        """The opponent did not come back in time: a bot takes the seat and the game goes on."""
        left = self.reconnect_left(lt, seat)
        if left is None or left > 0:
            raise ClubError("the player may still come back")
        if lt.rounds is not None:
            raise ClubError("a bot does not join a pool: take the game, and the pool goes on")
        self._give_seat(lt, seat, SeatState(f"{BOT_PREFIX}{level}", f"Bot ({level})"))
        self._seat_bot(lt, seat, level)
        _name_seats(lt)
        self._announce(lt.code, "seats")
        lt.notify()

    # ------------------------------------------------------------------ restart

    def restore(self) -> list[str]:
        """Bring back every unfinished table after a restart; returns the broken ones' codes."""
        return [st.code for st in self.store.tables("open", "playing")
                if not self._restore_or_leave_out(st)]

    def _restore_or_leave_out(self, st: StoredTable, away: bool = True,
                              remote: bool = False) -> bool:
        """Bring back one table; one that cannot be (its record cannot be read) stays out of
        the club (False): shown without its game, it waited for an opponent with both seats
        taken, and for ever. Its row stays as it is, for the operator (``left_out`` says
        why, and the server logs it)."""
        try:
            self._restore_one(st, away, remote)
        except (EcnError, RulesError, ValueError) as exc:
            why = broken_record(exc) if isinstance(exc, EcnError) else str(exc)
            self.left_out[st.code] = (why, st.seats)
            lt = self.tables.pop(st.code, None)
            for bot in lt.bots if lt is not None else ():
                if bot is not None:
                    bot.stop()
            return False
        return True

    def left_out_of(self, player_id: str) -> list[str]:
        """The codes of the tables ``player_id`` sat at that could not be brought back."""
        return [code for code, (_, seats) in self.left_out.items() if player_id in seats]

    def _restore_one(self, st: StoredTable, away: bool = True, remote: bool = False) -> None:
        options = TableOptions.from_json(st.options)
        seats = [SeatState(st.seats[i], st.names[i]) for i in (0, 1)]
        lt = LiveTable(st.code, options, seats)
        if pool_tables.plays_in_rounds(options):
            pool_tables.restore(self, lt)  # the round, the pool, the waiting seat
        now = self.clock()
        for s in seats:  # everybody is away until they reconnect
            if away and s.player_id is not None and not s.is_bot:
                s.dropped_at = now
        self.tables[st.code] = lt
        if st.status == "playing" or (seats[0].player_id and seats[1].player_id):
            self._start(lt, st.ecn, remote)
            if any(lt.bots):
                self._ask_pace(lt)
        if self.node is not None:
            self.node.refresh_presence(lt)

    # ------------------------------------------------------------------ other processes

    def _announce(self, code: str, what: str) -> None:
        if self.node is not None:
            self.node.announce(code, what)

    def _in_charge(self, lt: LiveTable) -> bool:
        """Housekeeping that changes the store is done by one process: the lease holder."""
        return self.node is None or self.node.holds(lt.code)

    def remote_moved(self, lt: LiveTable) -> None:
        """Steps written by another process were applied here: a match it ended is over
        here too (it stored, archived and settled it)."""
        table = lt.table
        if table is None or self._closed_at_its_end(lt, table):
            return
        if self.house is not None:  # wagers open and close here too; settled once, anywhere
            self.house.table_moved(lt, table)
        self._note_progress(lt, table)
        if lt.rounds is not None:
            return  # a round's end: the rounds' state follows from the node that wrote it
        if table.match.is_over and not lt.finished:
            lt.finished = True
            if table.tags.get("Forfeit"):
                lt.forfeit = "AB".index(table.tags["Forfeit"])
            lt.notify()
            self._lobby_changed()

    def refresh(self, code: str) -> None:
        """Another process changed the table's row (created, seated, closed): follow it."""
        st = self.store.table(code)
        if st is None:
            return
        lt = self.tables.get(code)
        if lt is None:
            if st.status in ("open", "playing"):
                if not self._restore_or_leave_out(st, away=False, remote=True):
                    log.error("table %s could not be followed: %s", code,
                              self.left_out[code][0])
                self._lobby_changed()
            return
        if st.status == "closed":
            if not lt.finished:  # (by the operator, or by the node that held it)
                self._let_go_closed(lt, CLOSED_ELSEWHERE)
            return
        if st.status == "cancelled":
            if not lt.finished:
                lt.finished = True
                if lt.table is not None:
                    lt.table.closed = TABLE_CLOSED
                if self.house is not None:  # (a game opened here as it was cancelled)
                    self.house.abandon(lt)
                    self.house.forget(lt.code)
                for b in lt.bots:
                    if b is not None:
                        b.stop()
                self.tables.pop(code, None)
                lt.notify()
                self._lobby_changed()
            return
        if lt.rounds is not None:
            self._follow_rounds(lt, st)
            return
        if lt.finished:
            play_again.follow(self, lt)  # the other player asked to play again, or said yes
        changed = False
        for i in (0, 1):
            s = lt.seats[i]
            if s.player_id != st.seats[i]:
                lt.seats[i] = SeatState(st.seats[i], st.names[i])
                changed = True
                if lt.seats[i].is_bot and lt.table is not None and lt.bots[i] is None:
                    self._seat_bot(lt, i, lt.seats[i].player_id[len(BOT_PREFIX):])  # type: ignore[index]
                    _name_seats(lt)
        if lt.table is None and all(s.player_id for s in lt.seats):
            self._start(lt, remote=True)
            changed = True
        if self.node is not None:
            self.node.refresh_presence(lt)
        lt.notify()
        if changed:
            self._lobby_changed()

    def relay(self, code: str, mail: dict[str, object]) -> None:
        """Send ``mail`` to the other nodes (nothing without any). Talk and the gallery's
        news, already shown here: while the store is away the other nodes miss it, and
        the session that sent it goes on."""
        if self.node is None:
            return
        try:
            self.node.relay(code, mail)
        except sqlite3.OperationalError as e:
            log.warning("table %s: a %s not passed to the other nodes (the club's database: "
                        "%s)", code, mail.get("kind", "note"), first_line(e))

    def mail(self, code: str, mail: dict[str, object]) -> None:
        """Another node's delivery for a table shown here."""
        lt = self.tables.get(code)
        if lt is None:
            return
        if mail.get("kind") == "house" and self.house is not None:
            self.house.heard(code, mail)
        elif mail.get("kind") == "pace":
            pace = mail.get("pace")
            self._set_pace(lt, float(pace) if isinstance(pace, int | float) else None)
        elif mail.get("kind") == "pace?":
            if lt.bot_pace is not None:  # (a node that started after it was set asks)
                self.relay(code, {"kind": "pace", "pace": lt.bot_pace})
        elif self.on_mail is not None:
            self.on_mail(lt, mail)

    def _follow_rounds(self, lt: LiveTable, st: StoredTable) -> None:
        """A pool or French-rule table moved on elsewhere: its seats, its round."""
        seats = [(st.seats[i], st.names[i]) for i in (0, 1)]
        if pool_tables.follow(self, lt, seats) and all(s.player_id for s in lt.seats[:2]):
            for b in lt.bots:
                if b is not None:
                    b.stop()
            lt.bots = [None, None]
            self._start(lt, remote=True)  # the new round, from its own log
        if self.node is not None:
            self.node.refresh_presence(lt)
        if pool_tables.round_over(lt):
            pool_tables.schedule_next(self, lt)
        lt.notify()
        self._lobby_changed()

    def lease_changed(self, lt: LiveTable, held: bool) -> None:
        """The node's heartbeat: run the table's bots here if its lease is ours, else not;
        a rounds table whose holder died has its next round started here."""
        if lt.table is None:
            return
        if held and pool_tables.round_over(lt):
            pool_tables.schedule_next(self, lt)
        for i, runner in enumerate(lt.bots):  # (the two playing seats: a pool's third waits)
            s = lt.seats[i]
            if held and s.is_bot and runner is None:
                self._seat_bot(lt, i, s.player_id[len(BOT_PREFIX):])  # type: ignore[index]
                self._ask_pace(lt)
            elif not held and runner is not None:
                runner.stop()
                lt.bots[i] = None

    # ------------------------------------------------------------------ for the house

    def stored_round(self, record_id: str) -> StoredRound | None:
        """What the store holds of the match with this record id (``House.recover``)."""
        from net.club.house import StoredRound  # the house imports the club's types

        r = pool_tables.stored_round(self, record_id)  # a round of a pool / French table
        if r is not None:
            return StoredRound(r.ecn, r.status, r.seats, r.winner)
        st = self.store.table(record_id)
        if st is None:
            return None

        return StoredRound(st.ecn, st.status, st.seats, st.winner)

    def finished_rounds(self) -> list[tuple[str, FinishedMatch]]:
        """Every finished match the store holds, by record id (``House.rate_finished``),
        its record read only when asked for: a long-run club has tens of thousands."""
        from net.club.house import FinishedMatch  # (the house imports the club's types)

        def ecn_of(record_id: str) -> str:
            st = self.store.finished_match(record_id)
            return st.ecn if st is not None else ""

        return [(record_id, FinishedMatch(seats, winner, ecn_of))
                for record_id, seats, winner in self.store.finished_ids()]


def _name_seats(lt: LiveTable) -> None:
    """The screens and the log say who plays now under the name he has now: a bot that
    took a gone player's seat, a player the operator renamed since he sat down (the
    record's tags keep who sat down, under the name he had)."""
    table = lt.table
    if table is None:
        return
    names = list(table.names)
    for i, s in enumerate(lt.seats[:2]):  # (a pool's seats turn between rounds, with them)
        if s.name:
            names[i] = s.name
    table.names = (names[0], names[1])


@contextlib.contextmanager
def _forfeit_undone_if_refused(lt: LiveTable, seat: int) -> Iterator[None]:
    """``seat`` forfeits while the table takes the step (its record is saved from
    ``lt.forfeit``); if the table refuses it (its log away), the table is as it was."""
    before, lt.forfeit = lt.forfeit, seat
    try:
        yield
    except BaseException:
        lt.forfeit = before
        raise
