"""A finished match replayed inside the served app, from the store's ECN.

The local replay viewer's screen, with two changes for a server: esc/q go back to the list
instead of ending the session, and the reader sees the match from their own seat, the
opponent's cards face down (their discards never reach the reader, not even by comparing
hands between two steps). Nothing is written and nothing is suspended.
"""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from ecarte_tui.engine import EcnError, Record, read_ecn
from ecarte_tui.ui.replay_app import STYLES, ReplayScreen
from ecarte_tui.ui.widgets.felt import Look
from net.store.club_store import Store


class ServedReplayScreen(ReplayScreen):
    CSS_PATH = STYLES / "replay.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,escape", "back", "Back"),
    ]
    QUIT_HINT = "esc back"

    def __init__(self, record: Record, look: Look, seat: int) -> None:
        super().__init__(record, look, me=seat, hide_other=True)

    def action_back(self) -> None:
        self.dismiss(None)


def stored_record(store: Store, code: str) -> Record | None:
    """The finished match ``code`` as the store holds it; None if missing or unreadable."""
    st = store.finished_match(code)
    if st is None or not st.ecn:
        return None
    try:
        return read_ecn(st.ecn)
    except (EcnError, ValueError):
        return None
