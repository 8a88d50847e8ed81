"""Two processes of one club (two ``Club``s on one SQLite file, each its own connection):
tables are logs in the store, each node shows the other's steps, and a race writes once."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from ecarte_tui.engine import KING, IllegalAction, Rules
from ecarte_tui.engine.deal import shuffled_deck
from ecarte_tui.engine.keyed_random import KeyedRandom, new_key
from ecarte_tui.table import Table
from net.club import Club, ClubError, LiveTable, TableOptions
from net.club_sync.node import ClubNode
from net.club_sync.sync_store import SyncStore
from net.store import Player, Store

ANNA = Player("SHA256:anna", "anna")
BRUNO = Player("SHA256:bruno", "bruno")
CARL, DORA = Player("SHA256:carl", "carl"), Player("SHA256:dora", "dora")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path) -> Path | str:
    """The club's store: an SQLite file, or a database on a real PostgreSQL."""
    if request.param == "sqlite":
        return tmp_path / "club.db"
    return request.getfixturevalue("postgres_url")


def make_node(path: Path | str, name: str, seed: int | None = 3, tmp: Path | None = None
              ) -> Club:
    store = Store(path)
    archive = (path.parent if isinstance(path, Path) else tmp or Path("/nonexistent")) / "archive"
    club = Club(store, archive_dir=archive,
                rng=random.Random(seed) if seed is not None else None, bot_delay=0)
    club.node = ClubNode(club, SyncStore(store), name=name)
    return club


def step(tables: dict[int, Table], rng: random.Random) -> tuple[str, int, str] | None:
    """One move of whoever the table waits for, made on that seat's own node."""
    t = tables[0]
    status = t.status
    if status == "over":
        return None
    if status == "choose":
        seat = t.draw.chooser  # type: ignore[union-attr]
        tables[seat].choose_dealer(seat, rng.randrange(2))
        return ("choose", seat, "")
    if status == "between":
        seat = 0 if not t.has_asked_next_hand(0) else 1
        tables[seat].ready(seat)
        return ("ready", seat, "")
    seat = t.waiting_for
    assert seat is not None
    legal = sorted(t.match.legal_actions(seat), key=str)
    if t._king_gate == seat and (KING not in legal or rng.random() < 0.5):
        tables[seat].pass_king(seat)
        return ("pass_king", seat, "")
    action = rng.choice(legal)
    tables[seat].submit(seat, action)
    return ("submit", seat, str(action))


def test_keyed_deals_repeat_with_the_key_and_differ_without_it():
    key = new_key()
    assert shuffled_deck(KeyedRandom(key)) == shuffled_deck(KeyedRandom(key))
    assert shuffled_deck(KeyedRandom(key)) != shuffled_deck(KeyedRandom(new_key()))
    r = KeyedRandom(key)
    assert all(0 <= r.random() < 1 for _ in range(100))


def test_a_match_between_two_nodes_is_one_match(db, tmp_path):
    one, two = make_node(db, "one", 11, tmp_path), make_node(db, "two", 12, tmp_path)
    lt1, _ = one.create(ANNA, TableOptions("classic", (("target", "3"),)))
    two.node.read_feed()  # type: ignore[union-attr]
    assert lt1.code in two.tables, "a table created on one node is listed on the other"
    lt2, seat = two.sit(lt1.code, BRUNO)
    assert seat == 1
    one.node.read_feed()  # type: ignore[union-attr]
    assert lt1.table is not None and lt2.table is not None, "both nodes show the game"
    assert lt1.table is not lt2.table

    seen: list[object] = []
    lt1.table.watch(0, lambda u: seen.append(u.status))
    rng = random.Random(5)
    steps = []
    while (s := step({0: lt1.table, 1: lt2.table}, rng)) is not None:
        steps.append(s)
        one.node.read_feed()  # type: ignore[union-attr]
        two.node.read_feed()  # type: ignore[union-attr]
        assert lt1.table.record_text() == lt2.table.record_text()
    assert lt1.finished and lt2.finished
    assert len(seen) > len(steps) // 2, "anna's screen on node one saw bruno's moves"
    stored = one.store.table(lt1.code)
    assert stored is not None and stored.status == "finished"
    assert stored.ecn == lt1.table.record_text()
    log = SyncStore(one.store).log_after(lt1.code, 0)
    assert [seq for seq, _ in log] == list(range(1, len(log) + 1)), "one step per number"

    # the same beginning and the same steps in one process give the same record
    alone = lt1.table.journal.replay()  # type: ignore[union-attr]
    assert alone.record_text() == lt1.table.record_text()


