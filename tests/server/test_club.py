"""The club seats players and bots, survives a restart, and keeps the store in step."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path

import pytest

from ecarte_tui.engine import Action, Phase, read_ecn
from net.club import Club, ClubError, TableOptions
from net.store import Player, Store, StoreError


class FirstLegal:
    name = "first"

    def choose(self, view):
        return view.legal[0] if view.my_turn else None


def make_club(tmp_path: Path, **kw) -> Club:
    store = Store(tmp_path / "club.db")
    return Club(store, archive_dir=tmp_path / "archive", rng=random.Random(7),
                bot_factory=lambda level, seed: FirstLegal(), bot_delay=0, **kw)


def test_names_are_unique_and_checked(tmp_path):
    store = Store(tmp_path / "s.db")
    store.register("SHA256:a", "anna")
    with pytest.raises(StoreError, match="taken"):
        store.register("SHA256:b", "Anna")
    with pytest.raises(StoreError, match="2 to 16"):
        store.register("SHA256:b", "x")
    store.register("SHA256:a", "anna2")  # renaming oneself is fine
    assert store.player("SHA256:a") == Player("SHA256:a", "anna2")


def test_two_players_sit_and_come_back_to_the_same_seat(tmp_path):
    club = make_club(tmp_path)
    anna, ben, cleo = Player("k1", "anna"), Player("k2", "ben"), Player("k3", "cleo")
    lt, seat = club.create(anna, TableOptions("academie"))
    assert seat == 0 and lt.status == "open" and lt.table is None
    lt2, seat_b = club.sit(lt.code.lower(), ben)
    assert lt2 is lt and seat_b == 1 and lt.table is not None
    assert lt.table.names == ("anna", "ben")
    assert club.sit(lt.code, anna)[1] == 0  # the same key returns to the same seat
    with pytest.raises(ClubError, match="full"):
        club.sit(lt.code, cleo)
    with pytest.raises(ClubError, match="no table"):
        club.sit("ZZZZ", cleo)


def test_every_action_is_stored_before_it_is_shown(tmp_path):
    club = make_club(tmp_path)
    lt, _ = club.create(Player("k1", "anna"), TableOptions())
    club.sit(lt.code, Player("k2", "ben"))
    table = lt.table
    assert table is not None
    if table.status == "choose":
        table.choose_dealer(table.draw.chooser, 0)
    stored_at_show = []

    def on_update(update):
        stored_at_show.append(club.store.table(lt.code).ecn)

    table.watch(0, on_update)
    seat = table.match.to_move
    action = table.match.legal_actions()[0]
    table.submit(seat, action)
    assert f"{'AB'[seat]} {action}" in stored_at_show[-1]


def test_restart_brings_tables_back_exactly(tmp_path):
    club = make_club(tmp_path)
    lt, _ = club.create(Player("k1", "anna"), TableOptions("nl"))
    club.sit(lt.code, Player("k2", "ben"))
    table = lt.table
    if table.status == "choose":
        table.choose_dealer(table.draw.chooser, 1)
    rng = random.Random(3)
    for _ in range(12):
        seat = table.match.to_move
        if seat is None:
            break
        if table.waiting_for is not None and table.waiting_for != seat:
            table.pass_king(table.waiting_for)
        legal = [a for a in table.match.legal_actions(seat)]
        table.submit(seat, rng.choice(legal))
    before = table.record_text()
    club.store.close()
    # a new process: a new store on the same file, a new club
    club2 = Club(Store(tmp_path / "club.db"), rng=random.Random(1),
                 bot_factory=lambda level, seed: FirstLegal())
    assert club2.restore() == []
    lt2 = club2.find(lt.code)
    assert lt2.table is not None and lt2.table.record_text() == before
    assert lt2.seats[0].player_id == "k1" and lt2.seats[1].player_id == "k2"
    assert club2.reconnect_left(lt2, 0) is not None  # away until they reconnect
    assert club2.sit(lt.code, Player("k2", "ben"))[1] == 1


def test_drop_timeout_then_take_win_or_bot(tmp_path):
    now = [0.0]
    club = make_club(tmp_path, clock=lambda: now[0], reconnect_timeout=300)
    lt, _ = club.create(Player("k1", "anna"), TableOptions())
    club.sit(lt.code, Player("k2", "ben"))
    club.connected(lt, 0)
    club.connected(lt, 1)
    club.disconnected(lt, 1)
    now[0] = 48.0
    assert club.reconnect_left(lt, 1) == pytest.approx(252.0)
    with pytest.raises(ClubError, match="may still come back"):
        club.take_win(lt, 0)
    now[0] = 301.0
    assert club.reconnect_left(lt, 1) == 0.0
    club.take_win(lt, 0)
    assert lt.finished and club.store.table(lt.code).status == "finished"
    assert club.store.table(lt.code).winner == "k1"
    assert (tmp_path / "archive" / f"{lt.code}.ecn").exists()
    assert (tmp_path / "archive").stat().st_mode & 0o777 == 0o700, "the operator's to read"


async def anna_plays_the_bot_out(club: Club):
    """anna's table against the club's bot, played to its end with her first legal moves."""
    from ecarte_tui.bot_seat import BotSeat

    lt, seat = club.create(Player("k1", "anna"), TableOptions("classic", opponent="bot:x"))
    me = BotSeat(lt.table, seat, FirstLegal(), delay=0)
    me.start()
    for _ in range(2000):
        if lt.finished:
            break
        await asyncio.sleep(0.001)
    me.stop()
    return lt


def test_bot_table_plays_to_the_end_and_is_archived(tmp_path):
    lt = asyncio.run(anna_plays_the_bot_out(make_club(tmp_path)))
    assert lt.finished
    text = (tmp_path / "archive" / f"{lt.code}.ecn").read_text()
    assert read_ecn(text).match.phase is Phase.OVER
    assert isinstance(Action.parse("play"), Action)


def test_bad_options_are_refused_before_anything_is_created(tmp_path):
    club = make_club(tmp_path)
    with pytest.raises(ValueError, match="unknown rules preset"):
        club.create(Player("k1", "anna"), TableOptions("poker"))
    with pytest.raises(ValueError, match="target"):
        club.create(Player("k1", "anna"), TableOptions(overrides=(("target", "0"),)))
    assert club.tables == {} and club.store.tables("open", "playing") == []


def test_an_operator_reads_tables_opened_seated_and_finished_in_the_log(tmp_path, caplog):
    """``ecarte serve --log-level info`` said who logged in, and nothing of the games."""
    caplog.set_level(logging.INFO, logger="net.club.live_club")

    async def main():
        club = make_club(tmp_path)
        open_lt, _ = club.create(Player("k2", "cleo"), TableOptions("nl", (("target", "7"),)))
        club.sit(open_lt.code, Player("k3", "dora"))
        return open_lt, await anna_plays_the_bot_out(club)

    open_lt, lt = asyncio.run(main())
    lines = [r.getMessage() for r in caplog.records]
    assert f"table {open_lt.code} opened by cleo (nl, to 7)" in lines
    assert f"table {open_lt.code}: cleo vs dora" in lines
    assert f"table {lt.code}: anna vs Bot (x)" in lines
    winner = lt.seats[lt.table.match.match_winner].name
    assert (f"table {lt.code} finished: {winner} won "
            f"({tmp_path / 'archive' / (lt.code + '.ecn')})") in lines
