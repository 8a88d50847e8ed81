"""``net/deploy/ecarte.service``: systemd reads it without a complaint, and its command line
is one ``ecarte serve`` runs and stops cleanly on systemd's SIGTERM; the same for the daily
backup's timer and service, whose command writes a backup and keeps the newest."""

from __future__ import annotations

import configparser
import os
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from server_process import REPO, ServerProcess, free_port

DEPLOY = REPO / "net" / "deploy"
UNIT = DEPLOY / "ecarte.service"
BACKUP_UNITS = ("ecarte-backup.service", "ecarte-backup.timer")


def service_section(unit: Path = UNIT) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys keep their case
    parser.read_string(unit.read_text())
    return parser["Service"]


@pytest.mark.parametrize("names", [("ecarte.service",), BACKUP_UNITS])
def test_systemd_reads_the_units_without_a_warning(tmp_path, names):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    program = service_section()["ExecStart"].split()[0]
    # the units name the installed program; here it is this checkout's
    here = tmp_path / "ecarte"
    here.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m ecarte_tui \"$@\"\n")
    here.chmod(0o755)
    for name in names:
        (tmp_path / name).write_text((DEPLOY / name).read_text().replace(program, str(here)))
    done = subprocess.run([analyze, "verify", *(str(tmp_path / n) for n in names)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr.strip() == "", done.stderr


def test_the_backup_units_command_writes_a_backup_and_keeps_the_newest(tmp_path):
    argv = shlex.split(service_section(DEPLOY / "ecarte-backup.service")["ExecStart"])
    assert argv[1] == "backup" and argv[-1].endswith("/")
    data, kept = tmp_path / "data", tmp_path / "backups"
    args = [a.replace("/var/lib/ecarte", str(data)).replace("/var/backups/ecarte/", f"{kept}/")
            for a in argv[1:]]
    data.mkdir()
    (data / "notice").write_text("back at ten\n")
    keep = int(args[args.index("--keep") + 1])
    kept.mkdir()
    for day in range(1, keep + 3):  # more than it keeps, from earlier days
        (kept / f"ecarte-backup-202611{day:02d}-040000.tar.gz").write_bytes(b"old")
    (kept / "README").write_text("not a backup: left alone\n")
    done = subprocess.run([sys.executable, "-m", "ecarte_tui", *args], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    backups = sorted(p.name for p in kept.glob("ecarte-backup-*"))
    assert len(backups) == keep and (kept / "README").exists()
    assert backups[0] == "ecarte-backup-20261104-040000.tar.gz", "the oldest went"
    newest = kept / backups[-1]
    assert newest.read_bytes() != b"old" and stat.S_IMODE(newest.stat().st_mode) == 0o600
    assert "deleted" in done.stdout and "notice" in done.stdout


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
