"""The table's themes: TOML files of colours, registered with Textual's theme system.

Theme files are data, not code, so players can add their own. The wheel ships the repo's
top-level ``themes/`` folder as ``ecarte_tui/_themes``; a source checkout reads it in place.
"""

from __future__ import annotations

import tomllib
from dataclasses import fields
from pathlib import Path

from textual.theme import Theme

import ecarte_tui

DEFAULT_THEME = "felt"

# The table's own colours, beyond Textual's: every theme may set them, and built-in
# Textual themes (picked from the command palette) fall back to these.
TABLE_VARIABLES: dict[str, str] = {
    "felt": "#17603a",
    "felt-edge": "#0f3d26",
    "card-face": "#fbf8ef",
    "card-edge": "#686860",
    "card-red": "#c8102e",
    "card-black": "#1a1a1a",
    "card-blue": "#1f4fbf",
    "card-green": "#16803c",
    "back-a": "#23439a",
    "back-a-pattern": "#6d8be0",
    "back-b": "#8e1c2b",
    "back-b-pattern": "#e07a88",
    "chip": "#f2c94c",
    "chip-spent": "#8fb8a0",
    "cursor": "#ffd54a",
    "speech": "#fff5cc",
}

_THEME_FIELDS = {f.name for f in fields(Theme)} - {"variables", "name"}


class ThemeFileError(ValueError):
    """A theme file that cannot be read as a theme."""


def theme_dirs() -> list[Path]:
    """Where theme files live: inside the installed package first, then the source tree."""
    package = Path(ecarte_tui.__file__).parent
    return [package / "_themes", package.parent / "themes"]


def load_theme_file(path: Path) -> tuple[Theme, str]:
    """One theme and its title, from a TOML file."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ThemeFileError(f"{path.name}: {e}") from None
    name = data.get("name", path.stem)
    if not isinstance(name, str) or "primary" not in data:
        raise ThemeFileError(f"{path.name}: a theme needs a name and a primary colour")
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise ThemeFileError(f"{path.name}: [variables] must be a table")
    kwargs = {k: v for k, v in data.items() if k in _THEME_FIELDS}
    theme = Theme(
        name=name,
        variables={str(k): str(v) for k, v in variables.items()},
        **kwargs,
    )
    return theme, str(data.get("title", name))


def load_themes() -> dict[str, tuple[Theme, str]]:
    """Every theme found, by name (the first folder wins), with its title."""
    found: dict[str, tuple[Theme, str]] = {}
    for folder in theme_dirs():
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            try:
                theme, title = load_theme_file(path)
            except ThemeFileError:
                continue  # a broken theme must not stop the game
            found.setdefault(theme.name, (theme, title))
    return found
