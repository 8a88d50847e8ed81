"""``net/deploy/ecarte.service``: systemd reads it without a complaint, and its command line
is one ``ecarte serve`` runs and stops cleanly on systemd's SIGTERM."""

from __future__ import annotations

import configparser
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from server_process import REPO, ServerProcess, free_port

UNIT = REPO / "net" / "deploy" / "ecarte.service"


def service_section() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string(UNIT.read_text())
    return parser["Service"]


def test_systemd_reads_the_unit_without_a_warning(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    program = service_section()["ExecStart"].split()[0]
    # the unit names the installed program; here it is this checkout's
    here = tmp_path / "ecarte"
    here.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m ecarte_tui \"$@\"\n")
    here.chmod(0o755)
    unit = tmp_path / "ecarte.service"
    unit.write_text(UNIT.read_text().replace(program, str(here)))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


async def test_the_units_command_serves_and_stops_on_sigterm(tmp_path):
    service = service_section()
    argv = shlex.split(service["ExecStart"])
    assert argv[1] == "serve" and service["StateDirectory"] == "ecarte"
    state = tmp_path / "state"  # what systemd gives as ${STATE_DIRECTORY}
    args = [a.replace("${STATE_DIRECTORY}", str(state)) for a in argv[2:]]
    port = free_port()
    args[args.index("--port") + 1] = str(port)  # not 2222: a test must not take a real port
    server = ServerProcess(tmp_path / "unused", port, *args, default_workers=True)
    banner = await server.start()
    try:
        assert f"data:                 {state}" in banner, banner
        key = state / "ssh_host_ed25519_key"
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
        assert (state / "club.db").exists()
    finally:
        code = await server.stop()
    assert code == 0  # SIGTERM (systemd's KillSignal) is a clean stop, not a failure
    assert service["KillSignal"] == "SIGTERM" and service["Restart"] == "on-failure"
    assert not Path(tmp_path / "unused").exists()
