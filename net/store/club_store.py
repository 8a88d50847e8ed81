"""The server's memory: players, tables and every accepted action, in SQLite (WAL).

A table's whole match is stored as its ECN text and rewritten before any change is shown to
anyone, so a server killed mid-hand comes back with every table exactly where it was.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from net.store.postgres import PgConnection, connect, is_url, schema_ddl

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,              -- 'SHA256:...' key fingerprint
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created TEXT NOT NULL,
    last_seen TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    code TEXT PRIMARY KEY,
    options TEXT NOT NULL,            -- JSON: rules preset and overrides, opponent
    seat_a TEXT,                      -- player id, 'bot:LEVEL', or NULL (open)
    seat_b TEXT,
    name_a TEXT,
    name_b TEXT,
    ecn TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,             -- 'open', 'playing', 'finished', 'cancelled', 'closed'
    winner TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
CREATE TABLE IF NOT EXISTS rounds (   -- each game of a pool / French-rule table (its own match)
    record_id TEXT PRIMARY KEY,       -- 'CODE' for round 1, 'CODE.N' after
    code TEXT NOT NULL,
    number INTEGER NOT NULL,
    seat_a TEXT,
    seat_b TEXT,
    ecn TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,             -- 'playing', 'finished', 'abandoned'
    winner TEXT,
    updated TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rounds_code ON rounds(code);
CREATE TABLE IF NOT EXISTS table_state (   -- a rounds table's pool, waiting seat, round
    code TEXT PRIMARY KEY,
    state TEXT NOT NULL               -- JSON (net/club/pool_tables.py)
);
"""

SQLITE_ONLY = frozenset({12})  # upgrades PostgreSQL's store has in another form

