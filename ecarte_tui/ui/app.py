"""The Écarté app: one seat at a table, a home screen for local play, settings and themes.

``EcarteApp(table=..., seat=..., settings=..., served=True)`` is what the SSH server runs,
one per session, all in one process: such an app never touches the server's files, cannot be
suspended, and learns everything about the game from the table it is bound to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.screen import Screen

from ..bot_seat import Chooser
from ..engine import EcnError
from ..pool import POOL_RULE_DESCRIPTIONS
from ..table import Table
from .ascii_filter import AsciiFilter, ascii_key
from .local_game import GameOptions, LocalGame
from .saved_games import (
    SavedGame,
    forget,
    list_saved,
    new_save_path,
    read_saved,
    to_make_room,
    write_game,
)
from .settings import Settings, load_settings, save_settings
from .textual_guards import apply_textual_guards
from .themes import DEFAULT_THEME, TABLE_VARIABLES, load_themes
from .widgets.felt import Look

if TYPE_CHECKING:
    from .local_pool import LocalPool, PoolRound

STYLES = Path(__file__).parent / "styles"
apply_textual_guards()
POOL_COMMANDS = (("loser_out", "Pool vs two bots (001)"), ("two_in_row", "Pool vs two bots (003)"))


class GameThemes(Provider):
    """The command palette's theme list: the themes the settings screen offers."""

    def _choices(self) -> list[tuple[str, Callable[[], None]]]:
        app = self.app
        themes: dict[str, tuple[object, str]] = getattr(app, "themes", {})
        return [(title, partial(setattr, app, "theme", name))
                for name, (_theme, title) in themes.items()]

    async def discover(self) -> Hits:
        for title, choose in self._choices():
            yield DiscoveryHit(title, choose)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, choose in self._choices():
            if (score := matcher.match(title)) > 0:
                yield Hit(score, matcher.highlight(title), choose)


