"""The local pool against two bots (RULES.md §9): the rotation follows ``Pool`` under 001 and
003, you watch the bots' game from the public view only, `s` skips it, the board and the
dialogs say who plays, who waits and who takes the pool."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from ecarte_tui.engine import KING, Kind, SeatView
from ecarte_tui.engine.cards import card_label
from ecarte_tui.pool import Pool
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.local_game import GameOptions
from ecarte_tui.ui.local_pool import BOT_NAMES, PLAYER, LocalPool, PoolRound
from ecarte_tui.ui.screens.pool_table import PoolTableScreen
from ecarte_tui.ui.settings import Settings
from ecarte_tui.ui.widgets.pool_board import WIDTH, board_lines

from .helpers import ScriptedOpponent, dialog, dialog_text, run, screen_text

ANNE, HENRI = BOT_NAMES
# seed 13, one point a game, first-legal play everywhere: Anne beats you (her turn-up king),
# Henri beats Anne, then you beat Henri and Anne
OPTIONS = GameOptions("random", "classic", target=1, seed=13, first_dealer=1)
POLICY = ScriptedOpponent()
WORD_KEYS = {Kind.PLAY: "p", Kind.PROPOSE: "c", Kind.ACCEPT: "a", Kind.REFUSE: "r"}


def pool_app(rule: str, bot_delay: float = 0.0) -> EcarteApp:
    return EcarteApp(settings=Settings(), options=OPTIONS, opponent=ScriptedOpponent(),
                     bot_delay=bot_delay, save=False, pool=rule)


def _key(view: SeatView) -> str:
    """The key a player presses for what the scripted policy would do."""
    action = POLICY.choose(view)
    if action is None:
        return "x"
    if action == KING:
        return "k"
    if action.kind is Kind.CARD:
        return str(view.hand.index(action.card) + 1)
    return WORD_KEYS[action.kind]


def pool_box_open(app: EcarteApp) -> bool:
    """Whether the box at the end of a game of the pool is open over the table."""
    content = dialog(app)
    return content is not None and content.kind == "pool"


async def play_game(pilot: Pilot[int], app: EcarteApp, timeout: float = 10.0) -> str:
    """Play your game (if it is yours) by keys until the pool's game-over box shows: its
    text."""
    for _ in range(int(timeout / 0.02)):
        await pilot.pause(0.02)
        screen = app.screen
        if pool_box_open(app):
            assert isinstance(screen, PoolTableScreen)  # drawn inside the table
            return dialog_text(app)
        game = app.local
        if not isinstance(screen, PoolTableScreen) or not isinstance(game, PoolRound):
            continue
        seat, table = game.seat, game.table
        if seat is None or screen.update is None or screen.update.view != table.view(seat):
            continue
        if table.status == "play" and table.waiting_for == seat:
            await pilot.press(_key(table.view(seat)))
    raise AssertionError("the pool's game did not end")


@pytest.mark.parametrize("rule", ["loser_out", "two_in_row"])
@run
async def test_the_rotation_follows_the_pool(rule):
    app = pool_app(rule)
    ref = Pool((PLAYER, ANNE, HENRI), rule)
    winners = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(4):
            assert app.pool is not None
            game = app.local
            assert isinstance(game, PoolRound)
            assert game.names == ref.pairing  # the table seats whoever the pool says
            assert game.seat == (ref.pairing.index(PLAYER) if PLAYER in ref.pairing else None)
            text = await play_game(pilot, app)
            m = game.table.match
            assert m.rules.games_to_win == 1 and m.match_winner is not None
            winner = game.names[m.match_winner]
            winners.append(winner)
            ref.record_game(winner)
            assert app.pool.pool == ref
            assert f"game {len(winners)} of the pool" in text
            await pilot.press("enter")
            await pilot.pause()
        assert winners == [ANNE, HENRI, PLAYER, PLAYER]  # you lose, wait, then win twice
        assert isinstance(app.screen, PoolTableScreen)
        assert app.local is not None and app.local.table.names == ref.pairing == (HENRI, PLAYER)
    if rule == "two_in_row":  # 003: only your two wins in a row took a pool
        assert ref.pools_won == {PLAYER: 1, ANNE: 0, HENRI: 0}
        assert "You take pool 1!" in text
    else:  # 001: every game took one
        assert ref.pools_won == {PLAYER: 2, ANNE: 1, HENRI: 1}
        assert "You take pool 4!" in text


@pytest.mark.parametrize(
    ("rule", "pool_line"),
    [("loser_out", "Bot Anne takes pool 1!"),
     ("two_in_row", "Bot Anne: 1 of 2 in a row toward pool 1.")],
)
@run
async def test_the_dialog_says_who_takes_the_pool_and_who_comes_in(rule, pool_line):
    app = pool_app(rule)
    async with app.run_test(size=(80, 24)) as pilot:
        text = await play_game(pilot, app)
        assert "Bot Anne wins game 1 of the pool." in text
        assert pool_line in text
        assert "You wait: Bot Henri comes in against Bot Anne." in text
        assert "Next game  ⏎" in text and "Quit  q" in text
        await pilot.press("enter")
        await pilot.pause()
        text = await play_game(pilot, app)
        assert "You come in against Bot Henri; Bot Anne waits." in text


@run
async def test_while_you_wait_you_see_the_public_table_and_s_skips():
    app = pool_app("two_in_row", bot_delay=30.0)  # the bots would take half a minute a move
    async with app.run_test(size=(80, 24)) as pilot:
        await play_game(pilot, app)  # Anne's turn-up king: you lose at once
        await pilot.press("enter")
        await pilot.pause(0.1)
        screen = app.screen
        game = app.local
        assert isinstance(screen, PoolTableScreen) and isinstance(game, PoolRound)
        assert game.seat is None and screen.seat is None and screen.view_seat is None
        table = game.table
        assert screen.update is not None and screen.update.view.hand == ()
        text = screen_text(app)
        assert "You wait: Bot Henri plays Bot Anne — you come in against the winner" in text
        hidden = [*table.view(0).hand, *table.view(1).hand]
        assert len(hidden) == 10
        assert not [c for c in hidden if card_label(c) in text]  # no bot's card shows
        assert "s Skip" in text  # the key bar offers the skip
        await pilot.press("s")
        text = await play_game(pilot, app, timeout=20.0)  # a liveness bound: 30 s a move
        assert "Bot Henri wins game 2 of the pool." in text
        assert screen.update.view.hand == ()  # the watcher was never sent a hand


@run
async def test_the_board_shows_who_plays_who_waits_and_the_pools():
    app = pool_app("two_in_row", bot_delay=30.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.1)
        assert pool_box_open(app)  # Anne's turn-up king, at once
        await pilot.press("enter")
        await pilot.pause(0.2)
        text = screen_text(app)  # the side column, beside the felt
        assert "Pool (003): 2 in a row" in text and "player    now   row pool" in text
        assert "Bot Henri plays   0    0" in text and "Bot Anne  plays   1    0" in text
        assert "You       waits   0    0" in text
        assert "pool 1 · 1 game played" in text and "Bot Anne beat you" in text
    assert app.pool is not None
    lines = board_lines(app.pool.pool, app.pool.last_line())
    assert all(len(line) <= WIDTH for line in lines)


def test_the_next_game_waits_for_the_last_to_end():
    lp = LocalPool("two_in_row", OPTIONS, 0.0, ScriptedOpponent())
    first = lp.next_round()
    assert first.names == (PLAYER, ANNE) and first.table.rules.games_to_win == 1
    assert first.result is not None  # Anne's turn-up king ends it at the deal
    second = lp.next_round()
    assert second.names == (HENRI, ANNE) and second.seat is None
    with pytest.raises(ValueError, match="not over"):
        lp.next_round()
    assert len(lp.pool.games) == 1  # nothing recorded twice, nothing skipped


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_local_pool_table_screen(snap_compare, size):
    app = pool_app("two_in_row", bot_delay=30.0)

    async def waiting(pilot: Pilot[int]) -> None:
        await play_game(pilot, app)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert isinstance(app.screen, PoolTableScreen) and app.screen.watching

    assert snap_compare(app, run_before=waiting, terminal_size=size)


@run
async def test_the_palette_starts_a_pool_from_home():
    app = EcarteApp(home=True, settings=Settings(bot_level="random"), options=OPTIONS,
                    opponent=ScriptedOpponent(), bot_delay=30.0, save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        assert {"Pool vs two bots (001)", "Pool vs two bots (003)"} <= set(commands)
        commands["Pool vs two bots (001)"].callback()
        await pilot.pause(0.1)
        assert app.pool is not None and app.pool.pool.rule == "loser_out"
        assert any(isinstance(s, PoolTableScreen) for s in app.screen_stack)
        assert isinstance(app.local, PoolRound) and app.local.names == (PLAYER, ANNE)


@run
async def test_quitting_a_pool_saves_nothing():
    from ecarte_tui.ui.saved_games import list_saved
    from ecarte_tui.ui.settings import save_path

    app = EcarteApp(settings=Settings(), options=OPTIONS, opponent=ScriptedOpponent(),
                    bot_delay=30.0, save=True, pool="two_in_row")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_game(pilot, app)
        await pilot.press("enter")  # the bots' game, under way
        await pilot.pause(0.1)
        assert isinstance(app.local, PoolRound) and app.local.in_progress
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    assert not save_path().exists()  # `continue` never offers a pool it cannot restore
    assert list_saved() == []
