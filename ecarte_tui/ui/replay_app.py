"""``ecarte replay FILE --table``: a saved game on the table, stepped through with ←/→.

A record holds every card, so the replay shows both hands face up; each seat's discards
show as that seat's view has them (the log gives the other's as a count).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..engine import Match, Record, SeatView, seat_view
from ..engine.cards import SUIT_NAMES
from ..engine.match import Phase
from ..engine.shown_text import visible_names
from .ascii_filter import AsciiFilter
from .narration import log_lines, role_text
from .textual_guards import apply_textual_guards
from .themes import DEFAULT_THEME, TABLE_VARIABLES, load_themes
from .widgets.chips import ChipsPanel
from .widgets.felt import Look
from .widgets.felt_board import FeltBoard
from .widgets.felt_layout import felt_and_side
from .widgets.hand import HandView
from .widgets.hand_log import HandLog
from .widgets.steady_footer import SteadyFooter
from .widgets.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmall

STYLES = Path(__file__).parent / "styles"
apply_textual_guards()


def replay_steps(record: Record) -> list[tuple[SeatView, SeatView]]:
    """Both seats' views after the deal of each hand and after every move."""
    source = record.match
    m = Match(source.rules, source.first_dealer)
    steps: list[tuple[SeatView, SeatView]] = []
    for hand in source.hands_log:
        m.start_hand(hand.hands[0], hand.hands[1], hand.up, hand.stock, dealer=hand.dealer)
        steps.append((seat_view(m, 0), seat_view(m, 1)))
        for seat, action in hand.actions:
            m.apply(action, seat)
            steps.append((seat_view(m, 0), seat_view(m, 1)))
    if source.forfeited is not None and steps:  # [Forfeit]: the last step ends the match
        m.forfeit(source.forfeited, source.resigned)
        steps.append((seat_view(m, 0), seat_view(m, 1)))
    return steps


