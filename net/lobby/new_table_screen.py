"""A new table: the rules (any preset), points and games to win, ace high, and the opponent."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select, Static, Switch

from ecarte_tui.engine import PRESET_DESCRIPTIONS, PRESETS
from ecarte_tui.ui.players import bot_levels
from net.club import BOT_PREFIX, TableOptions

TARGETS = (3, 5, 7, 11)
GAMES = ((1, "1 (cinq sec)"), (2, "2 of 3"), (3, "3 of 5"))
HUMAN = "human"


def opponent_choices() -> list[tuple[str, str]]:
    choices = [("A player (share the table's code)", HUMAN)]
    choices += [(f"The bot: {lv}", f"{BOT_PREFIX}{lv}") for lv in bot_levels()]
    return choices


def options_from(preset: str, target: int, games: int, ace_high: bool,
                 opponent: str) -> TableOptions:
    """Only what differs from the preset is kept as an override (as ECN tags do)."""
    base = PRESETS[preset]
    overrides: list[tuple[str, str]] = []
    if target != base.target:
        overrides.append(("target", str(target)))
    if games != base.games_to_win:
        overrides.append(("games_to_win", str(games)))
    if ace_high != base.ace_high:
        overrides.append(("ace_high", "yes" if ace_high else "no"))
    return TableOptions(preset, tuple(overrides), opponent)


class NewTableScreen(ModalScreen[TableOptions | None]):
    AUTO_FOCUS = "#create"  # Enter creates the table with what is shown
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+n", "create", "Create", priority=True),
    ]

    def __init__(self, opponent: str = HUMAN, preset: str = "classic",
                 like: TableOptions | None = None) -> None:
        """``like``: start from the options of a table (a new match of the same kind)."""
        super().__init__()
        self.opponent = like.opponent if like else opponent
        preset = like.preset if like else preset
        self.preset = preset if preset in PRESETS else "classic"
        self.like = like
        self._shown_preset = self.preset

    def compose(self) -> ComposeResult:
        rules = PRESETS[self.preset]
        if self.like is not None:
            try:
                rules = self.like.rules()
            except ValueError:
                pass
        choices = opponent_choices()
        opponent = self.opponent if self.opponent in [v for _, v in choices] else HUMAN
        with Vertical(classes="dialog new-table"):
            yield Static("A new table", classes="title")
            with Horizontal(classes="row"):
                yield Label("Opponent", classes="name")
                yield Select(choices, value=opponent, allow_blank=False, compact=True,
                             id="opponent")
            with Horizontal(classes="row"):
                yield Label("Rules", classes="name")
                yield Select([(p, p) for p in PRESETS], value=self.preset, allow_blank=False,
                             compact=True, id="preset")
            yield Static(PRESET_DESCRIPTIONS[self.preset], id="preset-description",
                         classes="line")
            with Horizontal(classes="row"):
                yield Label("Points to win", classes="name")
                targets = sorted({*TARGETS, rules.target})
                yield Select([(str(t), t) for t in targets], value=rules.target,
                             allow_blank=False, compact=True, id="target")
            with Horizontal(classes="row"):
                yield Label("Games to win", classes="name")
                yield Select([(label, n) for n, label in GAMES],
                             value=min(rules.games_to_win, 3), allow_blank=False, compact=True,
                             id="games")
            with Horizontal(classes="row"):
                yield Label("Ace high", classes="name")
                yield Switch(rules.ace_high, id="ace-high")
            with Horizontal(classes="buttons"):
                yield Button("Create  ⏎", id="create", variant="primary")
                yield Button("Cancel  esc", id="cancel")

    @on(Select.Changed, "#preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        preset = str(event.value)
        if preset == self._shown_preset:
            return  # (Select also says "changed" when it shows its first value)
        self._shown_preset = preset
        rules = PRESETS[preset]
        self.query_one("#preset-description", Static).update(PRESET_DESCRIPTIONS[preset])
        self.query_one("#target", Select).value = rules.target
        self.query_one("#games", Select).value = min(rules.games_to_win, 3)
        self.query_one("#ace-high", Switch).value = rules.ace_high

    def options(self) -> TableOptions:
        def value(name: str) -> object:
            return self.query_one(f"#{name}", Select).value

        return options_from(
            str(value("preset")), int(str(value("target"))), int(str(value("games"))),
            self.query_one("#ace-high", Switch).value, str(value("opponent")),
        )

    def action_create(self) -> None:
        self.dismiss(self.options())

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.action_create()
        else:
            self.action_cancel()