def test_a_code_given_the_moment_a_table_opens_on_another_node_finds_it(db, tmp_path):
    """The host reads his new table's code to the guest, whose node has not yet read the
    club's news: joining by that code must not say there is no such table."""
    one, two = make_node(db, "one", 11, tmp_path), make_node(db, "two", 12, tmp_path)
    lt1, _ = one.create(ANNA, TableOptions("classic", ()))
    assert lt1.code not in two.tables  # (nothing read yet: its poller is not running)
    lt2, seat = two.sit(lt1.code.lower(), BRUNO)
    assert (lt2.code, seat) == (lt1.code, 1)
    with pytest.raises(ClubError, match="there is no table 'ZZZZ'"):
        two.find("zzzz")
    assert "ZZZZ" not in two.tables


def test_two_writers_of_one_step_exactly_one_is_accepted(db, tmp_path):
    one, two = make_node(db, "one", 3, tmp_path), make_node(db, "two", 3, tmp_path)
    lt1, _ = one.create(ANNA, TableOptions())
    two.node.read_feed()  # type: ignore[union-attr]
    lt2, _ = two.sit(lt1.code, BRUNO)
    one.node.read_feed()  # type: ignore[union-attr]
    t1, t2 = lt1.table, lt2.table
    assert t1 is not None and t2 is not None
    while t1.status != "play" or t1.waiting_for is None:
        step({0: t1, 1: t1}, random.Random(1))
        two.node.read_feed()  # type: ignore[union-attr]
    seat = t1.waiting_for
    legal = sorted(t1.match.legal_actions(seat), key=str)
    assert len(legal) >= 2
    before = len(SyncStore(one.store).log_after(lt1.code, 0))

    # the same player acts on both nodes at once: node two reads the log before node one
    # writes, so it writes the same step number and loses
    journal2 = t2.journal
    assert journal2 is not None
    real_catch_up = journal2.catch_up
    journal2.catch_up = lambda table: None  # type: ignore[method-assign]
    t1.submit(seat, legal[0])
    with pytest.raises(IllegalAction):
        t2.submit(seat, legal[1])  # checked again against the log: no longer his turn
    journal2.catch_up = real_catch_up  # type: ignore[method-assign]

    log = SyncStore(one.store).log_after(lt1.code, 0)
    assert len(log) == before + 1, "exactly one of the two was written"
    assert log[-1][1] == ("submit", seat, str(legal[0]))
    assert t2.record_text() == t1.record_text(), "the loser shows the winner's step"


def test_a_seat_taken_on_another_node_is_refused(db, tmp_path):
    one, two = make_node(db, "one", 3, tmp_path), make_node(db, "two", 3, tmp_path)
    lt1, _ = one.create(ANNA, TableOptions())
    two.node.read_feed()  # type: ignore[union-attr]
    carl = Player("SHA256:carl", "carl")
    one.sit(lt1.code, BRUNO)  # node two has not heard yet
    with pytest.raises(Exception, match="full"):
        two.sit(lt1.code, carl)
    assert two.tables[lt1.code].seats[1].player_id == BRUNO.id


def test_presence_is_the_whole_clubs(db, tmp_path):
    one, two = make_node(db, "one", 3, tmp_path), make_node(db, "two", 3, tmp_path)
    lt1, _ = one.create(ANNA, TableOptions())
    two.node.read_feed()  # type: ignore[union-attr]
    lt2, _ = two.sit(lt1.code, BRUNO)
    one.connected(lt1, 0)
    two.connected(lt2, 1)
    two.node.read_feed()  # type: ignore[union-attr]
    assert lt2.seats[0].sessions == 1 and two.reconnect_left(lt2, 0) is None
    one.disconnected(lt1, 0)
    two.node.read_feed()  # type: ignore[union-attr]
    left = two.reconnect_left(lt2, 0)
    assert left is not None and left > 0, "node two counts anna's reconnection time"


def two_tables(db: Path | str, tmp_path: Path
               ) -> tuple[Club, Club, LiveTable, LiveTable, LiveTable]:
    """Nodes one and two; anna's table (bruno sits on node two) and carl's (open), both
    made on node one: (one, two, anna's, carl's, anna's as node two has it)."""
    one, two = make_node(db, "one", 3, tmp_path), make_node(db, "two", 4, tmp_path)
    first, _ = one.create(ANNA, TableOptions())
    second, _ = one.create(CARL, TableOptions())
    two.node.read_feed()  # type: ignore[union-attr]
    first2, _ = two.sit(first.code, BRUNO)
    return one, two, first, second, first2


