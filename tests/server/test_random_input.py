"""Random keys, clicks and sizes from the clients of one club (``random_input``), a seed
for each way it begins: no session may fail, whatever a stranger sends."""

from __future__ import annotations

import pytest
from random_input import Run, _restarted, one_seed
from server_harness import generous_limits

from net.store import Store


def sent(run: Run) -> int:
    """The inputs sent (a connection cut or a node restarted is not one)."""
    return sum(what not in ("dropped", "restarted") and who != "operator"
               for who, what in run.inputs)


@pytest.mark.parametrize("seed", [0, 1, 2])
async def test_random_input_ends_no_session(tmp_path, seed):
    run = await one_seed(tmp_path, seed, steps=120)
    assert run.failure is None, run.report()
    assert sent(run) == 120  # (every step sent something: none was skipped)


async def test_random_input_on_two_nodes_of_one_club_ends_no_session(tmp_path, postgres_url):
    """The same, the clients spread over two nodes sharing one PostgreSQL, coming back to
    either (as behind HAProxy)."""
    run = await one_seed(tmp_path, 5, steps=120, nodes=2, store=postgres_url)  # (a pool of 3)
    assert run.failure is None, run.report()
    assert sent(run) == 120


async def test_a_club_started_again_that_loses_a_table_is_named(tmp_path):
    """The restart that ends a run (``_restarted``) names an unfinished table the club did
    not bring back: here one whose stored record is broken."""
    store = Store(tmp_path / "club.db")
    store.create_table("GOOD", {"rules": "classic"}, ("key-a", None), ("ann", None), "",
                       "open")
    store.create_table("BAD", {"rules": "classic"}, ("key-a", "key-b"), ("ann", "bob"),
                       "hand\ndealer Q\n", "playing")
    store.close()
    assert await _restarted(tmp_path, {"limits": generous_limits()}) == ["BAD"]


async def test_random_input_with_tables_closed_by_the_operator_ends_no_session(tmp_path):
    """The same while the operator closes tables now and then (``ecarte tables --close``),
    the club running: the players there go on elsewhere, and the store's checks at the end
    find every chip of a closed table back."""
    run = await one_seed(tmp_path, 3, steps=120, closings=0.1)  # (two players at a table)
    assert run.failure is None, run.report()
    closed = [what for who, what in run.inputs if who == "operator"]
    assert any(what != "closed None" for what in closed), closed  # (the first table, at least)
    assert sent(run) == 120
