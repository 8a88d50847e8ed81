"""The felt drawn as one Line-API widget: a small DOM, moves that repaint only the cells that
changed, and colours resolved once per process that are the colours Textual would draw.

The served table (``KeyBar``, ``TailLog``: ``ClubTableScreen``'s choice) is built here on
an app with nobody in the other seat: the test plays that seat itself, so every move comes
when the test makes it and each one can be watched alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from rich.color import Color as RichColor
from rich.style import Style
from rich.terminal_theme import DEFAULT_TERMINAL_THEME
from textual.filter import ANSIToTruecolor
from textual.geometry import Region
from textual.pilot import Pilot
from textual.style import Style as TextualStyle
from textual.widget import Widget

from ecarte_tui.engine import Phase
from ecarte_tui.table import Table
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.card_art import Canvas, faded_ink, short_label
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings
from ecarte_tui.ui.theme_styles import forget_theme_styles, theme_style
from ecarte_tui.ui.themes import load_themes
from ecarte_tui.ui.widgets.chips import ChipsPanel
from ecarte_tui.ui.widgets.felt import PALETTE_PARTS, FeltWidget, palette_for
from ecarte_tui.ui.widgets.felt_board import FeltBoard
from ecarte_tui.ui.widgets.hand import HandView
from ecarte_tui.ui.widgets.hand_log import TailLog
from ecarte_tui.ui.widgets.key_bar import KeyBar
from ecarte_tui.ui.widgets.opponent_hand import OpponentHand
from ecarte_tui.ui.widgets.plain_lines import PlainLines
from ecarte_tui.ui.widgets.prompt_bar import PromptBar

from .helpers import (
    ME,
    ScriptedOpponent,
    caught_up,
    make_app,
    make_table,
    run,
    settle,
    table_screen,
)

THEMES = sorted(load_themes())
"""The app's own themes (themes/*.toml): felt, salon, night, contrast."""

SEAT_CLASSES = ("seat--name", "seat--role", "seat--risk", "seat--king", "seat--speech")
CHIP_CLASSES = ("chip--won", "chip--left", "card--label")
PROMPT_CLASSES = ("prompt--text", "prompt--wait", "prompt--keys", "prompt--error",
                  "prompt--hint")
KEYBAR_CLASSES = ("keybar--key", "keybar--description")
PALETTE_CLASSES = tuple(name for _field, name, _partial in PALETTE_PARTS)


class ServedTableScreen(TableScreen):
    """The table as a server draws it: the light key bar and the fixed-box log."""

    KEY_BAR = KeyBar
    LOG = TailLog


class ServedStyleApp(EcarteApp):
    """Sits at the given table on a ``ServedTableScreen``; nobody plays the other seat."""

    def _sit(self, table: Table, seat: int, on_watching: object = None) -> None:
        self.push_screen(ServedTableScreen(table, seat, self.look, self.settings.auto_announce,
                                           on_watching))  # type: ignore[arg-type]


def served_app(theme: str = "felt") -> tuple[ServedStyleApp, Table]:
    table = make_table(seed=3, first_dealer=1)  # the other seat deals: the player is elder
    app = ServedStyleApp(table=table, seat=ME, settings=Settings(theme=theme), save=False)
    return app, table


async def other_seat_plays(pilot: Pilot[object], table: Table) -> TableScreen:
    bot = ScriptedOpponent()
    while table.waiting_for == 1 - ME:
        action = bot.choose(table.view(1 - ME))
        assert action is not None
        table.submit(1 - ME, action)
    return await caught_up(pilot, table)


async def second_trick_to_lead(pilot: Pilot[object], table: Table) -> TableScreen:
    """Play the hand as it is and the first trick; the player is to lead the second."""
    await caught_up(pilot, table)
    await pilot.press("p")  # "We play!": no exchange, the elder leads
    await other_seat_plays(pilot, table)
    await pilot.press("1")
    screen = await other_seat_plays(pilot, table)
    view = table.view(ME)
    assert view.phase is Phase.TRICKS and len(view.tricks) == 1 and view.to_move == ME
    assert screen.current_prompt().mode == "card" and screen.dialog is None
    return screen


