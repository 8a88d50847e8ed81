"""The real ``ecarte`` command in tmux: start a game, play a hand to its end, quit and save.

The command is found as ``$ECARTE_CMD``, then ``<repo>/.venv/bin/ecarte`` (CI), then
``ecarte`` on the PATH, else ``python -m ecarte_tui`` from this checkout.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def ecarte_command() -> tuple[list[str], dict[str, str]]:
    env: dict[str, str] = {}
    if os.environ.get("ECARTE_CMD"):
        return shlex.split(os.environ["ECARTE_CMD"]), env
    venv = REPO / ".venv" / "bin" / "ecarte"
    if venv.exists():
        return [str(venv)], env
    found = shutil.which("ecarte")
    if found:
        return [found], env
    env["PYTHONPATH"] = str(REPO)
    return [sys.executable, "-m", "ecarte_tui"], env


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                             timeout=10)
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "game")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "game", *keys)

    def alive(self) -> bool:
        return "game" in self.run("list-sessions", "-F", "#{session_name}")


# what is on screen -> the key the player presses (first match wins)
MOVES: list[tuple[str, str]] = [
    ("choose who deals", "d"),
    ("deals the first hand.", "Enter"),
    ("You deal the first hand.", "Enter"),
    ("Announce it before the first lead", "k"),
    ("Play the hand as it is", "p"),
    ("a accept · r refuse", "r"),
    ("Choose your discards", "1"),
    ("Your lead", "Enter"),
    ("your card.", "Enter"),
    ("You hold the king of trumps.", "k"),
]
HAND_OVER = ("is over", "wins game", "win game", "the match")


def test_play_a_hand_in_tmux(tmp_path: Path) -> None:
    config, data = tmp_path / "config", tmp_path / "data"
    (config / "ecarte").mkdir(parents=True)
    (config / "ecarte" / "settings.toml").write_text('bot_speed = "fast"\n', encoding="utf-8")
    cmd, extra = ecarte_command()
    env = {"XDG_CONFIG_HOME": str(config), "XDG_DATA_HOME": str(data), "TERM": "xterm-256color",
           **extra}
    line = " ".join(
        ["env", *(f"{k}={shlex.quote(v)}" for k, v in env.items()), *map(shlex.quote, cmd),
         "play", "--seed", "3", "--rules", "academie", "--bot", "easy"]
    )
    tmux = Tmux(f"ecarte-e2e-{uuid.uuid4().hex[:8]}")
    tmux.run("new-session", "-d", "-s", "game", "-x", "100", "-y", "30", line)
    try:
        deadline = time.monotonic() + 60
        screen = ""
        over = False
        while time.monotonic() < deadline:
            time.sleep(0.3)
            screen = tmux.screen()
            if any(word in screen for word in HAND_OVER) and "Next hand" in screen:
                over = True
                break
            for text, key in MOVES:
                if text in screen:
                    if key == "1" and "1 chosen" in screen:
                        key = "Enter"
                    tmux.keys(key)
                    break
        assert over, f"the hand did not end; last screen:\n{screen}"
        assert "Tricks: You" in screen
        tmux.keys("q")  # quit from the end-of-hand dialog: the match goes on, so it is saved
        for _ in range(50):
            time.sleep(0.1)
            if not tmux.alive():
                break
        assert not tmux.alive(), "the game did not quit"
        [saved] = (data / "ecarte" / "saved").glob("*.ecn")  # one file per saved game
        assert "hand" in saved.read_text(encoding="utf-8")
    finally:
        tmux.run("kill-server")