# Upgrades of an existing file, run once each at start-up (``PRAGMA user_version`` says
# which are done). A new file gets SCHEMA, then every upgrade, like an old one.
SCHEMA_VERSION = 13
UPGRADES: dict[int, str] = {
    13: """
    -- the matches finished in the last day (ecarte status), found without reading every
    -- finished match (300 ms at 200,000)
    CREATE INDEX IF NOT EXISTS tables_status_updated ON tables(status, updated);
    CREATE INDEX IF NOT EXISTS rounds_status_updated ON rounds(status, updated);
    """,
    12: """
    -- a name is found case-blind (a first visit, a rename, ecarte players) through an index,
    -- not by reading every player (PostgreSQL's store has its unique one: schema_ddl)
    CREATE INDEX IF NOT EXISTS players_lower_name ON players(lower(name));
    """,
    11: """
    -- a player's matches (his record in the lobby, his list): read by seat, not through
    -- every finished match of the club
    CREATE INDEX IF NOT EXISTS tables_seat_a ON tables(seat_a);
    CREATE INDEX IF NOT EXISTS tables_seat_b ON tables(seat_b);
    CREATE INDEX IF NOT EXISTS rounds_seat_a ON rounds(seat_a);
    CREATE INDEX IF NOT EXISTS rounds_seat_b ON rounds(seat_b);
    """,
    10: """
    CREATE TABLE IF NOT EXISTS player_settings (   -- a player's settings (theme, cards, the
        player_id TEXT PRIMARY KEY,                 -- king), kept with his key for his next
        settings TEXT NOT NULL                      -- visits: JSON (ecarte_tui/ui/settings.py)
    );
    """,
    9: """
    CREATE TABLE IF NOT EXISTS renames (   -- the operator's renamings (ecarte players --rename),
        id INTEGER PRIMARY KEY AUTOINCREMENT,  -- for every process to show the new name in
        player_id TEXT NOT NULL,               -- its sessions and at its tables, kept a day
        name TEXT NOT NULL,
        at REAL NOT NULL                       -- epoch s
    );
    """,
    8: """
    CREATE TABLE IF NOT EXISTS new_names (   -- a name taken by a new key, for the bound per
        address TEXT NOT NULL,                -- address (net/club/name_quota.py): a hash of
        at REAL NOT NULL                      -- it, and when (epoch s), kept an hour
    );
    CREATE INDEX IF NOT EXISTS new_names_address ON new_names(address, at);
    CREATE INDEX IF NOT EXISTS new_names_at ON new_names(at);
    """,
    7: """
    CREATE TABLE IF NOT EXISTS serving (   -- each server process and how busy it is, for
        node TEXT PRIMARY KEY,              -- ``ecarte status`` (net/store/serving.py)
        host TEXT NOT NULL,
        machine TEXT NOT NULL,              -- /etc/machine-id: two hosts may share a name
        pid INTEGER NOT NULL,
        port INTEGER NOT NULL,
        version TEXT NOT NULL,
        started REAL NOT NULL,              -- epoch s
        said REAL NOT NULL,                 -- when it last said so (epoch s)
        sessions INTEGER NOT NULL,
        guests INTEGER NOT NULL,
        watching INTEGER NOT NULL
    );
    """,
    6: """
    CREATE TABLE IF NOT EXISTS club_files (   -- each machine's block list and notice, so that
        kind TEXT NOT NULL,                   -- a club on several machines has one of each
        machine TEXT NOT NULL,                -- (net/club_sync/operator_files.py)
        text TEXT NOT NULL,
        changed REAL NOT NULL,                -- the file's time (epoch s), 0: none at start
        seen REAL NOT NULL,                   -- when the machine last said it (epoch s)
        PRIMARY KEY (kind, machine)
    );
    """,
    5: """
    CREATE TABLE IF NOT EXISTS counters (   -- numbers handed out across the club's processes
        name TEXT PRIMARY KEY,               -- 'guest': the last guest-N (net/club/identity.py)
        value INTEGER NOT NULL
    );
    """,
    4: """
    CREATE TABLE IF NOT EXISTS rematches (   -- "play again" after a match (net/store/rematches.py)
        code TEXT PRIMARY KEY,               -- the finished table
        asker TEXT NOT NULL,                 -- the player who asked first
        next_code TEXT                       -- the new table, once the other said yes
    );
    """,
    3: """
    CREATE TABLE IF NOT EXISTS table_log (   -- every accepted step of a shared match, in order
                                              -- (code: the match's record id, CODE or CODE.N)
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        code TEXT NOT NULL,
        seq INTEGER NOT NULL,
        entry TEXT NOT NULL,              -- step 0: the genesis (net/club_sync/genesis.py),
                                          -- then JSON [verb, seat, argument] (table.py)
        node TEXT NOT NULL,
        at TEXT NOT NULL,
        UNIQUE (code, seq)                -- two writers of one step: exactly one wins
    );
    CREATE TABLE IF NOT EXISTS club_feed (   -- what other processes must reload: seats, status
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        code TEXT NOT NULL,
        what TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS presence (   -- sessions per seated player ('*': watchers)
        code TEXT NOT NULL,                  -- and process (seats move in a pool: people
        member TEXT NOT NULL,                -- are counted, not seat numbers)
        node TEXT NOT NULL,
        sessions INTEGER NOT NULL,
        PRIMARY KEY (code, member, node)
    );
    CREATE TABLE IF NOT EXISTS seat_drops (   -- since when a seated player is away (epoch s)
        code TEXT NOT NULL,
        member TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (code, member)
    );
    CREATE TABLE IF NOT EXISTS leases (   -- the one process running a table's bots and timers
        code TEXT PRIMARY KEY,
        node TEXT NOT NULL,
        expires REAL NOT NULL
    );
    CREATE TABLE IF NOT EXISTS nodes (   -- processes of the club and their last heartbeat
        node TEXT PRIMARY KEY,
        beat REAL NOT NULL
    );
    """,
    2: """
    CREATE TABLE IF NOT EXISTS galleries (   -- a live table's gallery (clubhouse/backers.py)
        code TEXT PRIMARY KEY,
        state TEXT NOT NULL,              -- JSON: whom each watcher backs, grants, sides
        updated TEXT NOT NULL
    );
    """,
}

_META = """
CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""  # the schema's version where there is no PRAGMA user_version (PostgreSQL)

# Finished matches: a table without rounds is one match; a rounds table's matches are its
# rounds (with the table's options).
_FINISHED_ANY = """
SELECT code, options, seat_a, seat_b, name_a, name_b, ecn, status, winner, updated,
       rowid AS k
FROM tables WHERE status = 'finished' AND code NOT IN (SELECT code FROM rounds)
UNION ALL
SELECT r.record_id, t.options, r.seat_a, r.seat_b, NULL, NULL, r.ecn, r.status, r.winner,
       r.updated, r.rowid
