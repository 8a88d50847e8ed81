"""A text box that applies every key in the order it was typed, however fast it arrives.

Textual's ``Input`` inserts a printable key from its own message queue, but an editing key
(Backspace, Ctrl+U, Enter, ...) is one of its bindings, and bindings run only once the key
has bubbled through every parent's queue up to the app. Keys that arrive in one read (a
fast typist over SSH, a paste without bracketed paste) are then applied out of order:
``abc⌫def`` became "abcde". Running the box's own bindings from its own queue keeps the
order, with the same bindings and the same precedence (the focused widget's bindings come
first in Textual's chain anyway).
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class OrderedInput(Input):
    """``Input`` whose editing keys take effect in sequence with the typed characters."""

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable:
            return  # Input's own handler inserts it, from this same queue
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.priority:
                continue  # the app ran (or declined) priority bindings before forwarding
            if await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return
