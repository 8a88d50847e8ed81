"""One parsed stylesheet for every served app of the process.

Each Textual app parses its CSS (the project's files and every widget's ``DEFAULT_CSS``)
into rule sets of its own: about a megabyte and tens of milliseconds per SSH session, for
rules that are the same in every session of one theme. The parsed rule sets are only read
once made (Textual itself reuses them between re-parses of one app), so sessions can share
them: the cache below is keyed by everything the parse depends on, the CSS variables (the
theme) included.

Textual 8.2 is pinned: this overrides ``Stylesheet._parse_rules`` and ``reparse``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet

if TYPE_CHECKING:
    from textual.app import App
    from textual.css.model import RuleSet
    from textual.css.types import CSSLocation

_RULES: LRUCache[tuple[Any, ...], list[RuleSet]] = LRUCache(2048)
"""(variables, css, location, defaults?, tie breaker, scope) -> rule sets, process-wide.
A served app has about 80 sources (one per widget class); a few themes fit."""


class SharedStylesheet(Stylesheet):
    """A ``Stylesheet`` whose parsed rules come from (and go to) the process-wide cache."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._variables_key: tuple[tuple[str, str], ...] | None = None

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._variables_key = None

    def _theme_key(self) -> tuple[tuple[str, str], ...]:
        if self._variables_key is None:
            self._variables_key = tuple(sorted(self._variables.items()))
        return self._variables_key

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = (self._theme_key(), css, read_from, is_default_rules, tie_breaker, scope)
        rules = _RULES.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            _RULES[key] = rules
        return rules

    def reparse(self) -> None:
        """As Textual's (parse into a fresh sheet so an error leaves this one intact), but
        the fresh sheet shares the cache too."""
        fresh = SharedStylesheet(variables=self._variables)
        fresh.source = dict(self.source)
        try:
            fresh.parse()
        except Exception:
            self._invalid_css.update(fresh._invalid_css)
            raise
        self._rules = fresh.rules
        self._rules_map = None
        self.source = fresh.source
        self._require_parse = False


def share_stylesheet(app: App[Any]) -> None:
    """Give ``app`` (not yet running) a stylesheet that shares parsed rules process-wide."""
    app.stylesheet = SharedStylesheet(variables=app.get_css_variables())
