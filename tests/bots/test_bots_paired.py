"""The arena names expert variants and compares two runs match by match on the same deals."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pytest

from ecarte_tui.bots.expert import BLEND, INFO_SETS, ExpertBot
from ecarte_tui.bots.paired import BaselineError, compare
from ecarte_tui.bots.sampler import FOLLOW_MISS, LEAD_MISS
from ecarte_tui.bots.spec import bot_from_spec, parse_spec
from ecarte_tui.commands import arena as command


def arena(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    status = command.run(parser.parse_args(list(argv)))
    out = capsys.readouterr()
    return status, out.out, out.err


def baseline_file(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str
                  ) -> tuple[Path, dict]:
    """An arena run's ``--json`` output, written where ``--baseline`` can read it."""
    status, out, _ = arena(capsys, *argv, "--json")
    assert status == 0
    path = tmp_path / "base.json"
    path.write_text(out)
    return path, json.loads(out)


def test_a_spec_sets_the_experts_knobs_and_nothing_else() -> None:
    bot = bot_from_spec(
        "expert:blend=0.95,effort=2,card_policy=0.5,margin=1,info_sets=1", seed=7)
    assert isinstance(bot, ExpertBot)
    assert (bot.blend, bot.effort, bot.card_policy, bot.margin, bot.info_sets, bot.seed) == (
        0.95, 2.0, 0.5, 1.0, True, 7)
    plain = bot_from_spec("expert", seed=7)
    assert isinstance(plain, ExpertBot) and (plain.blend, plain.effort) == (BLEND, 1.0)
    assert plain.info_sets is INFO_SETS
    split = bot_from_spec("expert:bid_effort=2,discard_effort=0.5")
    assert isinstance(split, ExpertBot)
    assert (split.effort, split.bid_effort, split.discard_effort) == (1.0, 2.0, 0.5)
    reading = bot_from_spec("expert:oversample=4,play_misses=0.5")
    assert isinstance(reading, ExpertBot) and reading.oversample == 4.0
    assert reading.misses == (LEAD_MISS * 0.5, FOLLOW_MISS * 0.5)
    assert plain.oversample == 1.0 and plain.misses == (LEAD_MISS, FOLLOW_MISS)
    assert parse_spec("classic") == ("classic", {})


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("classic:blend=1", "only the expert takes options"),
        ("expert:depth=3", "unknown expert option 'depth'"),
        ("expert:blend", "needs a value"),
        ("expert:blend=x", "'x' is not a number"),
        ("expert:blend=1.5", "outside 0..1"),
        ("expert:effort=nan", "outside"),
        ("expert:effort=0", "outside"),
        ("expert:blend=0.5,blend=0.6", "given twice"),
        ("expert:info_sets=0.5", "is a switch"),
        ("expert:oversample=0.5", "outside 1..16"),
        ("expert:play_misses=0", "outside 0.01..6"),
    ],
)
def test_bad_specs_are_refused_with_the_reason(spec: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        bot_from_spec(spec)


def test_the_command_line_refuses_an_unknown_bot(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    with pytest.raises(SystemExit) as exit_:
        parser.parse_args(["expert:blend=2", "easy"])
    assert exit_.value.code == 2
    assert "outside 0..1" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parser.parse_args(["grandmaster", "easy"])
    assert "unknown bot 'grandmaster'" in capsys.readouterr().err


def test_json_lists_every_match_and_its_winner(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = arena(capsys, "classic", "easy", "--games", "12", "--seed", "5",
                           "--rules", "classic,nl", "--json")
    assert status == 0
    summary = json.loads(out)
    for block in summary["presets"].values():
        rows = block["outcomes"]
        assert sorted((p, s) for p, s, _ in rows) == [(p, s) for p in range(6) for s in (0, 1)]
        assert sum(w == 0 for _, _, w in rows) == block["bots"]["classic"]["wins"]


def test_a_run_against_itself_differs_in_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base, _ = baseline_file(capsys, tmp_path, "classic", "easy", "--games", "16", "--seed", "2")
    status, text, _ = arena(capsys, "classic", "easy", "--games", "16", "--seed", "2",
                            "--baseline", str(base))
    assert status == 0
    assert "against the baseline" in text and "+0.0 ± 0.0 points" in text
    assert "0 with another winner" in text


def test_the_paired_difference_is_the_difference_of_the_two_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base, before = baseline_file(capsys, tmp_path, "easy", "classic", "--games", "40",
                                 "--seed", "9")
    status, out, _ = arena(capsys, "random", "classic", "--games", "40", "--seed", "9",
                           "--json", "--baseline", str(base))
    assert status == 0
    now = json.loads(out)
    paired = now["baseline"]["presets"]["classic"]
    assert paired["matches"] == 40
    assert paired["win_rate"] == now["bots"]["random"]["win_rate"]
    assert paired["baseline_win_rate"] == before["bots"]["easy"]["win_rate"]
    assert paired["difference"] == pytest.approx(
        paired["win_rate"] - paired["baseline_win_rate"], abs=1e-4)
    mine = {(p, s): w for p, s, w in now["presets"]["classic"]["outcomes"]}
    theirs = {(p, s): w for p, s, w in before["presets"]["classic"]["outcomes"]}
    assert paired["differ"] == sum(mine[k] != theirs[k] for k in mine) > 0
    assert 0 < paired["ci95_half_width"] < 1


def test_the_interval_counts_a_duplicate_pair_once() -> None:
    # every pair: the new bot wins the first match it lost and loses the second it won,
    # so the pairs cancel exactly: no difference, and no doubt about it
    def run(winners: list[int]) -> dict[str, object]:
        rows = [[i // 2, i % 2, w] for i, w in enumerate(winners)]
        return {"presets": {"classic": {"outcomes": rows}}}

    before = run([1, 0] * 10)
    now = run([0, 1] * 10)
    (row,) = compare(now, before)
    assert row.matches == 20 and row.differ == 20
    assert row.diff == 0 and row.half_width == 0
    # counted as 20 independent matches, it would have looked uncertain
    d = [1, -1] * 10
    assert 1.96 * math.sqrt(sum(x * x for x in d) / 19 / 20) > 0.4


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json", "is not JSON"),
        ('{"seed": 1}', "is not the output of `ecarte arena --json`"),
        ('{"seed": 1, "presets": {"classic": {"outcomes": [["x"]]}}}',
         "is not the output of `ecarte arena --json`"),
        ("\udcff", "is not JSON"),
    ],
)
def test_a_bad_baseline_is_refused_before_anything_is_played(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, says: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content.encode("utf-8", "surrogateescape"))
    status, out, err = arena(capsys, "easy", "classic", "--baseline", str(bad))
    assert status == 2 and out == ""
    assert says in err and "Traceback" not in err


def test_a_baseline_from_other_deals_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base, _ = baseline_file(capsys, tmp_path, "easy", "classic", "--games", "4", "--seed", "1")
    status, out, err = arena(capsys, "easy", "classic", "--games", "4", "--seed", "2",
                             "--baseline", str(base))
    assert status == 2 and out == ""
    assert "seed 1, this run with 2" in err
    status, out, err = arena(capsys, "easy", "classic", "--games", "4", "--seed", "1",
                             "--rules", "nl", "--baseline", str(base))
    assert status == 2 and out == ""
    assert "played classic, this run nl: no matches in common" in err
    status, _, err = arena(capsys, "easy", "classic", "--seed", "1",
                           "--baseline", str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in err
    with pytest.raises(BaselineError):
        compare({"presets": {"classic": {"outcomes": [[0, 0, 1]]}}},
                {"presets": {"classic": {"outcomes": [[0, 0, 0]]}}})
