"""ECN.md 'ecarte replay': the command end to end, in a subprocess."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from engine_support import EXAMPLE, EXAMPLE_JSON

ROOT = Path(__file__).resolve().parents[2]


def replay(*args, stdin=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "ecarte_tui", "replay", *map(str, args)],
        capture_output=True, env=env, cwd=ROOT, input=stdin, timeout=60,
    )


@pytest.fixture
def write(tmp_path):
    def _write(name, data):
        p = tmp_path / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        return p

    return _write


def test_json_of_a_valid_record_exit_0(write):
    """ECN.md: --json prints one JSON object on stdout, exit status 0."""
    p = write("anna.ecn", EXAMPLE)
    r = replay(p, "--json")
    assert r.returncode == 0 and r.stderr == b""
    got = json.loads(r.stdout)
    want = json.loads(EXAMPLE_JSON)
    assert got["params"]["first_dealer"] == "higher_chooses" and len(got["params"]) == 8
    got.pop("params")
    want.pop("params")
    assert got == want
    assert r.stdout.decode().count("\n") == 1  # one object, one line


def test_game_in_progress_is_valid(write):
    """ECN.md: exit 0 for a valid record, finished or not."""
    p = write("progress.ecn", EXAMPLE.split("A JH")[0])
    r = replay(p, "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout)["hands"][0]["complete"] is False


def test_rule_break_exit_1(write):
    """ECN.md: a rule break: 'FILE:LINE: reason' on stderr, nothing on stdout, status 1."""
    p = write("bad.ecn", EXAMPLE.replace("A king", "B king"))
    r = replay(p, "--json")
    assert r.returncode == 1 and r.stdout == b""
    assert r.stderr.decode() == (
        f"{p}:14: B cannot announce the king: B does not hold KS (spades are trumps)\n"
    )


def test_not_ecn_exit_2(write):
    """ECN.md: not ECN (here an unknown keyword): status 2, 'FILE:LINE: reason'."""
    p = write("junk.ecn", EXAMPLE.replace("A play", "A plays"))
    r = replay(p, "--json")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().startswith(f"{p}:13: ")


def test_unreadable_file_exit_2(tmp_path):
    """ECN.md: a file that cannot be read: status 2, 'FILE:LINE: reason'."""
    missing = tmp_path / "missing.ecn"
    r = replay(missing, "--json")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().startswith(f"{missing}:")
    r = replay(tmp_path, "--json")  # a directory
    assert r.returncode == 2 and r.stdout == b""


def test_not_utf8_exit_2(write):
    """ECN.md: a file that is not UTF-8 text is not ECN: status 2, with the line."""
    p = write("latin1.ecn", EXAMPLE.replace("Ben", "Bén").encode("latin-1"))
    r = replay(p, "--json")
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode() == f"{p}:5: this is not UTF-8 text\n"


def test_standard_input_and_text_replay(write):
    """ECN.md: 'ecarte replay FILE' shows the match move by move ('-' reads standard input)."""
    r = replay("-", "--json", stdin=EXAMPLE.encode())
    assert r.returncode == 0 and json.loads(r.stdout)["games"][0]["score"] == {"A": 1, "B": 2}
    p = write("anna.ecn", EXAMPLE)
    r = replay(p)
    out = r.stdout.decode()
    assert r.returncode == 0 and "Anna" in out and "Ben" in out
    assert "score 1-2" in out


def test_a_names_control_characters_are_printed_as_escapes(write):
    """A record is a file anyone may send: a name that retitles the terminal (OSC 0), clears
    it, or turns the line around (U+202E) is printed with those characters as escapes."""
    name = "Anna\x1b]0;owned\x07\x1b[2J\u202e"
    p = write("evil.ecn", EXAMPLE.replace('"Anna"', f'"{name}"'))
    r = replay(p)
    out = r.stdout.decode()
    assert r.returncode == 0 and "\x1b" not in out and "\u202e" not in out
    assert "A: Anna\\x1b]0;owned\\x07\\x1b[2J\\u202e   B: Ben" in out.splitlines()


def test_a_byte_order_mark_is_not_an_error(write):
    """A record saved by an editor that writes a UTF-8 BOM still reads."""
    p = write("bom.ecn", b"\xef\xbb\xbf" + EXAMPLE.encode("utf-8"))
    r = replay(p, "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["hands"][0]["king"] == "A"


# ------------------------------------------------------------------ ecarte rules


def ecarte(*args, columns=80):
    """The ``ecarte`` command in a subprocess, at a terminal width of ``columns``."""
    env = dict(os.environ, COLUMNS=str(columns))
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("FORCE_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "ecarte_tui", *map(str, args)],
        capture_output=True, env=env, cwd=ROOT, timeout=60,
    )


def test_rules_without_a_preset_lists_them():
    """Issue 12 item 11: ``ecarte rules`` and ``--list`` list the presets with their sources."""
    for args in ((), ("--list",)):
        r = ecarte("rules", *args)
        out = r.stdout.decode()
        assert r.returncode == 0 and r.stderr == b""
        for preset, source in (("classic", "001"), ("academie", "000"), ("regles", "002"),
                               ("britannica", "003"), ("nl", "004")):
            assert f"  {preset}" in out and f"({source})" in out
        assert max(len(line) for line in out.splitlines()) <= 80


def test_rules_of_an_unknown_preset_is_a_clear_error():
    r = ecarte("rules", "piquet")
    assert r.returncode == 2 and r.stdout == b""
    err = r.stderr.decode()
    assert "no preset 'piquet'" in err and "classic, academie, regles, britannica, nl" in err


def test_rules_prints_the_page_f2_shows_with_every_source():
    from ecarte_tui.engine import PRESETS
    from ecarte_tui.ui.rules_text import rules_markdown

    r = ecarte("rules", "nl", "--markdown")
    assert r.returncode == 0 and r.stdout.decode() == rules_markdown(PRESETS["nl"])
    r = ecarte("rules", "academie")
    out = r.stdout.decode()
    assert r.returncode == 0 and "\x1b" not in out  # a pipe gets plain text
    assert "Écarté — academie rules" in out and "(000, 004)" in out and "Sources" in out
    assert "without having to show the king" in " ".join(out.split())
    assert all(len(line) <= 80 and line == line.rstrip() for line in out.splitlines())


def test_rules_needs_no_textual():
    """The command starts fast: it imports Rich, never Textual or the SSH server."""
    code = ("import sys, io, contextlib\nfrom ecarte_tui.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    main(['rules', 'regles'])\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'asyncssh')))")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, cwd=ROOT,
                       timeout=60)
    assert r.returncode == 0 and r.stdout.decode().strip() == "[]", r.stderr


@pytest.mark.parametrize("columns", [80, 120])
def test_rules_screen(snapshot, columns):
    """The page as a terminal of that width shows it (text snapshot; update with
    ``--snapshot-update`` and read the .ambr diff before keeping it)."""
    r = ecarte("rules", "classic", columns=columns)
    assert r.returncode == 0
    assert r.stdout.decode() == snapshot
