"""Settings: theme, four-colour deck, ASCII cards, announcing the king, the bot's speed.

Changes apply at once. A local app saves them to the config file; a served one keeps them
for the session, or, in a club, with the player's key for his next visits.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.theme import Theme
from textual.widgets import Button, Label, Select, Switch

from ..settings import BOT_SPEEDS, Settings
from ..widgets.steady_footer import SteadyFooter

SPEED_TITLES = {"slow": "slow", "normal": "normal", "fast": "fast", "instant": "instant"}
SERVED_SPEED_TITLES = {"normal": "the club's pace"}  # (its --bot-delay, whatever it is)


class SettingsScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f3", "close", "Done"),
        # a modal screen's keys' line leaves out the app's own: the way out is named here
        Binding("ctrl+q", "app.quit", "Quit", key_display="^q"),
    ]

    def __init__(
        self, settings: Settings, themes: dict[str, tuple[Theme, str]], served: bool = False
    ) -> None:
        super().__init__()
        self.settings = settings
        self.themes = themes
        self.served = served

    def compose(self) -> ComposeResult:
        s = self.settings
        # the game's own themes only, as the palette's "Theme" offers them
        theme_options = [(title, name) for name, (_t, title) in self.themes.items()]
        theme = s.theme if s.theme in self.themes else next(iter(self.themes), s.theme)
        with Vertical(id="dialog", classes="dialog settings"):
            yield Label("Settings", classes="title")
            with Horizontal(classes="row"):
                yield Label("Theme", classes="name")
                yield Select(theme_options, value=theme, allow_blank=False, compact=True,
                             id="theme")
            with Horizontal(classes="row"):
                yield Label("Four-colour deck", classes="name")
                yield Switch(s.four_colour, id="four_colour")
            with Horizontal(classes="row"):
                yield Label("ASCII cards", classes="name")
                yield Switch(s.ascii_cards, id="ascii_cards")
            with Horizontal(classes="row"):
                yield Label("Announce the king for me", classes="name")
                yield Switch(s.auto_announce, id="auto_announce")
            with Horizontal(classes="row"):
                yield Label("Bot speed", classes="name")
                titles = {**SPEED_TITLES, **(SERVED_SPEED_TITLES if self.served else {})}
                yield Select([(titles[k], k) for k in BOT_SPEEDS], value=s.bot_speed,
                             allow_blank=False, compact=True, id="bot_speed")
            note = self.app.settings_note  # type: ignore[attr-defined]  # (EcarteApp's)
            yield Label(note, classes="line note")
            with Horizontal(classes="buttons"):
                yield Button("Done  esc", id="done", variant="primary")
        # its own keys' line: the table's, seen through the box, named keys that do not
        # work here (p, c, h...)
        yield SteadyFooter()

    def _set(self, **changes: object) -> None:
        self.settings = self.settings.updated(**changes)
        apply = getattr(self.app, "apply_settings", None)
        if apply is not None:
            apply(self.settings)

    @on(Switch.Changed)
    def _switch(self, event: Switch.Changed) -> None:
        if event.switch.id:
            self._set(**{event.switch.id: event.value})

    @on(Select.Changed)
    def _select(self, event: Select.Changed) -> None:
        if event.select.id and isinstance(event.value, str):
            if getattr(self.settings, event.select.id) != event.value:
                self._set(**{event.select.id: event.value})

    @on(Button.Pressed, "#done")
    def action_close(self) -> None:
        self.dismiss(None)
