"""Random input from SSH clients at one club: the way strangers find what tests miss.

Two keyed players at one table, or a new key still at the name screen, or three players at
a table with club options drawn at random (a pool, the French rule, a stake), and a guest;
each sending keys (most often those that move a game on, so that matches end), mouse
clicks and window sizes, a few cells to 200 columns, a key now and then twice in one read,
and now and then cut off and coming back; now and then a node stops (as for an upgrade)
and starts again, its clients coming back to any node (and, with ``--closings``, the
operator closes a table now and then). A run fails when a served app
fails, a client is shown the session's "internal error", or the club logs an error; and,
once the club has stopped, when its store breaks an invariant (``club_invariants``: chips
conserved, every record readable and naming its winner, every finished game settled) or
the club started again on it does not bring back every unfinished table. It found a
terminal of 10×3 ending a game, ctrl+q on the name screen leading a nameless player to the
lobby, eight edge cases of Textual, a hint ending a session, on two nodes a pool's third
player breaking every heartbeat, and, by starting the club again, a bot called into an
absent player's seat leaving his game's stake in escrow and its table lost at a restart.

The test suite runs a short seed of each, and one on two nodes over PostgreSQL; a longer
hunt, by hand (``--nodes 2``: two processes' worth of club in one, on SQLite or on the
PostgreSQL of ``--store URL``, a database of its own for each seed)::

    python tests/server/random_input.py --seeds 0-40 --steps 600 [--nodes 2 --store URL]

The keys are seeded; the timing is not (the club answers when it answers), so a seed that
failed once may pass the next time: the report gives the last inputs, and the screens.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1], HERE.parent, HERE.parent / "net", HERE):  # (run by hand)
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import asyncssh  # noqa: E402
import club_invariants  # noqa: E402
from server_harness import (  # noqa: E402
    Seat,
    club_server,
    first_visit,
    generous_limits,
    new_key,
    open_table,
)
from ssh_harness import served_output  # noqa: E402

from net.club import TableOptions  # noqa: E402
from net.club.clubhouse.options import ClubOptions  # noqa: E402
from net.game_server import GameServer  # noqa: E402
from net.store import Player  # noqa: E402

GAME_KEYS = [b"1", b"2", b"3", b"4", b"5", b"\r", b"p", b"c", b"a", b"r", b"d", b"o", b" ",
             b"\x1b[C", b"\x1b[D", b"h", b"k", b"t", b"$", b"m", b"/hi there\r", b"s", b"y",
             b"n", b"g", b"e", b"x"]
OTHER_KEYS = [b"\x1b", b"?", b"\t", b"\x1b[Z", b"\x1b[A", b"\x1b[B", b"\x10", b"\x11", b"w",
              b"j", b"l", b"b", b"q", b"\x1b[5~", b"\x1b[6~", b"\x7f", b"0", b"9", b"f",
              b"\x1b[200~pasted\x1b[201~", b"\xc3\x28", b"\x1b[<64;5;5M", b"abcd\r"]
PLAY_KEYS = [b"1", b"2", b"3", b"4", b"5", b"\r", b"\r", b"p", b"a", b"n", b" ", b"d", b"k",
             b"y", b"\x1b", b"$"]
PLAY = 0.8
"""The share of inputs drawn from the keys that move a game on (a card, Enter, "We play!",
accept, next hand, Escape out of a box, a wager): without them a match seldom ends within a
run, and a match's end is where records are written, stakes settled and players rated
(``club_invariants``)."""
SIZES = [(80, 24), (100, 30), (120, 40), (60, 20), (80, 34), (10, 3), (200, 2), (200, 60)]
FAILED = b"internal error"
DROPS = 0.01
"""The chance, after each input, that its client's connection is cut and comes back (to any
node, with the same key)."""
RESTARTS = 0.002
"""The chance, after each input, that a node stops, as for an upgrade (its sessions told
why), and starts again on the same store: its clients come back to any node, and find
their tables as the store kept them."""
CLOSINGS = 0.0
"""The chance, after each input, that the operator closes one of the club's unfinished
tables (``ecarte tables --close``), while it runs: its players are told and go on
elsewhere; its chips go back (the store's checks at the end)."""
TWICE = 0.05
"""The chance that a key is sent twice in one write, as a key held down is: the second
reaches a dialog after the first has acted and closed it."""


@dataclass
class Run:
    """What one seed did: the inputs (who, what) and, if it failed, why and the screens."""

    seed: int
    inputs: list[tuple[str, object]] = field(default_factory=list)
    failure: str | None = None
    screens: dict[str, str] = field(default_factory=dict)
    reconnects: int = 0
    finished: tuple[int, int] = (0, 0)  # matches finished, games settled (what was checked)

    def report(self) -> str:
        if self.failure is None:
            matches, games = self.finished
            return (f"seed {self.seed}: ok ({len(self.inputs)} inputs, {self.reconnects} "
                    f"reconnects; matches finished: {matches}, games settled: {games})")
        shown = "\n".join(f"---- {name}\n{text}" for name, text in self.screens.items())
        return (f"seed {self.seed}: {self.failure}\nlast inputs: {self.inputs[-25:]}\n{shown}")


class _Errors(logging.Handler):
    """The errors the club logs (a heartbeat that failed, a table not followed): no app
    fails, yet the club is broken."""

    def __init__(self, into: list[str]) -> None:
        super().__init__(logging.ERROR)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        self.into.append(f"{record.name}: {record.getMessage()}")


async def _seat_everyone(servers: list[GameServer], rng: random.Random, seed: int
                         ) -> tuple[list[Seat], list[asyncssh.SSHKey | None]]:
    """Three ways to begin, by seed: anna opens a table in the lobby and ben joins it; ben
    stays at the name screen; or ann, bob and cleo at a table with club options drawn at
    random (a pool, the French rule, a stake, jeux de règle), cleo waiting or watching.
    A guest too. With several nodes, the clients are spread over them. Returns the seats
    and the key each connects with again."""
    ports = [server.port for server in servers]

    def port(i: int) -> int:
        return ports[i % len(ports)]

    if seed % 3 == 2:
        server = servers[0]
        keys = [new_key() for _ in range(3)]
        players = [server.store.register(k.get_fingerprint("sha256"), name)
                   for k, name in zip(keys, ("ann", "bob", "cleo"), strict=True)]
        pool = rng.choice([None, None, "loser_out", "two_in_row"])
        club = ClubOptions(pool=pool, stake=rng.choice([0, 0, 5]),
                           french_rule=pool is None and rng.random() < 0.5,
                           backers_see_hand=rng.random() < 0.7,
                           jeux_de_regle=rng.random() < 0.3)
        rules = rng.choice(["classic", "britannica", "nl", "regles"])
        target = rng.choice("123")  # (short games: more of them end, and are settled)
        lt, _ = server.club.create(Player(players[0].id, players[0].name),
                                   TableOptions(rules, (("target", target),), club=club))
        seats = [await Seat.connect(port(0), "ann", key=keys[0])]
        await seats[0].wait_for("Waiting for an opponent")
        for i, (name, key) in enumerate(zip(("bob", "cleo"), keys[1:], strict=True), 1):
            seats.append(await Seat.connect(port(i), name, key=key, command=f"join {lt.code}"))
            await seats[-1].wait_for("Écarté ·")
        seats.append(await Seat.connect(port(3), "gus", command=f"watch {lt.code}"))
        return seats, [*keys, None]
    keys2 = {"anna": new_key(), "ben": new_key()}
    anna = await first_visit(port(0), "anna", keys2["anna"], seed=1)
    if seed % 3 == 0:
        code = await open_table(anna)
        ben = await first_visit(port(1), "ben", keys2["ben"], seed=2, command=f"join {code}")
    else:
        ben = await Seat.connect(port(1), "ben", key=keys2["ben"])
    gus = await Seat.connect(port(2), "gus")
    return [anna, ben, gus], [keys2["anna"], keys2["ben"], None]


async def one_seed(data_dir: Path, seed: int, steps: int, nodes: int = 1,
                   store: str | None = None, play: float = PLAY,
                   restarts: float = RESTARTS, closings: float = CLOSINGS) -> Run:
    """Play ``steps`` random inputs against a new club in ``data_dir``: one process, or
    ``nodes`` serving one club (SQLite in ``data_dir``, or the PostgreSQL of ``store``), the
    clients spread over them and coming back to any, as behind HAProxy."""
    rng = random.Random(seed)
    run = Run(seed)
    config: dict[str, object] = {"limits": generous_limits(), "bot_delay": 0.01}
    if nodes > 1 or store is not None:
        config.update(shared=nodes > 1, store=store)
    with served_output() as failures, contextlib.ExitStack() as cleanup:
        errors = _Errors(failures)  # (what the club logs as an error is a failure too)
        logging.getLogger().addHandler(errors)
        cleanup.callback(logging.getLogger().removeHandler, errors)
        async with contextlib.AsyncExitStack() as stack:
            nodes_ = [_Node(data_dir, n, config) for n in range(nodes)]
            for node in nodes_:
                stack.push_async_callback(node.stop)
            servers = [await node.start() for node in nodes_]
            paths = servers[0].store.path, servers[0].house.db.path
            seats, keys = await _seat_everyone(servers, rng, seed)
            at = [servers[j % len(servers)].port for j in range(len(seats))]  # (as seated)
            for _ in range(steps):
                i = rng.randrange(len(seats))
                _send_one(rng, seats[i], run, play)
                await asyncio.sleep(rng.choice([0, 0.01, 0.05, 0.1, 0.3]))
                told = [seat.name for seat in seats if FAILED in bytes(seat.client.raw)]
                if told or failures:
                    run.failure = f"failed (shown to {told or 'nobody yet'}): {failures}"
                    run.screens = {s.name: s.text() for s in seats}
                    return run
                if rng.random() < closings:
                    closed = await _close_one(store or paths[0], rng)
                    run.inputs.append(("operator", f"closed {closed}"))
                stopped = None
                if rng.random() < restarts:  # (its sessions told; they come back to any)
                    k = rng.randrange(nodes)
                    stopped = servers[k].port
                    run.inputs.append((f"node{k}", "restarted"))
                    await nodes_[k].stop()
                    servers[k] = await nodes_[k].start()
                dropped = rng.random() < DROPS  # (a connection cut mid-game, then back)
                if dropped:
                    run.inputs.append((seats[i].name, "dropped"))
                for j, seat in enumerate(seats):
                    chan = seat.client.chan
                    ended = chan is not None and chan.get_exit_status() is not None  # (q)
                    if ended or (dropped and j == i) or at[j] == stopped:
                        await seat.client.close()
                        at[j] = rng.choice(servers).port
                        seats[j] = await Seat.connect(at[j], seat.name, key=keys[j])
                        run.reconnects += 1
            for seat in seats:
                await seat.client.close()
        if failures:
            run.failure = f"failed as the club stopped: {failures}"
        elif problems := club_invariants.broken(*paths, archive=data_dir / "archive"):
            run.failure = f"the store, once the club stopped: {problems}"
        elif lost := await _restarted(data_dir, config):
            run.failure = f"started again, the club lost tables {lost}: {failures}"
        elif failures:
            run.failure = f"failed as the club started again: {failures}"
    run.finished = club_invariants.finished(*paths)
    return run


async def _close_one(target: Path | str, rng: random.Random) -> str | None:
    """The operator closes one of the club's unfinished tables, as ``ecarte tables --close``
    does from another process; its code (None: there was none)."""
    from net.commands.tables import close, unfinished

    codes = sorted(r.code for r in await asyncio.to_thread(unfinished, target))
    if not codes:
        return None
    code = rng.choice(codes)
    await asyncio.to_thread(close, target, code)
    return code


async def _restarted(data_dir: Path, config: dict[str, object]) -> list[str]:
    """Start the club again on its store, as after an upgrade: the tables its store keeps
    unfinished that it did not bring back (a broken one is logged, hence a failure too)."""
    async with club_server(data_dir, node_name="again", **config) as again:
        kept = [st.code for st in again.store.tables("open", "playing")]
        return [code for code in kept if code not in again.club.tables]


class _Node:
    """One process's worth of the club, which a run may stop and start again (an upgrade)."""

    def __init__(self, data_dir: Path, n: int, config: dict[str, object]) -> None:
        self.data_dir, self.name, self.config = data_dir, f"node{n}", config
        self._running: contextlib.AsyncExitStack | None = None

    async def start(self) -> GameServer:
        self._running = contextlib.AsyncExitStack()
        return await self._running.enter_async_context(
            club_server(self.data_dir, node_name=self.name, **self.config))

    async def stop(self) -> None:
        if self._running is not None:
            running, self._running = self._running, None
            await running.aclose()


def _send_one(rng: random.Random, seat: Seat, run: Run, play: float) -> None:
    client = seat.client
    r = rng.random()
    small = client.screen.columns < 80 or client.screen.lines < 24  # (the game waits)
    resize = 0.1 if small else 0.02
    if r < resize:
        size = rng.choice(SIZES)
        client.resize(*size)
        run.inputs.append((seat.name, size))
    elif r < resize + 0.05:
        x = rng.randrange(1, client.screen.columns + 1)
        y = rng.randrange(1, client.screen.lines + 1)
        client.send(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m".encode())
        run.inputs.append((seat.name, ("click", x, y)))
    else:
        keys = PLAY_KEYS if rng.random() < play else GAME_KEYS
        key = rng.choice(keys) if rng.random() < 0.8 else rng.choice(OTHER_KEYS)
        if key in (b"q", b"\x11") and rng.random() < 0.7:
            key = b"\r"  # (leaving is tried, not most of the time)
        if rng.random() < TWICE:
            key *= 2
        client.send(key)
        run.inputs.append((seat.name, key))


def _seeds(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="0-9", help="a seed or a range, 0-9")
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--nodes", type=int, default=1, help="processes serving the club")
    parser.add_argument("--store", help="a postgresql:// URL (default: SQLite)")
    parser.add_argument("--play", type=float, default=PLAY,
                        help="the share of inputs that move a game on (0 to 1)")
    parser.add_argument("--restarts", type=float, default=RESTARTS,
                        help="the chance, after each input, that a node stops and starts")
    parser.add_argument("--closings", type=float, default=CLOSINGS,
                        help="the chance, after each input, that the operator closes one "
                             "of the club's unfinished tables")
    args = parser.parse_args()
    failed = 0
    for seed in _seeds(args.seeds):
        store = args.store
        if store is not None:  # (a database of its own: each seed registers its players)
            import pg_cluster

            store = pg_cluster.fresh_database(store)
        with tempfile.TemporaryDirectory() as folder:
            run = asyncio.run(one_seed(Path(folder), seed, args.steps, args.nodes, store,
                                       args.play, args.restarts, args.closings))
        print(run.report(), flush=True)
        failed += run.failure is not None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