def test_the_heartbeat_reads_every_tables_presence_at_once_and_alike(db, tmp_path):
    one, two, first, second, first2 = two_tables(db, tmp_path)
    second2, _ = two.sit(second.code, DORA)
    one.connected(first, 0)
    two.connected(first2, 1)
    two.connected(second2, 1)
    sync, since = two.node.sync, two.node.wall() - 4.0  # type: ignore[union-attr]
    everywhere = sync.presence_everywhere(since)
    assert everywhere == {code: sync.presence_of(code, since)
                          for code in (first.code, second.code) if sync.presence_of(code, since)}
    assert everywhere[first.code] == {ANNA.id: 1, BRUNO.id: 1}
    one.disconnected(first, 0)  # anna leaves: away on both nodes from the next beat
    two.node.beat()  # type: ignore[union-attr]
    assert [s.sessions for s in first2.seats] == [0, 1]
    assert [s.sessions for s in second2.seats] == [0, 1], "carl never came: no session"
    assert first2.seats[0].dropped_at is not None and second2.seats[1].dropped_at is None
    drops = sync.drops_everywhere()
    assert drops == {code: sync.drops_of(code) for code in (first.code, second.code)}
    assert set(drops[first.code]) == {ANNA.id} and set(drops[second.code]) == {CARL.id}


def test_a_table_replays_the_same_rules(db, tmp_path):
    rules = Rules.named("classic")
    one = make_node(db, "one", None, tmp_path)
    lt, _ = one.create(ANNA, TableOptions())
    one.sit(lt.code, BRUNO)
    assert lt.table is not None and "Seed" not in lt.table.tags, "keyed deals write no seed"
    assert lt.table.rules == rules


def test_a_pool_whose_players_sit_on_two_nodes_rotates_on_both(db, tmp_path):
    """Pool écarté (001, loser_out) with ann on node one, bob and cleo on node two: each
    round is its own log; the node in charge starts the next round, the other follows it."""
    from net.club import pool_tables
    from net.club.clubhouse.options import ClubOptions

    one, two = make_node(db, "one", 3, tmp_path), make_node(db, "two", 4, tmp_path)
    opts = TableOptions("classic", (("target", "2"),), club=ClubOptions(pool="loser_out"))
    lt1, _ = one.create(ANNA, opts)
    read = lambda: (one.node.read_feed(), two.node.read_feed())  # noqa: E731
    read()
    lt2, _ = two.sit(lt1.code, BRUNO)
    carl = Player("SHA256:carl", "carl")
    _, seat = two.sit(lt1.code, carl)
    assert seat == pool_tables.WAITING_SEAT
    read()
    assert lt1.rounds is not None and lt1.rounds.pool is not None, "node one has the pool"
    assert [s.player_id for s in lt1.seats] == [s.player_id for s in lt2.seats]
    rng = random.Random(2)
    for number in (1, 2, 3):
        assert lt1.rounds.number == number and lt2.rounds.number == number  # type: ignore[union-attr]
        t1, t2 = lt1.table, lt2.table
        assert t1 is not None and t2 is not None and t1 is not t2
        node_of = {ANNA.id: t1, BRUNO.id: t2, carl.id: t2}
        while t1.status != "over":
            seats = {i: node_of[lt1.seats[i].player_id] for i in (0, 1)}  # type: ignore[index]
            step(seats, rng)
            read()
        assert t2.status == "over"
        assert lt1.rounds.recorded == number and lt2.rounds.recorded == number  # type: ignore[union-attr]
        waiting = lt1.seats[pool_tables.WAITING_SEAT].player_id
        # the node in charge (the table's lease: node one, which created it) starts it
        assert one.node.holds(lt1.code) and not two.node.holds(lt1.code)  # type: ignore[union-attr]
        pool_tables.start_next(one, lt1)
        read()
        assert lt1.rounds.number == number + 1
        assert lt2.rounds.number == number + 1, "node two followed into the next round"
        assert waiting in (lt2.seats[0].player_id, lt2.seats[1].player_id)
        assert [s.player_id for s in lt1.seats] == [s.player_id for s in lt2.seats]
        assert lt2.table is not None and lt2.table.record_text() == lt1.table.record_text()  # type: ignore[union-attr]
    records = [one.store.table(lt1.code)]
    assert records[0] is not None
    finished = one.stored_round(f"{lt1.code}.2")
    assert finished is not None and finished.status == "finished"


