"""``ecarte serve --bot-effort``: an operator sizes the expert's search at the club's tables."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pytest

from ecarte_tui.bots import make_bot
from ecarte_tui.bots.expert import ExpertBot
from net.club import Club, TableOptions
from net.commands import serve
from net.game_server import ServerConfig
from net.store import Player, Store


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="ecarte serve")
    serve.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_the_option_reaches_the_server_config(tmp_path: Path) -> None:
    args = parse("--data-dir", str(tmp_path), "--bot-effort", "0.33")
    config = serve.config_from(args)
    assert isinstance(config, ServerConfig)
    assert config.bot_effort == pytest.approx(0.33)
    default = serve.config_from(parse("--data-dir", str(tmp_path)))
    assert isinstance(default, ServerConfig) and default.bot_effort == 1.0


@pytest.mark.parametrize("bad", ["0", "-1", "eleven", "nan", "11"])
def test_a_bad_effort_is_refused_with_a_message(bad: str, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        parse("--bot-effort", bad)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--bot-effort" in err and ("above 0" in err or "not a number" in err)


def test_make_bot_gives_the_expert_its_effort_and_refuses_none() -> None:
    bot = make_bot("expert", 3, 0.5)
    assert isinstance(bot, ExpertBot) and bot.effort == 0.5
    assert make_bot("classic", 3, 0.5).name == "classic"  # a bot that does not search
    with pytest.raises(ValueError, match="above 0"):
        make_bot("expert", 3, 0.0)


def test_the_club_seats_its_expert_with_the_operator_effort(tmp_path: Path) -> None:
    club = Club(Store(tmp_path / "club.db"), rng=random.Random(3), bot_delay=0,
                bot_effort=0.25)
    lt, _ = club.create(Player("k1", "anna"), TableOptions(opponent="bot:expert"))
    runner = lt.bots[1]
    assert runner is not None
    bot = runner.bot
    inner = getattr(bot, "bot", bot)  # a house rule may wrap it
    assert isinstance(inner, ExpertBot) and inner.effort == 0.25
