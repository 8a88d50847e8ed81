"""The served key bar (``KeyBar``) asks ``check_action`` only for the keys it may show
(``shown_bindings``); what it finds for them is what Textual's ``active_bindings`` finds."""

from __future__ import annotations

from pathlib import Path

import pytest

from ecarte_tui.ui.screens.table import TableScreen
from ecarte_tui.ui.widgets.key_bar import shown_bindings

from .helpers import ME, caught_up, one_turn, served_table_app


def textual_view(screen: TableScreen) -> dict[str, tuple[object, bool]]:
    """Textual's active bindings, for the keys ``shown_bindings`` answers for."""
    app = screen.app
    wanted = {key for _node, bindings in screen._modal_binding_chain
              for key, binding in bindings if binding.show}
    wanted.add(app.COMMAND_PALETTE_BINDING)
    return {key: (active.binding, active.enabled)
            for key, active in screen.active_bindings.items() if key in wanted}


async def test_shown_bindings_are_textuals_active_bindings(monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: Path) -> None:
    """Protects the keys line of a served table: through a hand (the decision, the
    discard, the tricks, the box at its end with its own Enter), the bindings the bar reads
    are the ones Textual would list, in the same order."""
    table, app = served_table_app(monkeypatch, tmp_path)
    seen_box = False
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await caught_up(pilot, table)
        hands = table.view(ME).hand_number
        for _ in range(60):
            ours = shown_bindings(screen)
            assert list(ours.items()) == list(textual_view(screen).items())
            seen_box = seen_box or screen.dialog is not None
            if table.view(ME).hand_number > hands:
                break
            await one_turn(pilot, table, screen, decide="c")
            screen = await caught_up(pilot, table)
    assert seen_box, "the box never opened"
    assert table.view(ME).hand_number > hands
