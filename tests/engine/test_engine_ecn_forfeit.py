"""A match ended by forfeit in ECN: the free tag ``[Forfeit "B"]`` (B did not come back)
gives the game in progress and the match to the other seat, in ``replay --json`` and in the
text replay; a bad seat is not ECN (status 2), a forfeit on a finished match a rule break (1).
Every other field and exit status stays as ECN.md says."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from engine_support import EXAMPLE, card, play_deal

from ecarte_tui.engine import A, B, EcnError, IllegalAction, Match, Rules, read_ecn, summary
from ecarte_tui.engine import write_ecn as write
from ecarte_tui.engine.replay_text import replay_lines
from ecarte_tui.table import Table

ROOT = Path(__file__).resolve().parents[2]
MID_HAND = EXAMPLE.split("A JH\n")[0]  # hand 1 under way: A played QH, B AH


def tagged(text: str, tag: str) -> str:
    """The record with one more tag after the first (tags come first)."""
    lines = text.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("["))
    lines.insert(at + 1, tag)
    return "\n".join(lines) + "\n"


def tag_line(text: str, tag: str) -> int:
    return text.splitlines().index(tag) + 1


def replay(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "ecarte_tui", "replay", *map(str, args)],
                          capture_output=True, env=env, cwd=ROOT, timeout=60)


def test_forfeit_mid_hand_gives_the_game_and_the_match_to_the_other_seat():
    plain = summary(read_ecn(MID_HAND))
    assert plain["games"][-1]["winner"] is None and plain["match_winner"] is None
    got = summary(read_ecn(tagged(MID_HAND, '[Forfeit "B"]')))
    assert got["games"][-1]["winner"] == "A" and got["match_winner"] == "A"
    # nothing else changes: the score is the one on the table, every hand field as it was
    assert got["games"][-1]["score"] == plain["games"][-1]["score"]
    assert got["hands"] == plain["hands"] and got["params"] == plain["params"]
    assert got.keys() == plain.keys() and got["rules"] == plain["rules"]


def test_forfeit_between_hands_keeps_the_real_score_even_when_the_winner_is_behind():
    """The example ends between hands at A 1, B 2: B leaves, A wins 1-2 by forfeit."""
    got = summary(read_ecn(tagged(EXAMPLE, '[Forfeit "B"]')))
    assert got["games"] == [{"score": {"A": 1, "B": 2}, "winner": "A"}]
    assert got["match_winner"] == "A"
    other = summary(read_ecn(tagged(EXAMPLE, '[Forfeit "A"]')))
    assert other["games"][-1]["winner"] == "B" and other["match_winner"] == "B"


def test_forfeit_between_games_leaves_the_finished_games_alone():
    m = Match(Rules.named("classic", target=1, games_to_win=2))
    play_deal(m, B, "E", False, "play")  # A wins game 1
    text = tagged(write(m), '[Forfeit "A"]')
    got = summary(read_ecn(text))
    assert [g["winner"] for g in got["games"]] == ["A"]  # no game 2 was dealt
    assert got["match_winner"] == "B"


def test_forfeit_before_any_hand():
    got = summary(read_ecn('[Rules "classic"]\n[Forfeit "A"]\n'))
    assert got["hands"] == [] and got["games"] == [] and got["match_winner"] == "B"


def test_the_forfeit_round_trips_and_nothing_can_be_played_after_it():
    rec = read_ecn(tagged(MID_HAND, '[Forfeit "B"]'))
    text = write(rec)
    assert '[Forfeit "B"]' in text
    assert summary(read_ecn(text)) == summary(rec)
    assert list(rec.match.legal_actions(A)) == [] == list(rec.match.legal_actions(B))
    with pytest.raises(IllegalAction, match="B did not come back and A won it by forfeit"):
        rec.match.apply(card("JH"), A)
    table = Table.from_record(text)
    assert table.status == "over" and table.view(A).forfeit == B


def test_the_text_replay_says_who_did_not_come_back():
    rec = read_ecn(tagged(MID_HAND, '[Forfeit "B"]'))
    assert rec.names == ("Anna", "Ben")
    out = list(replay_lines(rec))
    assert "Ben did not come back: Anna wins game 1 by forfeit" in out
    assert out[-1] == "Ben did not come back: Anna wins the match by forfeit, games 1-0"
    assert "The match is in progress." not in out


@pytest.mark.parametrize("value", ["C", "b", "AB", "", "yes"])
def test_a_forfeit_naming_no_seat_is_not_ecn(value):
    tag = f'[Forfeit "{value}"]'
    text = tagged(MID_HAND, tag)
    with pytest.raises(EcnError) as e:
        read_ecn(text)
    assert (e.value.line, e.value.status) == (tag_line(text, tag), 2)
    assert "Forfeit" in e.value.reason and repr(value) in e.value.reason


def test_a_forfeit_on_a_finished_match_is_refused():
    m = Match(Rules.named("classic", target=1, games_to_win=2))
    for dealer in (B, A, B):
        play_deal(m, dealer, "E", False, "play")  # A, B, A: A wins 2 games to 1
    text = tagged(write(m), '[Forfeit "B"]')
    with pytest.raises(EcnError) as e:
        read_ecn(text)
    assert (e.value.line, e.value.status) == (tag_line(text, '[Forfeit "B"]'), 1)
    assert e.value.reason == "B cannot forfeit: the match is over: A won it, 2 games to 1"


def test_replay_command_exit_statuses_for_the_forfeit_tag(tmp_path):
    ok = tmp_path / "ok.ecn"
    ok.write_text(tagged(MID_HAND, '[Forfeit "B"]'))
    r = replay(ok, "--json")
    assert r.returncode == 0 and r.stderr == b""
    got = json.loads(r.stdout)
    assert got["games"][-1]["winner"] == "A" and got["match_winner"] == "A"
    text = replay(ok)
    assert text.returncode == 0 and b"wins the match by forfeit" in text.stdout

    bad = tmp_path / "bad.ecn"
    tag = '[Forfeit "C"]'
    bad.write_text(tagged(MID_HAND, tag))
    r = replay(bad, "--json")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().startswith(f"{bad}:{tag_line(bad.read_text(), tag)}: ")

    m = Match(Rules.named("classic", target=1))
    play_deal(m, B, "E", False, "play")
    over = tmp_path / "over.ecn"
    over.write_text(tagged(write(m), '[Forfeit "A"]'))
    r = replay(over, "--json")
    assert r.returncode == 1 and r.stdout == b"" and b"cannot forfeit" in r.stderr

    helptext = replay("--help").stdout.decode()
    assert '[Forfeit "B"]' in helptext and "match_winner" in helptext


def test_stepping_through_the_record_ends_on_the_forfeit():
    """``ecarte replay --table`` and the club's replay of a finished match: the last step."""
    from ecarte_tui.ui.replay_app import replay_steps

    steps = replay_steps(read_ecn(tagged(MID_HAND, '[Forfeit "B"]')))
    last_a, last_b = steps[-1]
    assert last_a.forfeit == B == last_b.forfeit and last_a.match_winner == A
    assert steps[-2][0].forfeit is None and len(steps) == len(replay_steps(read_ecn(MID_HAND))) + 1


