"""Playing again after a match (``net.club.play_again``): one new table of the same kind for
the same two players, however and wherever they ask."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_club_nodes import ANNA, BRUNO, make_node, step

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.settings import Settings
from net.club import Club, ClubError, LiveTable, TableOptions
from net.screens.club_app import LOBBY_STYLES
from net.screens.club_table_screen import ClubTableScreen
from net.store import Store

SHORT = TableOptions("classic", (("target", "3"),))


def finished_pair(one: Club, two: Club | None = None) -> tuple[LiveTable, LiveTable]:
    """anna (on ``one``) and bruno (on ``two``, or ``one``) play a match to its end, both
    still at the table: the table as each node has it."""
    two = two or one
    lt1, _ = one.create(ANNA, SHORT)
    if two.node is not None:
        two.node.read_feed()
    lt2, _ = two.sit(lt1.code, BRUNO)
    for node in {one.node, two.node} - {None}:
        node.read_feed()  # type: ignore[union-attr]
    one.connected(lt1, 0)
    two.connected(lt2, 1)
    rng = random.Random(3)
    assert lt1.table is not None and lt2.table is not None
    while step({0: lt1.table, 1: lt2.table}, rng) is not None:
        for node in {one.node, two.node} - {None}:
            node.read_feed()  # type: ignore[union-attr]
    assert lt1.finished and lt2.finished
    return lt1, lt2


def tables_in(store: Store) -> set[str]:
    return {st.code for st in store.tables("open", "playing", "finished")}


def test_the_second_yes_seats_both_players_at_a_new_table_of_the_same_kind(tmp_path):
    club = make_node(tmp_path / "club.db", "one")
    lt, _ = finished_pair(club)
    heard: list[object] = []
    lt.listeners.append(lambda t: heard.append(t.rematch))

    assert club.rematch(lt, ANNA) is None, "the first to ask waits for the other"
    assert lt.rematch is not None and lt.rematch.asker == ANNA.id
    assert heard and lt.rematch.next_code is None, "the table's screens are told"
    assert club.rematch(lt, ANNA) is None, "asking twice changes nothing"
    assert tables_in(club.store) == {lt.code}

    new, seat = club.rematch(lt, BRUNO)  # type: ignore[misc]
    assert seat == 1 and new.code != lt.code
    assert new.options == lt.options and new.table is not None, "it starts at once"
    assert [s.player_id for s in new.seats] == [ANNA.id, BRUNO.id]
    assert new.table.names == ("anna", "bruno")
    assert lt.rematch.next_code == new.code
    assert club.rematch(lt, ANNA) == (new, 0), "the asker is seated there too"
    assert tables_in(club.store) == {lt.code, new.code}, "one new table, not two"
    assert club.store.table(new.code).status == "playing"


def test_an_offer_lapses_when_its_asker_leaves_and_nobody_asks_an_absent_player(tmp_path):
    club = make_node(tmp_path / "club.db", "one")
    lt, _ = finished_pair(club)
    assert club.rematch(lt, ANNA) is None
    club.withdraw_rematch(lt, ANNA)
    assert lt.rematch is None
    club.disconnected(lt, 0)
    with pytest.raises(ClubError, match="anna has left the table"):
        club.rematch(lt, BRUNO)
    assert lt.rematch is None, "a refused offer is not left standing"
    assert tables_in(club.store) == {lt.code}


def test_only_the_players_of_a_finished_match_may_ask(tmp_path):
    club = make_node(tmp_path / "club.db", "one")
    lt, _ = club.create(ANNA, SHORT)
    club.sit(lt.code, BRUNO)
    with pytest.raises(ClubError, match="finished match"):
        club.rematch(lt, ANNA)  # still being played
    lt, _ = finished_pair(club)
    from test_club_nodes import CARL

    with pytest.raises(ClubError, match="finished match"):
        club.rematch(lt, CARL)  # a watcher


def test_against_the_bot_a_new_match_starts_at_once(tmp_path):
    store = Store(tmp_path / "club.db")
    club = Club(store, rng=random.Random(2), bot_delay=0,
                bot_factory=lambda level, seed: None)  # (nobody plays: only the seating counts)
    options = TableOptions("classic", (("target", "3"),), "bot:easy")
    lt, _ = club.create(ANNA, options)
    lt.finished = True  # (how it ended does not matter here)
    new, seat = club.rematch(lt, ANNA)  # type: ignore[misc]
    assert seat == 0 and new.options == options and new.table is not None
    assert new.seats[1].player_id == "bot:easy"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path) -> Path | str:
    if request.param == "sqlite":
        return tmp_path / "club.db"
    return request.getfixturevalue("postgres_url")


def test_both_asking_at_once_on_two_nodes_makes_one_table_and_both_go_there(db, tmp_path):
    one, two = make_node(db, "one", 11, tmp_path), make_node(db, "two", 12, tmp_path)
    lt1, lt2 = finished_pair(one, two)
    # each asks before his node has heard of the other's asking
    assert one.rematch(lt1, ANNA) is None
    assert lt2.rematch is None
    new2, seat = two.rematch(lt2, BRUNO)  # type: ignore[misc]
    assert seat == 1, "the later one finds the offer and says yes to it"
    one.node.read_feed()  # type: ignore[union-attr]
    assert lt1.rematch is not None and lt1.rematch.next_code == new2.code
    new1 = one.find(new2.code)
    assert new1.table is not None and new1.seat_of(ANNA.id) == 0
    assert new1.table.record_text() == new2.table.record_text()  # type: ignore[union-attr]
    assert tables_in(one.store) == {lt1.code, new2.code}


class FinishedTableApp(EcarteApp):
    """bruno at the finished table, as the club serves it, after anna asked to play again."""

    CSS_PATH = [*EcarteApp.CSS_PATH, LOBBY_STYLES]
    offers_rematch = True
    can_start_games = True
    new_game_title, home_title, quit_title = "New table", "Lobby", "Lobby"

    def __init__(self, club: Club, lt: LiveTable) -> None:
        super().__init__(settings=Settings(), served=True)
        self.club, self.lt, self.player = club, lt, BRUNO

    def on_mount(self, event) -> None:
        event.prevent_default()
        assert self.lt.table is not None
        self.table, self.seat = self.lt.table, 1
        self.push_screen(ClubTableScreen(self.club, self.lt, 1, self.look))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_the_match_box_offers_to_play_again_and_names_who_asked(snap_compare, tmp_path, size):
    club = Club(Store(tmp_path / "club.db"), rng=random.Random(7), bot_delay=0)
    lt, _ = finished_pair(club)
    assert club.rematch(lt, ANNA) is None
    app = FinishedTableApp(club, lt)

    async def shown(pilot) -> None:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ClubTableScreen)
        assert screen.banner is not None and screen.banner[0] == (
            "anna asks to play again: r to say yes")
        assert screen.check_action("rematch", ()) is True

    assert snap_compare(app, run_before=shown, terminal_size=size)
