"""The SSH tests' quicker pyte screen shows what pyte's shows, whatever the bytes."""

from __future__ import annotations

import pyte
from fast_screen import FastScreen
from hypothesis import given, settings
from hypothesis import strategies as st

TEXT = st.text(
    alphabet=st.sampled_from(list("ab Z~9") + list("♠♥♦♣─│┌é") + ["漢", "字", "\u0301",
                                                                  "\u200b", "\x7f", "\x85"]),
    min_size=1, max_size=12)
CONTROL = st.sampled_from([
    "\r", "\n", "\x08", "\t", "\x1b[H", "\x1b[2;3H", "\x1b[1;7H", "\x1b[K", "\x1b[2J",
    "\x1b[1;31m", "\x1b[0m", "\x1b[38;2;1;2;3;48;5;17m", "\x1b[7m",
    "\x1b[4h", "\x1b[4l",  # insert mode on, off
    "\x1b[?7l", "\x1b[?7h",  # autowrap off, on
    "\x1b(0", "\x1b(B", "\x0e", "\x0f",  # the DEC line-drawing set, shifts
    "\x1b[3;4r", "\x1b[r", "\x1bD", "\x1bM", "\x1b[2@", "\x1b[3P",
])
STREAM = st.lists(st.one_of(TEXT, CONTROL), max_size=40)


def state(screen: pyte.Screen) -> tuple[object, ...]:
    cells = [[screen.buffer[y][x] for x in range(screen.columns)] for y in range(screen.lines)]
    return cells, (screen.cursor.x, screen.cursor.y), screen.cursor.attrs, sorted(screen.dirty)


def display(screen: pyte.Screen) -> list[str] | None:
    """None where pyte cannot say (the second half of a wide character left alone after
    the first was overwritten: pyte's ``display`` fails on it)."""
    try:
        return screen.display
    except IndexError:
        return None


@settings(max_examples=300, deadline=None)
@given(pieces=STREAM, width=st.integers(3, 9), height=st.integers(2, 5))
def test_the_quick_screen_matches_pyte(pieces: list[str], width: int, height: int) -> None:
    data = "".join(pieces).encode()
    pyte_screen, fast = pyte.Screen(width, height), FastScreen(width, height)
    for screen in (pyte_screen, fast):
        stream = pyte.ByteStream(screen)
        for i in range(0, len(data), 5):  # in pieces, as reads arrive
            stream.feed(data[i:i + 5])
    assert state(fast) == state(pyte_screen)
    expected = display(pyte_screen)
    if expected is not None:
        assert fast.display == expected


def test_a_wide_character_and_the_cell_after_it_read_as_pyte_reads_them() -> None:
    for screen in (pyte.Screen(6, 2), FastScreen(6, 2)):
        pyte.Stream(screen).feed("a漢b\r\nxy")
        assert screen.display == ["a漢b  ", "xy    "]
