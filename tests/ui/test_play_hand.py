"""Whole hands played through the UI with the keyboard: the player's keys reach the table."""

from __future__ import annotations

from textual.pilot import Pilot

from ecarte_tui.engine import IllegalAction, Phase
from ecarte_tui.engine.actions import play_card
from ecarte_tui.table import Table
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.screens.table import TableScreen

from .helpers import (
    ME,
    ScriptedOpponent,
    dialog,
    dialog_text,
    make_app,
    make_table,
    run,
    screen_text,
    settle,
    table_screen,
)


def box_kind(app) -> str | None:
    """Which box is open over the table ("draw", "hand", "match"), if one is."""
    content = dialog(app)
    return None if content is None else content.kind


async def play_tricks(pilot) -> None:
    """Play the hand's cards with Enter (the cursor starts on a playable card)."""
    app = pilot.app
    table = app.table
    for _ in range(12):
        await settle(pilot)
        if table.status != "play":
            return
        view = table.view(ME)
        if view.phase is Phase.TRICKS and view.to_move == ME:
            await pilot.press("enter")
        elif table.waiting_for == ME and view.phase is Phase.TRICKS:
            await pilot.press("x")
    await settle(pilot)


@run
async def test_elder_proposes_exchanges_and_plays_the_hand_out():
    table = make_table(seed=3, first_dealer=1)  # the bot deals: the player is the elder
    app = make_app(table, ScriptedOpponent(answer="accept"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        assert screen.current_prompt().mode == "decide"
        await pilot.press("c")  # "Cards!"
        await settle(pilot)
        assert screen.current_prompt().mode == "discard"
        await pilot.press("enter")  # nothing chosen: refused with a reason
        assert "at least one" in screen.message
        await pilot.press("1", "2")
        assert len(screen.marked) == 2
        await pilot.press("enter")
        await settle(pilot)
        view = table.view(ME)
        assert view.own_discards and bin(view.own_discards[0]).count("1") == 2
        assert view.discard_counts[1], "the dealer exchanged too"
        if screen.current_prompt().mode == "decide":
            await pilot.press("p")
        await play_tricks(pilot)
        assert table.status in ("between", "over")
        assert box_kind(app) in ("hand", "match")
        assert isinstance(app.screen, TableScreen)  # drawn inside the table: no screen pushed
        assert sum(table.view(ME).tricks_won) == 5


@run
async def test_dealer_refuses_a_proposal_and_is_at_risk():
    table = make_table(seed=3, first_dealer=ME)  # the player deals; the bot proposes
    app = make_app(table, ScriptedOpponent(decide="propose"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        assert screen.current_prompt().mode == "answer"
        assert "Refusing puts you at risk" in screen.current_prompt().text
        await pilot.press("r")
        await settle(pilot)
        view = table.view(ME)
        assert view.at_risk == ME  # academie: the dealer who refuses insisted
        assert screen.speech.get(ME) == "We play!"
        await play_tricks(pilot)
        assert table.status in ("between", "over")


@run
async def test_dealer_accepts_and_must_change_at_least_one_card():
    table = make_table(seed=5, first_dealer=ME)
    app = make_app(table, ScriptedOpponent(decide="propose"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        screen = table_screen(app)
        assert screen.current_prompt().mode == "discard"
        assert table.view(ME).discard_counts[1], "the elder discarded first"
        await pilot.press("enter")
        assert "dealer must change at least one card" in screen.message
        await pilot.press("right", "space")
        await pilot.press("enter")
        await settle(pilot)
        assert table.view(ME).discard_counts[ME] == (1,)


@run
async def test_an_illegal_card_is_refused_with_its_reason():
    table = make_table(seed=1, first_dealer=ME)  # the bot leads the ace of spades
    app = make_app(table, ScriptedOpponent(decide="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = table.view(ME)
        assert view.trick_lead is not None and view.to_move == ME
        legal = {a.card for a in view.legal}
        wrong = next(i for i, c in enumerate(view.hand) if c not in legal)
        await pilot.press(str(wrong + 1))
        screen = table_screen(app)
        assert screen.message == "You must head the trick: A♠ is led and you hold K♠"
        assert table.view(ME) == view  # nothing changed
        assert "You must head the trick" in str(app.screen.query_one("PromptBar").render())
        await pilot.press("enter")  # the cursor is on a legal card
        await settle(pilot)
        assert len(table.view(ME).tricks) == 1


@run
async def test_a_move_refused_after_the_fact_is_told_to_its_player():
    """A club's table on several nodes refuses a move after it was made here when another
    node's move reached the log first (``Table.retry``): the player reads why, in his words."""
    table = make_table(seed=1, first_dealer=ME)  # the bot leads the ace of spades
    app = make_app(table, ScriptedOpponent(decide="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        view = table.view(ME)
        legal = {a.card for a in view.legal}
        wrong = next(c for c in view.hand if c not in legal)
        try:
            table.submit(ME, play_card(wrong))
        except IllegalAction as e:
            table.refuse(ME, e)
        await settle(pilot)
        screen = table_screen(app)
        assert screen.message == "You must head the trick: A♠ is led and you hold K♠"
        assert table.view(ME) == view  # nothing changed
        assert "You must head the trick" in str(app.screen.query_one("PromptBar").render())


@run
async def test_the_player_announces_the_king_before_his_first_card():
    table = make_table(seed=6, first_dealer=1)  # own_first_card; the player holds the king
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        screen = table_screen(app)
        assert "k “I have the king!”" in screen.current_prompt().keys
        await pilot.press("k")
        await settle(pilot)
        view = table.view(ME)
        assert view.king == ME and view.scores[ME] == 1
        assert screen.speech[ME] == "I have the king!"


@run
async def test_under_opening_lead_the_dealer_is_asked_about_the_king():
    table = make_table(seed=10, rules="regles", first_dealer=ME)
    app = make_app(table, ScriptedOpponent(decide="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        assert screen.current_prompt().mode == "king_gate"
        await pilot.press("x")  # pass: the elder may lead now
        await settle(pilot)
        view = table.view(ME)
        assert view.trick_lead is not None and view.king is None


@run
async def test_the_dealer_announces_the_king_at_the_gate():
    table = make_table(seed=10, rules="regles", first_dealer=ME)
    app = make_app(table, ScriptedOpponent(decide="play"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("k")
        await settle(pilot)
        assert table.view(ME).king == ME


@run
async def test_auto_announce_setting_announces_for_the_player():
    from ecarte_tui.ui.settings import Settings

    table = make_table(seed=6, first_dealer=1)
    app = make_app(table, settings=Settings(auto_announce=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot, until=lambda: table.view(ME).king == ME)


@run
async def test_the_winner_of_the_draw_chooses_the_dealer():
    table = make_table(seed=1, rules="classic", first_dealer=None)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert box_kind(app) == "draw" and "who deals the first hand?" in dialog_text(app)
        assert "I deal  d" in dialog_text(app) and "Bot deals  o" in dialog_text(app)
        assert "h hint" in screen_text(app)
        await pilot.press("h")  # the expert's advice: the box stays, nothing is chosen
        await pilot.pause()
        text = screen_text(app)
        assert "Hint: deal (d)" in text and "to win the match" in text
        assert box_kind(app) == "draw" and table.status == "choose"
        await pilot.press("o")  # the opponent deals (against the advice: his to choose)
        await settle(pilot)
        assert table.view(ME).dealer == 1


@run
async def test_the_draws_box_says_who_deals_once_the_bot_has_chosen():
    """The bot drew higher: the box first says it chooses, then (still open) who deals; it
    used to say "chooses who deals" until closed, the choice told only in the log."""
    from ecarte_tui.ui.settings import Settings

    table = make_table(seed=0, rules="classic", first_dealer=None)
    assert table.draw is not None and table.draw.chooser == 1
    app = EcarteApp(table=table, seat=ME, settings=Settings(), opponent=ScriptedOpponent(),
                    bot_delay=0.5, save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, until=lambda: box_kind(app) == "draw")
        assert "chooses who deals" in dialog_text(app)
        await settle(pilot, until=lambda: "the first hand" in dialog_text(app))
        assert box_kind(app) == "draw" and "Bot deals the first hand." in dialog_text(app)
        assert table.view(ME).dealer == 1  # (the deal taken, as the match value advises)


@run
async def test_the_draw_is_shown_when_the_cards_decide():
    table = make_table(seed=1, rules="academie", first_dealer=None)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert box_kind(app) == "draw" and "Continue  ⏎" in dialog_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert box_kind(app) is None and dialog_text(app) == ""


@run
async def test_between_hands_the_player_confirms_the_next_deal():
    table = make_table(seed=3, first_dealer=1)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await play_tricks(pilot)
        assert box_kind(app) == "hand" and "Hand 1 is over" in dialog_text(app)
        await pilot.press("enter")
        await settle(pilot)
        view = table.view(ME)
        assert view.hand_number == 2 and view.dealer == ME


async def play_one_point_match(pilot) -> None:
    """A match to one point (seed 3, B deals): "We play!" and the five tricks end it."""
    await settle(pilot)
    await pilot.press("p")
    await play_tricks(pilot)


@run
async def test_end_of_game_offers_a_new_game():
    app, table = over_at_one_point()
    async with app.run_test(size=(80, 24)) as pilot:
        await play_one_point_match(pilot)
        assert table.status == "over"
        assert box_kind(app) == "match"
        text = dialog_text(app)
        assert "wins the match" in text or "You win the match" in text
        assert "New game  n" in text and "Home  h" in text and "Quit  q" in text
        await pilot.press("enter")  # an Enter meant for "next hand" chooses nothing here
        await settle(pilot)
        assert box_kind(app) == "match" and app.table is table
        await pilot.press("n")
        await settle(pilot)
        assert app.table is not table and app.table.status != "over"


@run
async def test_tab_gives_the_match_box_a_focused_button_that_enter_presses():
    app, table = over_at_one_point()
    async with app.run_test(size=(80, 24)) as pilot:
        await play_one_point_match(pilot)
        box = table_screen(app)._dialog
        assert box_kind(app) == "match" and box is not None and box.focused_choice() is None
        await pilot.press("tab")
        assert box.focused_choice() == "new"
        await pilot.press("shift+tab", "shift+tab")  # round the row, backwards
        assert box.focused_choice() == "home"
        await pilot.press("tab", "tab", "enter")
        await settle(pilot)
        assert app.table is not table and app.table.status != "over"


def over_at_one_point() -> tuple[EcarteApp, Table]:
    """An app whose match (to one point) ``play_one_point_match`` ends."""
    table = make_table(seed=3, first_dealer=1, target=1)
    return make_app(table), table


@run
async def test_the_games_keys_do_not_act_behind_the_draw_and_esc_shows_the_table():
    table = make_table(seed=1, rules="academie", first_dealer=None)  # the cards decide
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert box_kind(app) == "draw"
        screen = table_screen(app)
        before = table.view(ME)
        assert screen.current_prompt().mode == "decide"  # dealt already: p and c would act
        await pilot.press("p", "c", "1", "h", "n")
        await pilot.pause()
        assert table.view(ME) == before and box_kind(app) == "draw" and not screen.message
        assert not screen.check_action("word", ("play",))
        await pilot.press("escape")  # see the table
        assert box_kind(app) is None
        await pilot.press("p")
        await settle(pilot)
        assert table.view(ME).events, "the table's keys act once the box is closed"


@run
async def test_esc_at_a_hands_end_shows_the_table_whose_enter_deals_on():
    table = make_table(seed=3, first_dealer=1)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await play_tricks(pilot)
        assert box_kind(app) == "hand"
        await pilot.press("escape")
        await pilot.pause()
        assert box_kind(app) is None and table.status == "between"  # not shown again
        assert table_screen(app).current_prompt().mode == "between"
        await pilot.press("enter")
        await settle(pilot)
        assert table.view(ME).hand_number == 2 and box_kind(app) is None


async def click_box_button(pilot: Pilot[object], index: int, label: str) -> None:
    """Click the middle of the box's button ``index``, checking it is the one named."""
    from ecarte_tui.ui.widgets.box_buttons import BoxButtons

    row = pilot.app.screen.query_one(BoxButtons)
    assert row.labels[index].startswith(label)
    start, end = row.spans()[index]
    await pilot.click(BoxButtons, offset=((start + end) // 2, 0))


@run
async def test_the_boxs_buttons_answer_the_mouse():
    table = make_table(seed=1, rules="classic", first_dealer=None)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert box_kind(app) == "draw"
        await click_box_button(pilot, 1, "Bot deals")
        await settle(pilot)
        assert table.view(ME).dealer == 1 and box_kind(app) is None
        await pilot.press("p")
        await play_tricks(pilot)
        assert box_kind(app) == "hand"
        await click_box_button(pilot, 0, "Next hand")
        await settle(pilot)
        assert table.view(ME).hand_number == 2 and box_kind(app) is None


@run
async def test_one_box_serves_every_hand_without_a_mount():
    """The box is part of the table screen: shown, filled in and hidden, never remounted,
    and no screen is pushed for it."""
    from textual.widgets import Footer

    table = make_table(seed=3, first_dealer=1)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)

        def nodes() -> set[int]:  # (the local key bar, Textual's Footer, rebuilds its keys)
            return {id(node) for node in screen.walk_children()
                    if not any(isinstance(a, Footer) for a in node.ancestors_with_self)}

        before = nodes()
        depth = len(app.screen_stack)
        for hand in (1, 2):
            if hand == 2:
                await pilot.press("enter")
                await settle(pilot)
            await pilot.press("p")
            await play_tricks(pilot)
            if table.status == "over":
                break
            assert box_kind(app) == "hand" and f"Hand {hand} is over" in dialog_text(app)
            assert app.screen is screen and len(app.screen_stack) == depth
        assert nodes() == before


@run
async def test_at_the_match_end_h_goes_home_and_help_gives_no_button_the_enter():
    from ecarte_tui.ui.screens.home import HomeScreen

    table = make_table(seed=3, first_dealer=1, target=1)
    app = make_app(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_one_point_match(pilot)
        assert box_kind(app) == "match"
        await pilot.press("question_mark")  # help over the box, then back
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert box_kind(app) == "match" and app.screen.focused is None
        await pilot.press("enter")
        await pilot.pause()
        assert box_kind(app) == "match" and app.table is table
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


@run
async def test_an_open_box_says_the_players_names_again_when_they_change():
    """A club's operator may rename a player while a hand's or a match's box is open over
    his table: the box says the new name, as it would have been opened now."""
    for target, kind in ((5, "hand"), (1, "match")):
        table = make_table(seed=3, first_dealer=1, target=target)
        app = make_app(table)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("p")
            await play_tricks(pilot)
            assert box_kind(app) == kind
            before = dialog_text(app)
            old = table.names[1 - ME]
            assert old in before
            table.names = tuple("Bertrand" if i != ME else n  # type: ignore[assignment]
                                for i, n in enumerate(table.names))
            table_screen(app).rename_open_box()
            await settle(pilot)
            after = dialog_text(app)
            assert box_kind(app) == kind and "Bertrand" in after and old not in after
            assert after.replace("Bertrand", old).split() == before.split()  # (nothing else)