Call = tuple[Widget, tuple[Region, ...], dict[str, object]]


@contextmanager
def refreshes() -> Iterator[list[Call]]:
    """Every ``Widget.refresh`` made inside the block, and every ``repaint_cells`` (the
    canvas widgets' way to the same): (widget, regions, keywords)."""
    calls: list[Call] = []
    original = Widget.refresh
    original_cells = PlainLines.repaint_cells
    inside: list[bool] = []

    def spy(self: Widget, *regions: Region, **kwargs: object) -> Widget:
        if not inside:
            calls.append((self, regions, kwargs))
        return original(self, *regions, **kwargs)  # type: ignore[arg-type]

    def spy_cells(self: PlainLines, regions: list[Region]) -> None:
        calls.append((self, tuple(regions), {}))
        inside.append(True)
        try:
            original_cells(self, regions)
        finally:
            inside.pop()

    Widget.refresh = spy  # type: ignore[method-assign]
    PlainLines.repaint_cells = spy_cells  # type: ignore[method-assign]
    try:
        yield calls
    finally:
        Widget.refresh = original  # type: ignore[method-assign]
        PlainLines.repaint_cells = original_cells  # type: ignore[method-assign]


def describe(calls: list[Call]) -> list[str]:
    return [f"{type(w).__name__}#{w.id} {regions or 'FULL'} {kw or ''}" for w, regions, kw in calls]


# --------------------------------------------------------------------------- 1. the DOM


SERVED_DOM_BOUND = 17
"""Measured 15 nodes under the served table screen (80x24, Textual 8.2.8): the felt is one
widget, its six parts are not nodes; the box (TableDialog: title, draw cards, lines, the
row of buttons) is 5 of them. Two spare; a part turned back into a widget (or a widget
per card or per button) goes over."""


@run
async def test_served_table_screen_dom_stays_small_and_has_no_component_classes() -> None:
    """Protects the point of FeltBoard: the table screen is a handful of nodes, and none of
    them carries the hidden per-class nodes that COMPONENT_CLASSES cost on every restyle."""
    app, table = served_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await second_trick_to_lead(pilot, table)
        assert isinstance(screen, ServedTableScreen)
        nodes = list(screen.walk_children())
        assert len(nodes) == len(screen.query("*"))
        assert len(nodes) <= SERVED_DOM_BOUND, [type(n).__name__ for n in nodes]
        assert sum(isinstance(n, FeltBoard) for n in nodes) == 1
        with_classes = {type(n).__name__: sorted(n._get_component_classes()) for n in nodes
                        if n._get_component_classes()}
        assert with_classes == {}  # not even a Textual widget on the served screen declares any


@run
async def test_local_table_screen_component_classes_are_only_textual_footer_keys() -> None:
    """The local screen keeps Textual's Footer; its FooterKeys are the only widgets with
    component classes (Textual's own, listed here), none of ours."""
    app = make_app(make_table(seed=3, first_dealer=1))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = table_screen(app)
        owners = {(type(n).__module__, type(n).__name__) for n in screen.walk_children()
                  if n._get_component_classes()}
        assert owners == {("textual.widgets._footer", "FooterKey")}


# --------------------------------------------------------------------------- 2. a move


