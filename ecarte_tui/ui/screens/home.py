"""The home screen: a new game against the bot, the saved game, rules, settings, quit."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Select, Static

from ...engine import PRESET_DESCRIPTIONS, PRESETS
from ..local_game import GameOptions
from ..players import bot_levels, level_description

TITLE = "♠ ♥  É C A R T É  ♦ ♣"
TITLE_ASCII = "E C A R T E"
TARGETS = (3, 5, 7, 11)


def _level_title(level: str) -> str:
    return level.capitalize()


class HomeScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New game"),
        Binding("c", "continue", "Continue"),
        Binding("f2", "app.rules", "Rules", show=False),
        Binding("f3", "app.settings", "Settings", show=False),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        app = self.app
        settings = app.settings  # type: ignore[attr-defined]
        levels = bot_levels()
        level = settings.bot_level if settings.bot_level in levels else levels[-1]
        title = TITLE_ASCII if settings.ascii_cards else TITLE
        with Vertical(id="home"):
            yield Static(title, id="home-title")
            yield Static("the 19th-century French card game for two", id="home-subtitle")
            with Vertical(id="new-game"):
                yield Label("New game against the bot", classes="section")
                with Horizontal(classes="row"):
                    yield Label("Bot", classes="name")
                    yield Select([(_level_title(lv), lv) for lv in levels], value=level,
                                 allow_blank=False, compact=True, id="level")
                yield Static(level_description(level), id="level-description")
                with Horizontal(classes="row"):
                    yield Label("Rules", classes="name")
                    yield Select([(p, p) for p in PRESETS], value=settings.rules,
                                 allow_blank=False, compact=True, id="rules")
                yield Static(PRESET_DESCRIPTIONS[settings.rules], id="rules-description")
                with Horizontal(classes="row"):
                    yield Label("Points to win", classes="name")
                    yield Select([(str(t), t) for t in TARGETS], value=settings.target
                                 if settings.target in TARGETS else 5, allow_blank=False,
                                 compact=True, id="target")
                with Horizontal(classes="row"):
                    yield Label("Games to win", classes="name")
                    yield Select([("1 (cinq sec)", 1), ("2 of 3", 2), ("3 of 5", 3)],
                                 value=min(max(settings.games_to_win, 1), 3), allow_blank=False,
                                 compact=True, id="games")
            with Center():
                with Horizontal(id="home-buttons"):
                    yield Button("New game", id="new", variant="primary")
                    yield Button("Continue", id="continue",
                                 disabled=not app.has_saved_game())  # type: ignore[attr-defined]
                    yield Button("Rules", id="rules-button")
                    yield Button("Settings", id="settings-button")
                    yield Button("Quit", id="quit")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#new", Button).focus()

    def on_screen_resume(self) -> None:
        cont = self.query_one("#continue", Button)
        cont.disabled = not self.app.has_saved_game()  # type: ignore[attr-defined]

    @on(Select.Changed, "#level")
    def _level_changed(self, event: Select.Changed) -> None:
        text = level_description(str(event.value))
        self.query_one("#level-description", Static).update(text)

    @on(Select.Changed, "#rules")
    def _rules_changed(self, event: Select.Changed) -> None:
        preset = str(event.value)
        self.query_one("#rules-description", Static).update(PRESET_DESCRIPTIONS[preset])
        games = PRESETS[preset].games_to_win
        self.query_one("#games", Select).value = min(games, 3)

    def options(self) -> GameOptions:
        def value(name: str) -> object:
            return self.query_one(f"#{name}", Select).value

        return GameOptions(
            level=str(value("level")),
            rules=str(value("rules")),
            target=int(str(value("target"))),
            games_to_win=int(str(value("games"))),
        )

    def action_new(self) -> None:
        options = self.options()
        app = self.app
        app.apply_settings(app.settings.updated(  # type: ignore[attr-defined]
            bot_level=options.level, rules=options.rules, target=options.target or 5,
            games_to_win=options.games_to_win or 1))
        app.start_game(options)  # type: ignore[attr-defined]

    def action_continue(self) -> None:
        if not self.app.continue_game():  # type: ignore[attr-defined]
            self.notify("There is no saved game to continue.", severity="warning")
            self.on_screen_resume()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "continue":
            return bool(self.app.has_saved_game())  # type: ignore[attr-defined]
        return True

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        match event.button.id:
            case "new":
                self.action_new()
            case "continue":
                self.action_continue()
            case "rules-button":
                self.app.action_rules()  # type: ignore[attr-defined]
            case "settings-button":
                self.app.action_settings()  # type: ignore[attr-defined]
            case "quit":
                self.app.exit(0)
