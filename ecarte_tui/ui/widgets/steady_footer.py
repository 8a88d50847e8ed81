"""Textual's Footer, rebuilt only when the keys it shows change.

The Footer rebuilds all its key widgets whenever the screen says its bindings were updated,
which a card table says after every move, and each new key widget has its styles worked
out three times (its ``compact`` default, then the Footer's value, then on mounting). Most
moves leave the shown keys as they were: a profile of the newcomer's table tests put a
fifth of their time there. The picture is Textual's own (same widgets, same snapshots).
Uses the Footer's private ``_bindings_ready``: pinned with textual (pyproject).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer


class SteadyFooter(Footer):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: Hashable | None = None

    def _keys_shown(self, screen: Screen[Any]) -> Hashable:
        """Everything ``Footer.compose`` reads from the bindings, in its order."""
        app = self.app
        keys = tuple(
            (binding.key, app.get_key_display(binding), binding.description, binding.action,
             binding.group, enabled, tooltip)
            for (_, binding, enabled, tooltip) in screen.active_bindings.values()
            if binding.show
        )
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, binding, enabled, _tooltip = found
                palette = (binding.key, app.get_key_display(binding), binding.description,
                           binding.tooltip, enabled)
        return keys, palette, self.compact

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._shown = self._keys_shown(self.screen)
        yield from super().compose()

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if (self._bindings_ready and screen.app.app_focus and self.is_attached
                and screen is self.screen and self._keys_shown(screen) == self._shown):
            return
        super().bindings_changed(screen)
