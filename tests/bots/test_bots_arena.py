"""The arena is reproducible for a seed, whatever the number of jobs, and keeps its JSON."""

from __future__ import annotations

import argparse
import json

import pytest

from ecarte_tui.bots.arena import run_pairs, summarize, wilson
from ecarte_tui.commands import arena as command
from ecarte_tui.engine import Rules


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    assert command.run(parser.parse_args([*argv, "--json"])) == 0
    return json.loads(capsys.readouterr().out)


def without_timings(summary: dict) -> dict:
    out = json.loads(json.dumps(summary))
    for b in out["bots"].values():
        b.pop("decision_ms")
    return out


def test_json_contract_and_reproducibility(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "random", "easy", "--games", "20", "--seed", "3")
    assert first["matches"] == 20
    assert set(first["bots"]) == {"random", "easy"}
    for b in first["bots"].values():
        assert isinstance(b["wins"], int)
        assert 0 <= b["win_rate"] <= 1
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_rate"] <= hi <= 1
        assert isinstance(b["points_per_hand"], float)
        assert set(b["decision_ms"]) >= {"p50", "p99"}
    assert sum(b["wins"] for b in first["bots"].values()) == 20
    again = run_json(capsys, "random", "easy", "--games", "20", "--seed", "3")
    assert without_timings(first) == without_timings(again)
    other = run_json(capsys, "random", "easy", "--games", "20", "--seed", "4")
    assert without_timings(first) != without_timings(other)


def test_same_level_twice_is_disambiguated(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "classic", "classic", "--games", "4", "--rules", "academie")
    assert set(out["bots"]) == {"classic#1", "classic#2"}
    # duplicate deals between identical players: each pair is split one-one
    assert out["bots"]["classic#1"]["wins"] == 2


def test_results_do_not_depend_on_jobs() -> None:
    rules = Rules.named("nl")
    one = summarize(("easy", "classic"), run_pairs(("easy", "classic"), rules, 6, 9), rules, 9)
    two = summarize(
        ("easy", "classic"), run_pairs(("easy", "classic"), rules, 6, 9, jobs=2), rules, 9
    )
    assert without_timings(one) == without_timings(two)


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    assert command.run(parser.parse_args(["easy", "random", "--games", "6"])) == 0
    text = capsys.readouterr().out
    assert "Wilson" in text and "easy" in text and "random" in text


def test_wilson_interval() -> None:
    lo, hi = wilson(60, 100)
    assert 0.50 < lo < 0.51 and 0.69 < hi < 0.70
