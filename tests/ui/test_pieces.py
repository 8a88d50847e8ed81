"""The pieces without a screen: themes, settings file, rules text, narration, replay steps."""

from __future__ import annotations

from ecarte_tui.engine import PRESETS, Rules, read_ecn
from ecarte_tui.ui.card_art import UNICODE
from ecarte_tui.ui.narration import log_lines, outcome_lines, prompt_for
from ecarte_tui.ui.replay_app import replay_steps
from ecarte_tui.ui.rules_text import rules_markdown
from ecarte_tui.ui.settings import Settings, load_settings, save_settings, settings_path
from ecarte_tui.ui.themes import TABLE_VARIABLES, load_themes

from .helpers import ME, make_table


def test_four_themes_are_found_with_every_table_colour():
    themes = load_themes()
    assert {"felt", "salon", "night", "contrast"} <= set(themes)
    for theme, title in themes.values():
        assert title and set(TABLE_VARIABLES) <= set(theme.variables)


def test_settings_round_trip_and_bad_values_fall_back():
    s = Settings(theme="night", four_colour=True, auto_announce=True, bot_speed="fast")
    save_settings(s)
    assert load_settings() == s
    settings_path().write_text('bot_speed = "warp"\ntarget = "five"\nfour_colour = true\n')
    loaded = load_settings()
    assert loaded.bot_speed == "normal" and loaded.target == 5 and loaded.four_colour
    settings_path().write_text("this is = not toml [")
    assert load_settings() == Settings()


def test_rules_text_follows_the_preset_parameters():
    for name, rules in PRESETS.items():
        text = rules_markdown(rules)
        assert f"{name} rules" in text
    assert "or none" in rules_markdown(PRESETS["regles"])
    assert "at least one" in rules_markdown(PRESETS["classic"])
    assert "**3**" in rules_markdown(PRESETS["nl"])  # a penalised vole scores 3
    assert "11 chips" in rules_markdown(Rules.named("classic", target=11))


def test_prompts_say_what_the_table_waits_for():
    table = make_table(seed=3, first_dealer=1)
    u = table.update(ME)
    p = prompt_for(u.view, u.status, u.waiting_for, ("You", "Bot"), UNICODE)
    assert p.mode == "decide" and "at risk" in p.text


def test_the_card_prompt_names_only_the_number_keys_of_cards_held():
    """It said "1–5" with four cards left, and at the last trick."""
    from ecarte_tui.engine import PLAY

    table = make_table(seed=3, first_dealer=1)
    table.submit(ME, PLAY)
    shown = []
    while table.status == "play":
        seat = table.waiting_for
        view = table.view(seat)
        if seat == ME:
            p = prompt_for(view, table.status, seat, ("You", "Bot"), UNICODE)
            if p.mode == "card":
                shown.append((len(view.hand), p.keys.split(" or ")[0]))
        table.submit(seat, next(a for a in view.legal if a.kind.name == "CARD"))
    assert shown and shown == [(n, "1" if n == 1 else f"1–{n}") for n, _ in shown]
    assert {n for n, _ in shown} >= {1, 5}


def test_log_and_outcome_of_a_played_hand():
    from ecarte_tui.engine import PLAY

    table = make_table(seed=3, first_dealer=1)
    table.submit(ME, PLAY)
    while table.status == "play":
        seat = table.waiting_for
        view = table.view(seat)
        table.submit(seat, next(a for a in view.legal if a.kind.name == "CARD"))
    view = table.view(ME)
    lines = log_lines(view, ("You", "Bot"), UNICODE)
    assert lines[0] == "Hand 1: Bot deals." and 'You: “We play!”' in lines
    assert sum(1 for line in lines if line.startswith("  trick")) == 5
    outcome = outcome_lines(view, ("You", "Bot"))
    assert any("the point" in o or "the vole" in o for o in outcome)


def test_replay_steps_cover_every_move():
    from ecarte_tui.engine import PLAY

    table = make_table(seed=3, first_dealer=1)
    table.submit(ME, PLAY)
    record = read_ecn(table.record_text())
    steps = replay_steps(record)
    assert len(steps) == 2
    a, b = steps[0]
    assert a.hand != b.hand and len(a.hand) == len(b.hand) == 5


def test_the_same_seed_deals_the_same_cards():
    from ecarte_tui.ui.local_game import GameOptions, new_table

    options = GameOptions(level="random", rules="academie", seed=42)
    a, b = new_table(options), new_table(options)
    assert a.draw == b.draw and a.view(0).hand == b.view(0).hand


def test_ui_bench_prints_its_figures_as_json(capsys):
    import argparse
    import json

    from ecarte_tui.ui.bench import run_ui_bench

    assert run_ui_bench(argparse.Namespace(json=True)) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["first_table_s"] > 0
    assert set(result["keypress_ms"]) == {"p50", "p99"}
