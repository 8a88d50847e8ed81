"""A pool table plays round after round: it closes once all its people have left for good,
and the stake of the round it was playing goes back to the players."""

from __future__ import annotations

import random

from server_harness import Clock

from net.club import Club, TableOptions
from net.club.clubhouse.options import ClubOptions
from net.club.house import House
from net.store import Player, RoundStore, Store

ANN, BOB, CLEO = Player("SHA256:ann", "ann"), Player("SHA256:bob", "bob"), Player(
    "SHA256:cleo", "cleo")



def staked_pool(tmp_path, clock: Clock) -> tuple[Club, House]:
    club = Club(Store(tmp_path / "club.db"), reconnect_timeout=60, clock=clock,
                rng=random.Random(2), bot_delay=0)
    club.house = House(tmp_path / "club.db")
    return club, club.house


def test_a_pool_left_by_everybody_closes_and_returns_the_stakes(tmp_path):
    clock = Clock()
    club, house = staked_pool(tmp_path, clock)
    opts = TableOptions("classic", club=ClubOptions(pool="loser_out", stake=2))
    lt, _ = club.create(ANN, opts)
    club.sit(lt.code, BOB)
    club.sit(lt.code, CLEO)
    for seat in range(3):
        club.connected(lt, seat)
    escrowed = house.ledger.purse(ANN.id)
    assert escrowed < 1000  # the first round's stake is in escrow
    for seat in range(3):
        club.disconnected(lt, seat)

    clock.now += 30  # within the reconnection time: the table waits for them
    club.sweep()
    assert lt.code in club.tables and not lt.finished

    clock.now += 31
    club.sweep()
    assert lt.code not in club.tables and lt.finished
    assert club.store.table(lt.code).status == "closed"
    assert house.ledger.purse(ANN.id) == 1000 and house.ledger.purse(BOB.id) == 1000
    assert house.ledger.escrow_total() == 0
    assert [r.status for r in RoundStore(club.store).rounds_of(lt.code)] == ["abandoned"]
    assert club.restore() == [] and lt.code not in club.tables  # not brought back


def test_one_player_still_here_keeps_the_pool_open(tmp_path):
    clock = Clock()
    club, _ = staked_pool(tmp_path, clock)
    lt, _ = club.create(ANN, TableOptions("classic", club=ClubOptions(pool="two_in_row")))
    club.sit(lt.code, BOB)
    for seat in range(2):
        club.connected(lt, seat)
    club.disconnected(lt, 1)
    clock.now += 3600
    club.sweep()
    assert lt.code in club.tables and not lt.finished
