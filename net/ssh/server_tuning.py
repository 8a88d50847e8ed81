"""Process-wide settings for a server that runs hundreds of Textual apps in one process.

Measured with ``ecarte bench ssh`` (50 sessions, this 2-core machine):

- Textual gives every ``Strip`` (one line of a widget) seven small caches of its own, made
  when the strip is made. A table screen keeps about 1,500 strips alive, so each session
  held ~10,000 cache objects (1.7 MB of its 5.5 MB) and a garbage collection had twice the
  objects to walk. With the caches off a redraw was faster, not slower (19 against 22 ms
  for a move seen by two players): a served screen's lines change on every move, so making
  the caches cost more than they saved.
- Python's cyclic garbage collector stopped the whole server for a full collection every few
  seconds, over a second each with 50 sessions (p99 1.3 s). Textual makes cyclic garbage on
  every redraw; a larger first generation lets it die young instead of being promoted, and
  what was loaded at start-up is frozen out of collections: p99 ~170 ms. The price: garbage
  waits longer (more memory per session), and a full collection still comes now and then
  (about 1.5 s with 50 sessions) — the limit of one Python process, see net/bench.py.
  A first generation of 50,000 objects (was 10,000; 10 of its collections per second-
  generation one, was 5) lets the garbage of a frame die there rather than reach the old
  generation, where it waited for a full collection: 1.95-2.04 MB per session against
  2.58-2.72, 13-15 ms of CPU per action against 16-17 (50 sessions, one process, two runs
  each alternating). 30,000 did as well; 100,000 held more again (2.5 MB).
  ``ECARTE_GC_THRESHOLDS=a,b,c`` overrides the thresholds for experiments.
  Since play and closed screens leave no cycles (``layout_garbage``,
  ``component_style_garbage``, ``screen_garbage``), no full collection came during play.
  The young and second generations still grew far past these thresholds between two
  collections (50-300 ms each at 250 sessions): ``gc_pacing`` runs young collections by
  the clock and freezes what survives them.

Only ``ecarte serve`` (and the benchmark's server) calls these; a local game is unchanged.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from typing import Any

GC_THRESHOLDS = (50_000, 10, 100)


class _NoCache:
    """Stands in for each of a Strip's caches: never holds anything."""

    __slots__ = ()

    def get(self, key: object, default: Any = None) -> Any:
        return default

    def set(self, key: object, value: object) -> None:
        return None

    __setitem__ = set

    def __contains__(self, key: object) -> bool:
        return False

    def __len__(self) -> int:
        return 0

    def __bool__(self) -> bool:
        return False

    def clear(self) -> None:
        return None

    def keys(self) -> Iterable[object]:
        return ()


_NO_CACHE = _NoCache()
_applied = False


