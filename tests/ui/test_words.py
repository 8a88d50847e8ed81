"""What the game says (issue 12, items 11 and 12): the rules page names its sources and says
per preset how the king is announced; the settings file names the right key; the palette
offers the themes the settings offer, and the choice is kept."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette

from ecarte_tui.engine import PRESETS
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.rules_text import SOURCE_TITLES, rules_markdown
from ecarte_tui.ui.screens.rules import RulesScreen
from ecarte_tui.ui.screens.settings import SettingsScreen
from ecarte_tui.ui.settings import (
    Settings,
    load_settings,
    save_settings,
    settings_path,
    settings_toml,
)
from ecarte_tui.ui.themes import load_themes

from .helpers import make_app, run, settle


def _king(preset: str) -> str:
    text = rules_markdown(PRESETS[preset])
    return text.split("## The king of trumps")[1].split("##")[0]


def test_the_rules_page_reads_as_english_for_every_preset():
    for preset in PRESETS:
        intro = rules_markdown(PRESETS[preset]).split("\n\n")[1]
        assert "the rules of the modern" not in intro and "rules of the rules" not in intro
        assert "These are " in intro
    assert "These are the modern English rules." in rules_markdown(PRESETS["classic"])


def test_every_rule_names_its_sources():
    for preset in PRESETS:
        text = rules_markdown(PRESETS[preset])
        body = text.split("## Sources")[0]
        for paragraph in body.split("\n## ")[1:]:  # every section cites at least one source
            assert "*(" in paragraph, paragraph
        for code, title in SOURCE_TITLES.items():
            assert f"**{code}**: {title}" in text
    # a parameter changed from the preset cites where that value comes from, and says so
    text = rules_markdown(PRESETS["classic"].__class__.named("classic", target=3))
    assert "*quick écarté* *(004)*" in text and "`target` 3" in text


def test_the_king_is_shown_or_not_as_each_source_says():
    assert "without having to show the king" in _king("academie")  # 000
    assert "**shows it**" in _king("classic")  # 001
    for preset in ("regles", "nl"):  # 002, 004 do not say
        assert "does not say that he shows it" in _king(preset)
    assert "not whether it is shown" in _king("britannica")  # 003
    for preset in PRESETS:
        assert "without showing it" not in _king(preset)


def test_the_settings_file_names_the_settings_key():
    header = settings_toml(Settings()).splitlines()[0]
    assert "(F3" in header and "(s)" not in header


@run
async def test_the_palette_offers_the_settings_themes_and_keeps_the_choice():
    app = make_app(save=True)
    titles = {title for _theme, title in load_themes().values()}
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.search_themes()
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        shown = app.screen.query_one(CommandList)
        for _ in range(250):  # the palette gathers its hits in the background
            if shown.option_count >= len(titles):
                break
            await pilot.pause(0.02)
        offered = {str(shown.get_option_at_index(i).prompt) for i in range(shown.option_count)}
        assert offered == titles  # the game's four, not Textual's own themes
        await pilot.press(*"night", "enter")
        await pilot.pause()
        assert app.theme == "night"
        await pilot.press("f3")
        assert isinstance(app.screen, SettingsScreen)
        assert app.screen.query_one("#theme").value == "night"
    assert load_settings().theme == "night"


@run
async def test_a_theme_the_game_does_not_have_falls_back_and_the_file_is_left():
    save_settings(Settings(theme="nord"))  # a Textual theme, or a hand-edited name
    before = settings_path().read_text(encoding="utf-8")
    app = EcarteApp(home=True)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.theme == "felt"
        await pilot.press("f3")
        options = app.screen.query_one("#theme")._options  # (title, name) pairs
        assert {name for _title, name in options} == set(load_themes())
        await pilot.press("escape")
    assert settings_path().read_text(encoding="utf-8") == before


@run
async def test_f2_on_the_home_screen_shows_the_rules_chosen_there():
    app = EcarteApp(home=True, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#rules").value = "nl"
        app.screen.query_one("#target").value = 3
        await pilot.pause()
        await pilot.press("f2")
        assert isinstance(app.screen, RulesScreen)
        text = app.screen.query_one("#rules-text").source
        assert "nl rules" in text and "*quick écarté*" in text


def test_play_takes_only_the_games_themes(capsys):
    from ecarte_tui.cli import main

    assert main(["play", "--theme", "nord"]) == 2  # Textual's, not one of the game's
    err = capsys.readouterr().err
    assert "unknown theme 'nord'" in err and all(name in err for name in load_themes())
