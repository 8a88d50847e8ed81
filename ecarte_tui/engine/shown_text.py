"""Text from a record, made safe to print: a record is a file anyone may send.

A player's name in an ECN record may hold any character. Printed as it is, ``ESC ] 0 ;``
retitles the reader's terminal, ``ESC [ 2 J`` clears it, and a right-to-left override
turns the rest of the line around. Such characters are shown as escapes (``\\x1b``,
``\\u202e``), as the error messages quote a bad line, so the reader sees they are there.
"""

from __future__ import annotations

import unicodedata

_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                           "\u2066\u2067\u2068\u2069")


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with control characters, line breaks and direction overrides as escapes."""
    if text.isprintable() and not _BIDI_CONTROLS.intersection(text):
        return text  # (nearly every name)
    return "".join(
        _escaped(ch)
        if ch in _BIDI_CONTROLS or unicodedata.category(ch) in ("Cc", "Zl", "Zp")
        else ch
        for ch in text
    )


def visible_names(names: tuple[str, str]) -> tuple[str, str]:
    """A record's two names (``Record.names``), each ``visible``."""
    return visible(names[0]), visible(names[1])
