"""The command line's own checks. Every number a command takes is checked by its parser: a
negative timeout, a zero count, an infinite or non-numeric value is refused with the
option's name (exit 2), before anything starts (``ecarte serve --reconnect-timeout -5``
used to start a server). ``--version`` names the installed release."""

from __future__ import annotations

import pytest

from ecarte_tui.cli import main

REFUSED = [
    (["serve", "--reconnect-timeout", "-5"], "--reconnect-timeout: must be 0 or more seconds"),
    (["serve", "--abandon-after", "0"], "--abandon-after: must be more than 0 seconds"),
    (["serve", "--idle-timeout", "inf"], "--idle-timeout: must be 0 or more seconds"),
    (["serve", "--bot-delay", "nan"], "--bot-delay: must be 0 or more seconds"),
    (["serve", "--max-connections-per-ip", "0"], "--max-connections-per-ip: must be at least 1"),
    (["serve", "--lobby-idle-timeout", "soon"], "--lobby-idle-timeout: not a number: 'soon'"),
    (["host", "--reconnect-timeout", "-1"], "--reconnect-timeout: must be 0 or more seconds"),
    (["bench", "engine", "--seconds", "-1"], "--seconds: must be more than 0 seconds"),
    (["bench", "ssh", "--sessions", "0"], "--sessions: must be at least 1"),
    (["arena", "random", "random", "--jobs", "0"], "--jobs: must be at least 1"),
    (["regret", "first", "--jobs", "-2"], "--jobs: must be at least 1"),
]


@pytest.mark.parametrize(("argv", "message"), REFUSED, ids=[" ".join(a) for a, _ in REFUSED])
def test_a_bad_number_is_refused_by_name(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing was started or written


def test_zero_seconds_is_a_duration_where_it_means_never():
    from ecarte_tui.commands.arg_types import count, seconds

    assert seconds("0") == 0.0 and seconds("2.5") == 2.5 and count()("3") == 3


def test_version_names_the_installed_release(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"ecarte {version('ecarte-tui')}\n"
