"""The ASCII setting: every character on the screen is ASCII, through a whole hand.

Read from Textual's composited screen (what a terminal would be sent), at 80×24 and
120×40: the draw, a proposal, the exchange, the tricks, a hint, the hand's end, and the
settings, help and rules over the table. The filter must also have had an ASCII form of
its own for every character it met (no "?" stand-ins), and the words keep their sense:
suits as letters, straight quotes, key names in words.
"""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from textual.pilot import Pilot

from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.ascii_filter import ascii_char, ascii_key, to_ascii
from ecarte_tui.ui.settings import Settings

from .helpers import ME, ScriptedOpponent, make_app, make_table, run, settle, table_screen

SIZES = ((80, 24), (120, 40))


def screen_lines(app: EcarteApp) -> list[str]:
    """The screen as composited now, one string per row."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    return ["".join(s.text for strip in line for s in strip if not s.control)
            for line in update.strips]  # type: ignore[attr-defined]


def non_ascii(app: EcarteApp) -> list[str]:
    """Rows that hold a character of 128 or above, with those characters."""
    bad = []
    for y, line in enumerate(screen_lines(app)):
        found = sorted({ch for ch in line if ord(ch) >= 128})
        if found:
            bad.append(f"row {y}: {''.join(found)!r} in {line.strip()!r}")
    return bad


async def play_a_hand_in_ascii(pilot: Pilot[object], seen: dict[str, list[str]],
                               shown: list[str]) -> None:
    """Draw, propose, exchange, play with a hint, to the hand's end; each screen's
    non-ASCII rows into ``seen`` by step, and all its rows into ``shown``."""
    app = pilot.app
    assert isinstance(app, EcarteApp) and app.table is not None
    table = app.table

    def look(step: str) -> None:
        seen[step] = non_ascii(app)
        shown.extend(screen_lines(app))

    await settle(pilot)
    look("draw")
    await pilot.press("enter")
    proposed = hinted = False
    for step in range(40):
        await settle(pilot)
        if table.status != "play":
            break
        mode = table_screen(app).current_prompt().mode
        look(f"{step} {mode}")
        if mode == "decide":
            if not hinted:
                await pilot.press("h")
                await pilot.pause()
                look(f"{step} decide, hint")
                hinted = True
            await pilot.press("p" if proposed else "c")
            proposed = True
        elif mode == "answer":
            await pilot.press("a")
        elif mode == "discard":
            await pilot.press("1", "enter")
        elif mode == "card":
            await pilot.press("h")
            await pilot.pause()
            look(f"{step} card, hint")
            await pilot.press("enter")
        elif mode in ("king", "king_gate"):
            await pilot.press("k")
        else:
            raise AssertionError(f"unexpected prompt {mode}")
    await settle(pilot)
    assert table.status != "play" and proposed and hinted
    look("hand over")
    for key, name in (("f3", "settings"), ("question_mark", "help"), ("f2", "rules")):
        await pilot.press(key)
        await pilot.pause()
        look(name)
        await pilot.press("escape")
        await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@run
async def test_every_character_is_ascii_through_a_hand(size: tuple[int, int]) -> None:
    table = make_table(seed=1, rules="academie", first_dealer=None)
    app = make_app(table, ScriptedOpponent(answer="accept"), Settings(ascii_cards=True))
    seen: dict[str, list[str]] = {}
    shown: list[str] = []
    async with app.run_test(size=size) as pilot:
        await play_a_hand_in_ascii(pilot, seen, shown)
    assert {step: rows for step, rows in seen.items() if rows} == {}
    assert app.ascii_filter.unmapped == set(), "no ASCII form chosen for these"
    assert seen.keys() >= {"draw", "hand over", "settings", "help", "rules"}
    # the words keep their sense: straight quotes, suits as letters, keys in words
    assert any('You: "Cards!"' in line for line in shown)
    assert any(re.search(r"\b(10|[789AJQK])[SHDC]\b", line) for line in shown)
    assert any(" enter " in line for line in shown)
    assert any(line.lstrip().startswith("Hint: ") for line in shown)  # the hints were seen


@run
async def test_without_the_setting_the_same_screens_are_unicode():
    """The check above can fail: the table in Unicode shows suits and frames."""
    app = make_app(make_table(seed=3, first_dealer=1), settings=Settings(ascii_cards=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert non_ascii(app)


@run
async def test_turning_the_setting_on_redraws_in_ascii():
    app = make_app(make_table(seed=3, first_dealer=1), settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert non_ascii(app)
        app.apply_settings(app.settings.updated(ascii_cards=True))
        await pilot.pause()
        await pilot.pause()
        assert non_ascii(app) == []
        app.apply_settings(app.settings.updated(ascii_cards=False))
        await pilot.pause()
        await pilot.pause()
        assert non_ascii(app)
        assert table_screen(app).table.view(ME).hand_number == 1  # the same game goes on


def test_ascii_forms_keep_their_width_and_sense() -> None:
    assert to_ascii("╭──╮│╰┴╯┼├") == "+--+|+++++"
    assert to_ascii("7♣ 10♥ K♠ Q♦") == "7C 10H KS QD"
    assert to_ascii("Bot: “We play!” · 1–5 …") == 'Bot: "We play!" - 1-5 .'
    assert to_ascii("Écarté 80×24 ●○") == "Ecarte 80x24 o."
    assert ascii_key("⏎") == "enter" and ascii_key("←") == "left"
    for ch in "─│╭╮╰╯━┃═║╔╗▔▁▏▕░▒▓█▌▐♠♥♦♣♔“”‘’…–—·×←→⏎●○▼▲éÉＡ漢\u0301":
        assert ascii_char(ch).isascii() and cell_len(ascii_char(ch)) == cell_len(ch), ch
    assert to_ascii("Ｅ漢x") == "E ??x"


@run
async def test_the_home_screen_and_its_open_list_are_ascii():
    app = EcarteApp(home=True, settings=Settings(ascii_cards=True), save=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert non_ascii(app) == []
        app.screen.query_one("#rules").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.query_one("#rules").expanded  # type: ignore[attr-defined]
        assert non_ascii(app) == []
    assert app.ascii_filter.unmapped == set()


@run
async def test_a_replay_in_ascii():
    from ecarte_tui.engine import read_ecn
    from ecarte_tui.ui.replay_app import ReplayApp
    from ecarte_tui.ui.widgets.felt import Look

    from .test_snapshots import _played_record

    record = read_ecn(_played_record(make_table(seed=3, first_dealer=1)))
    app = ReplayApp(record, look=Look(ascii_cards=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*["right"] * 8)
        await pilot.pause()
        update = app.screen._compositor.render_update(full=True)
        text = "".join(s.text for line in update.strips for strip in line  # type: ignore[attr-defined]
                       for s in strip if not s.control)
        assert text.isascii(), sorted({ch for ch in text if ord(ch) >= 128})