@run
async def test_a_move_refreshes_only_the_cells_that_changed() -> None:
    """Protects the served table's cost per move: playing one card repaints regions of the
    hand, the trick and the seat bars (never the whole felt, never the stock or the other
    hand), and the prompt, key bar and log repaint regions too, never whole."""
    app, table = served_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await second_trick_to_lead(pilot, table)
        felt = screen.felt
        with refreshes() as calls:
            await pilot.press("1")
            await caught_up(pilot, table)
        assert table.view(ME).trick_lead is not None  # the card is on the table
        assert calls, "the move repainted nothing"
        # nothing on the screen was repainted whole
        assert all(regions for _w, regions, _kw in calls), describe(calls)
        assert not any(kw.get("layout") for _w, _r, kw in calls), describe(calls)

        board_regions = [r for w, regions, _kw in calls if w is felt for r in regions]
        assert board_regions
        changed = {"hand": felt.hand, "trick": felt.trick, "my-bar": felt.my_bar,
                   "opp-bar": felt.opp_bar}
        hit: set[str] = set()
        for region in board_regions:
            owner = [name for name, part in changed.items()
                     if part.region.contains_region(region)]
            assert owner, f"{region} lies outside the parts that changed"
            hit.update(owner)
        assert {"hand", "trick"} <= hit
        for still in (felt.stock, felt.top):
            assert not any(still.region.overlaps(r) for r in board_regions), still.id

        cells = {(x, r.y + dy) for r in board_regions for dy in range(r.height)
                 for x in range(r.x, r.right)}
        area = felt.content_size.width * felt.content_size.height
        # measured: 367 of the felt's 1020 cells (51x20 at 80x24): the four cards left in
        # the hand move to stay centred, the led card and its label appear in the trick,
        # "leads" leaves the player's bar
        assert sum(r.area for r in board_regions) == len(cells)  # no cell repainted twice
        assert len(cells) < area // 2, (len(cells), area)

        # the text widgets: regions only, and the chips (scores unchanged) not at all
        by_type = {type(w) for w, _r, _kw in calls}
        assert {PromptBar, KeyBar, TailLog} <= by_type
        assert ChipsPanel not in by_type


@run
async def test_a_move_reaches_the_screen_without_an_update_message_per_widget() -> None:
    """Protects ``PlainLines.repaint_cells``: the widgets a move changes tell the screen
    directly, not through an ``Update`` message each, and the screen shows the move."""
    from textual import messages

    app, table = served_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await second_trick_to_lead(pilot, table)
        posted: list[object] = []
        original = screen.post_message

        def spy(message: object) -> bool:
            posted.append(message)
            return original(message)  # type: ignore[arg-type]

        screen.post_message = spy  # type: ignore[method-assign]
        card = screen.view.hand[0]
        await pilot.press("1")
        await caught_up(pilot, table)
        screen.post_message = original  # type: ignore[method-assign]
        updates = [m.widget for m in posted if isinstance(m, messages.Update)]
        assert not [w for w in updates if isinstance(w, PlainLines)], updates
        assert table.view(ME).trick_lead == card
        felt, r = screen.felt, screen.felt.trick.region
        trick_text = "\n".join("".join(seg.text for seg in felt.render_line(y))[r.x:r.right]
                               for y in range(r.y, r.bottom))
        assert short_label(card, screen.look.glyphs).replace(" ", "") in trick_text.replace(
            " ", ""), trick_text


@run
async def test_showing_the_same_state_again_refreshes_nothing() -> None:
    """Protects against redraws for nothing: a screen redraw, each part's ``show`` with what
    it shows, a part drawn again the same, and ``FeltWidget.changed()`` with an identical
    drawing repaint no cell at all."""
    app, table = served_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await second_trick_to_lead(pilot, table)
        felt = screen.felt
        hand = screen.hand
        trick = felt.trick
        stock = felt.stock
        top = screen.opponent_hand
        chips = screen.query_one(ChipsPanel)
        prompt = screen.query_one(PromptBar)
        log = screen.query_one(TailLog)
        key_bar = screen.query_one(KeyBar)
        with refreshes() as calls:
            screen.redraw()
            felt.opp_bar.show(*felt.opp_bar.state)  # type: ignore[arg-type]
            felt.my_bar.show(*felt.my_bar.state)  # type: ignore[arg-type]
            top.show(top.count, top.deck)
            stock.show(stock.turn_up, stock.stock, stock.deck)
            trick.show(trick.cards, trick.winner, trick.last, trick.names, trick.number)
            hand.show(hand.cards, playable=hand.playable, marked=hand.marked,
                      cursor=hand.cursor, active=hand.active)
            chips.show(*chips.state)  # type: ignore[arg-type]
            prompt.show(prompt.prompt, prompt.message, prompt.severity)
            log.show(list(log.lines))
            for part in felt.parts:
                part.refresh()  # drawn again, the same cells: nothing marked dirty
            for widget in (chips, prompt, log, key_bar):
                assert isinstance(widget, FeltWidget)
                widget.changed()
            await pilot.pause()
        assert calls == [], describe(calls)


