"""``ecarte play``: sit down at the table against the bot (``--home`` opens the home screen;
``--pool RULE`` plays a pool against two bots)."""

from __future__ import annotations

import argparse
import sys

from ..engine import PRESETS
from ..pool import POOL_RULES


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bot", metavar="LEVEL", help="the bot's level (default: the settings')")
    p.add_argument("--rules", choices=list(PRESETS), help="rule preset (default: the settings')")
    p.add_argument("--target", type=int, metavar="N", help="points to win a game (3, 5, 7, 11…)")
    p.add_argument("--games", type=int, metavar="N", help="games to win the match")
    p.add_argument("--seed", type=int, metavar="N", help="same seed, same cards")
    p.add_argument("--theme", metavar="NAME", help="felt, salon, night or contrast")
    p.add_argument("--home", action="store_true", help="open the home screen first")
    p.add_argument(
        "--pool", choices=list(POOL_RULES), metavar="RULE",
        help="pool écarté against two bots at --bot LEVEL (the loser of each game gives his "
        "seat to the one waiting): loser_out = each win takes the pool (001), two_in_row = "
        "only two wins in a row take it (003); each game of the pool is one game",
    )


def run(args: argparse.Namespace) -> int:
    from ..engine import RulesError
    from ..ui.app import EcarteApp
    from ..ui.local_game import GameOptions
    from ..ui.players import bot_levels
    from ..ui.settings import load_settings

    settings = load_settings()
    if args.theme:
        from ..ui.themes import load_themes

        known = list(load_themes())  # the game's own themes, as in settings and the palette
        if args.theme not in known:
            print(f"ecarte play: unknown theme {args.theme!r} (known: {', '.join(known)})",
                  file=sys.stderr)
            return 2
        settings = settings.updated(theme=args.theme)
    pool = getattr(args, "pool", None)
    if pool is not None and (args.home or args.games is not None):
        what = "--home" if args.home else "--games"
        print(f"ecarte play: --pool cannot go with {what} (a pool starts at once, and each "
              "of its games is one game)", file=sys.stderr)
        return 2
    level = args.bot or settings.bot_level
    if level not in bot_levels():
        print(f"ecarte play: unknown bot level {level!r} (known: {', '.join(bot_levels())})",
              file=sys.stderr)
        if args.bot:
            return 2
        level = bot_levels()[-1]
    options = GameOptions(
        level=level,
        rules=args.rules or settings.rules,
        target=args.target if args.target is not None else (
            settings.target if not args.rules else None),
        games_to_win=args.games if args.games is not None else (
            settings.games_to_win if not args.rules else None),
        seed=args.seed,
    )
    try:
        options.make_rules()
    except RulesError as e:
        print(f"ecarte play: {e}", file=sys.stderr)
        return 2
    app = EcarteApp(settings=settings, home=args.home, options=options, pool=pool)
    result = app.run()
    return int(result or app.return_code or 0)  # (Textual's 1 if the app failed)
