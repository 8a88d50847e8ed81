"""The player's settings, kept as TOML in the user's config directory (platformdirs).

A served app is handed its settings and never calls ``save``: a remote player must not be
able to write on the server's disk.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir, user_data_dir

from ..engine import PRESETS

BOT_SPEEDS: dict[str, float] = {"slow": 1.4, "normal": 0.8, "fast": 0.35, "instant": 0.0}
BOT_LEVELS_FALLBACK = ("random",)


@dataclass(frozen=True)
class Settings:
    theme: str = "felt"
    four_colour: bool = False  # spades black, hearts red, diamonds blue, clubs green
    ascii_cards: bool = False  # for terminals without Unicode box drawing and suits
    auto_announce: bool = False  # off by default: forgetting loses the point in the sources
    bot_speed: str = "normal"
    bot_level: str = "expert"
    rules: str = "classic"
    target: int = 5
    games_to_win: int = 1

    @property
    def bot_delay(self) -> float:
        return BOT_SPEEDS.get(self.bot_speed, BOT_SPEEDS["normal"])

    def updated(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/ecarte`` on Linux (platformdirs honours XDG), for tests too."""
    return Path(user_config_dir("ecarte", appauthor=False))


def data_dir() -> Path:
    return Path(user_data_dir("ecarte", appauthor=False))


def settings_path() -> Path:
    return config_dir() / "settings.toml"


def save_path() -> Path:
    """The one saved game of earlier versions; ``saved_games`` moves it in with the others."""
    return data_dir() / "saved.ecn"


def _valid(s: Settings) -> Settings:
    """Replace values that make no sense (a hand-edited file) by the defaults."""
    d = Settings()
    if s.bot_speed not in BOT_SPEEDS:
        s = replace(s, bot_speed=d.bot_speed)
    if s.rules not in PRESETS:
        s = replace(s, rules=d.rules)
    if not 1 <= s.target <= 99:
        s = replace(s, target=d.target)
    if not 1 <= s.games_to_win <= 9:
        s = replace(s, games_to_win=d.games_to_win)
    return s


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings; defaults for anything missing, unreadable or of the wrong type."""
    path = path or settings_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return Settings()
    return settings_from(data)


def settings_from(data: dict[str, Any]) -> Settings:
    """Settings from kept values (a file, a club's store): defaults for anything missing or
    of the wrong type, and for values that make no sense."""
    defaults = Settings()
    values: dict[str, Any] = {}
    for f in fields(Settings):
        v = data.get(f.name)
        default = getattr(defaults, f.name)
        if v is not None and type(v) is type(default):
            values[f.name] = v
    return _valid(Settings(**values))


def _toml_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    text = str(v).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def settings_toml(settings: Settings) -> str:
    lines = ["# Écarté settings: edit here or on the settings screen (F3, or Settings on the "
             "home screen)."]
    lines += [f"{k} = {_toml_value(v)}" for k, v in asdict(settings).items()]
    return "\n".join(lines) + "\n"


def save_settings(settings: Settings, path: Path | None = None) -> None:
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(settings_toml(settings), encoding="utf-8")
    os.replace(tmp, path)
