"""What a newcomer tripped over at the table (issue 12, items 1-6 and 9): the whole hint,
shown once; marks that change only when the player says so; no key acting on a hidden
table; keys shown that work, and a way out always shown; the king's point never lost
without a word; a score past the target read as it is; nothing cut off at 80×24."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from ecarte_tui.engine import KING, PLAY, Kind, Rules, SeatView, discard
from ecarte_tui.engine.cards import card_label, make_card
from ecarte_tui.table import Table
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.card_art import UNICODE
from ecarte_tui.ui.narration import king_lost_text, log_lines
from ecarte_tui.ui.players import Hint, reason_after_action
from ecarte_tui.ui.screens.help import HelpScreen
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings
from ecarte_tui.ui.widgets.trick import fit_name, lead_tag

from .helpers import (
    ME,
    ScriptedOpponent,
    dialog,
    make_app,
    make_table,
    run,
    screen_text,
    settle,
    table_screen,
)
from .scenes import _play_out


def flat(text: str) -> str:
    """The screen's words with line breaks and runs of spaces made single spaces."""
    return " ".join(text.split())


async def hint_shown(pilot: Pilot[object], screen: TableScreen) -> None:
    """Wait (in turns of the message loop, a bounded number) for the expert's answer."""
    for _ in range(400):
        await pilot.pause(0.01)
        if screen.message and "thinking" not in screen.message:
            await pilot.pause()
            return
    raise AssertionError("the hint never came")


# ---------------------------------------------------------------------- 1, 2: the hint

EXPERT_DISCARD = ("discard 10♠, J♠, 7♣: the treatises' discard; the best of 7 weighed, "
                  "10♠ 7♣, wins the match 1% more often, within the noise of 256 deals")


def fixed_hint(monkeypatch: pytest.MonkeyPatch, table: Table) -> Hint:
    """The expert's answer for the discard of seed 3 (J♠ 10♠ 7♣, as the hand shows them),
    as ``suggest`` words it."""
    hand = table.view(ME).hand
    cards = [c for c in hand if card_label(c) in ("10♠", "J♠", "7♣")]
    mask = sum(1 << c for c in cards)
    hint = Hint(discard(mask), EXPERT_DISCARD)
    monkeypatch.setattr("ecarte_tui.ui.screens.table.hint_for", lambda view: hint)
    return hint


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@run
async def test_the_real_hint_is_shown_whole_and_its_action_once(size):
    table = make_table(seed=3, first_dealer=1)
    app = make_app(table)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        await pilot.press("h")
        await hint_shown(pilot, screen)
        message = screen.message
        assert message.startswith("Hint: ") and "%" in message  # the odds are given
        shown = flat(screen_text(app))
        assert flat(message) in shown  # wrapped, never cut
        words = message.removeprefix("Hint: ").split(" — ")[0]
        assert shown.count(words) == 1  # the action is named once


@run
async def test_h_suggests_and_leaves_the_marks_u_takes_the_hint(monkeypatch):
    table = make_table(seed=3, first_dealer=1)
    fixed_hint(monkeypatch, table)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        screen = table_screen(app)
        hand = table.view(ME).hand
        await pilot.press("1")  # Q♥ marked by the player
        await pilot.press("h")
        await hint_shown(pilot, screen)
        assert screen.marked == {hand[0]}  # the hint changed nothing
        text = flat(screen_text(app))
        assert "within the noise of 256 deals" in text and "1 chosen: Q♥" in text
        assert "discard 10♠, J♠, 7♣" not in text  # the expert's restatement is left out
        assert text.count("discard J♠ 10♠ 7♣") == 1
        await pilot.press("2")  # the player goes on marking: the hint stays on screen
        await pilot.pause()
        assert screen.marked == {hand[0], hand[1]}
        assert "within the noise of 256 deals" in flat(screen_text(app))
        await pilot.press("u")  # now he says so: the expert's discards are marked
        await pilot.pause()
        assert {card_label(c) for c in screen.marked} == {"10♠", "J♠", "7♣"}
        assert "3 chosen: J♠ 10♠ 7♣" in flat(screen_text(app))
        await pilot.press("enter")
        await settle(pilot)
        assert table.view(ME).own_discards[-1].bit_count() == 3
        assert "within the noise of 256 deals" not in flat(screen_text(app))  # the decision is made


