"""The arena is reproducible for a seed, whatever the number of jobs, and keeps its JSON;
it splits the hands by decision type, plays several presets and records its matches."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from ecarte_tui.bots.arena import (
    DECISIONS,
    FIELDS,
    MatchStats,
    count_hands,
    decision_of,
    record_name,
    run_pairs,
    run_presets,
    summarize,
    wilson,
)
from ecarte_tui.commands import arena as command
from ecarte_tui.commands import replay
from ecarte_tui.engine import Rules, read_ecn, summary


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    assert command.run(parser.parse_args([*argv, "--json"])) == 0
    return json.loads(capsys.readouterr().out)


def without_timings(summary: dict) -> dict:
    out = json.loads(json.dumps(summary))
    for s in (out, *out.get("presets", {}).values()):
        for b in s["bots"].values():
            for key in ("decision_ms", "decision_cpu_ms", "decision_ms_by_phase"):
                b.pop(key)
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


# ------------------------------------------------------------------ by decision type


def test_decision_types_add_up_and_penalties_fall_only_on_the_player_at_risk() -> None:
    for preset in ("classic", "britannica", "nl"):
        rules = Rules.named(preset)
        elder_pays = rules.penalized == "elder"
        results = run_pairs(("easy", "classic"), rules, 6, 2)
        seen: set[str] = set()
        for r in results:
            for i in (0, 1):
                t = {d: dict(zip(FIELDS, r.decisions[i][d], strict=True)) for d in DECISIONS}
                assert sum(x["hands"] for x in t.values()) == r.hands
                assert sum(x["at_risk"] for x in t.values()) == r.at_risk[i]
                assert sum(x["penalties"] for x in t.values()) == r.penalties[i]
                assert sum(x["voles"] for x in t.values()) == r.voles[i]
                for d, x in t.items():
                    assert x["penalties"] <= x["at_risk"] <= x["hands"]
                    assert x["penalties"] <= x["lost"]
                    if x["hands"]:
                        seen.add(d)
                # who is at risk follows from the decision and the rules
                assert t["play"]["at_risk"] == t["play"]["hands"]
                assert t["faced_play"]["at_risk"] == 0
                assert t["refuse"]["at_risk"] == (0 if elder_pays else t["refuse"]["hands"])
                assert t["refused"]["at_risk"] == (t["refused"]["hands"] if elder_pays else 0)
                assert t["exchanged"]["at_risk"] == t["unplayed"]["at_risk"] == 0
                assert t["unplayed"]["voles"] == t["unplayed"]["lost"] == 0
        assert {"play", "refuse", "refused", "faced_play", "exchanged"} <= seen
        s = summarize(("easy", "classic"), results, rules, 2)
        for b in s["bots"].values():
            by = b["decisions"]
            assert set(by) == set(DECISIONS)
            assert sum(x["hands"] for x in by.values()) == s["hands"]
            for x in by.values():
                assert 0 <= x["penalty_rate"] <= 1 and 0 <= x["vole_rate"] <= 1


def test_decision_types_match_the_hands_as_recorded(tmp_path: Path) -> None:
    """Recount from the ECN records (what `ecarte replay --json` reports per hand): the hands
    at risk and the penalties are the arena's, decision by decision."""
    results = run_presets(("random", "classic"), [Rules.named("nl")], 3, 8, record=tmp_path)
    for r in results["nl"]:
        assert r.record is not None
        record = read_ecn((tmp_path / r.record).read_text(encoding="utf-8"))
        hands = summary(record)["hands"]
        for i in (0, 1):
            seat = i ^ r.swapped  # the first bot sits in B when the seats are swapped
            letter = "AB"[seat]
            recount = {d: [0, 0] for d in DECISIONS}
            for rec, h in zip(record.match.hands_log, hands, strict=True):
                d = decision_of(rec, seat)
                recount[d][0] += h["at_risk"] == letter
                recount[d][1] += h["at_risk"] == letter and h["complete"] and (
                    h["tricks"][letter] < 3
                )
            for d in DECISIONS:
                assert recount[d] == r.decisions[i][d][1:3]


# ------------------------------------------------------------------ presets


def test_several_presets_are_reported_one_by_one(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "easy", "classic", "--games", "4", "--rules", "decisive")
    presets = out["presets"]
    assert list(presets) == ["classic", "britannica", "nl"]
    assert out["rules"] == "classic,britannica,nl"
    assert out["matches"] == 12 and all(p["matches"] == 4 for p in presets.values())
    assert out["hands"] == sum(p["hands"] for p in presets.values())
    for key in ("easy", "classic"):
        assert out["bots"][key]["wins"] == sum(p["bots"][key]["wins"] for p in presets.values())
    # the rules differ where they should: a refusal puts the elder at risk under
    # britannica and nl, the dealer under classic
    for name, p in presets.items():
        by = [b["decisions"] for b in p["bots"].values()]
        refused_risk = sum(d["refused"]["at_risk"] for d in by)
        refuse_risk = sum(d["refuse"]["at_risk"] for d in by)
        refusals = sum(d["refuse"]["hands"] for d in by)
        assert refusals > 0
        if name == "classic":
            assert refused_risk == 0 and refuse_risk == refusals
        else:
            assert refuse_risk == 0 and refused_risk == refusals
    one = run_json(capsys, "easy", "classic", "--games", "4", "--rules", "nl,classic,nl")
    assert list(one["presets"]) == ["nl", "classic"]
    # a preset alone gives the same numbers as within the group
    alone = run_json(capsys, "easy", "classic", "--games", "4", "--rules", "britannica")
    assert alone["rules"] == "britannica"
    assert without_timings(alone)["bots"] == without_timings(presets["britannica"])["bots"]


