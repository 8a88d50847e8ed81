"""Colours of named parts (``card--face``, ``seat--risk``, ``prompt--keys``...) resolved from
the stylesheet once per process, per theme and background, instead of per widget.

Textual's component classes give every widget instance one hidden node per class, restyled
(the whole stylesheet matched again) each time the widget is; a server holds a table per
player and restyles after every move. Here the same rules of the same stylesheet are
applied to one throw-away node the first time a (widget type, theme, background, name) is
asked for, with Textual's own arithmetic, so the result is the colour Textual would have
drawn, and every later widget of every session reads it from a dictionary.
"""

from __future__ import annotations

from rich.style import Style
from textual.color import Color
from textual.css.styles import RenderStyles, Styles
from textual.dom import DOMNode
from textual.widget import Widget

_CACHE: dict[tuple[object, ...], tuple[Style, Style]] = {}
_LIMIT = 4096


def theme_style(widget: Widget, name: str, *, partial: bool = False) -> Style:
    """The Rich style of CSS class ``name`` drawn on ``widget`` (``partial``: without the
    widget's own colours, for drawing over another part's background)."""
    memo = widget_memo(widget)
    found = memo.get((name, partial))
    if found is None:
        key = (*style_key(widget), name)
        pair = _CACHE.get(key)
        if pair is None:
            if len(_CACHE) > _LIMIT:
                _CACHE.clear()
            pair = _CACHE[key] = _resolve(widget, name)
        found = memo[(name, partial)] = pair[1] if partial else pair[0]
    return found  # type: ignore[return-value]


def widget_memo(widget: Widget) -> dict[object, object]:
    """What a widget looked up, kept until its styles change (``ThemeStyled``), the theme
    changes or the no-colour mode does: reading ``rich_style`` for the key costs more than
    drawing a row."""
    app = widget.app
    stamp = (app.theme, app.has_pseudo_class("nocolor"))
    memo: dict[object, object] | None = widget.__dict__.get("_theme_memo")
    if memo is None or memo.get("stamp") != stamp:
        memo = widget.__dict__["_theme_memo"] = {"stamp": stamp}
    return memo


class ThemeStyled(Widget):
    """A widget drawn with ``theme_style``: its memo goes when its styles change."""

    def notify_style_update(self) -> None:
        self.__dict__.pop("_theme_memo", None)
        super().notify_style_update()


def style_key(widget: Widget) -> tuple[object, ...]:
    """What the resolved colours depend on: the rules that match (the widget's type and id),
    the theme, the no-colour mode and the background drawn on."""
    app = widget.app
    return (type(widget).__name__, widget.id, app.theme, app.has_pseudo_class("nocolor"),
            widget.rich_style)


def _resolve(widget: Widget, name: str) -> tuple[Style, Style]:
    """What ``Widget.get_component_rich_style`` computes for a component class (Textual
    8.2), on a node that exists only for the time of the call."""
    node = DOMNode(classes=name)
    node._attach(widget)
    widget.app.stylesheet.apply(node, animate=False)
    styles = RenderStyles(widget, Styles(), Styles())
    styles._update_node(node.styles.node)
    styles.base.merge(node.styles.base)
    styles.inline.merge(node.styles.inline)
    styles._updates += 1
    style = styles.rich_style
    text_opacity = styles.text_opacity
    if text_opacity < 1 and style.bgcolor is not None:
        style += Style.from_color(
            (Color.from_rich_color(style.bgcolor)
             + styles.color.multiply_alpha(text_opacity)).rich_color)
    partial = styles.partial_rich_style
    node._css_styles.node = node._inline_styles.node = None  # (freed now, not by the GC)
    return style, partial


def forget_theme_styles() -> None:
    """Tests and theme reloads: resolve again."""
    _CACHE.clear()
