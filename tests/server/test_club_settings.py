"""A player's settings (theme, cards, the king) are his, kept with his key in the club's
store: changed in one visit, they are there at the next, on any worker or machine; a
guest's last for the session; a store away costs the change's keeping, not the session."""

from __future__ import annotations

import asyncio
import sqlite3

from server_harness import Seat, club_server, first_visit, new_key, play_the_bot

from ecarte_tui.ui.settings import Settings, settings_from
from net.screens.club_app import ClubApp
from net.store.club_store import Store

F3, TAB, SPACE, ESC = b"\x1bOR", b"\t", b" ", b"\x1b"


def _app_of(server, name: str) -> ClubApp:
    assert server.ssh is not None
    apps = [s.app for s in server.ssh.sessions if isinstance(s.app, ClubApp)
            and s.app.player is not None and s.app.player.name == name]
    assert len(apps) == 1
    return apps[0]


async def _ascii_on(seat: Seat, note: str) -> None:
    """F3 (the box's ``note`` read), the third field (ASCII cards) switched on, the box
    closed."""
    seat.press(F3)
    await seat.wait_for(note)
    seat.press(TAB)
    seat.press(TAB)
    seat.press(SPACE)
    seat.press(ESC)
    await seat.wait_for(" E C A R T E ")  # (the title without its accent: ASCII)


async def test_settings_changed_in_one_visit_are_there_at_the_next(tmp_path):
    key = new_key()
    async with club_server(tmp_path) as server:
        anna = await first_visit(server.port, "anna", key)
        await anna.wait_for("You are anna")
        await _ascii_on(anna, "Kept with your key")
        app = _app_of(server, "anna")
        assert app.settings.ascii_cards and app.player is not None
        player_id = app.player.id
        await anna.close()
        assert server.identities.store.settings_of(player_id)["ascii_cards"] is True
    async with club_server(tmp_path) as again:  # (a restart, as another worker would be)
        back = await Seat.connect(again.port, "anna", key=key)
        await back.wait_for(" E C A R T E ")  # (ASCII from the start)
        assert _app_of(again, "anna").settings.ascii_cards
        await back.close()


async def test_a_guests_settings_last_for_the_session(tmp_path):
    async with club_server(tmp_path) as server:
        gus = await Seat.connect(server.port, "gus")
        await gus.wait_for("a guest")
        await _ascii_on(gus, "Kept for this session")
        app = next(s.app for s in server.ssh.sessions if isinstance(s.app, ClubApp))
        assert app.settings.ascii_cards
        rows = server.identities.store._db.execute(
            "SELECT COUNT(*) FROM player_settings").fetchone()[0]
        assert rows == 0
        await gus.close()


async def test_settings_not_kept_while_the_store_is_away_say_so(tmp_path, monkeypatch):
    key = new_key()
    async with club_server(tmp_path) as server:
        anna = await first_visit(server.port, "anna", key)
        await anna.wait_for("You are anna")
        store = server.identities.store

        def away(*_args: object) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(type(store), "keep_settings", away)
        await _ascii_on(anna, "Kept with your key")
        await anna.wait_for("cannot reach its records")
        assert _app_of(server, "anna").settings.ascii_cards  # (applied all the same)
        await anna.close()


def test_the_store_keeps_each_players_settings_and_reads_back_only_sense(club_db_target):
    store = Store(club_db_target)
    assert store.settings_of("SHA256:anna") is None
    store.keep_settings("SHA256:anna", {"theme": "salon", "four_colour": True})
    store.keep_settings("SHA256:anna", {"theme": "salon", "ascii_cards": True})  # replaced
    store.keep_settings("SHA256:ben", {"bot_speed": "warp", "target": "five"})
    anna = settings_from(store.settings_of("SHA256:anna") or {})
    assert anna == Settings(theme="salon", ascii_cards=True)
    # values that make no sense (an older or newer version's) give the defaults
    assert settings_from(store.settings_of("SHA256:ben") or {}) == Settings()


async def test_the_bot_speed_a_player_kept_paces_the_bot_at_his_table(tmp_path):
    """The club's bots move ``--bot-delay`` apart (here a minute); a player who chose
    "instant" on an earlier visit plays his bot at once. The setting used to do nothing
    in a club."""
    key = new_key()
    async with club_server(tmp_path, bot_delay=60.0) as server:
        anna = await first_visit(server.port, "anna", key)
        await anna.wait_for("You are anna")
        player = _app_of(server, "anna").player
        assert player is not None
        await anna.close()
        server.identities.store.keep_settings(player.id, {"bot_speed": "instant"})
        anna = await Seat.connect(server.port, "anna", key=key)
        await play_the_bot(anna)
        lt = next(iter(server.club.tables.values()))
        assert lt.bot_pace == 0.0
        assert [b.delay for b in lt.bots if b is not None] == [0.0]
        # the bot's first move comes without the club's minute of waiting: she deals (or
        # the bot took the deal, and she plays her hand and leads), and the bot answers
        table = lt.table
        assert table is not None
        screen = await anna.wait_for("Draw for the deal")
        if "who deals the first hand?" in screen:
            anna.press(b"d")
        else:
            anna.press(b"\r")
            await anna.wait_for("We play!")
            anna.press(b"p")
            screen = await anna.wait_for("lead")
            if "announce the king" in screen.lower() or "I have the king" in screen:
                anna.press(b"k")  # (she holds it: announced, as the sources would have it)
                await anna.wait_for("the king!")
            anna.press(b"1")
        bot = 1 - lt.seat_of(player.id)  # type: ignore[operator]
        for _ in range(200):
            hand = table.match.hand
            if hand is not None and any(seat == bot for seat, _a in hand.actions):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the bot did not move:\n{anna.text()}")
        await anna.close()


def test_normal_is_the_clubs_pace_and_a_watcher_sets_none(tmp_path):
    import random

    from net.club import Club, TableOptions
    from net.store import Player

    store = Store(tmp_path / "club.db")
    club = Club(store, archive_dir=tmp_path / "archive", rng=random.Random(2), bot_delay=0.8)
    anna = Player("SHA256:anna", "anna")
    lt, _ = club.create(anna, TableOptions(opponent="bot:expert"))
    club.pace_bots(lt, 0.35)
    assert lt.bot_pace == 0.35
    club.pace_bots(lt, None)  # "normal": the club's
    assert lt.bot_pace is None
