"""A shared table's ``Journal``: its steps written to, and read from, the club's store."""

from __future__ import annotations

from collections.abc import Callable

from ecarte_tui.engine import Rules
from ecarte_tui.table import Entry, Table
from net.club_sync.genesis import TableGenesis
from net.club_sync.sync_store import Steps, SyncStore


class StoreJournal:
    """The log of table ``code`` in ``store``; ``moved`` runs after steps of others arrive."""

    def __init__(self, store: SyncStore, node: str, code: str, genesis: TableGenesis,
                 rules: Rules, moved: Callable[[], None] = lambda: None) -> None:
        self.store, self.node, self.code = store, node, code
        self.genesis, self.rules, self.moved = genesis, rules, moved

    def catch_up(self, table: Table, read: Steps | None = None) -> None:
        """The steps after the table's from ``read`` (the feed's rows, this node's own among
        them), or from the log when they do not follow on."""
        if read is None:
            steps = self.store.log_after(self.code, table.seq)
        else:
            steps = [(seq, entry) for seq, entry in read if seq > table.seq]
            if steps and steps[0][0] != table.seq + 1:  # (some were not read: the log has them)
                steps = self.store.log_after(self.code, table.seq)
        if not steps:
            return
        for seq, entry in steps:
            if seq != table.seq + 1:  # a gap cannot happen in one log; if it did, start over
                self.rebuild(table)
                return
            table.replay_entry(entry)
        self.moved()

    def append(self, table: Table, entry: Entry) -> bool:
        return self.store.append_step(self.code, table.seq + 1, entry, self.node)

    def replay(self, guard: Table | None = None) -> Table:
        """A new table: the genesis and every step of the log (nobody watching it)."""
        fresh = self.genesis.build(self.rules)
        if guard is not None:
            fresh.guard, fresh.restrict = guard.guard, guard.restrict
        for seq, entry in self.store.log_after(self.code, 0):
            fresh.apply_entry(entry)
            fresh.seq = seq
        return fresh

    def rebuild(self, table: Table) -> None:
        table.reset_from(self.replay(table))
        self.moved()
