"""Talk, advice and the gallery between two nodes of one club (two ``Club``s, houses and
rooms on one store): what is said or sent on one node reaches exactly the right sessions on
the other, and the gallery's sides and grants are one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from net.club import Club, TableOptions
from net.club.clubhouse.backers import Advice
from net.club.clubhouse.talk import ChatLine
from net.club.house import House
from net.club.table_room import GalleryNotice, receive_mail, room_for
from net.club_sync.node import ClubNode
from net.club_sync.sync_store import SyncStore
from net.store import GalleryStore, Player, Store

ANNA = Player("SHA256:anna", "anna")
BEN = Player("SHA256:ben", "ben")
CLEO = Player("SHA256:cleo", "cleo")


def make_node(target: Path | str, name: str) -> Club:
    store = Store(target)
    club = Club(store, rng=random.Random(5), bot_delay=0)
    club.house = House(target, galleries=GalleryStore(store))
    club.node = ClubNode(club, SyncStore(store), name=name)
    club.house.relay = club.relay
    club.on_mail = lambda lt, mail: receive_mail(club, lt, mail)
    return club


def read(*clubs: Club) -> None:
    for c in clubs:
        c.node.read_feed()  # type: ignore[union-attr]


@pytest.fixture
def two_nodes(club_db_target):
    one, two = make_node(club_db_target, "one"), make_node(club_db_target, "two")
    lt1, _ = one.create(ANNA, TableOptions())
    read(two)
    lt2, _ = two.sit(lt1.code, BEN)
    read(one)
    return one, two, lt1, lt2


def test_talk_advice_and_grants_cross_nodes_to_their_recipients_only(two_nodes):
    one, two, lt1, lt2 = two_nodes
    heard: dict[str, list[object]] = {"anna": [], "ben": [], "cleo": []}
    r1, r2 = room_for(one, lt1), room_for(two, lt2)
    assert r1 is not None and r2 is not None
    r1.enter("a", ANNA.id, "anna")
    r1.listen("a", heard["anna"].append)
    r2.enter("b", BEN.id, "ben")
    r2.listen("b", heard["ben"].append)
    two.watch(lt2.code)
    r2.enter("c", CLEO.id, "cleo")
    r2.listen("c", heard["cleo"].append)

    r2.back(CLEO.id, 0)  # cleo, on node two, backs anna, on node one
    read(one)
    assert [n.text for n in heard["anna"] if isinstance(n, GalleryNotice)] == [
        "cleo backs you: v to show him your hand."]
    assert r1.gallery.backing(CLEO.id) == ANNA.id, "node one's gallery knows the side"

    r2.say(CLEO.id, "good luck")
    read(one)
    lines = [n.text for n in heard["anna"] if isinstance(n, ChatLine)]
    assert lines == ["good luck"]
    assert [n.text for n in heard["ben"] if isinstance(n, ChatLine)] == ["good luck"]

    r1.mute_gallery(ANNA.id, True)  # anna mutes the gallery: on her node
    r2.say(CLEO.id, "psst")
    read(one)
    assert [n.text for n in heard["anna"] if isinstance(n, ChatLine)] == ["good luck"]

    r1.grant(ANNA.id, CLEO.id, True)  # anna shows cleo her hand, from node one
    read(two)
    notices = [n for n in heard["cleo"] if isinstance(n, GalleryNotice)]
    assert notices and notices[-1].view_changed
    assert r2.view_seat(CLEO.id) == 0, "node two lets cleo see anna's hand now"
    assert r2.view_seat(BEN.id) is None

    table = lt2.table
    assert table is not None
    legal = table.update(0).view.legal
    r2.advise(CLEO.id, None, "take your time")
    read(one)
    advice = [n for n in heard["anna"] if isinstance(n, Advice)]
    assert len(advice) == 1 and advice[0].note == "take your time" and legal is not None
    assert not any(isinstance(n, Advice) for n in heard["ben"] + heard["cleo"]), \
        "advice reaches the backed player's sessions only"


def test_a_wager_placed_on_one_node_is_settled_once_whichever_node_ends_the_game(two_nodes):
    from test_club_nodes import step

    one, two, lt1, lt2 = two_nodes
    dora = "SHA256:dora"
    house1, house2 = one.house, two.house
    assert house1 is not None and house2 is not None
    gid = house2.betting_game(lt2)
    assert gid is not None, "node two takes wagers on the first game"
    before = house2.ledger.purse(dora)
    house2.place_wager(lt2, dora, 0, 50)
    rng = random.Random(9)
    t1, t2 = lt1.table, lt2.table
    assert t1 is not None and t2 is not None
    while not t1.match.games or t1.match.games[0].winner is None:
        step({0: t1, 1: t2}, rng)  # anna moves on node one, ben on node two
        read(one, two)
    game1 = house1.ledger.game(gid)
    assert game1 is not None and game1.status == "settled"
    after = house2.ledger.purse(dora)
    wager = house2.ledger.wagers(gid)[0]
    assert wager.payout is not None and after == before - 50 + wager.payout
    assert wager.payout == 50, "the only bettor gets his wager back, whoever won"
    paid = [r for r in house1.ledger.journal(dora) if r[1] not in ("wager", "purse opened")]
    assert len(paid) == 1, "paid once, not once per node"
