"""The table talk at the side of a club table: the last few lines, and advice marked apart.

Chat comes from other people's terminals: it is drawn as ``rich.text.Text`` only (never as
markup) from lines ``clean_line`` has already stripped of every escape and control
character. Advice is shown only on the backed player's own screen, in its own style, above
the chat, until he acts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.widget import Widget

from ecarte_tui.engine import Action, Kind, cards_of
from ecarte_tui.ui.players import action_words
from net.club.clubhouse.backers import Advice
from net.club.clubhouse.talk import ChatLine

KEEP = 50  # lines kept on a screen (the talk's own history is as long)


def chat_text(line: ChatLine, name_style: str = "bold", text_style: str = "") -> Text:
    """One line as plain text: "name: words" (a watcher's name in italics), "name → to:
    words" for a line said to one player only (a backer who has seen his hand)."""
    out = Text(no_wrap=True, overflow="ellipsis", end="")
    style = name_style if line.role == "player" else f"{name_style} italic"
    out.append(line.name, style)
    if line.to is not None:
        out.append(f" → {line.to_name or '?'}", style)
    out.append(": ")
    out.append(line.text, text_style)
    return out


class TalkPanel(Widget):
    """Header ("Talk · / talk", and "gallery muted" or "talk muted" when so), advice, then the
    latest lines."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "talk--head", "talk--muted", "talk--advice", "talk--name", "talk--empty",
    }
    DEFAULT_CSS = """
    TalkPanel {
        height: 5;
        background: $felt-edge;
        color: $foreground;
        border-top: hkey $secondary;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    TalkPanel > .talk--head { color: $secondary; text-style: bold; }
    TalkPanel > .talk--muted { color: $background; background: $warning; text-style: bold; }
    TalkPanel > .talk--advice { color: $background; background: $success; text-style: bold; }
    TalkPanel > .talk--name { color: $accent; text-style: bold; }
    TalkPanel > .talk--empty { color: $foreground 60%; text-style: italic; }
    TableScreen.-tall TalkPanel { height: 8; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.lines: tuple[ChatLine, ...] = ()
        self.advice_text: str | None = None
        self.muted = ""  # the mark: "gallery muted", "talk muted" or none
        self.keys = "/ talk"

    def show(self, lines: Sequence[ChatLine], advice: str | None, muted: str,
             keys: str) -> None:
        state = (tuple(lines[-KEEP:]), advice, muted, keys)
        if state != (self.lines, self.advice_text, self.muted, self.keys):
            self.lines, self.advice_text, self.muted, self.keys = state
            self.refresh()

    def render(self) -> Text:
        get = self.get_component_rich_style
        width = max(1, self.content_region.width or self.size.width)
        rows = max(1, self.content_region.height or self.size.height)
        out: list[Text] = []
        head = Text(no_wrap=True, overflow="ellipsis", end="")
        head.append("Talk ", get("talk--head"))
        if self.muted:  # the mark first: the keys may be cut off on a narrow side panel
            head.append(self.muted, get("talk--muted"))
            head.append(" ")
        head.append(f"· {self.keys}", get("talk--head"))
        out.append(head)
        if self.advice_text:
            advice = Text(self.advice_text, get("talk--advice"))
            wrapped = advice.wrap(self.app.console, width, overflow="ellipsis")
            out.extend(list(wrapped)[:2])
        room = rows - len(out)
        if room > 0:
            if self.lines:
                name = get("talk--name")
                out.extend(chat_text(line, name) for line in self.lines[-room:])
            elif not self.advice_text:
                out.append(Text("nobody has spoken yet", get("talk--empty")))
        text = Text("\n", no_wrap=True, overflow="ellipsis", end="").join(out[:rows])
        return text


def advice_line(advice: Advice, label: Callable[[int], str]) -> str:
    """How the backed player reads a piece of advice: "Advice from NAME: play K♥ — note"."""
    parts = []
    if advice.action is not None:
        parts.append(suggestion_words(advice.action, label))
    if advice.note:
        parts.append(advice.note)
    return f"Advice from {advice.adviser_name}: " + " — ".join(parts)


def suggestion_words(action: Action, label: Callable[[int], str]) -> str:
    """An action as a backer suggests it: "play K♥", "discard 7♠ 8♥", "propose"."""
    if action.kind is Kind.CARD:
        return action_words(action, label(action.card))
    if action.kind is Kind.DISCARD:
        return action_words(action, " ".join(label(c) for c in cards_of(action.cards)))
    return action_words(action, "")