def test_a_pools_third_player_leaves_every_nodes_heartbeat_whole(db, tmp_path, caplog):
    """A pool's third player waits in a third seat, which has no bot: the heartbeat of the
    node holding the pool read a bot there (IndexError) at every beat, so the tables after
    it in the beat kept stale presence and leases, and the log was no longer pruned. Found
    by random input on two nodes (tests/server/random_input.py)."""
    import logging

    from net.club.clubhouse.options import ClubOptions

    one, two = make_node(db, "one", 3, tmp_path), make_node(db, "two", 4, tmp_path)
    pool = TableOptions("classic", (("target", "2"),), club=ClubOptions(pool="loser_out"))
    lt1, _ = one.create(ANNA, pool)
    one.node.read_feed(), two.node.read_feed()  # type: ignore[union-attr]
    two.sit(lt1.code, BRUNO)
    two.sit(lt1.code, CARL)
    one.node.read_feed(), two.node.read_feed()  # type: ignore[union-attr]
    assert len(lt1.seats) == 3 and lt1.table is not None
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            one.node.beat()  # type: ignore[union-attr]
            two.node.beat()  # type: ignore[union-attr]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert one.node.holds(lt1.code) and not two.node.holds(lt1.code)  # type: ignore[union-attr]


async def test_a_bot_runs_where_the_lease_is_and_moves_when_its_node_dies(tmp_path):
    """A table against the server's bot: its bot plays on the node holding the table's
    lease; when that node stops beating (killed), another takes the lease and the bot."""
    import asyncio

    from net.club_sync import node as node_module

    db = tmp_path / "club.db"
    now = [1000.0]
    one = make_node(db, "one", 3, tmp_path)
    two = make_node(db, "two", 4, tmp_path)
    for club in (one, two):
        club.node.wall = lambda: now[0]  # type: ignore[union-attr]
        club.bot_factory = lambda level, seed: __import__(  # type: ignore[assignment]
            "ecarte_tui.bots", fromlist=["make_bot"]).make_bot("random", seed)
        club.node.beat()  # type: ignore[union-attr]
    lt1, _ = one.create(ANNA, TableOptions(opponent="bot:random"))
    two.node.read_feed()  # type: ignore[union-attr]
    lt2 = two.tables[lt1.code]
    assert lt1.bots[1] is not None and lt2.bots[1] is None, "the bot runs on node one only"
    t1, t2 = lt1.table, lt2.table
    assert t1 is not None and t2 is not None

    async def anna_moves_until(table: Table, steps: int) -> None:
        """anna (seat A) plays from ``table``'s node; only the bot moves seat B."""
        rng = random.Random(1)
        for _ in range(steps):
            for _ in range(400):
                await asyncio.sleep(0.005)
                one.node.read_feed()  # type: ignore[union-attr]
                two.node.read_feed()  # type: ignore[union-attr]
                if table.status == "over" or table.waiting_for == 0 or (
                        table.status == "between" and not table.has_asked_next_hand(0)):
                    break
            if table.status == "over":
                return
            if table.status == "between":
                table.ready(0)
            elif table.status == "choose":
                table.choose_dealer(0, rng.randrange(2))
            elif table.waiting_for == 0:
                legal = sorted(table.match.legal_actions(0), key=str)
                if not legal or (table._king_gate == 0 and KING not in legal):
                    table.pass_king(0)
                else:
                    table.submit(0, rng.choice(legal))

    await anna_moves_until(t1, 6)
    moved_before = t2.seq
    assert moved_before > 0
    # node one dies: no more heartbeats; node two's beat after the lease time takes over
    one.node.beat = lambda: None  # type: ignore[method-assign]
    for b in lt1.bots:
        if b is not None:
            b.stop()
    now[0] += node_module.LEASE_SECONDS + 1
    two.node.beat()  # type: ignore[union-attr]
    assert lt2.bots[1] is not None, "node two took the lease and runs the bot"
    await anna_moves_until(t2, 400)
    assert t2.status == "over", "the match ends against the bot now on node two"
    assert two.store.table(lt1.code).status == "finished"  # type: ignore[union-attr]


