"""Snapshots of the served club's own screens, as a session sees them: the lobby (empty,
alone or with others here, with tables, with the operator's notice), the join-by-code box
and the first visit's name screen, at 80x24 and 120x40. The club is real (a store in a
temporary directory, seeded table codes); only the SSH transport is left out. Update with
``--snapshot-update`` and look at the SVGs first."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from net.club import Club, TableOptions
from net.club.house import House
from net.club.identity import Identities
from net.screens.club_app import ClubApp, ClubContext
from net.screens.club_notice import Notice
from net.ssh.session_info import SessionInfo
from net.store.club_store import GalleryStore, Store

SIZES = [(80, 24), (120, 40)]
IDS = [f"{w}x{h}" for w, h in SIZES]


def club_context(tmp_path: Path, tables: bool) -> ClubContext:
    store = Store(tmp_path / "club.db")
    club = Club(store, archive_dir=tmp_path / "archive", rng=random.Random(5), bot_delay=60)
    club.house = House(tmp_path / "club.db", galleries=GalleryStore(store))
    if tables:
        anna, ben, cleo = (store.register(f"SHA256:{n}", n) for n in ("anna", "ben", "cleo"))
        lt, _ = club.create(anna, TableOptions())
        club.sit(lt.code, ben)
        club.create(cleo, TableOptions("nl", (("target", "7"),)))
        club.create(ben, TableOptions(opponent="bot:expert"))
    return ClubContext(club, Identities(store), "club.example.org", 2222)


def session(size: tuple[int, int], key: str | None = None) -> SessionInfo:
    return SessionInfo("visitor", key, "192.0.2.7", "xterm-256color", size)


async def settle(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_lobby_empty(snap_compare, tmp_path, size):
    app = ClubApp(club_context(tmp_path, tables=False), session(size))
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_lobby_empty_with_others_here(snap_compare, tmp_path, size):
    """Three other sessions in the club (on this process or others): the empty list says
    so, on a second line."""
    ctx = club_context(tmp_path, tables=False)
    ctx.connected = lambda: 4
    app = ClubApp(ctx, session(size))
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_lobby_with_tables(snap_compare, tmp_path, size):
    app = ClubApp(club_context(tmp_path, tables=True), session(size))
    assert snap_compare(app, terminal_size=size, run_before=settle)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_lobby_with_the_operators_notice(snap_compare, tmp_path, size):
    """The longest notice (200 characters) under the title: three lines at 80 columns, and
    the list still in sight."""
    ctx = club_context(tmp_path, tables=True)
    (tmp_path / "notice").write_text("Restart at 22:00 UTC for an upgrade: your game is kept. "
                                     * 4)
    ctx.notice = Notice(tmp_path / "notice")
    assert ctx.notice.refresh() and len(ctx.notice.text) == 200
    app = ClubApp(ctx, session(size))
    assert snap_compare(app, terminal_size=size, run_before=settle)


def test_join_by_code_box(snap_compare, tmp_path):
    async def press_j(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)

    app = ClubApp(club_context(tmp_path, tables=True), session((80, 24)))
    assert snap_compare(app, terminal_size=(80, 24), run_before=press_j)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_first_visit_name_screen(snap_compare, tmp_path, size):
    app = ClubApp(club_context(tmp_path, tables=False), session(size, key="SHA256:new"))
    assert snap_compare(app, terminal_size=size, run_before=settle)


async def test_the_lobby_lists_the_clubs_tables_open_ones_first(tmp_path):
    """What the snapshot of the lobby with tables shows, asserted on the list itself."""
    ctx = club_context(tmp_path, tables=True)
    app = ClubApp(ctx, session((120, 40)))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert type(app.screen).__name__ == "LobbyScreen"
        rows = app.screen.query_one("#tables", DataTable)
        listed = [rows.get_row_at(i) for i in range(rows.row_count)]
        codes = [lt.code for lt in ctx.club.tables.values()]
        assert sorted(row[0] for row in listed) == sorted(codes)
        assert listed[0][1:4] == ["nl · to 7", "cleo · waiting for a player", "open"]
        assert sorted(row[2] for row in listed[1:]) == ["anna vs ben", "ben vs Bot (expert)"]


def _watching(tmp_path: Path, size: tuple[int, int]) -> ClubApp:
    ctx = club_context(tmp_path, tables=True)
    code = next(lt.code for lt in ctx.club.tables.values() if lt.seats[1].name == "ben"
                and lt.seats[0].name == "anna")
    info = SessionInfo("visitor", None, "192.0.2.7", "xterm-256color", size, f"watch {code}")
    return ClubApp(ctx, info)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_watching_a_table(snap_compare, tmp_path, size):
    assert snap_compare(_watching(tmp_path, size), terminal_size=size, run_before=settle)


@pytest.mark.parametrize("key", ["slash", "g"], ids=["talk", "back"])
def test_a_watchers_boxes(snap_compare, tmp_path, key):
    """The talk box (/) and the box to back a player (g), over the watched table."""
    async def press(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)

    app = _watching(tmp_path, (80, 24))
    assert snap_compare(app, terminal_size=(80, 24), run_before=press)


def bens_table_against_the_bot(tmp_path: Path, size: tuple[int, int]
                               ) -> tuple[ClubContext, str, SessionInfo]:
    """The club with tables, its table of ben against the bot, and ben's session at it."""
    ctx = club_context(tmp_path, tables=True)
    code = next(lt.code for lt in ctx.club.tables.values() if lt.seats[1].is_bot)
    info = SessionInfo("visitor", "SHA256:ben", "192.0.2.7", "xterm-256color", size,
                       f"join {code}")
    return ctx, code, info


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_asked_before_resigning(snap_compare, tmp_path, size):
    """R at one's own table: the question, over the table (ben against the bot)."""
    ctx, code, info = bens_table_against_the_bot(tmp_path, size)

    async def resign(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("R")
        await settle(pilot)
        assert type(pilot.app.screen).__name__ == "AskScreen"

    assert snap_compare(ClubApp(ctx, info), terminal_size=size, run_before=resign)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_settings_kept_with_the_key(snap_compare, tmp_path, size):
    """F3 in the lobby of a player with a key: the box says his changes are kept for his
    next visits (a guest's for the session)."""
    ctx = club_context(tmp_path, tables=False)
    ctx.identities.store.register("SHA256:anna", "anna")
    app = ClubApp(ctx, session(size, key="SHA256:anna"))

    async def settings(pilot: Pilot[None]) -> None:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=settings)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_table_closed_by_the_operator(snap_compare, tmp_path, size):
    """ben at his table against the bot when the operator closes it (ecarte tables
    --close): why, in the banner and the prompt, and only q left to press."""
    from net.commands.tables import close

    ctx, code, info = bens_table_against_the_bot(tmp_path, size)

    async def closed(pilot: Pilot[None]) -> None:
        await settle(pilot)
        close(tmp_path / "club.db", code)
        ctx.club.sweep()
        await settle(pilot)
        assert "operator closed" in str(pilot.app.screen.current_prompt().text)

    assert snap_compare(ClubApp(ctx, info), terminal_size=size, run_before=closed)