FROM rounds r JOIN tables t ON t.code = r.code WHERE r.status = 'finished'
"""
# Every finished match's id, seats and winner, without its record (``Club.finished_rounds``:
# read at every start, the records alone weigh 3 kB a match)
_FINISHED_IDS = """
SELECT code, seat_a, seat_b, winner FROM tables
WHERE status = 'finished' AND code NOT IN (SELECT code FROM rounds)
UNION ALL
SELECT r.record_id, r.seat_a, r.seat_b, r.winner FROM rounds r JOIN tables t ON t.code = r.code
WHERE r.status = 'finished'
"""

# One player's finished matches (parameters: the player four times), found by the seat
# indexes: without ``status || ''`` SQLite's planner takes the status index and reads every
# finished match of the club (70 ms with 50,000 of them, for each lobby's header); NOT EXISTS,
# not NOT IN, or PostgreSQL hashes every round's code for each read.
_FINISHED = """
SELECT code, options, seat_a, seat_b, name_a, name_b, ecn, status, winner, updated,
       rowid AS k
FROM tables WHERE (seat_a = ? OR seat_b = ?) AND (status || '') = 'finished'
  AND NOT EXISTS (SELECT 1 FROM rounds WHERE rounds.code = tables.code)
UNION ALL
SELECT r.record_id, t.options, r.seat_a, r.seat_b, NULL, NULL, r.ecn, r.status, r.winner,
       r.updated, r.rowid
FROM rounds r JOIN tables t ON t.code = r.code
WHERE (r.seat_a = ? OR r.seat_b = ?) AND (r.status || '') = 'finished'
"""

RENAMES_KEPT = 86400.0  # seconds: long after every process has read a renaming
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,15}$")


class StoreError(ValueError):
    """A request the store refuses, with a message for the player (e.g. a name taken)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str


# a table's row is changed only while it is not closed: the operator closes a table while
# the club runs (ecarte tables --close), and a move made before its process lets the table
# go must not bring the row back
STILL_OPEN = "status NOT IN ('closed', 'cancelled')"


@dataclass(frozen=True, slots=True)
class StoredTable:
    code: str
    options: dict[str, object]
    seats: tuple[str | None, str | None]
    names: tuple[str | None, str | None]
    ecn: str
    status: str
    winner: str | None


