"""Purses, stakes and wagers (004): exact settlement, once only, across a kill -9."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from clubhouse_support import finished_match

from ecarte_tui.engine import Rules
from net.club.clubhouse.purse import (
    STARTING_PURSE,
    VOIDED,
    Ledger,
    LedgerError,
    Outcome,
    game_id,
    match_outcomes,
    max_points_difference,
    split_pot,
    stake_escrow,
)
from net.store.ledger_db import ClubDB

ROOT = Path(__file__).resolve().parents[2]
NL = Rules.named("nl")  # penalty_on_vole = add: a game to 5 is lost by at most 4 + 3 = 7
CLASSIC = Rules.named("classic")  # cap: at most 4 + 2 = 6


@pytest.fixture
def ledger(club_db_target):
    db = ClubDB(club_db_target)
    yield Ledger(db)
    db.close()


def purses(ledger, *players):
    return [ledger.purse(p) for p in players]


def conserved(ledger):
    return ledger.purses_total() + ledger.escrow_total() == ledger.minted()


def test_max_points_difference_follows_the_scoring_rules():
    # target 5: the winner has at most 4 before the tricks of the last hand (a king's point
    # that reaches 5 ends the game at once), then a penalised vole adds 3 (add) or 2 (cap).
    assert max_points_difference(NL) == 7
    assert max_points_difference(CLASSIC) == 6
    assert max_points_difference(Rules.named("nl", target=11)) == 13
    assert stake_escrow(10, NL) == 70


def test_a_staked_game_with_wagers_settles_exactly(ledger):
    g = game_id("ABCD", 1)
    assert g == "ABCD/1"
    ledger.open_game(g, ("anna", "ben"), stake=10, rules=NL)
    # each player puts 10 x 7 = 70 in escrow
    assert purses(ledger, "anna", "ben") == [930, 930]
    ledger.place_wager(g, "w1", "anna", 100)
    ledger.place_wager(g, "w2", "anna", 50)
    ledger.place_wager(g, "w3", "ben", 60)
    assert purses(ledger, "w1", "w2", "w3") == [900, 950, 940]  # escrowed at placement
    assert ledger.escrow_total() == 70 + 70 + 100 + 50 + 60
    assert conserved(ledger)
    ledger.close_betting(g)
    s = ledger.settle(g, "anna", score=(6, 2))
    # stake: 10 a point x (6 - 2) = 40 from ben to anna
    assert s.stake_paid == 40 and not s.already
    assert purses(ledger, "anna", "ben") == [930 + 70 + 40, 930 + 70 - 40]  # 1040, 960
    # wagers: pot 210, ben's side 60 shared by anna's side (150) in proportion:
    # w1 100 + 100*60/150 = 140, w2 50 + 50*60/150 = 70, w3 loses his 60
    assert purses(ledger, "w1", "w2", "w3") == [1040, 1020, 940]
    assert s.credits == {"anna": 110, "ben": 30, "w1": 140, "w2": 70, "w3": 0}
    assert ledger.escrow_total() == 0 and conserved(ledger)
    assert ledger.game(g).status == "settled" and ledger.game(g).score == (6, 2)


def test_split_pot_rounding_is_exact_and_deterministic():
    # pot 37: A-side 10 + 20, B-side 7. Shares 10*7/30 = 2.33 and 20*7/30 = 4.67 -> 2 and 4,
    # the one chip left goes to the larger fraction (wager 2): 12 and 25, B gets 0.
    assert split_pot([(1, "A", 10), (2, "A", 20), (3, "B", 7)], "A") == {1: 12, 2: 25, 3: 0}
    # equal fractions: the earlier wager gets the odd chip (1 + 1/2 each -> 1 + 1, 1 + 0)
    assert split_pot([(1, "A", 1), (2, "A", 1), (3, "B", 1)], "A") == {1: 2, 2: 1, 3: 0}
    # one side empty: everything returned
    assert split_pot([(1, "A", 5), (2, "A", 7)], "B") == {1: 5, 2: 7}
    assert split_pot([(1, "A", 5), (2, "A", 7)], "A") == {1: 5, 2: 7}


def test_settling_twice_pays_once(ledger):
    g = "T/1"
    ledger.open_game(g, ("anna", "ben"), stake=5, rules=CLASSIC)
    ledger.place_wager(g, "w", "ben", 30)
    ledger.place_wager(g, "v", "anna", 20)
    first = ledger.settle(g, "ben", score=(3, 5))
    after = purses(ledger, "anna", "ben", "w", "v")
    again = ledger.settle(g, "ben", score=(3, 5))
    assert again.already and again.credits == first.credits and again.stake_paid == 10
    assert purses(ledger, "anna", "ben", "w", "v") == after == [990, 1010, 1020, 980]
    with pytest.raises(LedgerError, match="already settled"):
        ledger.settle(g, "anna", score=(5, 3))
    with pytest.raises(LedgerError, match="already settled"):
        ledger.void(g)
    assert conserved(ledger)


def test_a_wager_or_stake_that_would_overdraw_is_refused(ledger):
    ledger.open_game("G/1", ("anna", "ben"))
    with pytest.raises(LedgerError, match="would overdraw your purse: you have 1000") as e:
        ledger.place_wager("G/1", "w", "anna", 1001)
    assert e.value.player == "w"
    ledger.place_wager("G/1", "w", "anna", 1000)  # all in is fine
    assert ledger.purse("w") == 0
    ledger.open_game("G/2", ("anna", "ben"))
    with pytest.raises(LedgerError, match="you have 0"):
        ledger.place_wager("G/2", "w", "ben", 1)
    # a stake whose escrow w cannot cover: 100 a point x 7 = 700 > 0
    assert "needs 700 chips in escrow" in ledger.check_stake("w", 100, NL)
    assert ledger.check_stake("anna", 100, NL) is None
    before = ledger.purses_total(), ledger.escrow_total()
    with pytest.raises(LedgerError, match="holds only 0") as e:
        ledger.open_game("G/3", ("anna", "w"), stake=100, rules=NL)
    assert e.value.player == "w"
    assert (ledger.purses_total(), ledger.escrow_total()) == before  # nothing moved
    assert ledger.game("G/3") is None and ledger.purse("anna") == 1000


def test_wagers_only_before_the_first_hand_and_only_by_watchers(ledger):
    ledger.open_game("G/1", ("anna", "ben"))
    with pytest.raises(LedgerError, match="own game"):
        ledger.place_wager("G/1", "anna", "anna", 10)
    with pytest.raises(LedgerError, match="not playing"):
        ledger.place_wager("G/1", "w", "carl", 10)
    with pytest.raises(LedgerError, match="at least 1"):
        ledger.place_wager("G/1", "w", "anna", 0)
    ledger.place_wager("G/1", "w", "anna", 10)
    with pytest.raises(LedgerError, match="already wagered"):
        ledger.place_wager("G/1", "w", "ben", 10)
    ledger.close_betting("G/1")
    with pytest.raises(LedgerError, match="the game has begun"):
        ledger.place_wager("G/1", "v", "anna", 10)
    with pytest.raises(LedgerError, match="no game"):
        ledger.place_wager("X/9", "v", "anna", 10)


def test_void_returns_everything_once(ledger):
    ledger.open_game("G/1", ("anna", "ben"), stake=3, rules=NL)
    ledger.place_wager("G/1", "w", "anna", 40)
    ledger.void("G/1")
    assert ledger.void("G/1").already
    assert purses(ledger, "anna", "ben", "w") == [1000, 1000, 1000]
    with pytest.raises(LedgerError, match="voided"):
        ledger.settle("G/1", "anna", score=(5, 0))


def test_a_forfeit_never_takes_more_than_the_escrow(ledger):
    ledger.open_game("G/1", ("anna", "ben"), stake=10, rules=CLASSIC)  # escrow 60 each
    s = ledger.settle("G/1", "anna", score=(50, 0))
    assert s.stake_paid == 60 and purses(ledger, "anna", "ben") == [1060, 940]


def test_recovery_settles_finished_games_and_keeps_open_ones_in_escrow(ledger):
    for g in ("T/1", "T/2", "T/3"):
        ledger.open_game(g, ("anna", "ben"), stake=1, rules=NL)
        ledger.place_wager(g, "w", "anna", 10)
    outcomes = {"T/1": Outcome("anna", (5, 1)), "T/2": None, "T/3": VOIDED}
    report = ledger.recover(lambda game: outcomes[game.game_id])
    assert report.settled == ("T/1",) and report.still_open == ("T/2",)
    assert report.voided == ("T/3",)
    assert [g.game_id for g in ledger.unsettled()] == ["T/2"]
    assert ledger.escrow_total() == 2 * 7 + 10  # T/2: both stakes and w's wager
    # w: -30 placed, T/1 returned 10 (nobody on ben), T/3 returned 10
    assert ledger.purse("w") == 990
    # anna: -21 escrow, +7 +4 from T/1, +7 from T/3 -> 1000 - 7 + 4
    assert purses(ledger, "anna", "ben") == [997, 989]
    assert conserved(ledger)


def test_match_outcomes_read_a_finished_match():
    m = finished_match(seed=3, rules=Rules.named("regles"))  # two games to win
    outs = match_outcomes(m, ("anna", "ben"))
    assert len(outs) == len(m.games) >= 2
    for o, g in zip(outs, m.games, strict=True):
        assert o == Outcome(("anna", "ben")[g.winner], tuple(g.score))


KILLED_PLACING = """
import os, signal, sys
from pathlib import Path
from ecarte_tui.engine import Rules
from net.store.ledger_db import ClubDB
from net.club.clubhouse.purse import Ledger
ledger = Ledger(ClubDB(Path(sys.argv[1])))
ledger.open_game("K/1", ("anna", "ben"), stake=10, rules=Rules.named("nl"))
ledger.place_wager("K/1", "w1", "anna", 100)
ledger.place_wager("K/1", "w2", "ben", 40)
ledger.close_betting("K/1")
print("placed", flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no close, no commit of anything else
"""

KILLED_MID_WAGER = """
import os, signal, sys
from pathlib import Path
from net.store.ledger_db import ClubDB
from net.club.clubhouse.purse import Ledger
ledger = Ledger(ClubDB(Path(sys.argv[1])))
ledger.open_game("K/2", ("anna", "ben"))
real = Ledger._journal
def die(db, player, delta, reason, game):
    if reason == "wager":  # the purse is debited, the wager row written: not committed
        os.kill(os.getpid(), signal.SIGKILL)
    real(db, player, delta, reason, game)
Ledger._journal = staticmethod(die)
ledger.place_wager("K/2", "w3", "anna", 500)
"""


def run_killed(script: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), str(db)],
        capture_output=True, text=True, env=env, timeout=60,
    )


def test_wagers_survive_a_kill_9_between_placing_and_settling(tmp_path):
    path = tmp_path / "club.db"
    p = run_killed(KILLED_PLACING, path)
    assert p.returncode == -9 and "placed" in p.stdout, p.stderr
    # a new server: reopen the file, find the escrow, recover, settle
    db = ClubDB(path)
    ledger = Ledger(db)
    assert [g.game_id for g in ledger.unsettled()] == ["K/1"]
    assert ledger.game("K/1").status == "playing"
    assert purses(ledger, "anna", "ben", "w1", "w2") == [930, 930, 900, 960]
    assert conserved(ledger)
    # the game is still being played at restart: everything stays in escrow
    assert ledger.recover(lambda g: None).still_open == ("K/1",)
    assert ledger.escrow_total() == 70 + 70 + 140
    # it ends (anna 5, ben 3): stake 10 x 2 = 20; w1 takes w2's 40
    ledger.recover(lambda g: Outcome("anna", (5, 3)))
    assert purses(ledger, "anna", "ben", "w1", "w2") == [1020, 980, 1040, 960]
    assert ledger.settle("K/1", "anna", (5, 3)).already
    assert conserved(ledger) and ledger.escrow_total() == 0
    db.close()


def test_a_kill_9_inside_a_wager_loses_the_whole_wager_not_half(tmp_path):
    path = tmp_path / "club.db"
    p = run_killed(KILLED_MID_WAGER, path)
    assert p.returncode == -9, p.stderr
    ledger = Ledger(ClubDB(path))
    assert ledger.wagers("K/2") == []
    assert ledger.purse("w3") == STARTING_PURSE
    assert ledger.game("K/2").status == "betting"
    ledger.place_wager("K/2", "w3", "anna", 500)  # and the database is still writable
    assert conserved(ledger)


def test_journal_explains_every_purse(ledger):
    ledger.open_game("G/1", ("anna", "ben"), stake=2, rules=CLASSIC)
    ledger.place_wager("G/1", "w", "ben", 25)
    ledger.settle("G/1", "ben", score=(1, 5))
    for p in ("anna", "ben", "w"):
        assert sum(d for d, *_ in ledger.journal(p, limit=100)) == ledger.purse(p)
    assert [r for _, r, _, _ in ledger.journal("w")] == ["wager returned", "wager", "purse opened"]
    assert ledger.richest(2) == [("ben", 1008), ("w", 1000)]


def test_the_ledger_shares_the_servers_database_file_with_the_store(tmp_path):
    from net.store import Store

    path = tmp_path / "server.db"
    store = Store(path)
    db = ClubDB(path)
    store.register("SHA256:a", "anna")
    ledger = Ledger(db)
    ledger.open_game("ABCD/1", ("SHA256:a", "SHA256:b"), stake=1, rules=NL)
    store.create_table("ABCD", {}, ("SHA256:a", "SHA256:b"), ("anna", "ben"), "", "playing")
    assert store.player("SHA256:a").name == "anna" and ledger.purse("SHA256:a") == 993
    tables = {r[0] for r in db.read("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"players", "tables", "club_purses", "club_wagers", "club_games"} <= tables
    assert db.read("PRAGMA journal_mode")[0][0] == "wal"
    store.close()
    db.close()