def test_a_forfeited_match_is_written_with_its_tag():
    m = read_ecn(MID_HAND).match
    m.forfeit(A)
    text = write(m)
    assert '[Forfeit "A"]' in text
    assert summary(read_ecn(text))["match_winner"] == "B"


RESIGNED = '[Termination "resigned"]'


def test_a_resignation_is_a_forfeit_said_so_in_every_telling():
    """[Termination "resigned"] beside the Forfeit tag: the same result (the --json is
    unchanged), and the match, the text replay, the replay's last step and the seat's view
    say the player resigned rather than left."""
    text = tagged(tagged(MID_HAND, RESIGNED), '[Forfeit "B"]')
    rec = read_ecn(text)
    assert rec.match.resigned and summary(rec) == summary(read_ecn(tagged(MID_HAND,
                                                                         '[Forfeit "B"]')))
    out = list(replay_lines(rec))
    assert out[-1] == "Ben resigned: Anna wins the match by forfeit, games 1-0"
    with pytest.raises(IllegalAction, match="B resigned and A won it by forfeit"):
        rec.match.apply(card("JH"), A)
    from ecarte_tui.ui.narration import forfeit_text
    from ecarte_tui.ui.replay_app import replay_steps

    last_a, last_b = replay_steps(rec)[-1]
    assert last_a.resigned and last_b.resigned and last_a.forfeit == B
    assert forfeit_text(last_a, ("You", "Ben")) == "Ben resigned: you win the match"
    assert forfeit_text(last_b, ("Anna", "You")) == "You resigned: Anna wins the match"
    table = Table.from_record(write(rec))
    assert table.view(A).resigned and table.status == "over"


def test_a_resigned_match_is_written_with_both_tags_and_a_table_says_it():
    m = read_ecn(MID_HAND).match
    m.forfeit(B, resigned=True)
    text = write(m)
    assert '[Forfeit "B"]' in text and RESIGNED in text
    assert read_ecn(text).match.resigned
    table = Table.from_record(MID_HAND)
    table.resign(A)
    assert table.tags["Termination"] == "resigned" and table.tags["Forfeit"] == "A"
    assert table.tags["Result"].endswith("resigned") and table.view(B).match_winner == B
    assert read_ecn(table.record_text()).match.resigned
