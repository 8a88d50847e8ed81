"""Per-client colour depth, applied to the byte stream rather than at render time.

Textual caches each rendered `Strip` as a string (`Strip._render_cache`) without
regard to the console that rendered it, and some strips are shared between apps.
With apps rendering for different colour systems in one process, a 16-colour client
could receive another app's truecolor sequences. So every served app renders in
truecolor and each session's driver rewrites SGR colour parameters down to what its
client supports.
"""

from __future__ import annotations

import re

from rich.color import Color, ColorSystem

from net.ssh.terminal_caps import ColorSystem as ColorSystemName

_SGR = re.compile(r"\x1b\[([0-9;]*)m")
_SYSTEMS = {"256": ColorSystem.EIGHT_BIT, "standard": ColorSystem.STANDARD}
_CACHE_LIMIT = 4096


class ColorDowngrader:
    """Rewrites `38;2;r;g;b` / `38;5;n` (and 48;...) for a client with fewer colours."""

    def __init__(self, system: ColorSystemName) -> None:
        self.system = system
        self._target = _SYSTEMS.get(system)
        self._cache: dict[str, str] = {}

    @property
    def active(self) -> bool:
        """False for truecolor clients: output passes through untouched."""
        return self._target is not None

    def __call__(self, text: str) -> str:
        """Return `text` with its SGR colour parameters reduced to the client's depth."""
        if self._target is None or "\x1b[" not in text:
            return text
        return _SGR.sub(self._replace, text)

    def _replace(self, match: re.Match[str]) -> str:
        params = match.group(1)
        if "8;" not in params:
            return match.group(0)
        rewritten = self._cache.get(params)
        if rewritten is None:
            if len(self._cache) >= _CACHE_LIMIT:
                self._cache.clear()
            rewritten = self._cache[params] = self._rewrite(params)
        return f"\x1b[{rewritten}m"

    def _rewrite(self, params: str) -> str:
        assert self._target is not None
        parts = params.split(";")
        out: list[str] = []
        index = 0
        while index < len(parts):
            part = parts[index]
            color: Color | None = None
            width = 1
            try:
                if part in {"38", "48"} and parts[index + 1] == "2":
                    red, green, blue = (int(value) for value in parts[index + 2 : index + 5])
                    color, width = Color.from_rgb(red, green, blue), 5
                elif part in {"38", "48"} and parts[index + 1] == "5":
                    color, width = Color.from_ansi(int(parts[index + 2])), 3
            except (IndexError, ValueError):
                color = None
            if color is None:
                out.append(part)
            else:
                out.extend(color.downgrade(self._target).get_ansi_codes(part == "38"))
            index += width
        return ";".join(out)
