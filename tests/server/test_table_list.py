"""The lobby's list measures new rows by their text, not by rendering each cell
(``net.screens.table_list``): the columns and the scrollable size must come out as
Textual's DataTable makes them, for the same rows."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import DataTable

from net.screens.lobby_screen import COLUMNS
from net.screens.table_list import TableList

ROWS = [
    ("ABCD", "classic · to 5", "anna vs ben", "hand 3 · 2–1", ""),
    ("EFGH", "britannica · to 5 · best of 3 · ace high", "Zoë · waiting for a player",
     "open", "2"),
    ("IJKL", "nl · to 10", "渡辺 vs Ólafur", "your seat · hand 12 · 4–4 · anna away 1:59", ""),
    ("MNOP", "academie · to 5", "carl vs dora · pool 2/3", "over", "11"),
]


class Both(App[None]):
    def compose(self) -> ComposeResult:
        yield DataTable(id="textual")
        yield TableList(id="ours")

    def on_mount(self) -> None:
        for table in self.query(DataTable):
            for name in COLUMNS:
                table.add_column(name, key=name)
            for row in ROWS:
                table.add_row(*row, key=row[0])


async def test_the_lobby_list_is_as_wide_as_a_data_table():
    app = Both()
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        theirs = app.query_one("#textual", DataTable)
        ours = app.query_one("#ours", TableList)
        widths = [c.content_width for c in ours.ordered_columns]
        assert widths == [c.content_width for c in theirs.ordered_columns]
        assert widths[2] == len("Zoë · waiting for a player")
        assert widths[3] == len("your seat · hand 12 · 4–4 · anna away 1:59")
        assert ours.virtual_size == theirs.virtual_size
        ours.add_row("QRST", "classic · to 5", "a much longer pair of names vs another one",
                     "starting", "", key="QRST")
        await pilot.pause()
        assert ours.ordered_columns[2].content_width == len(
            "a much longer pair of names vs another one")
        assert ours.virtual_size.height == theirs.virtual_size.height + 1