class EcarteApp(App[int]):
    TITLE = "Écarté"
    CSS_PATH: ClassVar[list[str | Path]] = [
        STYLES / "app.tcss", STYLES / "table.tcss", STYLES / "dialogs.tcss",
        STYLES / "home.tcss",
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        # shown in the keys' line of every screen without a quit key of its own (help,
        # rules, settings); where q quits too the line names q alone (same action)
        Binding("ctrl+q", "app.quit", "Quit", key_display="^q", priority=True),
        Binding("f1", "help", "Help", show=False),
        Binding("ctrl+z", "suspend_process", "Suspend", show=False),
    ]

    def __init__(
        self,
        table: Table | None = None,
        seat: int = 0,
        settings: Settings | None = None,
        served: bool = False,
        *,
        home: bool = False,
        options: GameOptions | None = None,
        opponent: Chooser | None = None,
        bot_delay: float | None = None,
        save: bool | None = None,
        pool: str | None = None,
    ) -> None:
        """``table``+``seat``: sit at an existing table (the server's way in).

        Otherwise a local game against a bot is made from ``options`` (``ecarte play``), or
        the home screen is shown (``home``). ``opponent`` replaces the bot (tests);
        ``bot_delay`` overrides the bot-speed setting; ``save`` writes the game on quit and
        settings on change (default: only when not served); ``pool`` (a rule of
        ``ecarte_tui.pool.POOL_RULES``) starts a pool against two bots instead of a game.
        """
        super().__init__()
        self.served = served
        self._table_note = ""
        if served:  # a club names its own way out on every screen (q: the lobby, then quit)
            by_key = self._bindings.key_to_bindings
            by_key["ctrl+q"] = [replace(b, show=False) for b in by_key.get("ctrl+q", [])]
        self.settings = settings if settings is not None else (
            Settings() if served else load_settings())
        self.persist = (not served) if save is None else (save and not served)
        self.table = table
        self.seat = seat
        self.start_home = home and table is None
        self.options = options
        self.opponent = opponent
        self.bot_delay = bot_delay
        self.local: LocalGame | PoolRound | None = None
        self.pool_rule = pool
        self.pool: LocalPool | None = None  # the pool being played, if any (never saved)
        self.themes = load_themes()
        for theme, _title in self.themes.values():
            self.register_theme(theme)
        # only the game's own themes: the ones settings and the palette offer, and save
        wanted = self.settings.theme
        theme = wanted if wanted in self.themes else (
            DEFAULT_THEME if DEFAULT_THEME in self.themes else "textual-dark")
        self.settings = self.settings.updated(theme=theme)  # not saved: the file stays as is
        self.theme = theme
        # the ASCII setting reaches every cell drawn, Textual's own widgets' too
        self.ascii_filter = AsciiFilter(enabled=self.settings.ascii_cards)
        self._filters.append(self.ascii_filter)

    # ------------------------------------------------------------------ setup

    @property
    def can_start_games(self) -> bool:
        """Only a local app makes new tables; a served one is bound to the server's table."""
        return not self.served and self.table is None or self.local is not None

    @property
    def look(self) -> Look:
        return Look(self.settings.four_colour, self.settings.ascii_cards)

    def get_key_display(self, binding: Binding) -> str:
        """A key's name in the key bar: in ASCII mode, ``enter`` rather than its symbol."""
        shown = super().get_key_display(binding)
        if self.ascii_filter.enabled and not shown.isascii():
            return ascii_key(shown)
        return shown

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(TABLE_VARIABLES)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A served app's text boxes keep a steady cursor: each blink is a redraw sent to
        the client, about 1.5 KB/s for as long as a box has focus and nobody types."""
        widget = event.widget
        if self.served and getattr(widget, "cursor_blink", False):  # Input, TextArea
            widget.cursor_blink = False  # type: ignore[attr-defined]

    def on_mount(self) -> None:
        from .screens.home import HomeScreen

        if self.table is not None and self.opponent is not None:
            # a given table with a bot opposite: tests, and local games made elsewhere
            self._start_local(LocalGame(self.table, self.opponent, self.seat, self._delay()))
        elif self.table is not None:
            self._sit(self.table, self.seat)
        elif self.start_home:
            self.push_screen(HomeScreen())
        elif self.pool_rule is not None:
            options = self.options or GameOptions.from_settings(self.settings)
            self.start_pool(self.pool_rule, options)
        else:
            if self.has_saved_game():
                self.note_on_table("Your saved games are kept; run `ecarte` to choose one on the "
                                   "home screen.")
            self.start_game(self.options or GameOptions.from_settings(self.settings))

    def _delay(self) -> float:
        return self.bot_delay if self.bot_delay is not None else self.settings.bot_delay

    def _sit(self, table: Table, seat: int, on_watching: Callable[[], None] | None = None
             ) -> None:
        from .screens.table import TableScreen

        screen = TableScreen(table, seat, self.look, self.settings.auto_announce, on_watching)
        if self._table_note:
            screen.note(self._table_note)
            self._table_note = ""
        self.push_screen(screen)

    def note_on_table(self, text: str) -> None:
        """A word for the player shown above the next table's felt until his first move: a
        toast there covered his hand, the prompt or the box of the draw."""
        self._table_note = text

    def _start_local(self, game: LocalGame) -> None:
        self._stop_local()
        self.pool = None
        self.local = game
        self.table = game.table
        self.seat = game.seat
        while len(self.screen_stack) > 1:
            self.pop_screen()
        # the bot sits down once the screen listens, so nothing it says is missed
        self._sit(game.table, game.seat, game.start)

    def _stop_local(self) -> None:
        if self.local is not None:
            self.local.stop()
            self.local = None

    def start_game(self, options: GameOptions) -> None:
        """A new local game against the bot."""
        self.options = options
        self._start_local(LocalGame.create(options, self._delay(), self.opponent))

    def start_pool(self, rule: str, options: GameOptions) -> None:
        """A pool against two bots (RULES.md §9): you play the first game."""
        from .local_pool import LocalPool

        self.options = options
        self.pool = LocalPool(rule, options, self._delay(), self.opponent)
        self.next_pool_game()

    def next_pool_game(self) -> None:
        """The pool's next game, at a new table screen (played or watched)."""
        from .screens.pool_table import PoolTableScreen

        if self.pool is None:
            return
        game = self.pool.next_round()
        self._stop_local()
        self.local = game
        self.table = game.table
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(PoolTableScreen(self.pool, game, self.look, self.settings.auto_announce))

    def saved_games(self) -> list[SavedGame]:
        """The saved games, newest first; none for a served app or one that does not save."""
        return list_saved() if self.persist else []

    def has_saved_game(self) -> bool:
        return bool(self.saved_games())

    def continue_game(self, path: Path | None = None) -> bool:
        """Sit down again at a saved game (the newest without ``path``); a file that cannot
        be read is reported and left as it is."""
        if not self.persist:
            return False
        if path is None:
            playable = [g for g in self.saved_games() if g.error is None]
            if not playable:
                return False
            path = playable[0].path
        try:
            text = path.read_text(encoding="utf-8")
            game = LocalGame.resume(text, self._delay(), self.opponent)
        except (OSError, UnicodeDecodeError, EcnError) as e:
            reason = read_saved(path).error or str(e)
            self.notify(f"This saved game cannot be played ({reason}); the file is left as "
                        f"it is: {path}", severity="error", timeout=10)
            return False
        game.saved_as = path
        self._start_local(game)
        return True

    # ------------------------------------------------------------------ settings

    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings
        if self.ascii_filter.enabled != settings.ascii_cards:
            self.ascii_filter.enabled = settings.ascii_cards
            self.refresh_bindings()  # the key names
            for screen in self.screen_stack:  # every line drawn again, through the filter
                for widget in screen.walk_children(with_self=True):
                    widget.refresh()
        if settings.theme in self.available_themes and settings.theme != self.theme:
            self.theme = settings.theme
        if self.local is not None:
            self.local.set_delay(self._delay())
        from .screens.table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.set_look(self.look, settings.auto_announce)
        self.keep_settings(settings)

    def keep_settings(self, settings: Settings) -> None:
        """Keep changed settings for the next time: the config file of a local app (a
        served one has no file of its own; a club keeps them with the player's key)."""
        if self.persist:
            try:
                save_settings(settings)
            except OSError as e:
                self.notify(f"Settings not saved: {e}", severity="warning")

    @property
    def settings_note(self) -> str:
        """Where the settings screen says its changes are kept."""
        return "Kept for this session." if self.served else "Saved in your config folder."

    def watch_theme(self, theme: str) -> None:
        if theme != self.settings.theme and theme in self.themes:
            self.apply_settings(self.settings.updated(theme=theme))

    def search_themes(self) -> None:
        """The palette's "Theme" offers the game's themes only, by the titles settings use:
        Textual's own themes lack the table's colours and would not be saved."""
        self.push_screen(CommandPalette(providers=[GameThemes],
                                        placeholder="Search for themes…"))

    # ------------------------------------------------------------------ actions

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_rules(self) -> None:
        from .screens.rules import RulesScreen

        rules = self.table.rules if self.table is not None else None
        if not isinstance(self.screen, RulesScreen):
            self.push_screen(RulesScreen(rules))

    def action_settings(self) -> None:
        from .screens.settings import SettingsScreen

        if not isinstance(self.screen, SettingsScreen):
            self.push_screen(SettingsScreen(self.settings, self.themes, self.served))

    def action_new_game(self) -> None:
        if not self.can_start_games:
            return
        self._leave_game(lambda: self.start_game(
            self.options or GameOptions.from_settings(self.settings)), "a new game")

    def action_pool(self, rule: str) -> None:
        """A pool against two bots from the palette (the game in progress is saved)."""
        if not self.can_start_games or self.served:
            return
        self._leave_game(lambda: self.start_pool(
            rule, self.options or GameOptions.from_settings(self.settings)), "a pool")

    def action_home(self) -> None:
        if self.served:
            return
        self._leave_game(self._go_home, "going home")

    def _go_home(self) -> None:
        from .screens.home import HomeScreen

        self._stop_local()
        self.table = None
        self.pool = None
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(HomeScreen())

    def _leave_game(self, then: Callable[[], None], going: str) -> None:
        """Save the game in progress, then go on with ``then``. If it would be an eleventh
        saved game, ask first: keeping it forgets the oldest, and only the player says so."""
        from .screens.ask import AskScreen

        if not self._needs_new_save():
            self._save_then(then, going)
            return
        oldest = to_make_room(self.saved_games())
        if oldest is None:
            self._save_then(then, going)
            return
        if isinstance(self.screen, AskScreen):
            # asked already (Ctrl+Q again, say): the question on screen has the answers
            self.notify("Keep this game? y keeps it, n leaves without it, Esc goes back.",
                        title="Answer first")
            return

        def answered(answer: str | None) -> None:
            if answer == "keep":
                forget(oldest.path)
                self._save_then(then, going)
                return
            if answer == "drop":
                then()
            # (else cancelled: back to the game, nothing saved or forgotten)

        self.push_screen(AskScreen(
            f"Keep this game before {going}?",
            f"Ten saved games are kept. Keeping this one forgets the oldest:\n"
            f"{oldest.label()}\nEsc: back to the game.",
            [("keep", "Keep it, forget the oldest", "y"), ("drop", "Don't keep it", "n")],
        ), answered)

    def _save_then(self, then: Callable[[], None], going: str) -> None:
        """Save, then ``then``; a game that could not be saved is not left behind unasked
        (a full disk, a data folder that cannot be written): the player chooses."""
        from .screens.ask import AskScreen

        problem = self._save_current()
        if problem is None:
            then()
            return
        if isinstance(self.screen, AskScreen):  # (asked already: ctrl+q again, say)
            return

        def answered(answer: str | None) -> None:
            if answer == "drop":
                then()

        self.push_screen(AskScreen(
            f"Leave without saving before {going}?",
            f"This game could not be saved: {problem}\nEsc: back to the game.",
            [("drop", "Leave without it", "y")],
        ), answered)

    def _needs_new_save(self) -> bool:
        """Would leaving now save a game that has no file yet?"""
        local = self.local
        return (self.persist and isinstance(local, LocalGame) and self.pool is None
                and local.saved_as is None and local.in_progress)

    def _save_current(self) -> str | None:
        """Keep the game in progress in its own file (local play only); a game that ended
        is no longer a saved game, so its file goes. Returns why a game in progress could
        not be saved (None: saved, or nothing to save)."""
        local = self.local
        if not self.persist or not isinstance(local, LocalGame) or self.pool is not None:
            return None  # a pool is not saved: the saved games stay as they were
        if local.in_progress:
            path = local.saved_as or new_save_path()
            try:
                write_game(path, local.table.record_text())
            except OSError as e:
                return f"{e.strerror}: {e.filename}" if e.strerror and e.filename else str(e)
            local.saved_as = path
        elif local.saved_as is not None:
            try:
                forget(local.saved_as)
            except OSError as e:  # (nothing is lost: the file of a finished game stays)
                self.notify(f"The finished game's file stays: {e}", severity="warning")
            local.saved_as = None
        return None

    def action_quit(self) -> None:  # type: ignore[override]
        def leave() -> None:
            self._stop_local()
            self.exit(0)

        self._leave_game(leave, "quitting")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.served and action in ("suspend_process", "screenshot"):
            return False
        return True

    def action_help_quit(self) -> None:
        """Ctrl+C (when no text is selected to copy): a local game quits as with q, the
        game saved; a served session is only told how to leave (a reflex must not drop a
        player from his table)."""
        if self.served:
            super().action_help_quit()
        else:
            self.action_quit()

    def action_suspend_process(self) -> None:
        if self.served:
            return  # a served app has no process of its own to suspend
        super().action_suspend_process()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:  # type: ignore[type-arg]
        for command in super().get_system_commands(screen):
            if self.served and command.title == "Screenshot":
                continue  # it would write a file on the server
            yield command
        yield SystemCommand("Rules", "The rules of the game in play", self.action_rules)
        yield SystemCommand("Settings", "Theme, cards, king, bot speed", self.action_settings)
        yield SystemCommand("Help", "Keys and how to play", self.action_help)
        from .screens.table import TableScreen

        if isinstance(screen, TableScreen):
            yield SystemCommand("Hint", "Ask the expert what to do", screen.action_hint)
        if self.can_start_games and not self.served:
            yield SystemCommand("New game", "Deal a new game against the bot",
                                self.action_new_game)
            yield SystemCommand("Home", "Back to the home screen", self.action_home)
            for rule, title in POOL_COMMANDS:
                yield SystemCommand(title, POOL_RULE_DESCRIPTIONS[rule],
                                    partial(self.action_pool, rule))

    def deliver_screenshot(self, *args: object, **kwargs: object) -> str | None:  # type: ignore[override]
        if self.served:
            self.notify("Screenshots are not available here.", severity="warning")
            return None
        return super().deliver_screenshot(*args, **kwargs)  # type: ignore[arg-type]
