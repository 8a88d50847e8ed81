"""Every theme's text reaches WCAG AA contrast (4.5:1) against what it is drawn on.

Two checks per theme file (``themes/*.toml``):

* the named parts the table draws (seat tags, chips, prompt, key bar, cards' ink on their
  faces, the keys written in a card's frame, the banner), resolved by Textual for that theme
  as the widgets resolve them (``theme_styles.theme_style``), including states no scene
  below happens to reach (at risk, the king, a speech bubble, a hint, each banner);
* every character of the screens a player meets (home, with a select focused and open,
  notices, the draw, a decision, a refused card, a trick, the end of a hand and of a
  game, rules, help, settings), read cell by cell from Textual's composited screen: the
  colours as drawn, translucency and text opacity already blended. (The four-colour inks
  and the card under the cursor are among the named parts above.)

Not counted, as WCAG 2.2 (1.4.3) does not count them:

* box drawing and block characters (card frames, card backs, slots, borders, scrollbars):
  they are not text (non-text contrast, 1.4.11, asks 3:1 of a control's boundary only);
* a faded card, which may not be played now: it is dimmed on purpose to show exactly that,
  and "text that is part of an inactive user interface component" is exempt; its key
  digit does nothing while it is faded;
* a disabled widget (Continue with no saved game), inactive for the same reason;
* the table behind a modal dialog, dimmed and out of reach until the dialog closes.
"""

from __future__ import annotations

import asyncio
from functools import lru_cache

import pytest
from rich.cells import cell_len
from rich.color import Color as RichColor
from rich.style import Style
from textual.pilot import Pilot
from textual.widget import Widget

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings
from ecarte_tui.ui.theme_styles import theme_style
from ecarte_tui.ui.themes import load_themes
from ecarte_tui.ui.widgets.chips import ChipsPanel
from ecarte_tui.ui.widgets.felt_board import FeltBoard
from ecarte_tui.ui.widgets.key_bar import KeyBar
from ecarte_tui.ui.widgets.prompt_bar import PromptBar

from . import scenes
from .helpers import make_app, make_table, settle

AA = 4.5
THEMES = sorted(load_themes())


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


@lru_cache(maxsize=4096)
def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_formula() -> None:
    """The formula itself, on WCAG's own reference points."""
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((255, 255, 255), (255, 255, 255)) == pytest.approx(1.0)
    assert contrast((0x76, 0x76, 0x76), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)


def _rgb(color: RichColor | None) -> tuple[int, int, int] | None:
    if color is None:
        return None
    t = color.get_truecolor()
    return (t.red, t.green, t.blue)


def _hex(rgb: tuple[int, int, int] | None) -> str:
    if rgb is None:
        return "default"
    r, g, b = rgb
    return f"#{r:02x}{g:02x}{b:02x}"


def _not_text(ch: str) -> bool:
    """Blank, box drawing or block elements: frames, card backs, borders, scrollbars."""
    return ch.isspace() or 0x2500 <= ord(ch) <= 0x259F


# ------------------------------------------------------------------ named parts


def _pair(style: Style, below: Style) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    fg = _rgb(style.color) or _rgb(below.color)
    bg = _rgb(style.bgcolor) or _rgb(below.bgcolor)
    assert fg is not None and bg is not None, f"undefined colour in {style}"
    return fg, bg


