"""``ecarte bench ssh`` end to end, small: a real server subprocess, scripted SSH players."""

from __future__ import annotations

import json
import subprocess
import sys

from server_process import REPO


def test_bench_ssh_json_has_the_promised_shape():
    out = subprocess.run(
        [sys.executable, "-m", "ecarte_tui", "bench", "ssh", "--sessions", "4", "--duration",
         "8", "--json"],
        capture_output=True, text=True, timeout=120, cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert set(result) >= {"sessions", "mb_per_session", "latency_ms", "bytes_per_action",
                           "errors"}
    assert result["sessions"] == 4 and result["errors"] == 0, result
    assert set(result["latency_ms"]) == {"p50", "p99"}
    assert result["details"]["actions"] > 0 and result["bytes_per_action"] > 0
    assert 0 < result["mb_per_session"] < 50
    assert out.returncode == 0
