"""Table talk: escapes stripped, length and rate limits, the gallery muted."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.club.clubhouse.talk import (
    HEAR_ALL,
    MAX_CHARS,
    MUTE_ALL,
    MUTE_GALLERY,
    ChatLine,
    TableTalk,
    TalkError,
    TokenBucket,
    clean_line,
)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("\x1b[31mred\x1b[0m text", "red text"),  # SGR colours
        ("\x1b[2J\x1b[Hwiped", "wiped"),  # clear screen, cursor home
        ("\x1b]0;pwned\x07hello", "hello"),  # OSC window title, BEL-terminated
        ("\x1b]52;c;ZXZpbA==\x1b\\ok", "ok"),  # OSC 52 clipboard write, ST-terminated
        ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),  # hyperlink
        ("\x1bPq#0;2;0;0;0\x1b\\sixel", "sixel"),  # DCS
        ("\x1bcreset", "reset"),  # RIS: full terminal reset
        ("\x9b31mC1\x9b0m", "C1"),  # 8-bit CSI
        ("\x9d0;title\x9cafter", "after"),  # 8-bit OSC ... ST
        ("bell\x07 back\x08space del\x7f", "bell backspace del"),
        ("two\nlines\r\nhere\ttab", "two lines here tab"),
        ("\u202eevil\u202c \u2066iso\u2069", "evil iso"),  # bidi overrides and isolates
        ("zero\u200bwidth\ufeff", "zerowidth"),
        ("e\u0301\u0301\u0301\u0301\u0301", "e\u0301\u0301"),  # "zalgo" capped at 2 marks
        ("  Très   bien ♠ 🂡 ", "Très bien ♠ 🂡"),
        ("\x1b", ""),
        ("\r\u20d0", ""),  # a mark with no base but a space (found by hypothesis)
        ("a \u0301b", "a b"),
    ],
)
def test_clean_line(raw, clean):
    assert clean_line(raw) == clean


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=300)
       | st.lists(st.sampled_from(["\x1b", "[", "]", "P", "\\", "\x07", "\x9b", "\x9c", "m",
                                   "0", ";", "a", "\n", "\u202e"])).map("".join))
def test_a_clean_line_holds_no_control_character(text):
    out = clean_line(text)
    for ch in out:
        assert unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp"), repr(ch)
    assert "\x1b" not in out and "\n" not in out
    assert out == out.strip() and "  " not in out
    assert clean_line(out) == out  # cleaning is idempotent


def table(clock=None) -> TableTalk:
    t = TableTalk(clock=clock or Clock())
    t.join("anna", "Anna", "player")
    t.join("ben", "Ben", "player")
    t.join("w1", "Watcher", "watcher")
    t.join("w2", "Other", "watcher")
    return t


def test_every_member_hears_a_line_including_the_speaker():
    t = table()
    out = t.say("anna", "bonne chance")
    assert sorted(d.recipient for d in out) == ["anna", "ben", "w1", "w2"]
    assert {d.line.text for d in out} == {"bonne chance"}
    assert out[0].line.role == "player" and out[0].line.name == "Anna"


def test_length_limit():
    t = table()
    t.say("anna", "x" * MAX_CHARS)
    with pytest.raises(TalkError, match="at most 200 characters \\(this one has 201\\)"):
        t.say("ben", "y" * 201)
    # escapes do not count: they are gone before the length is measured
    t.say("ben", "\x1b[1m" * 50 + "z" * 200)
    with pytest.raises(TalkError, match="empty"):
        t.say("ben", " \x1b[0m\n ")
    with pytest.raises(TalkError, match="at most"):
        t.say("ben", "a" * 100_000)


def test_rate_limit_token_bucket():
    clock = Clock()
    t = table(clock)
    for i in range(5):  # a burst of five
        t.say("w1", f"line {i}")
    with pytest.raises(TalkError, match="again in 2 s"):
        t.say("w1", "one more")
    t.say("w2", "others are not limited by w1")
    clock.t += 2.0  # one token back (0.5 a second)
    t.say("w1", "now")
    with pytest.raises(TalkError):
        t.say("w1", "and again")
    t.leave("w1")
    t.join("w1", "Watcher", "watcher")
    with pytest.raises(TalkError, match="not so fast"):  # leaving does not refill
        t.say("w1", "sneaky")


def test_token_bucket_arithmetic():
    clock = Clock()
    b = TokenBucket(2, 0.25, clock)
    assert b.take() == 0 and b.take() == 0
    assert b.take() == pytest.approx(4.0)  # one token at 0.25/s
    clock.t += 3
    assert b.take() == pytest.approx(1.0)
    clock.t += 1
    assert b.take() == 0


def test_a_player_may_mute_the_gallery():
    t = table()
    t.mute_gallery("anna")
    out = t.say("w1", "play the king!")
    assert sorted(d.recipient for d in out) == ["ben", "w1", "w2"]  # not anna
    # the players' own lines still reach everybody, anna included
    assert "anna" in {d.recipient for d in t.say("ben", "hm")}
    assert [line.text for line in t.history_for("anna")] == ["hm"]
    assert [line.text for line in t.history_for("ben")] == ["play the king!", "hm"]
    t.mute_gallery("anna", False)
    assert "anna" in {d.recipient for d in t.say("w2", "sorry")}
    assert [line.text for line in t.history_for("anna")] == ["hm", "sorry"]


def test_a_player_may_mute_all_the_talk_and_hear_it_again():
    t = table()
    t.set_muting("anna", MUTE_ALL)  # (an opponent who will not stop)
    assert t.muting("anna") == MUTE_ALL and t.gallery_muted("anna")
    assert "anna" not in {d.recipient for d in t.say("ben", "you will lose")}
    assert "anna" not in {d.recipient for d in t.say("w1", "play the king!")}
    assert [d.recipient for d in t.say("w1", "psst", only_to="anna")] == ["w1"]
    assert "ben" in {d.recipient for d in t.say("anna", "gg")}  # she still speaks ...
    assert [line.text for line in t.history_for("anna")] == ["gg"]  # ... and reads herself
    t.set_muting("anna", MUTE_GALLERY)
    assert "anna" in {d.recipient for d in t.say("ben", "sorry")}
    assert "anna" not in {d.recipient for d in t.say("w2", "boo")}
    t.set_muting("anna", HEAR_ALL)
    assert t.muting("anna") == HEAR_ALL
    assert "anna" in {d.recipient for d in t.say("w2", "welcome back")}
    # what her muting kept from her stays unread: hearing again is from now on
    assert [x.text for x in t.history_for("anna")] == ["gg", "sorry", "welcome back"]
    assert [x.text for x in t.history_for("ben")][:2] == ["you will lose", "play the king!"]
    with pytest.raises(TalkError):
        t.set_muting("anna", "some")


def test_lines_kept_from_a_muted_player_stay_kept_and_are_let_go_with_the_history():
    t = TableTalk(clock=Clock(), history=3)
    t.join("anna", "Anna", "player")
    t.join("ben", "Ben", "player")
    t.set_muting("anna", MUTE_ALL)
    t.say("ben", "one")
    t.leave("anna")  # away and muted: what is said meanwhile is kept from her too
    t.hear(ChatLine(99, "carl", "Carl", "watcher", "from another node"))
    t.join("anna", "Anna", "player")
    t.set_muting("anna", HEAR_ALL)
    t.say("ben", "two")
    assert [x.text for x in t.history_for("anna")] == ["two"]
    assert [x.text for x in t.history_for("ben")] == ["one", "from another node", "two"]
    t.say("ben", "three")
    t.say("ben", "four")  # the muted lines fell out of the history, and out of her set
    assert [x.text for x in t.history_for("anna")] == ["two", "three", "four"]
    assert not t._withheld["anna"]


def test_only_members_speak_and_roles_change():
    t = table()
    with pytest.raises(TalkError, match="not at this table"):
        t.say("stranger", "hi")
    t.mute_gallery("anna")
    t.set_role("w1", "player")  # w1 took a seat (pool, French rule)
    assert "anna" in {d.recipient for d in t.say("w1", "my turn")}
    with pytest.raises(TalkError):
        t.join("x", "X", "king")
    t.join("evil", "\x1b[31mred\x1b[0m", "watcher")
    assert t.say("evil", "hi")[0].line.name == "red"


def test_a_line_said_to_one_player_reaches_him_and_the_speaker_only():
    t = table()
    out = t.say("w1", "he holds the king", only_to="ben")
    assert sorted(d.recipient for d in out) == ["ben", "w1"]
    line = out[0].line
    assert (line.to, line.to_name) == ("ben", "Ben")
    for member in ("anna", "w2"):
        assert all(x.to is None for x in t.history_for(member))
    assert [x.text for x in t.history_for("ben")] == ["he holds the king"]
    t.mute_gallery("ben")  # a muted player does not hear it either
    assert [d.recipient for d in t.say("w1", "again", only_to="ben")] == ["w1"]
    t.leave("ben")  # away: named as the room says, kept for his return
    t.mute_gallery("ben", False)
    out = t.say("w1", "later", only_to="ben", to_name="Ben")
    assert [d.recipient for d in out] == ["w1"] and out[0].line.to_name == "Ben"
    assert "later" in [x.text for x in t.history_for("ben")]