class Store:
    """One SQLite file; safe to call from the event loop (statements are short)."""

    def __init__(self, path: Path | str) -> None:
        """``path``: the SQLite file, or a ``postgresql://`` URL (net/postgres.py)."""
        self.path = path
        self._lock = threading.RLock()
        if is_url(path):
            self._db: sqlite3.Connection | PgConnection = connect(path)
            # a new PostgreSQL store is made at SCHEMA_VERSION from the start
            self._db.executescript(schema_ddl(
                SCHEMA + "".join(UPGRADES[v] for v in sorted(UPGRADES) if v not in SQLITE_ONLY)
                + _META,
                rowid_tables=("tables", "rounds")))
            self._db.execute("INSERT OR IGNORE INTO store_meta (key, value) VALUES "
                             "('schema', ?)", (str(SCHEMA_VERSION),))
            return
        assert isinstance(path, Path)
        path.parent.mkdir(parents=True, exist_ok=True)
        # several processes of one club share the file: a writer waits for another's short
        # transaction rather than failing (the timeout is SQLite's busy timeout)
        self._db = connect(path, timeout=10.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode survives a killed process (only a power cut can lose the tail).
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        self._upgrade()

    @property
    def is_postgres(self) -> bool:
        return isinstance(self._db, PgConnection)

    def _upgrade(self) -> None:
        """Bring an older file up to ``SCHEMA_VERSION`` (each step in one transaction)."""
        for target in range(2, SCHEMA_VERSION + 1):
            with self._tx() as db:  # read inside: another process may be upgrading too
                if int(db.execute("PRAGMA user_version").fetchone()[0]) >= target:
                    continue
                for statement in UPGRADES.get(target, "").split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {target}")

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection | PgConnection]:
        with self._lock:
            if self._db.in_transaction:  # inside another of this connection's transactions
                yield self._db
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # ------------------------------------------------------------------ players

    def player(self, player_id: str) -> Player | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, name FROM players WHERE id = ?", (player_id,)
            ).fetchone()
        return Player(*row) if row else None

    def name_taken(self, name: str) -> bool:
        with self._lock:
            row = self._db.execute(
                "SELECT 1 FROM players WHERE lower(name) = lower(?)", (name,)).fetchone()
        return row is not None

    def register(self, player_id: str, name: str) -> Player:
        """Create a player, or rename one; the name is unique on the server."""
        check_name(name)
        with self._tx() as db:
            row = db.execute(
                "SELECT id FROM players WHERE lower(name) = lower(?) AND id != ?", (name, player_id)
            ).fetchone()
            if row:
                raise StoreError(f"the name {name!r} is taken: choose another")
            db.execute(
                "INSERT INTO players (id, name, created, last_seen) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET name = excluded.name, "
                "last_seen = excluded.last_seen",
                (player_id, name, _now(), _now()),
            )
        return Player(player_id, name)

    def rename(self, player_id: str, name: str) -> None:
        """The operator's renaming of a player (``ecarte players --rename``): StoreError if
        another player has the name. The tables he sits at take the new name, and every
        process is told (``renames_after``); records keep the name they were played under."""
        check_name(name)
        now = time.time()
        with self._tx() as db:
            if db.execute("SELECT 1 FROM players WHERE lower(name) = lower(?) AND id != ?",
                          (name, player_id)).fetchone():
                raise StoreError(f"the name {name!r} is another player's")
            db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player_id))
            for side in ("a", "b"):
                db.execute(f"UPDATE tables SET name_{side} = ? WHERE seat_{side} = ? "
                           "AND status IN ('open', 'playing')", (name, player_id))
            db.execute("DELETE FROM renames WHERE at < ?", (now - RENAMES_KEPT,))
            db.execute("INSERT INTO renames (player_id, name, at) VALUES (?, ?, ?)",
                       (player_id, name, now))

    def renames_after(self, last: int | None) -> tuple[int, list[Player]]:
        """The renamings after id ``last`` (None: the latest id alone, for a process
        starting, which reads today's names), in order: the last id read and the players'
        new names."""
        with self._lock:
            if last is None:
                row = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM renames").fetchone()
                return int(row[0]), []
            rows = self._db.execute("SELECT id, player_id, name FROM renames WHERE id > ? "
                                    "ORDER BY id", (last,)).fetchall()
        if not rows:
            return last, []
        return int(rows[-1][0]), [Player(str(r[1]), str(r[2])) for r in rows]

    def settings_of(self, player_id: str) -> dict[str, object] | None:
        """The settings ``player_id`` kept at his last change (None: never changed)."""
        with self._lock:
            row = self._db.execute("SELECT settings FROM player_settings WHERE player_id = ?",
                                   (player_id,)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def keep_settings(self, player_id: str, settings: dict[str, object]) -> None:
        with self._tx() as db:
            db.execute("INSERT INTO player_settings (player_id, settings) VALUES (?, ?) "
                       "ON CONFLICT(player_id) DO UPDATE SET settings = excluded.settings",
                       (player_id, json.dumps(settings, sort_keys=True)))

    def new_names_since(self, address: str, since: float) -> int:
        """Names taken by new keys from ``address`` (its hash) after ``since`` (epoch s)."""
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM new_names WHERE address = ? AND at > ?",
                (address, since)).fetchone()
        return int(row[0])

    def take_new_name(self, address: str, at: float, since: float, limit: int) -> bool:
        """Count a name for ``address`` (its hash) at ``at`` if fewer than ``limit`` were
        taken after ``since``, in one transaction under the write lock (two processes
        cannot both take the last one); rows older than ``since`` go."""
        with self._tx() as db:
            db.execute("DELETE FROM new_names WHERE at <= ?", (since,))
            row = db.execute("SELECT COUNT(*) FROM new_names WHERE address = ? AND at > ?",
                             (address, since)).fetchone()
            if int(row[0]) >= limit:
                return False
            db.execute("INSERT INTO new_names (address, at) VALUES (?, ?)", (address, at))
        return True

    def new_name_returned(self, address: str, at: float) -> None:
        """The name counted at ``at`` was not taken after all (refused, or the store failed)."""
        with self._tx() as db:
            db.execute("DELETE FROM new_names WHERE address = ? AND at = ?", (address, at))

    def next_number(self, counter: str) -> int:
        """The next of a count shared by every process of the club (1 the first time)."""
        with self._tx() as db:
            row = db.execute(
                "INSERT INTO counters (name, value) VALUES (?, 1) ON CONFLICT(name) "
                "DO UPDATE SET value = counters.value + 1 RETURNING value", (counter,)
            ).fetchone()
        return int(row[0])

    def seen(self, player_id: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE players SET last_seen = ? WHERE id = ?", (_now(), player_id))

    # ------------------------------------------------------------------ tables

    def create_table(
        self,
        code: str,
        options: dict[str, object],
        seats: tuple[str | None, str | None],
        names: tuple[str | None, str | None],
        ecn: str,
        status: str,
    ) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO tables (code, options, seat_a, seat_b, name_a, name_b, ecn, status,"
                " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (code, json.dumps(options), *seats, *names, ecn, status, _now(), _now()),
            )

    def code_exists(self, code: str) -> bool:
        with self._lock:
            row = self._db.execute("SELECT 1 FROM tables WHERE code = ?", (code,)).fetchone()
        return row is not None

    def save_table(
        self,
        code: str,
        *,
        ecn: str | None = None,
        seats: tuple[str | None, str | None] | None = None,
        names: tuple[str | None, str | None] | None = None,
        status: str | None = None,
        winner: str | None = None,
    ) -> None:
        sets, args = ["updated = ?"], [_now()]
        if ecn is not None:
            sets.append("ecn = ?")
            args.append(ecn)
        if seats is not None:
            sets += ["seat_a = ?", "seat_b = ?"]
            args += list(seats)  # type: ignore[arg-type]
        if names is not None:
            sets += ["name_a = ?", "name_b = ?"]
            args += list(names)  # type: ignore[arg-type]
        if status is not None:
            sets.append("status = ?")
            args.append(status)
        if winner is not None:
            sets.append("winner = ?")
            args.append(winner)
        with self._tx() as db:  # (a table closed stays closed, its record as it was then)
            db.execute(f"UPDATE tables SET {', '.join(sets)} WHERE code = ? AND {STILL_OPEN}",
                       (*args, code))

    def closed_among(self, codes: list[str]) -> list[str]:
        """Those of ``codes`` whose tables are closed (a look every few seconds at the
        tables a process holds, by their keys)."""
        out: list[str] = []
        for i in range(0, len(codes), 500):
            chunk = codes[i:i + 500]
            marks = ", ".join("?" for _ in chunk)
            with self._lock:
                rows = self._db.execute(f"SELECT code FROM tables WHERE status = 'closed' "
                                        f"AND code IN ({marks})", tuple(chunk)).fetchall()
            out += [str(r[0]) for r in rows]
        return out

    def table(self, code: str) -> StoredTable | None:
        rows = self._tables("WHERE code = ?", (code,))
        return rows[0] if rows else None

    def tables(self, *statuses: str) -> list[StoredTable]:
        marks = ", ".join("?" for _ in statuses)
        return self._tables(f"WHERE status IN ({marks}) ORDER BY created", statuses)

    def finished_for(self, player_id: str, limit: int = 20) -> list[StoredTable]:
        """A player's finished matches, newest first: plain tables, and each round of a pool
        or French-rule table (its own match, ``code`` being the round's record id)."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT * FROM ({_FINISHED}) AS g ORDER BY updated DESC, k DESC LIMIT ?",
                (player_id,) * 4 + (limit,),
            ).fetchall()
        return [_stored(r[:9]) for r in rows]

    def finished_match(self, record_id: str) -> StoredTable | None:
        """One finished match by its record id (a table code, or a round's ``CODE.N``)."""
        with self._lock:
            row = self._db.execute(
                f"SELECT * FROM ({_FINISHED_ANY}) AS f WHERE code = ?", (record_id,)).fetchone()
        return _stored(row[:9]) if row else None

    def finished_ids(self) -> list[tuple[str, tuple[str | None, str | None], str | None]]:
        """Every finished match: (record id, seats, winner), its record left in the store."""
        with self._lock:
            rows = self._db.execute(_FINISHED_IDS).fetchall()
        return [(str(r[0]), (r[1], r[2]), r[3]) for r in rows]

    def record_for(self, player_id: str) -> tuple[int, int]:
        """(matches finished, matches won) by a player: their record in the lobby."""
        with self._lock:
            return record_of(self._db, player_id)

    def _tables(self, where: str, args: tuple[object, ...]) -> list[StoredTable]:
        with self._lock:
            rows = self._db.execute(
                "SELECT code, options, seat_a, seat_b, name_a, name_b, ecn, status, winner "
                f"FROM tables {where}",
                args,
            ).fetchall()
        return [_stored(r) for r in rows]


def record_of(db: sqlite3.Connection | PgConnection, player_id: str) -> tuple[int, int]:
    """(matches finished, matches won) by a player, on any connection to the store (the
    operator's commands read it without opening the store for writing)."""
    row = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(CASE WHEN winner = ? THEN 1 ELSE 0 END), 0) "
        f"FROM ({_FINISHED}) AS g",
        (player_id,) * 5,
    ).fetchone()
    return int(row[0]), int(row[1])


