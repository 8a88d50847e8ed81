"""The lobby's list of tables: a DataTable whose new rows are measured by their text.

Every cell of the lobby is one line of plain text. Textual's DataTable makes a rich Text of
each cell of each new row and measures it with the console, to widen its columns; a lobby
opened on a club of 125 tables did that for 625 cells, each time a player came back to it
between two matches (7% of the servers' samples at 250 sessions). Here a new row widens
its columns to its cells' lengths in terminal cells, which is the same width for one line
of text. Private API (``DataTable._update_dimensions`` and the fields it sets), Textual
8.2.x (pinned); rows with labels or several lines are not used here.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from textual.geometry import Size
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey


class TableList(DataTable[str]):
    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        columns = self.ordered_columns
        for row_key in new_rows:
            cells = self._data.get(row_key)
            if row_key not in self._row_locations or cells is None:
                continue  # (removed before this idle time came)
            for column in columns:
                width = cell_len(str(cells.get(column.key, "")))
                if width > column.content_width:
                    column.content_width = width
        header = self.header_height if self.show_header else 0
        self.virtual_size = Size(
            sum(column.get_render_width(self) for column in self.columns.values())
            + self._row_label_column_width,
            self._total_row_height + header,
        )