def _named_pairs(screen: TableScreen) -> dict[str, tuple[Style, Style]]:
    """Each named text part and the style of what it is drawn on."""
    board = screen.query_one(FeltBoard)
    chips = screen.query_one(ChipsPanel)
    prompt = screen.query_one(PromptBar)
    keys = screen.query(KeyBar).first()
    felt, side = board.rich_style, chips.rich_style
    p = board.palette()
    parts: dict[str, tuple[Style, Style]] = {}
    for name in ("seat--name", "seat--role", "seat--risk", "seat--king", "seat--speech",
                 "card--label"):
        parts[name] = (theme_style(board, name), felt)
    for name in ("card--label", "chip--won", "chip--left"):
        parts[f"side {name}"] = (theme_style(chips, name), side)
    for name in ("text", "wait", "keys", "error", "hint"):
        parts[f"prompt--{name}"] = (theme_style(prompt, f"prompt--{name}"), prompt.rich_style)
    for name in ("keybar--key", "keybar--description"):
        parts[name] = (theme_style(keys, name), keys.rich_style)
    for suit in ("red", "black", "blue", "green"):
        # a card's ink on its face; the key digit in the frame of a card and of the one
        # under the cursor
        parts[f"card--{suit}"] = (p.face + getattr(p, suit), felt)
    parts["card key in frame"] = (p.face + p.edge, felt)
    parts["card key under the cursor"] = (p.face + p.highlight, felt)
    parts["stock count"] = (p.face, felt)
    return parts


async def _banner_pairs(pilot: Pilot[object], screen: TableScreen) -> dict[str, Style]:
    found = {}
    for severity in ("warning", "watching", "error", "info"):
        screen.set_banner("The opponent is away", severity)
        await pilot.pause()
        found[f"banner {severity}"] = screen.query_one("#banner", Widget).rich_style
    screen.set_banner(None)
    return found


@pytest.mark.parametrize("theme", THEMES)
def test_named_parts_reach_aa(theme: str) -> None:
    async def check() -> list[str]:
        app = make_app(make_table(seed=3, first_dealer=1), settings=Settings(theme=theme))
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, TableScreen)
            await screen.mount(KeyBar())  # the server's key line (the local game's: Footer)
            await pilot.pause()
            bad = []
            for name, (style, below) in _named_pairs(screen).items():
                fg, bg = _pair(style, below)
                if contrast(fg, bg) < AA:
                    bad.append(f"{name}: {_hex(fg)} on {_hex(bg)} {contrast(fg, bg):.2f}")
            for name, style in (await _banner_pairs(pilot, screen)).items():
                fg, bg = _pair(style, style)
                if contrast(fg, bg) < AA:
                    bad.append(f"{name}: {_hex(fg)} on {_hex(bg)} {contrast(fg, bg):.2f}")
            return bad

    assert asyncio.run(check()) == []


# ------------------------------------------------------------------ whole screens


def _home_select(*keys: str) -> scenes.Scene:
    """The home screen with the keyboard on the first select (``keys`` then pressed)."""

    def scene(theme: str) -> tuple[EcarteApp, scenes.Before]:
        app, _ = scenes.home(theme)

        async def before(pilot: Pilot[object]) -> None:
            await pilot.pause()
            app.screen.query_one("#level").focus()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()

        return app, before

    return scene


def _toasts(theme: str) -> tuple[EcarteApp, scenes.Before]:
    """The home screen with a notice of each severity (a saved game, a warning, an error)."""
    app, _ = scenes.home(theme)

    async def before(pilot: Pilot[object]) -> None:
        await pilot.pause()
        for severity in ("information", "warning", "error"):
            app.notify(f"A {severity} for the player.", title=severity.title(),
                       severity=severity, timeout=60)  # type: ignore[arg-type]
        for _ in range(5):
            await pilot.pause()
            if len(app.screen.query("Toast")) == 3:
                break
        assert len(app.screen.query("Toast")) == 3

    return app, before


SCREENS: dict[str, scenes.Scene] = {
    "home": scenes.home,
    "home select focused": _home_select(),
    "home select open": _home_select("enter", "down"),
    "notices": _toasts,
    "draw": scenes.draw,
    "decide": scenes.decide,
    "illegal card": scenes.illegal_card,
    "mid hand": scenes.mid_hand,
    "hand over": scenes.hand_over,
    "game over": scenes.game_over,
    "rules": scenes.rules,
    "help": scenes.help_screen,
    "settings": scenes.settings,
}


def _inactive(app: EcarteApp, widget: Widget, bg: tuple[int, int, int]) -> bool:
    """A cell exempt from the contrast rule (see the module's docstring)."""
    if widget is app.screen or widget.disabled or widget._self_or_ancestors_disabled:
        return True
    if isinstance(widget, FeltBoard):
        return bg == _rgb(widget.palette().faded.bgcolor)
    return False


