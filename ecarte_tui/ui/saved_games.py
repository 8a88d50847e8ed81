"""The saved games: the last ten unfinished games, one ECN file each, newest first.

A game gets its own file the first time it is saved and keeps it, so starting a new game
never replaces another one; a finished game's file is removed. The home screen lists them
with what each one is (rules, bot, score, date). The single ``saved.ecn`` of earlier
versions is moved in as one of them, unchanged. Local play only: a served app never comes
here.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from ..engine import EcnError, read_ecn
from ..engine.shown_text import visible
from .settings import data_dir, save_path

MAX_SAVED = 10
SUFFIX = ".ecn"


def saves_dir() -> Path:
    """``$XDG_DATA_HOME/ecarte/saved/``: one file per saved game."""
    return data_dir() / "saved"


@dataclass(frozen=True)
class SavedGame:
    """One saved game as the home screen shows it; ``error`` says why it cannot be played."""

    path: Path
    saved_at: float  # the file's modification time: when the game was last left
    preset: str = ""
    changed: str = ""  # the rule parameters that differ from the preset, e.g. "to 3"
    level: str = ""
    names: tuple[str, str] = ("", "")  # seat A (the player, as saved here) and seat B
    score: tuple[int, int] = (0, 0)
    games_won: tuple[int, int] = (0, 0)
    games_to_win: int = 1
    error: str | None = None

    @property
    def when(self) -> str:
        """The local date and time it was saved, short: '1 Dec 16:29'."""
        t = time.localtime(self.saved_at)
        return f"{t.tm_mday} {time.strftime('%b %H:%M', t)}"

    def label(self) -> str:
        """One line: date, rules, opponent, score (and games, in a longer match)."""
        if self.error is not None:
            return f"{self.when}  cannot be read: {self.error}"
        rules = self.preset + (f" ({self.changed})" if self.changed else "")
        bot = f"{visible(self.level).capitalize()} bot"  # (the file's Bot tag)
        # columns, so that the list reads as a table in the home screen's 62 columns
        line = f"{self.when:<12} {rules:<15} {bot:<11} you {self.score[0]}–{self.score[1]}"
        if self.games_to_win > 1:
            line += f" (games {self.games_won[0]}–{self.games_won[1]})"
        return line


def _changed(rules: object) -> str:
    diffs: dict[str, object] = rules.differences()  # type: ignore[attr-defined]
    parts = []
    for name, value in diffs.items():
        if name == "target":
            parts.append(f"to {value}")
        elif name == "games_to_win":
            parts.append(f"{value} games")
        else:
            parts.append(f"{name} {value}")
    return ", ".join(parts)


def read_saved(path: Path) -> SavedGame:
    """What a saved file holds; a broken one comes back with its ``error``, untouched."""
    try:
        saved_at = path.stat().st_mtime
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return SavedGame(path, _mtime(path), error="this is not UTF-8 text")
    except OSError as e:
        return SavedGame(path, _mtime(path), error=e.strerror or str(e))
    try:
        record = read_ecn(text)
    except EcnError as e:
        return SavedGame(path, saved_at, error=f"line {e.line}: {e.reason}")
    m = record.match
    return SavedGame(
        path, saved_at, m.rules.preset, _changed(m.rules), record.tags.get("Bot", "random"),
        record.names, (m.scores[0], m.scores[1]), (m.games_won[0], m.games_won[1]),
        m.rules.games_to_win,
    )


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def migrate_legacy() -> Path | None:
    """Move the one ``saved.ecn`` of earlier versions in with the others (its date kept)."""
    old = save_path()
    if not old.is_file():
        return None
    saves_dir().mkdir(parents=True, exist_ok=True)
    new = saves_dir() / f"{time.strftime('%Y%m%d-%H%M%S', time.localtime(_mtime(old)))}" \
        f"-earlier{SUFFIX}"
    if new.exists():
        return None  # moved already (a second app at the same moment): leave it be
    os.replace(old, new)  # a rename keeps the file's modification time
    return new


def list_saved() -> list[SavedGame]:
    """Every saved game, newest first (the earlier single save moved in first)."""
    try:
        migrate_legacy()
    except OSError:
        pass  # an unwritable data folder: the old file stays where it is, and is listed
    paths = sorted(saves_dir().glob(f"*{SUFFIX}")) if saves_dir().is_dir() else []
    if save_path().is_file():
        paths.append(save_path())
    games = [read_saved(p) for p in paths]
    return sorted(games, key=lambda g: (g.saved_at, str(g.path)), reverse=True)


def new_save_path() -> Path:
    """A file for a game saved for the first time; never an existing one."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return saves_dir() / f"{stamp}-{secrets.token_hex(3)}{SUFFIX}"


def write_game(path: Path, text: str) -> None:
    """Save atomically, so a crash never leaves half a record."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def forget(path: Path) -> None:
    """Remove one saved game (finished, or forgotten on the player's say-so)."""
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def to_make_room(games: list[SavedGame]) -> SavedGame | None:
    """The game a new save would push out (the oldest), or None while there is room."""
    if len(games) < MAX_SAVED:
        return None
    return min(games, key=lambda g: (g.saved_at, str(g.path)))
