"""A step the club's SQLite store refuses (a full disk, a lock held too long): the move is
refused to its player with a word why, the table stays as its log has it (it used to keep
the move, shown to nobody, and the table was stuck), and the next try is taken. A process
that holds its tables alone shows the move and saves the record at the next chance."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from server_harness import club_server, pair_at_the_draw
from test_club_nodes import ANNA, BRUNO, make_node

from ecarte_tui.table import TableError
from net.club import Club, LiveTable, TableOptions
from net.store import Store


def failing_once(call: Callable[..., Any], error: str = "database or disk is full"
                 ) -> Callable[..., Any]:
    calls = {"n": 0}

    def once(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.OperationalError(error)
        return call(*args, **kwargs)

    return once


def two_nodes_at_the_draw(tmp_path: Path) -> tuple[Club, Club, LiveTable, LiveTable, int]:
    """anna's node and bruno's, one table between them at the draw: (the nodes, the table
    as each shows it, the seat that chooses the dealer, on its own node)."""
    db = tmp_path / "club.db"
    one, two = make_node(db, "one", 11, tmp_path), make_node(db, "two", 12, tmp_path)
    lt1, _ = one.create(ANNA, TableOptions("classic", ()))
    two.node.read_feed()  # type: ignore[union-attr]
    lt2, _ = two.sit(lt1.code, BRUNO)
    one.node.read_feed()  # type: ignore[union-attr]
    assert lt1.table is not None and lt1.table.status == "choose" and lt1.table.draw
    chooser = lt1.table.draw.chooser
    assert chooser is not None
    return one, two, lt1, lt2, chooser


def test_a_step_the_log_refuses_is_refused_and_the_next_try_taken(tmp_path):
    one, two, lt1, lt2, chooser = two_nodes_at_the_draw(tmp_path)
    table = (lt1 if chooser == 0 else lt2).table
    assert table is not None
    before = (table.record_text(), table.seq, table.status)
    sync = (one if chooser == 0 else two).node.sync  # type: ignore[union-attr]
    sync.append_step = failing_once(sync.append_step)  # type: ignore[method-assign]

    with pytest.raises(TableError, match="could not be recorded"):
        table.choose_dealer(chooser, 0)
    assert (table.record_text(), table.seq, table.status) == before, "the move was undone"
    assert not table.unwritten

    table.choose_dealer(chooser, 0)  # the store answers again: taken, once
    for node in (one, two):
        node.node.read_feed()  # type: ignore[union-attr]
    assert lt1.table.status == lt2.table.status != "choose"  # type: ignore[union-attr]
    assert [seq for seq, _ in sync.log_after(lt1.code, 0)] == [1]


def test_when_the_log_cannot_even_be_read_the_table_is_replayed_before_its_next_step(
        tmp_path):
    one, two, lt1, lt2, chooser = two_nodes_at_the_draw(tmp_path)
    node, table = (one, lt1.table) if chooser == 0 else (two, lt2.table)
    assert table is not None
    sync = node.node.sync  # type: ignore[union-attr]
    journal = table.journal
    sync.append_step = failing_once(sync.append_step)  # type: ignore[method-assign]
    journal.rebuild = failing_once(journal.rebuild)  # type: ignore[union-attr, method-assign]
    with pytest.raises(TableError):
        table.choose_dealer(chooser, 1)
    assert table.unwritten, "the move is still applied here: marked to be replayed"
    table.choose_dealer(chooser, 1)  # replayed first, then the step is taken
    assert not table.unwritten and table.status != "choose"
    assert [seq for seq, _ in sync.log_after(lt1.code, 0)] == [1]


def test_one_process_shows_a_move_its_store_refused_and_saves_it_at_the_next_chance(
        tmp_path):
    store = Store(tmp_path / "club.db")
    club = Club(store, archive_dir=tmp_path / "archive", rng=random.Random(3), bot_delay=0)
    lt, _ = club.create(ANNA, TableOptions("classic", ()))
    club.sit(lt.code, BRUNO)
    table = lt.table
    assert table is not None and table.draw is not None
    seen: list[str] = []
    table.watch(0, lambda u: seen.append(u.status))
    store.save_table = failing_once(store.save_table)  # type: ignore[method-assign]
    table.choose_dealer(table.draw.chooser, 0)
    assert seen[-1] != "choose", "the move is shown"
    stored = store.table(lt.code)
    assert stored is not None and stored.ecn != table.record_text()  # (not saved yet)
    club.sweep()
    stored = store.table(lt.code)
    assert stored is not None and stored.ecn == table.record_text(), "saved by the sweep"



async def test_a_player_whose_move_was_refused_is_told_and_asked_again(tmp_path):
    async with club_server(tmp_path / "data", shared=True) as server:
        chooser, other = await pair_at_the_draw(server.port)
        sync = server.club.node.sync  # type: ignore[union-attr]
        sync.append_step = failing_once(sync.append_step)  # type: ignore[method-assign]
        await chooser.wait_for("I deal")  # the draw's box asks him
        chooser.press(b"d")
        await chooser.wait_for("could not be recorded")
        await chooser.settled()
        assert "I deal" in chooser.text(), "the box again: he chooses once more"
        assert "chooses who deals" in other.text()
        chooser.press(b"d")
        await chooser.wait_for("decides: play or propose")
        await other.wait_for("Play the hand as it is")
        for seat in (chooser, other):
            await seat.close()


def test_a_resignation_or_a_win_taken_that_the_log_refuses_leaves_the_match_as_it_was(
        tmp_path):
    """Giving up or taking the win is a step like a move: refused while the log is away,
    the match is not over on any screen (it used to be marked forfeited all the same), and
    the next try is taken."""
    one, two, lt1, lt2, chooser = two_nodes_at_the_draw(tmp_path)
    sync = one.node.sync  # type: ignore[union-attr]
    sync.append_step = failing_once(sync.append_step)  # type: ignore[method-assign]
    with pytest.raises(TableError, match="could not be recorded"):
        one.resign(lt1, 0)
    assert lt1.forfeit is None and not lt1.finished
    assert lt1.table is not None and not lt1.table.match.is_over
    one.resign(lt1, 0)  # the log answers again
    assert lt1.forfeit == 0 and lt1.finished

    one, two, lt1, lt2, chooser = two_nodes_at_the_draw(tmp_path / "again")
    lt1.seats[1].dropped_at = one.clock() - one.reconnect_timeout - 1  # bruno is gone
    sync = one.node.sync  # type: ignore[union-attr]
    sync.append_step = failing_once(sync.append_step)  # type: ignore[method-assign]
    with pytest.raises(TableError, match="could not be recorded"):
        one.take_win(lt1, 0)
    assert lt1.forfeit is None and not lt1.finished
    one.take_win(lt1, 0)
    assert lt1.forfeit == 1 and lt1.finished


async def test_a_resignation_the_log_refuses_is_said_and_the_session_goes_on(tmp_path):
    async with club_server(tmp_path, shared=True) as server:
        chooser, other = await pair_at_the_draw(server.port)
        sync = server.club.node.sync  # type: ignore[union-attr]
        sync.append_step = failing_once(sync.append_step)  # type: ignore[method-assign]
        other.press(b"R")
        await other.wait_for("Resign?")
        other.press(b"y")
        await other.wait_for("could not be recorded")
        lt = next(iter(server.club.tables.values()))
        assert not lt.finished and lt.forfeit is None
        await other.dismiss_toast("the move could not")
        other.press(b"R")
        await other.wait_for("Resign?")
        other.press(b"y")
        await other.wait_for("You resigned: ")
        await chooser.wait_for("resigned")
        for seat in (chooser, other):
            await seat.close()


def test_a_bot_called_while_the_store_is_away_leaves_the_seat_as_it_was(tmp_path):
    one, two, lt1, lt2, chooser = two_nodes_at_the_draw(tmp_path)
    lt1.seats[1].dropped_at = one.clock() - one.reconnect_timeout - 1  # bruno is gone
    seats = list(lt1.seats)
    one.store.save_table = failing_once(one.store.save_table)  # type: ignore[method-assign]
    with pytest.raises(sqlite3.OperationalError):
        one.replace_with_bot(lt1, 1)
    assert lt1.seats == seats and lt1.bots[1] is None  # bruno's seat, no bot playing it
    one.replace_with_bot(lt1, 1)
    assert lt1.seats[1].is_bot and lt1.bots[1] is not None


async def test_talk_while_the_database_is_away_is_shown_here_and_the_session_goes_on(
        tmp_path, caplog):
    """A line said while the store cannot pass it to the club's other nodes: the players of
    this node read it, the log says the others did not, and nobody's session ends (the
    speaker's used to, with an error)."""
    from test_server_talk import say

    async with club_server(tmp_path, shared=True) as server:
        chooser, other = await pair_at_the_draw(server.port)
        chooser.press(b"d")  # past the draw's box, which covers the talk
        await chooser.wait_for("decides: play or propose")
        sync = server.club.node.sync  # type: ignore[union-attr]
        sync.announce = failing_once(sync.announce)  # type: ignore[method-assign]
        await say(other, "HELLO1")
        await chooser.wait_for("HELLO1")
        await say(other, "HELLO2")  # the store answers again: as before
        await chooser.wait_for("HELLO2")
        assert any("not passed to the other nodes" in r.getMessage() for r in caplog.records)
        for seat in (chooser, other):
            await seat.close()


