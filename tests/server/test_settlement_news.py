"""A bettor who left the table hears of the settlement wherever he is; at the table the
money panel tells it, so the news is not told twice."""

from __future__ import annotations

from dataclasses import dataclass, field

from ecarte_tui.engine import Rules
from net.club.clubhouse.purse import game_id
from net.club.house import House
from net.screens.settlement_news import SettledElsewhere, SettlementNews
from net.store import Player, Store

ANNA, BEN, CLEO = Player("SHA256:anna", "anna"), Player("SHA256:ben", "ben"), Player(
    "SHA256:cleo", "cleo")


@dataclass
class Club:
    store: Store
    house: House


@dataclass
class FakeApp:
    """What SettlementNews reads of a ClubApp."""

    club: Club
    player: Player
    here: str | None = None
    posted: list[SettledElsewhere] = field(default_factory=list)

    def at_table_code(self) -> str | None:
        return self.here

    def post_message(self, message: SettledElsewhere) -> bool:
        self.posted.append(message)
        return True


def settle_a_game(tmp_path) -> tuple[Club, House]:
    store = Store(tmp_path / "club.db")
    for p in (ANNA, BEN, CLEO):
        store.register(p.id, p.name)
    house = House(tmp_path / "club.db")
    return Club(store, house), house


def test_a_bettor_in_the_lobby_hears_what_he_won(tmp_path):
    club, house = settle_a_game(tmp_path)
    in_lobby = FakeApp(club, CLEO)  # type: ignore[arg-type]
    at_table = FakeApp(club, CLEO, here="KXRT")  # type: ignore[arg-type]
    not_in_it = FakeApp(club, Player("SHA256:dora", "dora"))  # type: ignore[arg-type]
    news = [SettlementNews(a) for a in (in_lobby, at_table, not_in_it)]  # type: ignore[arg-type]
    for n in news:
        n.start()
    gid = game_id("KXRT", 1)
    house.ledger.open_game(gid, (ANNA.id, BEN.id), 2, Rules.named("classic"))
    house.ledger.place_wager(gid, CLEO.id, ANNA.id, 40)
    settlement = house.ledger.settle(gid, ANNA.id, (5, 2))
    for cb in list(house.settlement_listeners):
        cb("KXRT", settlement)

    assert len(in_lobby.posted) == 1 and in_lobby.posted[0].code == "KXRT"
    assert at_table.posted == []  # the table's money panel tells him there
    assert not_in_it.posted == []  # nothing of his moved
    lines = news[0].lines(in_lobby.posted[0])
    assert lines and all(line.startswith("Table KXRT: ") for line in lines)
    assert any("anna" in line and "40" in line for line in lines), lines
    for n in news:
        n.stop()
    assert house.settlement_listeners == []
