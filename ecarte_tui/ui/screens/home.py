"""The home screen: a new game against the bot, the saved games, rules, settings, quit.

The saved games are listed with what each one is (date, rules, bot, score), newest first:
Enter or Continue sits down at the one highlighted, ``d`` forgets one after asking.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Button, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ...engine import PRESET_DESCRIPTIONS, PRESETS
from ..local_game import GameOptions
from ..players import bot_levels, level_description
from ..saved_games import SavedGame
from ..widgets.steady_footer import SteadyFooter

TITLE = "♠ ♥  É C A R T É  ♦ ♣"
TITLE_ASCII = "E C A R T E"
TARGETS = (3, 5, 7, 11)


def _level_title(level: str) -> str:
    return level.capitalize()


class HomeScreen(Screen[None]):
    DEFAULT_CSS = """
    HomeScreen #saved-games { height: auto; padding: 0 2; }
    HomeScreen #saved-games.-none { display: none; }
    HomeScreen #saved-title { color: $primary; text-style: bold; }
    HomeScreen #saved-list { height: auto; max-height: 4; background: $felt-edge; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new", "New game"),
        Binding("c", "continue", "Continue"),
        Binding("d,delete", "forget", "Forget saved game", show=False),
        Binding("f2", "rules", "Rules", show=False),
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
                    yield Button("Continue", id="continue", disabled=True)  # see refresh_saved
                    yield Button("Rules", id="rules-button")
                    yield Button("Settings", id="settings-button")
                    yield Button("Quit", id="quit")
            with Vertical(id="saved-games"):
                yield Label("Saved games: date, rules, bot, score   ⏎ continue · d forget",
                            id="saved-title")
                yield OptionList(id="saved-list", compact=True)
        yield SteadyFooter()

    saved: list[SavedGame]

    def on_mount(self) -> None:
        self.query_one("#new", Button).focus()
        self.refresh_saved()

    def on_screen_resume(self) -> None:
        self.refresh_saved()

    def refresh_saved(self) -> None:
        """Read the saved games again (a game left since) and show them, newest first."""
        self.saved = list(self.app.saved_games())  # type: ignore[attr-defined]
        listing = self.query_one("#saved-list", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        listing.add_options(Option(g.label(), id=str(i)) for i, g in enumerate(self.saved))
        if self.saved:
            listing.highlighted = min(highlighted or 0, len(self.saved) - 1)
        self.query_one("#saved-games").set_class(not self.saved, "-none")
        self.query_one("#continue", Button).disabled = not self.saved
        self.call_after_refresh(self._fit_saved)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_saved)

    def _fit_saved(self) -> None:
        """Give the list the rows the screen has left (at 80×24, about four)."""
        if not self.is_mounted or not self.saved:
            return
        try:
            listing = self.query_one("#saved-list", OptionList)
            home = self.query_one("#home")
            footer = self.query_one(SteadyFooter).outer_size.height
        except NoMatches:  # (a game started since it was asked for: the screen is going)
            return
        others = home.outer_size.height - listing.outer_size.height
        rows = max(1, min(len(self.saved), self.size.height - footer - others))
        if listing.styles.max_height != rows:
            listing.styles.max_height = rows

    def _chosen(self) -> SavedGame | None:
        index = self.query_one("#saved-list", OptionList).highlighted
        if not self.saved:
            return None
        return self.saved[index if index is not None else 0]

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
        game = self._chosen()
        if game is None:
            self.notify("There is no saved game to continue.", severity="warning")
            return
        if game.error is not None:
            self.notify(f"This saved game cannot be played: {game.error}. The file is left as "
                        f"it is: {game.path}", severity="error", timeout=10)
            return
        if not self.app.continue_game(game.path):  # type: ignore[attr-defined]
            self.refresh_saved()

    @on(OptionList.OptionSelected, "#saved-list")
    def _saved_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_continue()

    def action_rules(self) -> None:
        """The rules of the game about to be chosen: the preset and options selected here."""
        from .rules import RulesScreen

        try:
            rules = self.options().make_rules()
        except ValueError:
            rules = None
        self.app.push_screen(RulesScreen(rules))

    def action_forget(self) -> None:
        """Forget the highlighted saved game, once the player has said yes."""
        from .ask import AskScreen

        game = self._chosen()
        if game is None:
            return

        def answered(answer: str | None) -> None:
            if answer == "forget":
                from ..saved_games import forget

                try:
                    forget(game.path)
                except OSError as e:
                    self.notify(f"The saved game could not be removed: {e}", severity="error")
                self.refresh_saved()

        self.app.push_screen(AskScreen(
            "Forget this saved game?", game.label(),
            [("forget", "Forget it", "y"), ("keep", "Keep it", "n")]), answered)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("continue", "forget"):
            return bool(getattr(self, "saved", None))
        return True

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        match event.button.id:
            case "new":
                self.action_new()
            case "continue":
                self.action_continue()
            case "rules-button":
                self.action_rules()
            case "settings-button":
                self.app.action_settings()  # type: ignore[attr-defined]
            case "quit":
                self.app.exit(0)
