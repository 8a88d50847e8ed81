"""The lines ``PlainLines`` finishes itself are the lines Textual's ``StylesCache`` makes."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.filter import ANSIToTruecolor
from textual.widget import Widget

from ecarte_tui.ui.widgets.plain_lines import PlainLines

from .helpers import caught_up, served_table_app


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_plain_lines_are_textuals_lines(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              size: tuple[int, int]) -> None:
    """Protects every cell of the felt, chips, prompt, keys and log: each widget's lines,
    whole and cut to a few rows, are segment for segment what Textual would make (normal
    and tall screens: the prompt's top padding, the log's border row)."""
    table, app = served_table_app(monkeypatch, tmp_path)
    async with app.run_test(size=size) as pilot:
        # as a server runs it (``served_app.apply_terminal_settings``): no colour filter,
        # without which Textual's own path is taken
        app._filters = [f for f in app._filters if not isinstance(f, ANSIToTruecolor)]
        await caught_up(pilot, table)
        await pilot.press("p")
        screen = await caught_up(pilot, table)
        widgets = [w for w in screen.query(PlainLines) if w.region]
        assert {type(w).__name__ for w in widgets} >= {
            "FeltBoard", "ChipsPanel", "PromptBar", "KeyBar", "TailLog"}
        for widget in widgets:
            assert widget._plain() is not None and not widget.get_line_filters()
            region = widget.region.reset_offset
            crops = [region, region.crop_size((region.width, 2)),
                     region.translate((0, region.height - 1)).crop_size((region.width, 1))]
            if region.height > 3:
                crops.append(region.translate((0, 1)).crop_size((region.width, 2)))
            for crop in crops:
                widget._styles_cache.clear()
                ours = widget.render_lines(crop)
                widget._styles_cache.clear()
                theirs = Widget.render_lines(widget, crop)
                assert [list(s) for s in ours] == [list(s) for s in theirs], (widget, crop)
                assert [s.cell_length for s in ours] == [s.cell_length for s in theirs]
