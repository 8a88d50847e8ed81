"""``ecarte players``: an operator finds who is behind a name (the key, for the block list)
and takes a name away, on SQLite and PostgreSQL, while the club runs; bad requests change
nothing."""

from __future__ import annotations

import json

import pytest
from server_harness import Seat, club_server, first_visit, new_key, registered_pair

from ecarte_tui.cli import main
from net.commands.players import find_players, rename
from net.commands.status import StatusError
from net.store.club_store import Store


def _club(target) -> Store:
    """Three players; anna beat ben once and lost once, cleo has not played."""
    store = Store(target)
    for key, name in (("SHA256:aaa", "anna"), ("SHA256:bbb", "ben_x"), ("SHA256:ccc", "cleo")):
        store.register(key, name)
    for code, winner in (("ABCD", "SHA256:aaa"), ("EFGH", "SHA256:bbb")):
        store.create_table(code, {}, ("SHA256:aaa", "SHA256:bbb"), ("anna", "ben_x"), "",
                           "playing")
        store.save_table(code, status="finished", winner=winner)
    return store


def _cli(capsys, target, *args: str) -> tuple[int, str, str]:
    where = ["--store", target] if isinstance(target, str) else ["--data-dir",
                                                                  str(target.parent)]
    code = main(["players", *where, *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_players_are_listed_with_their_keys_and_records(club_db_target, capsys):
    _club(club_db_target).close()
    code, out, _ = _cli(capsys, club_db_target)
    assert code == 0
    anna = next(line for line in out.splitlines() if line.strip().startswith("anna"))
    assert anna.split()[-3:] == ["2", "1", "SHA256:aaa"]  # matches, won, key
    assert "3 players:" in out
    code, out, _ = _cli(capsys, club_db_target, "--find", "n_", "--json")
    found = json.loads(out)
    assert [p["name"] for p in found["players"]] == ["ben_x"]  # "_" is a letter here
    rows, total = find_players(club_db_target, "SHA256:c")
    assert [r.name for r in rows] == ["cleo"] and total == 1
    rows, total = find_players(club_db_target, "", limit=1)
    assert len(rows) == 1 and total == 3
    _, out, _ = _cli(capsys, club_db_target, "--limit", "1")
    assert "(2 more: --find TEXT, or --limit 0 for all)" in out


def test_a_rename_takes_the_name_away_and_frees_it(club_db_target):
    _club(club_db_target).close()
    said = rename(club_db_target, "ANNA", "anne")
    assert said.startswith("anna is now anne (SHA256:aaa)")
    assert "name:anna" in said  # how to keep the old name from being taken again
    store = Store(club_db_target)
    try:
        assert store.player("SHA256:aaa").name == "anne"
        assert not store.name_taken("anna")
        assert store.record_for("SHA256:aaa") == (2, 1)  # her matches stay hers
    finally:
        store.close()
    rename(club_db_target, "anne", "Anne")  # a change of case is hers to make


def test_renaming_a_player_kept_out_by_name_says_how_to_keep_him_out(tmp_path):
    """A name on the block list stops keeping its player out once it is not his: the
    operator is told, with the key to list instead."""
    _club(tmp_path / "club.db").close()
    listed = tmp_path / "blocklist"
    listed.write_text("name:Anna\n")
    said = rename(tmp_path / "club.db", "anna", "anne", blocklist=listed)
    assert "keeps anna out by name only" in said and said.endswith("SHA256:aaa")
    listed.write_text("name:anne\nSHA256:aaa\n")  # his key is listed: nothing to say
    assert "Warning" not in rename(tmp_path / "club.db", "anne", "anna", blocklist=listed)


@pytest.mark.parametrize(("old", "new", "why"), [
    ("anna", "ben_X", "is another player's"),
    ("anna", "guest7", "kept for the server"),
    ("anna", "a b", "name"),
    ("nobody", "anne", "no player is called 'nobody'"),
])
def test_a_rename_that_cannot_be_done_changes_nothing(club_db_target, capsys, old, new, why):
    _club(club_db_target).close()
    code, _, err = _cli(capsys, club_db_target, "--rename", old, new)
    assert code == 1 and why in err
    rows, _ = find_players(club_db_target)
    assert sorted(r.name for r in rows) == ["anna", "ben_x", "cleo"]


def test_no_club_is_made_where_there_is_none(tmp_path, capsys):
    code, _, err = _cli(capsys, tmp_path / "nowhere" / "club.db", "--rename", "anna", "anne")
    assert code == 1 and "no club in" in err
    assert not (tmp_path / "nowhere").exists()
    with pytest.raises(StatusError):
        find_players(tmp_path / "club.db")


async def test_a_player_renamed_while_the_club_runs_comes_back_under_the_new_name(tmp_path):
    key = new_key()
    async with club_server(tmp_path) as server:
        troll = await first_visit(server.port, "troll", key)
        await troll.wait_for("You are troll")
        await troll.close()
        rename(tmp_path / "club.db", "troll", "player7")  # (another process: the command)
        again = await Seat.connect(server.port, "troll", key=key)
        await again.wait_for("You are player7")
        assert server.identities.available("troll")
        await again.close()


async def test_a_player_renamed_at_his_table_is_shown_by_the_new_name_at_once(tmp_path):
    """The rename reaches the running club: his opponent's screen, his own (told why), the
    lobby's list and the table's row say the new name, not at the next visit."""
    keys = {"anna": new_key(), "ben": new_key()}
    async with club_server(tmp_path) as server:
        anna, ben, code = await registered_pair(server.port, keys)
        for seat in (anna, ben):
            await seat.wait_for("drew the higher card")
        rename(tmp_path / "club.db", "anna", "annie")
        assert server.follow_renames() == 1  # (the sweep does it within five seconds)
        await anna.wait_for("renamed you")
        await ben.wait_for("annie")
        # the draw's box, open through it, says the new name too (the log keeps what it said)
        await ben.wait_for("annie drew")
        assert "anna drew" not in ben.text()
        lt = server.club.tables[code]
        assert lt.seats[0].name == "annie" and lt.table is not None
        assert lt.table.names[0] == "annie"
        assert lt.table.tags["A"] == "anna"  # (the record: the name she sat down under)
        assert server.club.store.table(code).names == ("annie", "ben")
        assert server.follow_renames() == 0  # read once
        for seat in (anna, ben):
            await seat.close()
    async with club_server(tmp_path) as again:  # a restart: the table under today's names
        lt = again.club.tables[code]
        assert lt.table is not None and lt.table.names == ("annie", "ben")


async def test_a_rename_reaches_every_machine_of_the_club(tmp_path, postgres_url):
    keys = {"anna": new_key(), "ben": new_key()}
    async with club_server(tmp_path / "one", store=postgres_url, shared=True) as one, \
            club_server(tmp_path / "two", store=postgres_url, shared=True) as two:
        anna, ben, code = await registered_pair(one.port, keys, two.port)
        await ben.wait_for("drew the higher card")
        rename(postgres_url, "ben", "benedict")
        assert one.follow_renames() == 0 and two.follow_renames() == 1
        await ben.wait_for("renamed you")
        await anna.wait_for("benedict")  # (her node holds the table: told by the store)
        assert one.club.tables[code].seats[1].name == "benedict"
        for seat in (anna, ben):
            await seat.close()