class ReplayScreen(Screen[None]):
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"), (MIN_WIDTH, "-normal-width"), (110, "-wide"),
    ]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-short"), (MIN_HEIGHT, "-normal-height"), (34, "-tall"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "Back", key_display="←"),
        Binding("right", "step(1)", "Forward", key_display="→"),
        Binding("pageup", "hand(-1)", "Hand back", key_display="PgUp"),
        Binding("pagedown", "hand(1)", "Hand forward", key_display="PgDn"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("q,escape", "app.quit", "Quit"),
    ]
    QUIT_HINT = "q quit"

    def __init__(self, record: Record, look: Look, *, me: int = 0,
                 hide_other: bool = False) -> None:
        """``me``: the seat drawn at the bottom; ``hide_other``: the other seat's cards face
        down and the log from ``me``'s view (a server shows a player only their own side, so
        the other's discards never reach them, not even by comparing hands)."""
        super().__init__()
        self.record = record
        self.names = visible_names(record.names)  # (a file's)
        self.look = look
        self.me = me
        self.hide_other = hide_other
        self.steps = replay_steps(record)
        self.index = 0
        self.top_hand, self.hand = HandView(id="top-hand"), HandView(id="hand")
        self.felt = FeltBoard(self.top_hand, self.hand, id="felt")

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        with Vertical(id="table-root"):
            yield Static(id="topbar", markup=False)  # (a record's text is not markup)
            yield from felt_and_side(self.felt, HandLog(id="log"))
            yield Static(id="replay-status", markup=False)  # (its players' names)
            yield SteadyFooter()

    def on_mount(self) -> None:
        for w in self.query("#felt, #chips"):
            set_look = getattr(w, "set_look", None)
            if set_look is not None:
                set_look(self.look)
        self.redraw()

    def on_resize(self) -> None:
        self.query_one(TooSmall).show_size(self.app.size.width, self.app.size.height)

    def action_step(self, step: int) -> None:
        self.index = max(0, min(len(self.steps) - 1, self.index + step))
        self.redraw()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.steps) - 1
        self.redraw()

    def action_hand(self, step: int) -> None:
        if not self.steps:
            return
        current = self.steps[self.index][0].hand_number
        starts = [i for i, (a, _b) in enumerate(self.steps) if not a.events]
        target = current + step
        if 1 <= target <= len(starts):
            self.index = starts[target - 1]
            self.redraw()

    def redraw(self) -> None:
        status = self.query_one("#replay-status", Static)
        if not self.steps:
            status.update("This record holds no hand.")
            return
        a, b = self.steps[self.index]
        if self.me == 1:
            a, b = b, a  # a: the bottom seat's view, b: the top seat's
        me, other = self.me, 1 - self.me
        names = self.names
        g = self.look.glyphs
        top = f"Écarté replay · {a.rules.preset} rules · hand {a.hand_number}"
        if a.trump is not None:
            top += f" · {SUIT_NAMES[a.trump]} {g.suits[a.trump]} trumps"
        self.query_one("#topbar", Static).update(top)
        leader = a.leader if a.phase is Phase.TRICKS else None
        last = a.events[-1] if a.events else None
        said = {last.seat: last.describe(names, self.look.ascii_cards).split(": ", 1)[-1]
                .strip("“”\"")} if last is not None and last.action.kind.name not in (
                    "CARD", "DISCARD") else {}
        for bar, seat in ((self.felt.opp_bar, other), (self.felt.my_bar, me)):
            bar.show(
                names[seat], role_text(a, seat), a.tricks_won[seat], a.at_risk == seat,
                a.king == seat, said.get(seat), leader == seat and a.trick_lead is None,
            )
        deck = a.dealer if a.dealer is not None else 0
        if self.hide_other:
            self.top_hand.show_backs(a.opponent_cards, deck)
        else:
            self.top_hand.show(b.hand)
        self.hand.show(a.hand)
        self.felt.stock.show(a.turn_up, a.stock_size, deck)
        tricks = a.tricks
        if a.trick_lead is not None and a.leader is not None:
            cards: tuple[tuple[int, int], ...] = ((a.leader, a.trick_lead),)
            winner, before = None, (tricks[-1] if tricks else None)
        elif tricks:
            t = tricks[-1]
            cards = ((t.leader, t.lead), (1 - t.leader, t.follow))
            winner, before = t.winner, (tricks[-2] if len(tricks) > 1 else None)
        else:
            cards, winner, before = (), None, None
        self.felt.trick.show(cards, winner, before, names, len(tricks) + 1)
        self.query_one(ChipsPanel).show(
            names, a.scores, a.games_won, a.rules.target, a.rules.games_to_win, (other, me)
        )
        self.query_one(HandLog).show(log_lines(a, names, g))
        status.update(
            f"Move {self.index + 1} of {len(self.steps)}  ·  {names[0]} {a.scores[0]} · "
            f"{names[1]} {a.scores[1]}  ·  ←/→ step, PgUp/PgDn hand, {self.QUIT_HINT}"
        )


class ReplayApp(App[int]):
    TITLE = "Écarté replay"
    CSS_PATH: ClassVar[list[str | Path]] = [
        STYLES / "app.tcss", STYLES / "table.tcss", STYLES / "replay.tcss",
    ]

    def __init__(self, record: Record, theme: str | None = None, look: Look | None = None
                 ) -> None:
        super().__init__()
        self.record = record
        self.look = look or Look()
        for t, _title in load_themes().values():
            self.register_theme(t)
        wanted = theme or DEFAULT_THEME
        if wanted in self.available_themes:
            self.theme = wanted
        if self.look.ascii_cards:  # the whole screen in ASCII, as at the table
            self._filters.append(AsciiFilter())

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(TABLE_VARIABLES)

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.record, self.look))


def run_replay_app(record: Record) -> int:
    """Show ``record`` on the table (the settings' theme and cards); returns the exit status."""
    from .settings import load_settings

    s = load_settings()
    app = ReplayApp(record, s.theme, Look(s.four_colour, s.ascii_cards))
    app.run()
    return app.return_code or 0  # (1 if it failed: not a success for a script)