def _stored(r: tuple | sqlite3.Row) -> StoredTable:
    return StoredTable(r[0], json.loads(r[1]), (r[2], r[3]), (r[4], r[5]), r[6], r[7], r[8])


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One game of a rounds table (pool, French rule), stored as its own match."""

    record_id: str
    code: str
    number: int
    seats: tuple[str | None, str | None]
    ecn: str
    status: str
    winner: str | None


class RoundStore:
    """The rounds of pool and French-rule tables, on the store's connection (same file)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save_round(self, r: RoundRecord, state: dict[str, object] | None = None) -> None:
        """The round's record (and the table's state, in the same transaction)."""
        with self.store._tx() as db:
            db.execute(
                "INSERT INTO rounds (record_id, code, number, seat_a, seat_b, ecn, status, "
                "winner, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(record_id) DO "
                "UPDATE SET seat_a = excluded.seat_a, seat_b = excluded.seat_b, "
                "ecn = excluded.ecn, status = excluded.status, winner = excluded.winner, "
                "updated = excluded.updated",
                (r.record_id, r.code, r.number, *r.seats, r.ecn, r.status, r.winner, _now()),
            )
            if state is not None:
                self._put_state(db, r.code, state)

    def abandon(self, code: str) -> None:
        """The table closed: a round still being played there will never end."""
        with self.store._tx() as db:
            db.execute("UPDATE rounds SET status = 'abandoned', updated = ? "
                       "WHERE code = ? AND status = 'playing'", (_now(), code))

    def save_state(self, code: str, state: dict[str, object]) -> None:
        with self.store._tx() as db:
            self._put_state(db, code, state)

    @staticmethod
    def _put_state(db: sqlite3.Connection | PgConnection, code: str,
                   state: dict[str, object]) -> None:
        db.execute(
            "INSERT INTO table_state (code, state) VALUES (?, ?) "
            "ON CONFLICT(code) DO UPDATE SET state = excluded.state",
            (code, json.dumps(state)),
        )

    def state(self, code: str) -> dict[str, object] | None:
        with self.store._lock:
            row = self.store._db.execute(
                "SELECT state FROM table_state WHERE code = ?", (code,)).fetchone()
        return json.loads(row[0]) if row else None

    def round(self, record_id: str) -> RoundRecord | None:
        rows = self._rounds("WHERE record_id = ?", (record_id,))
        return rows[0] if rows else None

    def rounds_of(self, code: str) -> list[RoundRecord]:
        return self._rounds("WHERE code = ? ORDER BY number", (code,))

    def _rounds(self, where: str, args: tuple[object, ...]) -> list[RoundRecord]:
        with self.store._lock:
            rows = self.store._db.execute(
                "SELECT record_id, code, number, seat_a, seat_b, ecn, status, winner "
                f"FROM rounds {where}", args).fetchall()
        return [RoundRecord(r[0], r[1], int(r[2]), (r[3], r[4]), r[5], r[6], r[7])
                for r in rows]


def check_name(name: str) -> None:
    if not NAME_RE.match(name):
        raise StoreError(
            "a name is 2 to 16 letters, digits, '.', '_' or '-', starting with a letter or digit"
        )


class GalleryStore:
    """Each live table's gallery (whom watchers back, the players' grants, the game's
    sides), on the store's connection, so a restart brings it back as it was."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save(self, code: str, state: dict[str, object]) -> None:
        with self.store._tx() as db:
            db.execute(
                "INSERT INTO galleries (code, state, updated) VALUES (?, ?, ?) "
                "ON CONFLICT(code) DO UPDATE SET state = excluded.state, "
                "updated = excluded.updated",
                (code, json.dumps(state), _now()),
            )

    def load(self, code: str) -> dict[str, object] | None:
        with self.store._lock:
            row = self.store._db.execute(
                "SELECT state FROM galleries WHERE code = ?", (code,)).fetchone()
        return json.loads(row[0]) if row else None

    def forget(self, code: str) -> None:
        """The table is gone: so is its gallery."""
        with self.store._tx() as db:
            db.execute("DELETE FROM galleries WHERE code = ?", (code,))