# --------------------------------------------------------------------------- 3. changed_spans


def _canvas() -> Canvas:
    c = Canvas(10, 3)
    c.put(0, 0, "abcdefghij", Style(color="#102030"))
    c.put(2, 1, "xyz", Style(bold=True))
    return c


def test_changed_spans_of_identical_canvases_is_empty() -> None:
    """Protects "nothing changed, nothing sent"."""
    assert _canvas().changed_spans(_canvas()) == []
    assert Canvas(0, 0).changed_spans(Canvas(0, 0)) == []


def test_changed_spans_one_cell_is_one_span_of_width_one() -> None:
    """Protects the cell-exact crop: one changed character is one cell to repaint."""
    new = _canvas()
    new.put(5, 2, "!")
    assert new.changed_spans(_canvas()) == [(2, 5, 6)]
    first = _canvas()
    first.put(0, 0, "A", Style(color="#102030"))  # at the left edge
    assert first.changed_spans(_canvas()) == [(0, 0, 1)]
    last = _canvas()
    last.put(9, 1, "Z")  # at the right edge
    assert last.changed_spans(_canvas()) == [(1, 9, 10)]


def test_changed_spans_detect_a_style_only_change() -> None:
    """Protects a card that fades or lights up without a character changing."""
    new = _canvas()
    new.put(3, 1, "y", Style(bold=True, italic=True))  # same character, another style
    assert new.changed_spans(_canvas()) == [(1, 3, 4)]
    same = _canvas()
    same.put(3, 1, "y", Style(bold=True))  # an equal style (another object): no change
    assert same.changed_spans(_canvas()) == []


def test_changed_spans_cover_first_to_last_change_per_row() -> None:
    """Protects the span's ends: from the first to the last changed cell of each row."""
    new = _canvas()
    new.put(1, 0, "B")
    new.put(7, 0, "H", Style(color="#102030"))
    new.put(4, 2, "--")
    assert new.changed_spans(_canvas()) == [(0, 1, 8), (2, 4, 6)]


# --------------------------------------------------------------------------- 4. theme_style


def _probe_class(base: type[Widget], names: tuple[str, ...]) -> type[Widget]:
    """``base`` declaring ``names`` as component classes: Textual's own way to the colours
    (a subclass, so that type selectors like ``PromptBar > .prompt--text`` match it)."""
    return type(f"Probe{base.__name__}", (base,), {"COMPONENT_CLASSES": set(names)})


async def _swap(pilot: Pilot[object], real: Widget, probe: Widget) -> None:
    """Put ``probe`` where ``real`` is: same parent, same place among its siblings."""
    parent = real.parent
    assert isinstance(parent, Widget)
    index = list(parent.children).index(real)
    await real.remove()
    if index < len(parent.children):
        await parent.mount(probe, before=index)
    else:
        await parent.mount(probe)
    await pilot.pause()