def lighten_strips() -> None:
    """Make new Textual strips share one empty stand-in instead of seven caches each."""
    global _applied
    if _applied:
        return
    from textual.strip import Strip

    def __init__(self: Strip, segments: Iterable[Any], cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._divide_cache = self._crop_cache = self._style_cache = _NO_CACHE  # type: ignore[assignment]
        self._filter_cache = self._line_length_cache = _NO_CACHE  # type: ignore[assignment]
        self._crop_extend_cache = self._offsets_cache = _NO_CACHE  # type: ignore[assignment]
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    Strip.__init__ = __init__  # type: ignore[method-assign]
    _applied = True


def tune_garbage_collector() -> None:
    """Call once the server has started: everything loaded so far is kept out of collections."""
    gc.collect()
    gc.freeze()
    import os

    wanted = os.environ.get("ECARTE_GC_THRESHOLDS")
    thresholds = tuple(int(x) for x in wanted.split(",")) if wanted else GC_THRESHOLDS
    gc.set_threshold(*thresholds)


_cells_patched = False


def compact_sgr(strip: Any, system: Any) -> str:
    """A strip as terminal text with each change of attributes written once."""
    out: list[str] = []
    if write_segments(strip, system, out.append, ""):
        out.append("\x1b[0m")
    return "".join(out)


def write_segments(strip: Any, system: Any, append: Callable[[str], Any], current: str) -> str:
    """Append ``strip``'s text with an SGR sequence only where the attributes change from
    ``current`` (the SGR parameters in force); returns those in force at its end."""
    from textual.strip import Strip

    for text, style, _control in strip._segments:
        if style is None:
            ansi = ""
        elif style._link:  # a hyperlink: Textual's own sequence, which ends in a reset
            if current:
                append("\x1b[0m")
                current = ""
            append(Strip.render_style(style, text, system))
            continue
        else:
            ansi = _sgr_of(style, system)
        if ansi != current:
            append(f"\x1b[0;{ansi}m" if ansi else "\x1b[0m")
            current = ansi
        append(text)
    return current


def send_changed_cells_only() -> None:
    """Send the cells that were marked dirty, not every widget line that touches them.

    Textual 8.2's partial update (``ChopsUpdate.render_segments``) cuts a widget's line at
    the right end of a dirty span but always starts it at the widget's left edge: one
    changed card on the felt resent the felt's whole row (50-80 cells with their colour
    codes). The widgets here mark exactly the cells that changed (``Canvas.changed_spans``),
    so both ends are cut. And Textual writes every segment as ``ESC[attrs m text ESC[0m``
    even when the next one has the same attributes; here a segment's attributes are
    written only when they differ from the last ones (reset and set in one sequence), and
    one reset ends the span: the same cells, in 40% fewer bytes. Pinned to textual 8.2.x
    (pyproject), like the other private APIs used here. The screens' frames themselves are
    made by ``render_dirty_cells_only`` (installed here too), which goes further the same way.
    """
    global _cells_patched
    render_dirty_cells_only()
    if _cells_patched:
        return
    from rich.color import ColorSystem
    from rich.console import Console
    from rich.control import Control
    from textual._compositor import ChopsUpdate

    def render_segments(self: ChopsUpdate, console: Console) -> str:
        system = console._color_system or ColorSystem.TRUECOLOR
        sequences: list[str] = []
        append = sequences.append
        move_to = Control.move_to
        chops, chop_ends = self.chops, self.chop_ends
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            for end, (x, strip) in zip(chop_ends[y], chops[y].items(), strict=False):
                if strip is None:
                    continue
                start, stop = max(x, x1), min(end, x2)
                if start >= stop:
                    continue
                if start > x or stop < end:
                    strip = strip.crop(start - x, stop - x)
                append(move_to(start, y).segment.text)
                append(compact_sgr(strip, system))
            if y != last_y:
                append("\n")
        return "".join(sequences)

    ChopsUpdate.render_segments = render_segments  # type: ignore[method-assign]
    _cells_patched = True


_ANSI: dict[Any, str] = {}
"""A style's SGR parameters (truecolor: served apps all render so), made once per style."""


def _sgr_of(style: Any, system: Any) -> str:
    ansi: str | None = style._ansi
    if ansi is None:
        ansi = _ANSI.get(style)
        if ansi is None:
            from textual.strip import Strip

            if len(_ANSI) > 4096:
                _ANSI.clear()
            ansi = _ANSI[style] = Strip.render_ansi(style, system)
    return ansi


class DirtyCells:
    """A frame as the pieces of widget lines that cover the dirty cells, front widget first
    (what ``CellsUpdate`` writes); made by ``dirty_cells``."""

    __slots__ = ("pieces",)

    def __init__(self) -> None:
        self.pieces: dict[int, list[tuple[int, Any]]] = {}  # y -> [(x, strip)]


def dirty_cells(compositor: Any, spans: Iterable[tuple[int, int, int]]) -> DirtyCells:
    """The strips that paint ``spans`` (y, x1, x2) on the screen, each widget rendered once
    for the rows it shows there and only where no widget in front of it covers the span.

    Textual's partial update renders every visible widget that overlaps the bounding box
    of all the dirty regions over its whole height (the screen and the containers too),
    then cuts each rendered line at every widget edge; a move that changes a card on the
    felt and the prompt under it rendered nearly every widget of the screen. Widgets are
    opaque rectangles in Textual's compositor (the first one in front wins each cell), so
    the picture is the same.
    """
    from textual.geometry import Region

    by_y: dict[int, list[tuple[int, int]]] = {}
    for y, x1, x2 in spans:
        if x1 < x2:
            by_y.setdefault(y, []).append((x1, x2))
    out = DirtyCells()
    if not by_y:
        return out
    visible = []
    for widget, (region, clip) in compositor.visible_widgets.items():
        shown = region.intersection(clip)
        if shown:
            visible.append((widget, region, shown, shown.x, shown.right, shown.y,
                            shown.bottom))
    jobs: dict[Any, list[tuple[int, int, int]]] = {}
    for y in sorted(by_y):
        uncovered = by_y[y]
        for widget, _region, _shown, left, right, top, bottom in visible:
            if not top <= y < bottom:
                continue
            rest: list[tuple[int, int]] = []
            for a, b in uncovered:
                s = a if a > left else left
                e = b if b < right else right
                if s < e:
                    jobs.setdefault(widget, []).append((y, s, e))
                    if a < s:
                        rest.append((a, s))
                    if e < b:
                        rest.append((e, b))
                else:
                    rest.append((a, b))
            uncovered = rest
            if not uncovered:
                break
    pieces = out.pieces
    for widget, region, shown, left, right, _top, _bottom in visible:
        wanted = jobs.get(widget)
        if wanted is None:
            continue
        rows: dict[int, Any] = {}
        ys = sorted({y for y, _, _ in wanted})
        start = 0
        for i in range(1, len(ys) + 1):  # each run of consecutive rows in one call
            if i == len(ys) or ys[i] != ys[i - 1] + 1:
                first = ys[start]
                strips = widget.render_lines(Region(left - region.x, first - region.y,
                                                    shown.width, i - start))
                rows.update(zip(ys[start:i], strips, strict=False))
                start = i
        for y, s, e in wanted:
            strip = rows[y]
            if s > left or e < right:
                strip = strip.crop(s - left, e - left)
            pieces.setdefault(y, []).append((s, strip))
    return out


def cells_text(cells: DirtyCells, system: Any) -> str:
    """The pieces as terminal output: a cursor move only where a piece does not follow the
    last one on its row, attributes written only when they change (across pieces too: a
    cursor move keeps them), one reset at the end."""
    from rich.control import Control

    out: list[str] = []
    append = out.append
    move_to = Control.move_to
    current = ""
    at: tuple[int, int] | None = None
    for y in sorted(cells.pieces):
        for x, strip in sorted(cells.pieces[y], key=lambda piece: piece[0]):
            if at != (x, y):
                append(move_to(x, y).segment.text)
            current = write_segments(strip, system, append, current)
            at = (x + strip.cell_length, y)
    if current:
        append("\x1b[0m")
    return "".join(out)


_compositor_patched = False


def render_dirty_cells_only() -> None:
    """Make a served screen's frames with ``dirty_cells`` and ``cells_text`` instead of
    Textual's chops (see there); a whole-screen repaint goes the same way, every row a span.
    ``render_update(full=True)`` (screenshots, tests) stays Textual's. Pinned to textual
    8.2.x, like the other private APIs used here."""
    global _compositor_patched
    if _compositor_patched:
        return
    from rich.color import ColorSystem
    from rich.console import Console
    from textual._compositor import Compositor, CompositorUpdate

    class CellsUpdate(CompositorUpdate):
        def __init__(self, cells: DirtyCells) -> None:
            self.cells = cells

        def render_segments(self, console: Console) -> str:
            return cells_text(self.cells, console._color_system or ColorSystem.TRUECOLOR)

    textual_render_update = Compositor.render_update

    def render_update(self: Compositor, full: bool = False, screen_stack: Any = None,
                      simplify: bool = False) -> Any:
        if full or simplify:
            return textual_render_update(self, full, screen_stack, simplify)
        from textual._compositor import visible_screen_stack

        visible_screen_stack.set([] if screen_stack is None else screen_stack)
        screen = self.size.region
        dirty = self._dirty_regions
        if not dirty:
            return None
        if screen in dirty:
            spans: Iterable[tuple[int, int, int]] = (
                (y, 0, screen.width) for y in range(screen.height))
        else:
            spans = self._regions_to_spans(
                [r for r in (region.intersection(screen) for region in dirty) if r])
        spans = list(spans)
        dirty.clear()
        cells = dirty_cells(self, spans)
        return CellsUpdate(cells) if cells.pieces else None

    Compositor.render_update = render_update  # type: ignore[method-assign]
    _compositor_patched = True


def tune_for_server() -> None:
    from net.ssh.covered_screens import skip_covered_screen_layouts

    skip_covered_screen_layouts()
    lighten_strips()
    send_changed_cells_only()
    tune_garbage_collector()