def _low_contrast_cells(app: EcarteApp) -> dict[str, set[str]]:
    """Text drawn below AA on the screen as composited now: pair -> the characters."""
    screen = app.screen
    update = screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    bad: dict[str, set[str]] = {}
    for y, line in enumerate(update.strips):  # type: ignore[attr-defined]
        x = 0
        for strip in line:
            for segment in strip:
                if segment.control:
                    continue
                style = segment.style or Style()
                fg, bg = _rgb(style.color), _rgb(style.bgcolor)
                for ch in segment.text:
                    width = cell_len(ch)
                    if not _not_text(ch):
                        if fg is None or bg is None:
                            key = f"{_hex(fg)} on {_hex(bg)}"
                            bad.setdefault(key, set()).add(ch)
                        elif contrast(fg, bg) < AA:
                            widget, _ = screen.get_widget_at(x, y)
                            if not _inactive(app, widget, bg):
                                key = (f"{type(widget).__name__}#{widget.id}: {_hex(fg)} on "
                                       f"{_hex(bg)} {contrast(fg, bg):.2f}")
                                bad.setdefault(key, set()).add(ch)
                    x += width
    return bad


async def _show_theme(pilot: Pilot[object], app: EcarteApp, theme: str) -> None:
    """Switch the running app to ``theme`` as the settings screen or the palette does."""
    app.theme = theme
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_screen_reaches_aa(screen: str) -> None:
    """Each screen is reached once and read in every theme, switched as a player switches
    them (``test_a_theme_switch_draws_what_a_fresh_start_draws`` shows that a switch draws
    every cell as a start in that theme does)."""

    async def check() -> list[str]:
        found = []
        app, before = SCREENS[screen](THEMES[0])
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await before(pilot)
            await pilot.pause()
            for theme in THEMES:
                if app.theme != theme:
                    await _show_theme(pilot, app, theme)
                for pair, chars in _low_contrast_cells(app).items():
                    found.append(f"{theme}: {pair} {''.join(sorted(chars))!r}")
        return found

    assert asyncio.run(check()) == []


def _cells(app: EcarteApp) -> list[tuple[str, str, str]]:
    """Every cell of the composited screen: character, ink and background."""
    update = app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens)
    cells = []
    for line in update.strips:  # type: ignore[attr-defined]
        for strip in line:
            for segment in strip:
                if segment.control:
                    continue
                style = segment.style or Style()
                ink, paper = _hex(_rgb(style.color)), _hex(_rgb(style.bgcolor))
                cells += [(ch, ink, paper) for ch in segment.text]
    return cells


@pytest.mark.parametrize("screen", ["mid hand", "home select open"])
def test_a_theme_switch_draws_what_a_fresh_start_draws(screen: str) -> None:
    """A theme chosen while playing recolours every cell (felt, cards, chips, prompt, open
    lists) exactly as starting in that theme does: what a player switching themes sees,
    and what lets the scan above read one screen in every theme."""

    async def draw(start: str, shown: str) -> list[tuple[str, str, str]]:
        app, before = SCREENS[screen](start)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await before(pilot)
            await pilot.pause()
            if shown != start:
                await _show_theme(pilot, app, shown)
            return _cells(app)

    first, last = THEMES[0], THEMES[-1]
    switched = asyncio.run(draw(first, last))
    fresh = asyncio.run(draw(last, last))
    assert switched == fresh
    assert switched != asyncio.run(draw(first, first))  # the switch did recolour


def test_the_scan_sees_low_contrast() -> None:
    """The scan is not blind: a label made grey on grey is reported."""

    async def check() -> dict[str, set[str]]:
        app, _ = scenes.home("felt")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            label = app.screen.query_one("#home-subtitle", Widget)
            label.styles.color = "#777777"
            label.styles.background = "#666666"
            await pilot.pause()
            return _low_contrast_cells(app)

    assert any("#777777 on #666666" in pair for pair in asyncio.run(check()))