def test_a_store_that_cannot_be_opened_is_named_and_nothing_starts(tmp_path):
    import subprocess
    import sys

    url = f"postgresql://postgres@/nodb?host={tmp_path}/nowhere&port=1"
    out = subprocess.run(
        [sys.executable, "-m", "ecarte_tui", "serve", "--port", "0", "--data-dir",
         str(tmp_path / "data"), "--store", url], capture_output=True, text=True, timeout=60,
        cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 1
    assert out.stderr.startswith(f"ecarte serve: cannot open the club's store {url}: ")
    assert "Traceback" not in out.stderr and "listening" not in out.stdout


async def test_running_nodes_follow_each_others_moves_by_themselves(db, tmp_path):
    """The nodes' own tasks (NOTIFY on PostgreSQL, wake-ups and polling on SQLite) bring
    every move of one node to the other, with nobody asking them to read; a node is not
    woken by its own writes, and misses none of the other's."""
    import asyncio

    one, two = make_node(db, "one", 21, tmp_path), make_node(db, "two", 22, tmp_path)
    for club in (one, two):
        club.node.start()  # type: ignore[union-attr]
    try:
        lt1, _ = one.create(ANNA, TableOptions("classic", (("target", "2"),)))
        for _ in range(200):
            if lt1.code in two.tables:
                break
            await asyncio.sleep(0.01)
        lt2, _ = two.sit(lt1.code, BRUNO)
        for _ in range(200):
            if lt1.table is not None and lt2.table is not None:
                break
            await asyncio.sleep(0.01)
        t1, t2 = lt1.table, lt2.table
        assert t1 is not None and t2 is not None
        rng, moves = random.Random(5), 0
        while t1.status != "over":
            step({0: t1, 1: t2}, rng)
            moves += 1
            for _ in range(500):  # (5 s at most: a lost wake-up waits for the safety net)
                await asyncio.sleep(0.01)
                if t1.seq == t2.seq:
                    break
            assert t1.seq == t2.seq, f"move {moves} did not reach the other node"
        assert moves > 10 and t2.status == "over"
        assert t1.record_text() == t2.record_text()
    finally:
        for club in (one, two):
            await club.node.stop()  # type: ignore[union-attr]


def test_a_table_that_fails_to_follow_does_not_keep_the_others_from_being_shown(
        db, tmp_path, caplog):
    """The feed is read once for every table: a failure at one is logged, and the steps
    and seat changes of the others read with it are still shown (never read again)."""
    one, two, broken, fine, broken2 = two_tables(db, tmp_path)
    one.node.read_feed()  # type: ignore[union-attr]
    assert broken.table is not None and broken2.table is not None

    def fails(*_args: object) -> None:
        raise RuntimeError("a step that does not replay")

    broken2.table.journal.catch_up = fails  # type: ignore[union-attr, method-assign]
    assert step({0: broken.table, 1: broken.table}, random.Random(1)) is not None
    assert broken.table.seq > broken2.table.seq
    one.sit(fine.code, DORA)  # the other table's seats change in the same read
    two.node.read_feed()  # type: ignore[union-attr]
    assert "a step that does not replay" in caplog.text
    assert two.tables[fine.code].seats[1].player_id == DORA.id, "the other table was shown"


def test_what_the_database_going_away_kept_from_a_node_is_read_at_its_next_read(
        db, tmp_path, caplog):
    """The feed was read, then the database went away before a table's steps or seats were:
    those are read again once it answers (the feed would not bring them again), and the
    log says so in one line, not with a traceback."""
    one, two, broken, fine, broken2 = two_tables(db, tmp_path)
    one.node.read_feed()  # type: ignore[union-attr]
    assert broken.table is not None and broken2.table is not None
    journal = broken2.table.journal
    catch_up, refresh = journal.catch_up, two.refresh  # type: ignore[union-attr]

    def away(*_args: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")

    journal.catch_up = away  # type: ignore[union-attr, method-assign]
    two.refresh = away  # type: ignore[method-assign]
    assert step({0: broken.table, 1: broken.table}, random.Random(1)) is not None
    one.sit(fine.code, DORA)
    two.node.read_feed()  # type: ignore[union-attr]
    assert broken.table.seq > broken2.table.seq
    assert two.tables[fine.code].seats[1].player_id is None
    assert "Traceback" not in caplog.text
    assert f"reloading table {fine.code} failed: unable to open database file" in caplog.text

    journal.catch_up, two.refresh = catch_up, refresh  # type: ignore[union-attr, method-assign]
    assert not two.node.sync.changes_after(*two.node._ids)[3]  # (nothing new in the feed)
    two.node.read_feed()  # type: ignore[union-attr]
    assert broken2.table.record_text() == broken.table.record_text(), "the step is shown"
    assert two.tables[fine.code].seats[1].player_id == DORA.id, "and the seat"


def test_a_step_written_in_one_round_trip_is_refused_whole_when_taken(postgres_url):
    """PostgreSQL sends BEGIN, the lock, the step and COMMIT at once: a second writer of the
    step is refused, nothing of his is kept, and the connection goes on working."""
    import psycopg

    store = Store(postgres_url)
    sync = SyncStore(store)
    assert sync.append_step("RACE", 1, ("ready", 0, ""), "one")
    assert not sync.append_step("RACE", 1, ("ready", 1, ""), "two")
    assert sync.log_after("RACE", 0) == [(1, ("ready", 0, ""))]
    status = store._db._conn.info.transaction_status  # type: ignore[union-attr]
    assert status == psycopg.pq.TransactionStatus.IDLE, "no transaction left open"
    assert sync.append_step("RACE", 2, ("ready", 1, ""), "two")
    assert [seq for seq, _ in sync.log_after("RACE", 0)] == [1, 2]


def test_a_bot_speed_chosen_on_one_node_paces_the_bot_another_runs(db, tmp_path):
    """The player sits on node two, the table's lease (so its bot) is on node one: the bot
    speed he chose paces that bot, and still paces it when the lease moves to node two, or
    to a node that started after he chose it."""
    from net.club_sync import node as node_module

    now = [1000.0]
    one = make_node(db, "one", 3, tmp_path)
    two = make_node(db, "two", 4, tmp_path)
    for club in (one, two):
        club.bot_delay = 0.8  # the club's pace
        club.node.wall = lambda: now[0]  # type: ignore[union-attr]
        club.node.beat()  # type: ignore[union-attr]
    lt1, _ = one.create(ANNA, TableOptions(opponent="bot:random"))
    two.node.read_feed()  # type: ignore[union-attr]
    lt2 = two.tables[lt1.code]
    assert lt1.bots[1] is not None and lt2.bots[1] is None
    assert lt1.bots[1].delay == 0.8
    two.pace_bots(lt2, 0.0)  # "instant", chosen in his session on node two
    one.node.read_feed()  # type: ignore[union-attr]
    assert (lt1.bot_pace, lt1.bots[1].delay) == (0.0, 0.0)
    two.pace_bots(lt2, None)  # back to "normal": the club's pace
    one.node.read_feed()  # type: ignore[union-attr]
    assert (lt1.bot_pace, lt1.bots[1].delay) == (None, 0.8)
    two.pace_bots(lt2, 2.5)
    one.node.read_feed()  # type: ignore[union-attr]
    assert lt1.bots[1].delay == 2.5
    # node one dies; node two takes the lease and runs the bot at the player's pace
    one.node.beat = lambda: None  # type: ignore[method-assign]
    two_beat = two.node.beat  # type: ignore[union-attr]
    now[0] += node_module.LEASE_SECONDS + 1
    two.node.beat()  # type: ignore[union-attr]
    assert lt2.bots[1] is not None and lt2.bots[1].delay == 2.5
    # a node started since (a worker restarted) takes the lease, at its heartbeat or as it
    # restores the table: it asks, and is told
    for takes_at_restore in (False, True):
        three = make_node(db, "three", 5, tmp_path)
        three.bot_delay = 0.8
        three.node.wall = lambda: now[0]  # type: ignore[union-attr]
        two.node.beat = lambda: None  # type: ignore[method-assign]
        if takes_at_restore:
            now[0] += node_module.LEASE_SECONDS + 1
        assert three.restore() == []
        lt3 = three.tables[lt1.code]
        if not takes_at_restore:
            assert lt3.bots[1] is None  # (node two's lease still runs)
            now[0] += node_module.LEASE_SECONDS + 1
            three.node.beat()  # type: ignore[union-attr]
        assert lt3.bots[1] is not None and lt3.bots[1].delay == 0.8  # the club's, until told
        two.node.read_feed()  # type: ignore[union-attr]
        three.node.read_feed()  # type: ignore[union-attr]
        assert (lt3.bot_pace, lt3.bots[1].delay) == (2.5, 2.5)
        three.node.beat = lambda: None  # type: ignore[method-assign]  # (three goes too)
        now[0] += node_module.LEASE_SECONDS + 1
        two.node.beat = two_beat  # two takes the lease back before the next start
        two.node.beat()  # type: ignore[union-attr]
