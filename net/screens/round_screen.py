"""What a club table screen adds for tables played in rounds (pool, French rule): the pool
board, following the rotation to the next round, and the adviser's offer of the seat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.club import pool_tables
from net.screens.pool_board import PoolBoard
from net.screens.presence import seat_name

if TYPE_CHECKING:
    from net.screens.club_table_screen import ClubTableScreen


def player_id(screen: ClubTableScreen) -> str | None:
    player = getattr(screen.app, "player", None)
    return getattr(player, "id", None)


def mount_pool_board(screen: ClubTableScreen) -> None:
    """On a pool table's screen, players, the one waiting and watchers alike."""
    if screen.lt.options.club.pool is None:
        return

    def mount() -> None:
        sides = screen.query("#side")
        if sides and sides.first().is_attached and not screen.query(PoolBoard):
            sides.first().mount(PoolBoard(screen.lt, id="pool-board"), before="#log")

    if not screen.is_attached:
        return  # replaced already (a new round in a burst): mounting would fail the app
    if screen.query("#side") and screen.query_one("#side").is_attached:
        mount()
    else:  # a screen replaced in a burst may not have its panel yet
        screen.call_after_refresh(mount)


def follow_new_round(screen: ClubTableScreen) -> bool:
    """A new round began at this table: the app moves this session to its new place."""
    lt = screen.lt
    if lt.rounds is None or lt.table is None or lt.table is screen.table:
        return False
    follow = getattr(screen.app, "follow_round", None)
    if follow is None or not screen.is_attached:
        return False
    follow(lt)
    return True


def round_banner(screen: ClubTableScreen) -> tuple[str, str] | None:
    """The banner for the one waiting in the pool and for an adviser offered the seat."""
    lt = screen.lt
    rounds = lt.rounds
    if rounds is None:
        return None
    me = player_id(screen)
    offer = rounds.offer
    if offer is not None and me == offer.adviser:
        name = pool_tables.name_of(lt, offer.loser)
        return (f"{name} lost: t take his seat (French rule) within "
                f"{screen.club.offer_seconds:g} s", "info")
    if me is not None and lt.seat_of(me) == pool_tables.WAITING_SEAT:
        return (f"You wait your turn in the pool: {seat_name(lt, 0)} vs {seat_name(lt, 1)}"
                " — the loser gives you his seat", "watching")
    return None


def refresh_board(screen: ClubTableScreen) -> None:
    for board in screen.query(PoolBoard):
        board.show()


def may_take_seat(screen: ClubTableScreen) -> bool:
    offer = screen.lt.rounds.offer if screen.lt.rounds is not None else None
    return offer is not None and offer.adviser == player_id(screen)


def take_seat(screen: ClubTableScreen) -> None:
    player = getattr(screen.app, "player", None)
    if player is None:
        return
    screen.club_step(lambda: pool_tables.take_seat(screen.club, screen.lt, player.id,
                                                    player.name))
