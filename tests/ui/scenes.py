"""The screens and decision prompts the snapshot tests draw, each reached from a seeded deal.

Each scene builds an app and a ``run_before`` that drives it to the screen to draw.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.pilot import Pilot

from ecarte_tui.engine import Phase
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.settings import Settings

from .helpers import ME, ScriptedOpponent, make_app, make_table, settle

Before = Callable[[Pilot[object]], Awaitable[None]]
Scene = Callable[[str], tuple[EcarteApp, Before]]


async def _nothing(pilot: Pilot[object]) -> None:
    await pilot.pause()


def _settled(*keys: str) -> Before:
    async def before(pilot: Pilot[object]) -> None:
        await settle(pilot)
        for key in keys:
            await pilot.press(key)
            await settle(pilot)

    return before


def home(theme: str) -> tuple[EcarteApp, Before]:
    return EcarteApp(home=True, settings=Settings(theme=theme), save=False), _nothing


def draw(theme: str) -> tuple[EcarteApp, Before]:
    table = make_table(seed=1, rules="academie", first_dealer=None)
    return make_app(table, settings=Settings(theme=theme)), _settled()


def choose_dealer(theme: str) -> tuple[EcarteApp, Before]:
    table = make_table(seed=1, rules="classic", first_dealer=None)
    return make_app(table, settings=Settings(theme=theme)), _settled()


def decide(theme: str) -> tuple[EcarteApp, Before]:
    return make_app(make_table(seed=3, first_dealer=1), settings=Settings(theme=theme)), _settled()


def answer(theme: str) -> tuple[EcarteApp, Before]:
    table = make_table(seed=3, first_dealer=ME)
    return make_app(table, ScriptedOpponent(decide="propose"), Settings(theme=theme)), _settled()


def discard(theme: str) -> tuple[EcarteApp, Before]:
    app = make_app(make_table(seed=3, first_dealer=1), settings=Settings(theme=theme))

    async def before(pilot: Pilot[object]) -> None:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("2", "4")

    return app, before


def illegal_card(theme: str) -> tuple[EcarteApp, Before]:
    table = make_table(seed=1, first_dealer=ME)
    app = make_app(table, ScriptedOpponent(decide="play"), Settings(theme=theme))

    async def before(pilot: Pilot[object]) -> None:
        await settle(pilot)
        view = table.view(ME)
        legal = {a.card for a in view.legal}
        wrong = next(i for i, c in enumerate(view.hand) if c not in legal)
        await pilot.press(str(wrong + 1))

    return app, before


def mid_hand(theme: str) -> tuple[EcarteApp, Before]:
    """Two tricks played: the last trick, the trick in progress, chips and the log."""
    table = make_table(seed=3, first_dealer=1)
    app = make_app(table, settings=Settings(theme=theme))

    async def before(pilot: Pilot[object]) -> None:
        await settle(pilot)
        await pilot.press("p")
        for _ in range(6):
            await settle(pilot)
            view = table.view(ME)
            if len(view.tricks) >= 2 and view.to_move == ME:
                break
            if view.phase is Phase.TRICKS and view.to_move == ME:
                await pilot.press("enter")

    return app, before


def king_prompt(theme: str) -> tuple[EcarteApp, Before]:
    table = make_table(seed=6, first_dealer=1)
    return make_app(table, settings=Settings(theme=theme)), _settled("p")


def king_gate(theme: str) -> tuple[EcarteApp, Before]:
    table = make_table(seed=10, rules="regles", first_dealer=ME)
    app = make_app(table, ScriptedOpponent(decide="play"), Settings(theme=theme))
    return app, _settled()


async def _play_out(pilot: Pilot[object]) -> None:
    app = pilot.app
    assert isinstance(app, EcarteApp) and app.table is not None
    table = app.table
    await settle(pilot)
    await pilot.press("p")
    for _ in range(12):
        await settle(pilot)
        if table.status != "play":
            break
        if table.view(ME).to_move == ME:
            await pilot.press("enter")
    await settle(pilot)


def hand_over(theme: str) -> tuple[EcarteApp, Before]:
    return make_app(make_table(seed=3, first_dealer=1), settings=Settings(theme=theme)), _play_out


def game_over(theme: str) -> tuple[EcarteApp, Before]:
    table = make_table(seed=3, first_dealer=1, target=1)
    return make_app(table, settings=Settings(theme=theme)), _play_out


def rules(theme: str) -> tuple[EcarteApp, Before]:
    return make_app(make_table(seed=3, first_dealer=1), settings=Settings(theme=theme)), \
        _settled("f2")


def help_screen(theme: str) -> tuple[EcarteApp, Before]:
    return make_app(make_table(seed=3, first_dealer=1), settings=Settings(theme=theme)), \
        _settled("question_mark")


def settings(theme: str) -> tuple[EcarteApp, Before]:
    return make_app(make_table(seed=3, first_dealer=1), settings=Settings(theme=theme)), \
        _settled("f3")


def four_colour_ascii(theme: str) -> tuple[EcarteApp, Before]:
    look = Settings(theme=theme, four_colour=True, ascii_cards=True)
    return make_app(make_table(seed=3, first_dealer=1), settings=look), _settled()


SCENES: dict[str, Scene] = {
    "home": home,
    "draw": draw,
    "choose_dealer": choose_dealer,
    "decide": decide,
    "answer": answer,
    "discard": discard,
    "illegal_card": illegal_card,
    "mid_hand": mid_hand,
    "king_prompt": king_prompt,
    "king_gate": king_gate,
    "hand_over": hand_over,
    "game_over": game_over,
    "rules": rules,
    "help": help_screen,
    "settings": settings,
    "four_colour_ascii": four_colour_ascii,
}
