"""A new table: the rules (any preset), points and games to win, ace high, the opponent, and
the club's table options (RULES.md §9): pool, stake, wagers, French rule, backers, jeux de
règle. Options that cannot go together are refused here, with the reason, and nothing is
created. The dialog scrolls on a short terminal, so every option stays reachable at 80x24.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from ecarte_tui.engine import PRESET_DESCRIPTIONS, PRESETS, RulesError
from ecarte_tui.ui.players import bot_levels
from ecarte_tui.ui.screens.breakpoints import start_with_breakpoints
from ecarte_tui.ui.widgets.choice import Choice
from ecarte_tui.ui.widgets.ordered_input import OrderedInput
from net.club import BOT_PREFIX, TableOptions
from net.club.clubhouse.options import ClubOptions, ClubOptionsError
from net.club.clubhouse.pool import POOL_RULE_DESCRIPTIONS
from net.club.clubhouse.purse import MAX_STAKE
from net.screens.store_trouble import STORE_DOWN

TARGETS = (3, 5, 7, 11)
GAMES = ((1, "1 (cinq sec)"), (2, "2 of 3"), (3, "3 of 5"))
HUMAN = "human"
NO_POOL = "none"
POOLS = ((NO_POOL, "none: two players"), ("loser_out", "001: loser out"),
         ("two_in_row", "003: two in a row"))
NO_POOL_TEXT = "No pool: the two players keep their seats for the whole match."
# the yes-or-no club options: (field id, caption, ClubOptions field, what it does, its source)
YES_NO_OPTIONS = (
    ("wagers", "Wagers", "wagers", "the gallery bets on each game (004)"),
    ("french", "French rule", "french_rule", "a loser's adviser takes his seat (003)"),
    ("backers", "Backers see", "backers_see_hand", "a player may show his backers his hand"),
    ("jdr", "Jeux de règle", "jeux_de_regle", "no proposal on a jeu de règle (004)"),
)


YES_NO = (("no", False), ("yes", True))
CAPTION_WIDTH = 16


def field(caption: str, options: Sequence[tuple[str, Any]], value: object, fid: str,
          note: str = "", club: bool = False) -> Choice[Any]:
    """One row of the dialog: its name, its value, what it does."""
    return Choice(options, value, caption=caption, caption_width=CAPTION_WIDTH, note=note,
                  id=fid, classes="row club-row" if club else "row")


def opponent_choices() -> list[tuple[str, str]]:
    choices = [("A player (share the table's code)", HUMAN)]
    choices += [(f"The bot: {lv}", f"{BOT_PREFIX}{lv}") for lv in bot_levels()]
    return choices


def options_from(preset: str, target: int, games: int, ace_high: bool,
                 opponent: str, club: ClubOptions | None = None) -> TableOptions:
    """Only what differs from the preset is kept as an override (as ECN tags do)."""
    base = PRESETS[preset]
    overrides: list[tuple[str, str]] = []
    if target != base.target:
        overrides.append(("target", str(target)))
    if games != base.games_to_win:
        overrides.append(("games_to_win", str(games)))
    if ace_high != base.ace_high:
        overrides.append(("ace_high", "yes" if ace_high else "no"))
    return TableOptions(preset, tuple(overrides), opponent, club or ClubOptions())


def stake_of(text: str) -> int:
    """The stake typed in the dialog (empty: no stake); ClubOptionsError if not a number."""
    text = text.strip()
    if not text:
        return 0
    try:
        return int(text)
    except ValueError:
        raise ClubOptionsError(f"a stake is a whole number of chips, 0 to {MAX_STAKE}") from None


class NewTableScreen(ModalScreen[TableOptions | None]):
    # Focus starts on the first field and Tab walks the fields in order; Enter creates the
    # table with what is shown from any field (← → change a field's value), so "Tab, Enter"
    # never lands on Cancel unseen.
    AUTO_FOCUS = "#opponent"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+n", "create", "Create", priority=True),
        Binding("enter", "create_on_enter", "Create", show=False, priority=True),
    ]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-short"), (36, "-tall")]

    def __init__(self, opponent: str = HUMAN, preset: str = "classic",
                 like: TableOptions | None = None) -> None:
        """``like``: start from the options of a table (a new match of the same kind)."""
        super().__init__()
        self.opponent = like.opponent if like else opponent
        preset = like.preset if like else preset
        self.preset = preset if preset in PRESETS else "classic"
        self.like = like
        self.club = like.club if like else ClubOptions()
        self._shown_preset = self.preset
        start_with_breakpoints(self)

    def compose(self) -> ComposeResult:
        rules = PRESETS[self.preset]
        if self.like is not None:
            try:
                rules = self.like.rules()
            except ValueError:
                pass
        choices = opponent_choices()
        opponent = self.opponent if self.opponent in [v for _, v in choices] else HUMAN
        club = self.club
        with Vertical(classes="dialog new-table"):
            yield Static("A new table", classes="title")
            # not a focus stop of its own: moving the focus scrolls the field into view
            with VerticalScroll(id="new-table-scroll", can_focus=False):
                yield field("Opponent", choices, opponent, "opponent")
                yield field("Rules", [(p, p) for p in PRESETS], self.preset, "preset")
                yield Static(PRESET_DESCRIPTIONS[self.preset], id="preset-description",
                             classes="line")
                targets = sorted({*TARGETS, rules.target})
                yield field("Points to win", [(str(t), t) for t in targets], rules.target,
                            "target")
                yield field("Games to win", [(label, n) for n, label in GAMES],
                            min(rules.games_to_win, 3), "games")
                yield field("Ace high", YES_NO, rules.ace_high, "ace-high")
                yield Static("Club options", classes="club-section")
                yield field("Pool", [(label, v) for v, label in POOLS], club.pool or NO_POOL,
                            "pool", club=True)
                yield Static(self._pool_text(club.pool or NO_POOL), id="pool-description",
                             classes="line club-explain")
                with Horizontal(classes="row club-row"):
                    yield Label("Stake", classes="name")
                    yield OrderedInput(str(club.stake), type="integer", max_length=4, compact=True,
                                id="stake")
                    yield Label(f"chips a point, 0 to {MAX_STAKE} (004)",
                                classes="club-explain")
                for sid, label, attr, text in YES_NO_OPTIONS:
                    yield field(label, YES_NO, bool(getattr(club, attr)), sid, text, club=True)
            yield Static(id="new-table-error", classes="club-error")
            with Horizontal(classes="buttons"):
                yield Button("Create  ⏎", id="create", variant="primary")
                yield Button("Cancel  esc", id="cancel")

    def on_mount(self) -> None:
        for error in self.query("#new-table-error"):  # none if closed before it was composed
            error.display = False

    @staticmethod
    def _pool_text(pool: str) -> str:
        return POOL_RULE_DESCRIPTIONS.get(pool, NO_POOL_TEXT)

    @on(Choice.Changed, "#pool")
    def _pool_changed(self, event: Choice.Changed) -> None:
        self.query_one("#pool-description", Static).update(self._pool_text(str(event.value)))

    @on(Choice.Changed, "#preset")
    def _preset_changed(self, event: Choice.Changed) -> None:
        preset = str(event.value)
        if preset == self._shown_preset:
            return
        self._shown_preset = preset
        rules = PRESETS[preset]
        self.query_one("#preset-description", Static).update(PRESET_DESCRIPTIONS[preset])
        self.query_one("#target", Choice).value = rules.target
        self.query_one("#games", Choice).value = min(rules.games_to_win, 3)
        self.query_one("#ace-high", Choice).value = rules.ace_high

    def club_options(self) -> ClubOptions:
        """The club options as set; ClubOptionsError if the stake is not a number."""
        pool = str(self.query_one("#pool", Choice).value)
        flags = {attr: bool(self.query_one(f"#{sid}", Choice).value)
                 for sid, _, attr, _ in YES_NO_OPTIONS}
        return ClubOptions(
            pool=None if pool == NO_POOL else pool,
            stake=stake_of(self.query_one("#stake", Input).value),
            **flags,
        )

    def options(self) -> TableOptions:
        def value(name: str) -> object:
            return self.query_one(f"#{name}", Choice).value

        return options_from(
            str(value("preset")), int(str(value("target"))), int(str(value("games"))),
            bool(self.query_one("#ace-high", Choice).value), str(value("opponent")),
            self.club_options(),
        )

    def refusal(self) -> str | None:
        """Why these options cannot make a table, or None: the same checks as the club's."""
        try:
            options = self.options()
            options.check()
        except (ClubOptionsError, RulesError) as e:
            return str(e)
        club = getattr(self.app, "club", None)
        player = getattr(self.app, "player", None)
        house = getattr(club, "house", None)
        if house is not None and player is not None:
            try:  # (a purse is read: from a button or Enter, not a key's guarded action)
                return house.stake_refusal(player.id, options)  # type: ignore[no-any-return]
            except sqlite3.OperationalError:
                return STORE_DOWN
        return None

    def _show_error(self, text: str | None) -> None:
        error = self.query_one("#new-table-error", Static)
        error.update(text[0].upper() + text[1:] if text else "")
        error.display = bool(text)

    def action_create(self) -> None:
        why = self.refusal()
        self._show_error(why)
        if why is None:
            self.dismiss(self.options())

    def action_cancel(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is left to a focused button (it presses)."""
        if action == "create_on_enter":
            return not isinstance(self.focused, Button)
        return True

    def action_create_on_enter(self) -> None:
        self.action_create()

    @on(Input.Submitted, "#stake")
    def _stake_entered(self, _event: Input.Submitted) -> None:
        self.action_create()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.action_create()
        else:
            self.action_cancel()