def test_a_wager_the_ledger_cannot_take_is_refused_with_a_word(tmp_path, monkeypatch):
    from net.club.clubhouse.purse import LedgerError
    from net.screens.wager_screen import WAGER_NOT_PLACED, place_wager

    class House:
        def gallery(self, _lt: object) -> Any:
            class Gallery:
                def may_wager(self, *_: object) -> None:
                    return None

                def view_seat(self, _who: object) -> None:
                    return None
            return Gallery()

        def place_wager(self, *_: object, **__: object) -> None:
            raise sqlite3.OperationalError("database is locked")

    class Seat:
        player_id, name = "SHA256:anna", "anna"

    class Table:
        seats = (Seat(), Seat())

    with pytest.raises(LedgerError, match="no chip was wagered") as refused:
        place_wager(House(), Table(), "SHA256:wil", 0, 10)  # type: ignore[arg-type]
    assert str(refused.value) == WAGER_NOT_PLACED


def test_a_seat_taken_while_the_store_is_away_stays_free_and_the_next_try_starts_the_game(
        tmp_path):
    """One process alone (no node): the seat used to be given in memory before the store
    refused it, so the next try found the player seated and never started the game."""
    store = Store(tmp_path / "club.db")
    club = Club(store, archive_dir=tmp_path / "archive", rng=random.Random(3), bot_delay=0)
    lt, _ = club.create(ANNA, TableOptions("classic", ()))
    store.save_table = failing_once(store.save_table)  # type: ignore[method-assign]
    with pytest.raises(sqlite3.OperationalError):
        club.sit(lt.code, BRUNO)
    assert lt.seats[1].player_id is None and lt.table is None
    _, seat = club.sit(lt.code, BRUNO)
    assert seat == 1 and lt.table is not None  # the game began


def test_a_pools_third_seat_taken_while_the_store_is_away_stays_free(tmp_path, monkeypatch):
    """The pool's third player used to be seated (and the pool begun) in memory before the
    store refused the pool's state: the next try found him seated, with nothing stored."""
    from net.club.clubhouse.options import ClubOptions
    from net.store import Player, RoundStore

    store = Store(tmp_path / "club.db")
    club = Club(store, archive_dir=tmp_path / "archive", rng=random.Random(3), bot_delay=0)
    lt, _ = club.create(ANNA, TableOptions("classic", club=ClubOptions(pool="loser_out")))
    club.sit(lt.code, BRUNO)
    cleo = Player("SHA256:cleo", "cleo")
    monkeypatch.setattr(RoundStore, "save_state", failing_once(RoundStore.save_state))
    with pytest.raises(sqlite3.OperationalError):
        club.sit(lt.code, cleo)
    assert lt.seats[2].player_id is None and lt.rounds is not None and lt.rounds.pool is None
    _, seat = club.sit(lt.code, cleo)
    assert seat == 2 and lt.rounds.pool is not None
    stored = RoundStore(store).state(lt.code)
    assert stored is not None and "SHA256:cleo" in str(stored)