@run
async def test_the_cards_a_hint_names_follow_the_ascii_labels(monkeypatch):
    table = make_table(seed=3, first_dealer=1)
    fixed_hint(monkeypatch, table)
    app = make_app(table, settings=Settings(ascii_cards=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        screen = table_screen(app)
        await pilot.press("h")
        await hint_shown(pilot, screen)
        # the action and the other cards the reason names, as the hand shows them
        assert screen.message.startswith("Hint: discard JS 10S 7C — the treatises'")
        assert "the best of 7 weighed, 10S 7C, wins" in screen.message


@run
async def test_a_hint_that_arrives_after_the_decision_is_dropped(monkeypatch):
    import threading

    table = make_table(seed=3, first_dealer=1)
    hint = fixed_hint(monkeypatch, table)
    answer = threading.Event()

    def slow_expert(view: SeatView) -> Hint:
        answer.wait(10)
        return hint

    monkeypatch.setattr("ecarte_tui.ui.screens.table.hint_for", slow_expert)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        screen = table_screen(app)
        await pilot.press("h", "1", "enter")  # asks, then discards Q♥ before the answer
        await settle(pilot)
        answer.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "within the noise of 256 deals" not in flat(screen_text(app))
        assert screen._usable_hint() is None


def test_the_reason_loses_the_action_it_restates():
    table = make_table(seed=3, first_dealer=1)
    view = table.view(ME)
    card = view.hand[0]
    from ecarte_tui.engine import play_card

    a = play_card(card)
    label = a.label()
    assert reason_after_action(a, f"play {label}: wins 3 tricks") == "wins 3 tricks"
    assert reason_after_action(a, f"{label} is the only legal move") == (
        "it is the only legal move")
    assert reason_after_action(PLAY, "play without proposing: you take 3 tricks") == (
        "you take 3 tricks")
    assert reason_after_action(KING, "you may announce the king now, but waiting: x") == (
        "you may announce the king now, but waiting: x")  # not a restatement: kept


# ---------------------------------------------------------------------- 3: too small


@pytest.mark.parametrize("size", [(70, 20), (79, 24), (80, 23)])
@run
async def test_no_game_key_acts_while_the_table_is_hidden(size):
    table = make_table(seed=3, first_dealer=1)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        events = table.view(ME).events
        await pilot.resize_terminal(*size)
        await pilot.pause()
        assert "Please enlarge" in screen_text(app)
        assert "q quit · ? help" in screen_text(app)
        await pilot.press("p", "c", "1", "enter", "space", "h", "u", "n", "k", "x")
        await pilot.pause()
        assert table.view(ME).events == events
        assert isinstance(app.screen, TableScreen) and app.screen.message == ""
        await pilot.press("question_mark")  # the app's keys still work
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("p")  # the table is back: so are its keys
        await settle(pilot)
        assert table.view(ME).events[-1].action is PLAY


@run
async def test_the_box_of_the_draw_hides_and_sleeps_while_the_table_is_hidden():
    table = make_table(seed=1, rules="classic", first_dealer=None)  # you choose the dealer
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert dialog(app) is not None and table.status == "choose"
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        box = table_screen(app).query_one("#table-dialog")
        assert not box.display
        await pilot.press("d", "enter", "o")
        await pilot.pause()
        assert table.status == "choose"
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert box.display
        await pilot.press("d")
        await settle(pilot)
        assert table.status == "play" and table.match.first_dealer == ME


# ---------------------------------------------------------------------- 4: keys shown


def shown_keys(app: EcarteApp) -> list[str]:
    """The keys the key bar shows now (enabled, shown bindings of the active screen)."""
    return [key for key, active in app.screen.active_bindings.items()
            if active.binding.show and active.enabled and key != "ctrl+p"]


async def _draw(pilot: Pilot[object]) -> None:
    await settle(pilot, until=lambda: dialog(pilot.app) is not None)  # type: ignore[arg-type]


def played_out(**overrides: int) -> Table:
    """Seed 3's first hand played to its end on the table itself (the box shows at once)."""
    table = make_table(seed=3, first_dealer=1, **overrides)
    table.submit(ME, PLAY)
    while table.status == "play":
        seat = table.waiting_for
        assert seat is not None
        legal = table.view(seat).legal
        table.submit(seat, KING if KING in legal else next(
            a for a in legal if a.kind is Kind.CARD))
    return table


BOXES = {
    "draw": (lambda: make_table(seed=1, rules="academie", first_dealer=None), _draw),
    # the bot drew higher and chooses who deals (a/r were shown there)
    "choose": (lambda: make_table(seed=0, rules="classic", first_dealer=None), _draw),
    "hand": (played_out, _draw),
    "match": (lambda: played_out(target=1), _draw),
}


def state(app: EcarteApp) -> tuple[object, ...]:
    """Everything a key could change: the app's exit, the screens, the box, the table."""
    table = app.table
    assert table is not None
    content = dialog(app)
    return (app.return_code, len(app.screen_stack), type(app.screen).__name__,
            content and content.kind, table.status, table.view(ME).events,
            table.has_asked_next_hand(ME))


@pytest.mark.parametrize("box", list(BOXES))
@run
async def test_every_key_shown_over_a_box_does_something(box):
    make, before = BOXES[box]
    app = make_app(make())
    async with app.run_test(size=(80, 24)) as pilot:
        await before(pilot)
        keys = shown_keys(app)
    assert "q" in keys and "question_mark" in keys  # quitting and help are always shown
    for key in keys:
        app = make_app(make())
        async with app.run_test(size=(80, 24)) as pilot:
            await before(pilot)
            assert dialog(app) is not None
            was = state(app)
            await pilot.press(key)
            await pilot.pause()
            assert state(app) != was, f"{key} shown over the {box} box did nothing"


@run
async def test_a_way_out_is_shown_on_every_screen_and_ctrl_c_quits():
    app = make_app(make_table(seed=3, first_dealer=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key in ("question_mark", "f2", "f3"):
            await pilot.press(key)
            await pilot.pause()
            last = screen_text(app).splitlines()[-1]
            assert "^q Quit" in last or " q Quit" in last, (key, last)
            await pilot.press("escape")
            await pilot.pause()
        assert "q Quit" in screen_text(app).splitlines()[-1]
        assert "^q" not in screen_text(app).splitlines()[-1]  # q says it once at the table
        await pilot.press("question_mark")
        await pilot.press("ctrl+q")  # shown on the help page, and works there
        await pilot.pause()
    assert app.return_code == 0
    app = make_app(make_table(seed=3, first_dealer=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_code == 0


@run
async def test_a_served_app_keeps_ctrl_c_as_a_reminder_and_names_no_ctrl_q():
    app = make_app(make_table(seed=3, first_dealer=1), served=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert "^q" not in screen_text(app)
        await pilot.press("escape", "ctrl+c")
        await pilot.pause()
        assert app.return_code is None
        assert any("quit" in n.message for n in app._notifications)


# ---------------------------------------------------------------------- 5: the king

KING_SEED = 6  # classic, Bot deals: you hold K♣, the king of trumps


async def at_first_lead(pilot: Pilot[object]) -> TableScreen:
    await settle(pilot)
    await pilot.press("p")
    await settle(pilot)
    return table_screen(pilot.app)  # type: ignore[arg-type]


def king_table(rules: str = "classic") -> Table:
    table = make_table(seed=KING_SEED, rules=rules, first_dealer=1)
    view = table.view(ME)
    assert view.trump is not None and make_card(7, view.trump) in view.hand
    return table


@run
async def test_a_card_that_would_lose_the_king_asks_first_and_esc_plays_nothing():
    table = king_table()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_first_lead(pilot)
        assert "x keep it quiet" in screen_text(app)  # the choice is offered under classic
        assert "x" in shown_keys(app)
        await pilot.press("2")
        await pilot.pause()
        content = dialog(app)
        assert content is not None and content.kind == "king"
        assert "keep it quiet" in flat(screen_text(app))
        assert not table.view(ME).tricks and table.view(ME).trick_lead is None
        await pilot.press("escape")
        await pilot.pause()
        assert dialog(app) is None and table.view(ME).trick_lead is None
        await pilot.press("2")
        await pilot.pause()
        await pilot.press("k")  # announce, then the card goes
        await settle(pilot)
        view = table.view(ME)
        assert view.king == ME and view.scores[ME] == 1
        assert any(e.seat == ME and e.action.kind is Kind.CARD for e in view.events)
        assert screen.dialog is None


@run
async def test_keeping_the_king_quiet_is_asked_once_and_logged():
    table = king_table()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_first_lead(pilot)
        await pilot.press("2")
        await pilot.pause()
        await pilot.press("x")  # in the box: keep it quiet, then the card goes
        await settle(pilot)
        view = table.view(ME)
        assert view.king is None and view.scores[ME] == 0
        assert king_lost_text("You") in log_lines(view, ("You", "Bot"), UNICODE)
        assert "king not announced, point lost" in flat(screen_text(app))


@run
async def test_x_before_the_card_keeps_the_king_quiet_without_a_second_question():
    table = king_table()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await at_first_lead(pilot)
        await pilot.press("x")
        await pilot.pause()
        assert screen.keeps_king_quiet and "x" not in shown_keys(app)
        assert "point is lost" in flat(screen_text(app))
        await pilot.press("2")
        await settle(pilot)
        assert dialog(app) is None
        view = table.view(ME)
        assert view.king is None and any(e.seat == ME for e in view.events
                                         if e.action.kind is Kind.CARD)
        assert king_lost_text("You") in log_lines(view, ("You", "Bot"), UNICODE)


@run
async def test_announcing_automatically_asks_nothing():
    table = king_table()
    app = make_app(table, settings=Settings(auto_announce=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await at_first_lead(pilot)
        assert table.view(ME).king == ME
        await pilot.press("2")
        await settle(pilot)
        assert dialog(app) is None


@run
async def test_passing_the_gate_under_opening_lead_is_logged_at_the_lead():
    table = make_table(seed=10, rules="regles", first_dealer=ME)  # you deal and hold it
    app = make_app(table, ScriptedOpponent(decide="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert table_screen(app).current_prompt().mode == "king_gate"
        await pilot.press("x")
        await settle(pilot)
        view = table.view(ME)
        first = next(i for i, e in enumerate(view.events) if e.action.kind is Kind.CARD)
        lines = log_lines(view, ("You", "Bot"), UNICODE)
        assert view.events[first].seat != ME  # the elder led: the deadline passed
        assert king_lost_text("You") in lines


def test_the_other_seat_is_told_only_when_its_king_shows():
    """The opponent's unannounced king is logged when he plays it, never from his hand."""
    rules = Rules.named("classic")
    for seed in range(200):
        table = Table.new(rules, ("You", "Bot"), seed, 1)
        view = table.view(1)
        if view.trump is not None and make_card(7, view.trump) in view.hand:
            break
    else:
        raise AssertionError("no deal gives the bot the king")
    king = make_card(7, view.trump)
    table.submit(ME, PLAY)
    names = ("You", "Bot")
    told_before = False
    while table.status == "play":
        seat = table.waiting_for
        assert seat is not None
        legal = [a for a in table.view(seat).legal if a.kind is Kind.CARD]
        mine = table.view(ME)
        if not any(e.action.kind is Kind.CARD and e.action.card == king for e in mine.events):
            told_before |= king_lost_text("Bot") in log_lines(mine, names, UNICODE)
        table.submit(seat, legal[0])
    final: SeatView = table.view(ME)
    played = any(e.action.kind is Kind.CARD and e.action.card == king for e in final.events)
    assert not told_before  # his hand is never read
    assert (king_lost_text("Bot") in log_lines(final, names, UNICODE)) == played


# ---------------------------------------------------------------------- 6: past the target


@run
async def test_a_score_past_the_target_reads_as_the_score():
    table = make_table(seed=5, first_dealer=1, target=1)  # the bot ends on 2 of 1
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await _play_out(pilot)
        assert table.view(ME).scores == (0, 2)
        chips = [line for line in screen_text(app).splitlines() if "Bot" in line and "●" in line]
        assert chips and chips[0].split()[-1] == "2"  # 2, not "2+1"
        assert "2+1" not in screen_text(app)


# ---------------------------------------------------------------------- 9: cut off


@run
async def test_the_seat_bar_at_80_columns_never_cuts_a_word():
    table = king_table()
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await at_first_lead(pilot)
        await pilot.press("k")
        await settle(pilot)
        bar = next(line for line in screen_text(app).splitlines()
                   if line.startswith("  You ") and "elder" in line)
        assert "AT RISK" in bar and "king" in bar
        assert ("“" in bar) == ("”" in bar)  # the words said: whole, or not at all


def test_long_names_in_the_trick_area_are_never_cut_mid_word():
    assert lead_tag("You", 8) == "You led"
    assert lead_tag("Bot Anne", 8) == "Anne led"
    assert lead_tag("Bot Henri", 8) == "Henri"  # bold over the first card: it led
    assert lead_tag("Bot Henri", 10) == "Henri led"
    assert fit_name("Bot Henri", 8) == "Henri"
    assert fit_name("Maximilian", 6) == "Maxim…"


@run
async def test_the_bot_henri_lead_in_the_trick_area_at_80x24():
    table = Table.new(Rules.named("classic"), ("You", "Bot Henri"), 3, ME)  # he leads
    app = make_app(table, ScriptedOpponent(decide="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert table.view(ME).trick_lead is not None
        text = screen_text(app)
        assert "Henri" in text and "Bot Henr " not in text and "Bot Henr\n" not in text


@run
async def test_the_saved_game_note_is_a_line_above_the_felt_until_the_first_move(monkeypatch):
    monkeypatch.setattr(EcarteApp, "has_saved_game", lambda self: True)
    app = EcarteApp(settings=Settings(), opponent=ScriptedOpponent(), bot_delay=0, save=False,
                    options=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        screen = table_screen(app)
        assert screen.banner is not None and "saved games are kept" in screen.banner[0]
        assert not app._notifications  # no toast over the hand, the prompt or the box
        assert "saved games are kept" in screen_text(app).splitlines()[1]


# ---------------------------------------------------------------------- how it looks

SIZES = pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])


@SIZES
def test_look_of_a_hint_over_the_discards(snap_compare, monkeypatch, size):
    table = make_table(seed=3, first_dealer=1)
    fixed_hint(monkeypatch, table)
    app = make_app(table)

    async def before(pilot: Pilot[object]) -> None:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("1", "h")
        await hint_shown(pilot, table_screen(app))

    assert snap_compare(app, run_before=before, terminal_size=size)


@SIZES
def test_look_of_the_king_question(snap_compare, size):
    app = make_app(king_table())

    async def before(pilot: Pilot[object]) -> None:
        await at_first_lead(pilot)
        await pilot.press("2")
        await pilot.pause()

    assert snap_compare(app, run_before=before, terminal_size=size)


@SIZES
def test_look_of_the_seat_bar_after_the_king(snap_compare, size):
    app = make_app(king_table())

    async def before(pilot: Pilot[object]) -> None:
        await at_first_lead(pilot)
        await pilot.press("k")
        await settle(pilot)

    assert snap_compare(app, run_before=before, terminal_size=size)


@SIZES
def test_look_of_a_long_name_in_the_trick(snap_compare, size):
    table = Table.new(Rules.named("classic"), ("You", "Bot Henri"), 3, ME)
    app = make_app(table, ScriptedOpponent(decide="play"))
    assert snap_compare(app, run_before=settle, terminal_size=size)


def _drawn_higher_by(seat: int) -> Table:
    """The first classic table, by seed, whose draw ``seat`` won (he chooses who deals)."""
    for seed in range(50):
        table = make_table(seed=seed, rules="classic", first_dealer=None)
        if table.draw is not None and table.draw.chooser == seat:
            return table
    raise AssertionError("no seed below 50 lets that seat choose")


async def test_the_log_of_the_draw_speaks_to_the_player_who_chooses() -> None:
    """Behind the box of the choice the log read "You chooses who deals"."""
    app = make_app(_drawn_higher_by(ME))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, until=lambda: bool(table_screen(app)._log.lines))
        first = table_screen(app)._log.lines[0]
        assert first.startswith("Draw for the deal:")
        assert first.endswith("You choose who deals."), first