@pytest.mark.parametrize("theme", THEMES)
@run
async def test_theme_style_is_what_textual_component_classes_give(theme: str) -> None:
    """Protects the colours: ``theme_style`` (resolved once per process, no component
    classes) equals ``get_component_rich_style`` of a widget that declares the class, in the
    same place, full and partial, for every class the felt, chips, prompt and key bar use."""
    app, table = served_app(theme)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await second_trick_to_lead(pilot, table)
        assert app.theme == theme
        forget_theme_styles()
        cases: list[tuple[Widget, Widget, tuple[str, ...]]] = []
        board_names = PALETTE_CLASSES + SEAT_CLASSES
        real_board = screen.felt
        probe_board = _probe_class(FeltBoard, board_names)(
            OpponentHand(id="opp-hand"), HandView(id="hand"), id="felt")
        cases.append((real_board, probe_board, board_names))
        chip_names = CHIP_CLASSES + PALETTE_CLASSES
        cases.append((screen.query_one(ChipsPanel), _probe_class(ChipsPanel, chip_names)(
            id="chips"), chip_names))
        cases.append((screen.query_one(PromptBar), _probe_class(PromptBar, PROMPT_CLASSES)(
            id="prompt"), PROMPT_CLASSES))
        cases.append((screen.query_one(KeyBar), _probe_class(KeyBar, KEYBAR_CLASSES)(),
                      KEYBAR_CLASSES))

        expected: dict[tuple[int, str, bool], Style] = {}
        for real, _probe, names in cases:
            real.__dict__.pop("_theme_memo", None)  # resolve now, in this app
            for name in names:
                for partial in (False, True):
                    expected[id(real), name, partial] = theme_style(real, name, partial=partial)
        backgrounds = {id(real): real.rich_style for real, _p, _n in cases}
        palette = palette_for(real_board)
        for field, name, partial in PALETTE_PARTS:
            assert getattr(palette, field) == expected[id(real_board), name, partial], field

        for real, probe, _names in cases:
            await _swap(pilot, real, probe)
        mismatches = []
        for real, probe, names in cases:
            assert probe.is_attached and probe.rich_style == backgrounds[id(real)]
            for name in names:
                for partial in (False, True):
                    textual = probe.get_component_rich_style(name, partial=partial)
                    ours = expected[id(real), name, partial]
                    if ours != textual or theme_style(probe, name, partial=partial) != textual:
                        mismatches.append((type(real).__name__, name, partial, ours, textual))
        assert mismatches == []


# --------------------------------------------------------------------------- 5. faded_ink


def _triplet(color: RichColor | None) -> tuple[int, int, int] | None:
    return None if color is None or color.triplet is None else tuple(color.triplet)


@pytest.mark.parametrize("theme", THEMES)
@run
async def test_faded_ink_is_what_the_truecolor_filter_made_of_dim_ink(theme: str) -> None:
    """Protects the faded cards on a server without Textual's ANSIToTruecolor filter: the
    ink blended where it is drawn has the colour the filter gave the old ``dim`` ink."""
    app, table = served_app(theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await caught_up(pilot, table)
        board = app.screen.query_one(FeltBoard)
        p = palette_for(board)
        base = board.visual_style
        background = board.rich_style.bgcolor
        assert background is not None
        filt = ANSIToTruecolor(DEFAULT_TERMINAL_THEME)

        def drawn(cell: Style) -> Style:
            """A cell's style as ``Canvas.to_strips`` puts it in a strip."""
            return (base + TextualStyle.from_rich_style(cell)).rich_style

        for suit in (p.red, p.black, p.blue, p.green):
            for extra in (Style(), Style(bold=True)):  # the corner labels are bold
                old = drawn(p.faded + Style(color=suit.color, dim=True) + extra)
                by_filter = filt.truecolor_style(old, background)
                new = drawn(p.faded + faded_ink(p.faded, suit) + extra)
                assert old.dim and not by_filter.dim and not new.dim
                assert _triplet(new.color) == _triplet(by_filter.color), (theme, suit)
                assert _triplet(new.bgcolor) == _triplet(by_filter.bgcolor), (theme, suit)
                assert bool(new.bold) == bool(by_filter.bold)
                # and a local app, which keeps the filter, draws it unchanged
                again = filt.truecolor_style(new, background)
                assert _triplet(again.color) == _triplet(new.color)


@run
async def test_a_resized_table_draws_as_a_table_opened_at_that_size() -> None:
    """Protects the sizes the canvas widgets keep (they read the layout's size, not the
    compositor's at every line): after a resize, each widget's lines are the lines a fresh
    drawing at the new size makes, as wide as the widget."""
    app, table = served_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await second_trick_to_lead(pilot, table)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        widgets = [screen.felt, *screen.query(FeltWidget)]
        drawn = {id(w): [w.render_line(y).text for y in range(w.content_size.height)]
                 for w in widgets}
        for w in widgets:
            w.notify_style_update()  # forget every kept line and placement
            if isinstance(w, FeltWidget):
                w.refresh()
            width = w.content_size.width
            fresh = [w.render_line(y).text for y in range(w.content_size.height)]
            assert drawn[id(w)] == fresh, type(w).__name__
            assert all(len(line) == width for line in fresh), type(w).__name__
        assert screen.felt.hand.region.height == HandView.ROWS[1]  # the tall layout
