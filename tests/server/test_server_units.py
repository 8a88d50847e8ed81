"""The club server's small parts, without sockets: commands, names, presence, lobby rows,
the club's new bookkeeping, the scripted player and its terminal, and the watcher's table."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pyte
import pytest

from ecarte_tui.engine import Rules
from ecarte_tui.table import Table
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.card_art import UNICODE, short_label
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings
from net.bench.lite_screen import LiteScreen
from net.bench.screen_player import DONE, ENTER, Move, next_move
from net.club import Club, ClubError, TableOptions
from net.club.identity import Identities, is_guest
from net.game_server import ServerConfig
from net.screens.new_table_screen import options_from
from net.screens.presence import away_banner, clock_text, counting_down, may_claim
from net.screens.table_rows import rules_text, table_row
from net.ssh.game_commands import allow_command, parse_command
from net.store import Player, Store, StoreError


class FirstLegal:
    name = "first"

    def choose(self, view):
        return view.legal[0] if view.my_turn else None


def make_club(tmp_path: Path, now: list[float] | None = None) -> Club:
    clock = (lambda: now[0]) if now is not None else None
    kw = {"clock": clock} if clock else {}
    return Club(Store(tmp_path / "c.db"), archive_dir=tmp_path / "archive",
                rng=random.Random(2), bot_factory=lambda level, seed: FirstLegal(),
                bot_delay=0, reconnect_timeout=300, **kw)


def test_only_join_and_watch_with_a_code_are_commands():
    assert parse_command("join kxrt").code == "KXRT"
    assert parse_command("  watch ABCD ").verb == "watch"
    for bad in ("join", "join ABCDE", "join AB1D", "ls", "join ABCD; ls", "play ABCD", ""):
        assert not allow_command(bad)
    assert parse_command(None) is None


def test_names_suggested_unique_reserved_and_guests(tmp_path):
    ids = Identities(Store(tmp_path / "s.db"))
    assert ids.suggest("anna") == "anna"
    ids.register("SHA256:a", "anna")
    assert ids.suggest("Anna") == "Anna2"
    assert ids.suggest("root@box!") == "rootbox"
    assert ids.suggest("x") == "player" and ids.suggest("guest") == "player"
    with pytest.raises(StoreError, match="kept for the server"):
        ids.register("SHA256:b", "Guest-1")
    with pytest.raises(StoreError, match="taken"):
        ids.register("SHA256:b", "ANNA")
    g1, g2 = ids.guest(), ids.guest()
    assert g1.name != g2.name and is_guest(g1) and g1.id != g2.id
    assert ids.store.player(g1.id) is None  # never stored
    with pytest.raises(StoreError, match="kept for the server"):
        ids.register("SHA256:c", g1.name)
    ids.release(g1)
    assert ids.known("SHA256:a") == Player("SHA256:a", "anna")


def test_countdown_banner_for_players_and_watchers(tmp_path):
    now = [0.0]
    club = make_club(tmp_path, now)
    lt, _ = club.create(Player("k1", "anna"), TableOptions())
    club.sit(lt.code, Player("k2", "ben"))
    club.connected(lt, 0)
    club.connected(lt, 1)
    assert away_banner(club, lt, 0) is None
    assert not counting_down(club, lt, 0) and not counting_down(club, lt, None)
    club.disconnected(lt, 1)
    now[0] = 48.2
    assert away_banner(club, lt, 0) == ("Waiting for ben to reconnect (4:12)", "warning")
    assert away_banner(club, lt, 1) is None  # ben reads nothing about himself
    assert "ben" in away_banner(club, lt, None)[0]
    assert not may_claim(club, lt, 0)
    # the screen ticks (to count down) for those who read the clock, and only for them
    assert counting_down(club, lt, 0) and counting_down(club, lt, None)
    assert not counting_down(club, lt, 1)
    now[0] = 300.0
    text, severity = away_banner(club, lt, 0)
    assert "did not come back: w take the win · b play on" in text and severity == "error"
    assert may_claim(club, lt, 0) and not may_claim(club, lt, 1) and not may_claim(club, lt, None)
    # the time is out: nothing on the banner changes by itself any more, no tick
    assert not counting_down(club, lt, 0) and not counting_down(club, lt, None)
    assert clock_text(0.2) == "0:01" and clock_text(0) == "0:00" and clock_text(61) == "1:01"


def test_club_watchers_cancel_sweep_and_lobby_rows(tmp_path):
    now = [0.0]
    club = make_club(tmp_path, now)
    heard: list[str] = []
    anna, ben = Player("k1", "anna"), Player("k2", "ben")
    lt, _ = club.create(anna, TableOptions("nl", (("target", "3"), ("ace_high", "yes"))))
    lt.listeners.append(lambda t: heard.append("table"))
    with pytest.raises(ClubError, match="not started"):
        club.watch(lt.code)
    row = table_row(club, lt, "k1")
    assert row.state == "your seat · open" and row.rules == "nl · to 3 · ace high"
    club.sit(lt.code, ben)
    assert heard  # the creator's waiting screen hears the game start
    club.watch(lt.code)
    assert table_row(club, lt, "k3").watchers == "1" and not table_row(club, lt, "k3").joinable
    club.unwatch(lt)
    assert club.seats_of("k2") == [(lt, 1)]
    # an open table whose creator left is closed after the reconnection time
    open_lt, _ = club.create(Player("k3", "cleo"), TableOptions())
    club.connected(open_lt, 0)
    club.disconnected(open_lt, 0)
    assert open_lt in club.lobby_tables()
    now[0] = 301.0
    assert open_lt not in club.lobby_tables()  # abandoned: hidden from others...
    assert open_lt in club.lobby_tables("k3")  # ...not from its own player
    club.sweep()
    assert open_lt.code not in club.tables
    assert club.store.table(open_lt.code).status == "cancelled"
    assert rules_text(Rules.named("regles")) == "regles · to 5 · best of 3"


def test_record_counts_finished_matches(tmp_path):
    store = Store(tmp_path / "s.db")
    store.create_table("AAAA", {}, ("k1", "k2"), ("a", "b"), "", "finished")
    store.save_table("AAAA", winner="k1")
    store.create_table("BBBB", {}, ("k2", "k1"), ("b", "a"), "", "finished")
    store.save_table("BBBB", winner="k2")
    store.create_table("CCCC", {}, ("k1", None), ("a", None), "", "open")
    assert store.record_for("k1") == (2, 1) and store.record_for("k9") == (0, 0)


def test_new_table_dialog_keeps_only_what_differs_from_the_preset():
    assert options_from("classic", 5, 1, False, "human") == TableOptions("classic", (), "human")
    opts = options_from("regles", 7, 1, True, "bot:easy")
    assert opts.overrides == (("target", "7"), ("games_to_win", "1"), ("ace_high", "yes"))
    assert opts.rules().target == 7 and opts.rules().ace_high


def test_lite_screen_reads_what_pyte_reads_even_cut_anywhere():
    stream = (b"\x1b[?1049h\x1b[?7l\x1b[?25l\x1b[1;1H\x1b[1;38;5;230;48;5;23m"
              b"\xc3\x89cart\xc3\xa9 \xc2\xb7"
              b" hand 3\x1b[0m\x1b[2;5H10\xe2\x99\xa5 K\xe2\x99\xa0\x1b]0;title\x07\x1b[3;1Hend"
              b"\x1b[?2026$p\x1b[24;70Hcorner\x1b[5;78Hoverflowing")
    screen = pyte.Screen(80, 24)
    pyte.ByteStream(screen).feed(stream)
    for cut in range(1, len(stream)):
        lite = LiteScreen(80, 24)
        lite.feed(stream[:cut])
        lite.feed(stream[cut:])
        assert lite.text() == "\n".join(screen.display), cut


def test_scripted_player_answers_the_prompts():
    rng = random.Random(0)
    assert next_move("You drew higher: who deals the first hand?", rng).key == b"d"
    assert next_move("Choose your discards (1 to 5)\n… · none chosen yet", rng).key == b"1"
    assert next_move("Choose your discards (1 to 5)\n… · 1 chosen: K♠", rng).key == ENTER
    assert next_move("ben led 7♠: your card.", rng).key == ENTER
    assert next_move("a accept · r refuse", rng).key in (b"a", b"r")
    assert next_move("ben to play…", rng) is None
    assert next_move("You win the match!", rng) is DONE
    # the draw's box with a notice over its button, the prompt behind it: Enter closes it
    covered = ("│    Draw for the deal     │\n│  Conti▌ You play as guest-115.\n"
               " p “We play!” · c “Cards!”")
    assert next_move(covered, rng) == Move(ENTER, "close the draw")
    assert next_move("Draw for the deal: You 8♦\n p “We play!” · c “Cards!”", rng).why == (
        "play or propose")  # the log's line is not the box


def test_server_config_names_a_reachable_host(tmp_path):
    assert ServerConfig(tmp_path, host="127.0.0.1").reach_host() == "127.0.0.1"
    assert ServerConfig(tmp_path, public_host="club.example.org").reach_host() == (
        "club.example.org")
    assert ServerConfig(tmp_path, host="0.0.0.0").reach_host() not in ("", "0.0.0.0")


def test_watcher_table_screen_shows_backs_and_offers_no_move():
    async def main():
        table = Table.new(Rules.named("classic"), ("anna", "ben"), seed=5, first_dealer=1)
        table.submit(0, table.match.legal_actions(0)[0])  # a first word, so there is a log
        app = EcarteApp(table=table, seat=None, settings=Settings(), served=True)  # type: ignore[arg-type]
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.watching
            assert screen.banner is not None and "Watching" in screen.banner[0]
            for action in ("pick", "confirm", "word", "next_hand", "hint", "pass_king"):
                assert screen.check_action(action, ("play",)) is False
            prompt = screen.current_prompt()
            assert prompt.mode == "wait" and "watching" in prompt.keys
            hands = [table.match.hands[s] for s in (0, 1)]
            hidden = {c for s in (0, 1) for c in range(32) if hands[s] >> c & 1}
            hidden.discard(table.match.hand.up)
            shown = " ".join(str(w.render()) for w in screen.query("*") if w.display)
            for card in hidden:
                assert short_label(card, UNICODE) not in shown
            await pilot.press("enter", "1", "p")  # nothing happens, nothing breaks
            assert table.match.hand is not None and len(table.match.hand.actions) == 1

    asyncio.run(main())


def test_guests_of_two_processes_of_one_club_get_different_names(club_db_target):
    """Each worker of `ecarte serve` had its own count: two strangers at one table were
    both "guest-1". Two stores on one database stand for two processes."""
    first, second = Identities(Store(club_db_target)), Identities(Store(club_db_target))
    names = [ids.guest().name for ids in (first, second, second, first)]
    assert names == ["guest-1", "guest-2", "guest-3", "guest-4"]
    # a process started later goes on from the club's count, not from 1
    assert Identities(Store(club_db_target)).guest().name == "guest-5"
