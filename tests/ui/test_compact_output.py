"""The server's compact partial updates (``server_tuning.send_changed_cells_only``) paint the
same cells as Textual's own ``ChopsUpdate.render_segments``, in fewer bytes.

A real served-style table screen (KeyBar, TailLog) plays a card; the partial updates the
compositor made for that move are rendered both ways, each fed to a ``pyte`` terminal that
starts from the same full frame, and the two terminals are compared cell by cell (and with
a full frame drawn after the move).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pyte
import pytest
from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate, Compositor, CompositorUpdate, LayoutUpdate
from textual.pilot import Pilot
from textual.screen import Screen

import net.ssh.server_tuning as server_tuning
from ecarte_tui.engine import Phase, Rules
from ecarte_tui.table import Table
from ecarte_tui.ui.app import EcarteApp
from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.settings import Settings
from ecarte_tui.ui.widgets.felt_board import FeltBoard
from ecarte_tui.ui.widgets.hand_log import TailLog
from ecarte_tui.ui.widgets.key_bar import KeyBar

from .helpers import ME, caught_up, one_turn, served_table_app

WIDTH, HEIGHT = 80, 24
Render = Callable[[ChopsUpdate, Console], str]


@pytest.fixture
def renderers(monkeypatch: pytest.MonkeyPatch,
              tmp_path: Path) -> Iterator[tuple[Render, Render]]:
    """Textual's ``render_segments`` and the server's, with Textual's put back afterwards
    (the patch is process-wide: other tests in this worker must see Textual's)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    # the table as a server draws it: the light key bar and the fixed-box log
    monkeypatch.setattr(TableScreen, "KEY_BAR", KeyBar)
    monkeypatch.setattr(TableScreen, "LOG", TailLog)
    original = ChopsUpdate.__dict__["render_segments"]
    assert original.__qualname__ == "ChopsUpdate.render_segments", "already patched"
    with textual_compositor():
        was_patched = server_tuning._cells_patched
        server_tuning._cells_patched = False
        try:
            server_tuning.send_changed_cells_only()
            patched = ChopsUpdate.__dict__["render_segments"]
        finally:
            ChopsUpdate.render_segments = original  # type: ignore[method-assign]
            server_tuning._cells_patched = was_patched
    assert patched is not original
    yield original, patched
    assert ChopsUpdate.__dict__["render_segments"] is original
    assert server_tuning._cells_patched == was_patched


@contextmanager
def textual_compositor() -> Iterator[None]:
    """Textual's own ``Compositor.render_update`` afterwards, whatever was installed meanwhile
    (``render_dirty_cells_only`` is process-wide)."""
    original = Compositor.__dict__["render_update"]
    assert original.__qualname__ == "Compositor.render_update", "already patched"
    was_patched = server_tuning._compositor_patched
    server_tuning._compositor_patched = False
    try:
        yield
    finally:
        Compositor.render_update = original  # type: ignore[method-assign]
        server_tuning._compositor_patched = was_patched


def truecolor_console() -> Console:
    return Console(file=io.StringIO(), color_system="truecolor", force_terminal=True,
                   width=WIDTH, height=HEIGHT, legacy_windows=False)


def full_frame(screen: Screen[object], console: Console) -> str:
    """The whole screen as Textual writes it (without touching the compositor's dirt)."""
    strips = screen._compositor.render_strips()
    return LayoutUpdate([[s] for s in strips], screen._compositor.size.region
                        ).render_segments(console)


def terminal(*outputs: str) -> pyte.Screen:
    term = pyte.Screen(WIDTH, HEIGHT)
    stream = pyte.Stream(term)
    for text in outputs:
        stream.feed(text)
    return term


def cells(term: pyte.Screen) -> list[list[tuple[object, ...]]]:
    return [[(c.data, c.fg, c.bg, c.bold, c.italics, c.reverse)
             for c in (term.buffer[y][x] for x in range(WIDTH))] for y in range(HEIGHT)]


async def other_seat_plays(pilot: Pilot[object], table: Table) -> TableScreen:
    """The other seat plays its first legal action until it is the player's turn."""
    while table.waiting_for == 1 - ME:
        table.submit(1 - ME, table.view(1 - ME).legal[0])
    return await caught_up(pilot, table)


async def test_compact_updates_paint_the_same_cells_in_fewer_bytes(
        renderers: tuple[Render, Render]) -> None:
    """Protects what a served player sees: the patched partial update (cropped at both ends,
    attributes written only when they change) leaves the terminal exactly as Textual's own
    would, cell for cell (character, colours, bold, italic, reverse), and is smaller; at
    least one span starts inside a widget (a card in the middle of the felt), so the left
    crop is exercised."""
    textual_render, compact_render = renderers
    table = Table.new(Rules.named("academie"), ("You", "Bot"), 3, 1)  # the player is elder
    app = EcarteApp(table=table, seat=ME, settings=Settings(), save=False)
    console = truecolor_console()
    async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
        await caught_up(pilot, table)
        await pilot.press("p")  # we play: the tricks begin, the player leads
        screen = await other_seat_plays(pilot, table)
        assert table.view(ME).phase is Phase.TRICKS and table.view(ME).to_move == ME
        before = full_frame(screen, console)

        updates: list[ChopsUpdate] = []
        display = app._display

        def capture(screen: Screen[object], renderable: object) -> None:
            if isinstance(renderable, ChopsUpdate):
                updates.append(renderable)
            display(screen, renderable)

        app._display = capture  # type: ignore[method-assign]
        await pilot.press("1")  # a card led: the hand, the trick, the bars, prompt, keys, log
        await caught_up(pilot, table)
        await pilot.pause()
        app._display = display  # type: ignore[method-assign]
        after = full_frame(screen, console)
        felt = screen.query_one(FeltBoard).region

    assert updates, "the move made no partial update"
    textual_out = [textual_render(u, console) for u in updates]
    compact_out = [compact_render(u, console) for u in updates]

    # a span that starts strictly inside a chop (a widget's piece of the line): Textual's
    # update starts at the chop, the compact one at the span
    inside = [(y, x1, x) for u in updates for y, x1, _x2 in u.spans
              for x, end in _chops(u, y) if x < x1 < end]
    assert inside, "no span started inside a widget"
    y, x1, chop_x = next((s for s in inside if felt.contains(s[1], s[0])), inside[0])
    move_to_span = Control.move_to(x1, y).segment.text
    assert any(move_to_span in out for out in compact_out)
    assert not any(move_to_span in out for out in textual_out)
    assert any(Control.move_to(chop_x, y).segment.text in out for out in textual_out)

    by_textual = cells(terminal(before, *textual_out))
    by_compact = cells(terminal(before, *compact_out))
    differences = [(y, x, by_textual[y][x], by_compact[y][x]) for y in range(HEIGHT)
                   for x in range(WIDTH) if by_textual[y][x] != by_compact[y][x]]
    assert differences == []
    assert by_compact == cells(terminal(after))  # and it is the screen after the move
    assert by_compact != cells(terminal(before))  # (the move did change the screen)

    textual_bytes = sum(len(out.encode()) for out in textual_out)
    compact_bytes = sum(len(out.encode()) for out in compact_out)
    assert compact_bytes < textual_bytes, (compact_bytes, textual_bytes)


def _chops(update: ChopsUpdate, y: int) -> list[tuple[int, int]]:
    """(start, end) of each drawn chop (a widget's piece) of line ``y``."""
    return [(x, end) for end, (x, strip) in
            zip(update.chop_ends[y], update.chops[y].items(), strict=False) if strip is not None]


async def test_dirty_cells_paint_what_textual_paints(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    """Protects what a served player sees: the server's frames (``render_dirty_cells_only``:
    each widget rendered only where it shows on a dirty row) leave the terminal as Textual's
    own frames would, cell for cell, through a game's moves, the box at a hand's end and a
    whole-screen repaint; and in fewer bytes. Before that repaint the frames already drew the
    screen as it is: the box's cells were drawn again from the table when it closed."""
    textual_update = Compositor.__dict__["render_update"]
    with textual_compositor():
        server_tuning.render_dirty_cells_only()
        served_update = Compositor.__dict__["render_update"]
    assert served_update is not textual_update
    console = truecolor_console()
    frames: list[tuple[str, str]] = []

    def both(self: Compositor, full: bool = False, screen_stack: object = None,
             simplify: bool = False) -> CompositorUpdate | None:
        dirty = set(self._dirty_regions)
        ours = served_update(self, full, screen_stack, simplify)
        self._dirty_regions.update(dirty)
        theirs = textual_update(self, full, screen_stack, simplify)
        if full or simplify:
            assert type(ours) is type(theirs)  # (full frames stay Textual's)
        if theirs is not None:
            assert ours is not None
            frames.append((theirs.render_segments(console), ours.render_segments(console)))
        return theirs

    table, app = served_table_app(monkeypatch, tmp_path)
    monkeypatch.setattr(Compositor, "render_update", both)
    async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
        screen = await caught_up(pilot, table)
        await pilot.press("p")
        hands = table.view(ME).hand_number
        boxes = 0
        for _ in range(60):  # a hand played out, its box shown and closed, the next dealt
            view = table.view(ME)
            if view.hand_number > hands and view.phase is Phase.TRICKS:
                break
            boxes += await one_turn(pilot, table, screen, decide="p")
            screen = await caught_up(pilot, table)
            await pilot.pause()
        # what the frames drew so far is the screen: the box's cells were drawn again
        # from the table under it when it closed (no whole-screen repaint hides a residue)
        settled = full_frame(screen, console)
        before_repaint = len(frames)
        screen.refresh()  # a whole-screen repaint
        await pilot.pause()
        after = full_frame(screen, console)
    assert Compositor.__dict__["render_update"] is both
    assert len(frames) > 10
    assert table.view(ME).hand_number > hands, "the hand never ended"
    assert boxes, "no box at the hand's end"
    assert cells(terminal(*(ours for _, ours in frames[:before_repaint]))) == cells(
        terminal(settled))
    textual_term = terminal(*(theirs for theirs, _ in frames))
    served_term = terminal(*(ours for _, ours in frames))
    assert cells(served_term) == cells(textual_term)
    assert cells(served_term) == cells(terminal(after))
    assert sum(len(o.encode()) for _, o in frames) < sum(len(t.encode()) for t, _ in frames)
