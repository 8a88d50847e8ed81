"""``ecarte bench ssh`` end to end, small: a real server subprocess, scripted SSH players.

The bench is a benchmark: these tests check the shape and the arithmetic of its figures,
never how fast anything was."""

from __future__ import annotations

import json
import math
import pstats
import subprocess
import sys
from pathlib import Path

import pytest
from server_process import REPO

IDLE = 0.5
"""Seconds of each idle window (not 1: a figure per session must differ from one per second
of a session)."""


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ecarte_tui", "bench", "ssh", "--sessions", "2", *args],
        capture_output=True, text=True, timeout=240, cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def _number(value: object) -> float:
    assert isinstance(value, int | float) and not isinstance(value, bool), value
    assert math.isfinite(value), value
    return float(value)


def test_bench_ssh_json_has_the_promised_shape():
    out = _bench("--duration", "3", "--idle-seconds", str(IDLE), "--json")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(result) >= {"sessions", "mb_per_session", "latency_ms", "bytes_per_action",
                           "errors", "server_cpu_ms_per_action", "idle_cpu_ms_per_session_s",
                           "idle_bytes_per_session_s"}
    assert result["sessions"] == 2 and result["errors"] == 0, result
    assert set(result["latency_ms"]) == {"p50", "p99"}
    d = result["details"]
    assert d["actions"] > 0 and result["bytes_per_action"] > 0
    assert 0 < result["mb_per_session"] < 50
    assert out.returncode == 0

    # CPU per action: the window's CPU over the window's actions
    per_action = _number(result["server_cpu_ms_per_action"])
    window_ms = _number(d["server_cpu_ms_in_window"])
    assert window_ms >= 0 and per_action >= 0
    assert per_action == pytest.approx(window_ms / d["actions"], abs=2e-3)
    assert _number(d["window_seconds"]) > 0

    # idle: two windows (lobby, then tables), all-in figures per session and second
    idle = d["idle"]
    assert idle["seconds"] == IDLE
    lobby, table = idle["lobby"], idle["table"]
    assert {k: v["sessions"] for k, v in lobby["kinds"].items()} == {"lobby": 1}
    assert {k: v["sessions"] for k, v in table["kinds"].items()} == {"seated": 2, "waiting": 1}
    for group in (lobby, table):
        assert group["sessions"] == sum(k["sessions"] for k in group["kinds"].values())
        assert group["bytes"] == sum(k["bytes"] for k in group["kinds"].values()) >= 0
        assert group["session_seconds"] == group["sessions"] * IDLE
        assert _number(group["cpu_ms"]) >= 0
        assert _number(group["cpu_ms_per_session_s"]) == pytest.approx(
            group["cpu_ms"] / group["session_seconds"], abs=1e-3)
        assert _number(group["bytes_per_session_s"]) == pytest.approx(
            group["bytes"] / group["session_seconds"], abs=0.1)
        for kind in group["kinds"].values():
            assert _number(kind["bytes_per_session_s"]) >= 0
            assert 0 <= kind["silent_sessions"] <= kind["sessions"]
            assert (kind["bytes"] == 0) == (kind["last_bytes_at_s"] is None)
            assert kind["frames"] >= 0 and (kind["bytes"] > 0 or kind["frames"] == 0)
    session_s = lobby["session_seconds"] + table["session_seconds"]
    cpu = _number(result["idle_cpu_ms_per_session_s"])
    sent = _number(result["idle_bytes_per_session_s"])
    assert cpu == idle["cpu_ms_per_session_s"] >= 0
    assert sent == idle["bytes_per_session_s"] >= 0
    assert cpu == pytest.approx((lobby["cpu_ms"] + table["cpu_ms"]) / session_s, abs=1e-3)
    assert sent == pytest.approx((lobby["bytes"] + table["bytes"]) / session_s, abs=0.1)
    assert _number(idle["server_alone_cpu_ms_per_s"]) >= 0
    assert d["profile"] is None and d["server_exit_code"] == 0


def test_bench_ssh_profile_is_written_when_the_bench_stops_the_server(tmp_path: Path):
    """The server is profiled over the measured play only (the bench signals the start and
    the end of the window), the stats are written and the text report prints them; with
    --idle-seconds 0 there is no idle phase."""
    prof = tmp_path / "server.prof"
    out = _bench("--duration", "3", "--idle-seconds", "0", "--profile", str(prof))
    assert out.returncode == 0, out.stdout + out.stderr
    assert prof.exists(), out.stderr
    names = {func for (_file, _line, func) in pstats.Stats(str(prof)).stats}  # type: ignore[attr-defined]
    assert "redraw" in names  # the tables' screens were drawn in the window
    assert "serve" not in names  # start-up and the logins before the window are not in it
    assert "server CPU:" in out.stdout and "idle:" not in out.stdout
    assert "top 25 by cumulative time" in out.stderr and "ncalls" in out.stderr


async def test_a_host_whose_guest_stopped_is_not_counted_as_an_error():
    """The end of a run: a guest that stopped playing (it saw the match end once the
    measurement was over) leaves its host's new table empty, which is not a fault; a host
    whose guest is still playing and never comes is one (the wait's own timeout)."""
    import asyncio

    import pytest

    from net.bench.ssh_bench import _first, _HostStopped

    stopped = asyncio.Event()

    async def never() -> None:
        await asyncio.Event().wait()

    async def times_out() -> None:
        await asyncio.sleep(0.01)
        raise TimeoutError("'Écarté ·' never appeared")

    stopped.set()
    with pytest.raises(_HostStopped):
        await _first(never(), stopped.wait(), stopped=_HostStopped)
    with pytest.raises(TimeoutError, match="never appeared"):
        await _first(times_out(), asyncio.Event().wait(), stopped=_HostStopped)
    assert await _first(asyncio.sleep(0, "seated"), never(), stopped=_HostStopped) is None