def test_text_report_has_a_block_per_preset(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    args = parser.parse_args(["random", "easy", "--games", "2", "--rules", "classic,nl"])
    assert command.run(args) == 0
    text = capsys.readouterr().out
    assert "rules classic," in text and "rules nl," in text
    assert "all presets pooled" in text and "rules classic,nl" in text
    assert "elder plays" in text and "dealer refuses" in text and "after exchange" in text
    assert "CPU" in text and "thread_time" in text and "wall" in text


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--rules", "classic,bogus"], "unknown rules preset 'bogus'"),
        (["--rules", ""], "unknown rules preset ''"),
        (["--record", "{file}/sub"], "cannot write records"),
        (["--games", "0"], "--games"),
    ],
)
def test_bad_options_get_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], says: str
) -> None:
    file = tmp_path / "a-file"
    file.write_text("")
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    args = parser.parse_args(["random", "easy", *(a.format(file=file) for a in argv)])
    assert command.run(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert says in err and "\n" not in err and "Traceback" not in err


# ------------------------------------------------------------------ records


def test_records_replay_to_the_reported_results(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Every match is written (by two workers), and each record replays to the winner and
    the points the arena counted."""
    folder = tmp_path / "games"
    by_preset = run_presets(
        ("random", "easy"), [Rules.named("classic"), Rules.named("nl")], 3, 4, jobs=2,
        record=folder,
    )
    files = sorted(p.name for p in folder.iterdir())
    assert files == sorted(
        record_name(p, pair, s) for p in ("classic", "nl") for pair in range(3)
        for s in (False, True)
    )
    for preset, results in by_preset.items():
        for r in results:
            assert r.record == record_name(preset, r.pair, r.swapped)
            parser = argparse.ArgumentParser()
            replay.add_arguments(parser)
            assert replay.run(parser.parse_args([str(folder / r.record), "--json"])) == 0
            s = json.loads(capsys.readouterr().out)
            assert s["rules"] == preset
            first_seat = "B" if r.swapped else "A"
            other_seat = "A" if r.swapped else "B"
            assert s["match_winner"] == (first_seat if r.winner == 0 else other_seat)
            assert len(s["hands"]) == r.hands
            for i, seat in ((0, first_seat), (1, other_seat)):
                assert sum(h["points"][seat] for h in s["hands"]) == r.points[i]
            record = read_ecn((folder / r.record).read_text(encoding="utf-8"))
            assert record.tags[first_seat] == "random" and record.tags[other_seat] == "easy"
            assert record.tags["Pair"] == str(r.pair)
            # everything the arena counted can be counted again from the record
            again = count_hands(record.match, (1, 0) if r.swapped else (0, 1), MatchStats(-1))
            for name in ("winner", "hands", "points", "voles", "at_risk", "penalties",
                         "decisions"):
                assert getattr(again, name) == getattr(r, name)


def test_record_option_writes_one_file_per_match(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "new" / "dir"
    out = run_json(capsys, "easy", "easy", "--games", "4", "--rules", "classic,britannica",
                   "--record", str(folder), "--jobs", "2")
    assert out["record_dir"] == str(folder)
    files = list(folder.glob("*.ecn"))
    assert len(files) == out["matches"] == 8
    assert not [p for p in folder.iterdir() if p.suffix != ".ecn"]  # no temporary left
    wins = {"easy#1": 0, "easy#2": 0}
    for f in files:
        record = read_ecn(f.read_text(encoding="utf-8"))
        winner = record.match.match_winner
        assert winner is not None
        wins[record.names[winner]] += 1
    assert wins == {k: b["wins"] for k, b in out["bots"].items()}


# ------------------------------------------------------------------ timings


def test_decision_times_are_counted_in_cpu_and_wall(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "classic", "easy", "--games", "4")
    for b in out["bots"].values():
        cpu, wall = b["decision_cpu_ms"], b["decision_ms"]
        assert set(cpu) == set(wall) == {"p50", "p99", "max", "decisions"}
        assert cpu["decisions"] == wall["decisions"] > 0
        assert 0 <= cpu["p50"] <= cpu["p99"] <= cpu["max"]
        phases = b["decision_ms_by_phase"]
        assert phases["before_play"]["decisions"] + phases["tricks"]["decisions"] == (
            cpu["decisions"]
        )
        assert phases["before_play"]["decisions"] > 0 and phases["tricks"]["decisions"] > 0
