"""Unit tests for the pure pieces: paste cap, colour downgrade, limits, terminal caps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.ssh.color_downgrade import ColorDowngrader
from net.ssh.limits import ConnectionTracker, Limits, TokenBucket, clamp_size
from net.ssh.paste_limit import PASTE_END, PASTE_START, PasteLimiter
from net.ssh.terminal_caps import pick_color_system, wants_no_color


def _run(limiter: PasteLimiter, text: str, cuts: list[int]) -> str:
    points = sorted({0, len(text), *(c % (len(text) + 1) for c in cuts)})
    return "".join(limiter.filter(text[a:b]) for a, b in zip(points, points[1:], strict=False))


@given(st.text(alphabet="ab\x1b[]0~12", max_size=300), st.lists(st.integers(0, 10_000)))
def test_paste_limiter_is_transparent_without_long_pastes(text, cuts):
    limiter = PasteLimiter(limit=10_000)
    assert _run(limiter, text, cuts) == text


@given(
    st.text(alphabet="xy", min_size=0, max_size=200),
    st.integers(0, 50),
    st.lists(st.integers(0, 10_000), max_size=20),
)
def test_paste_limiter_caps_any_paste_however_it_is_split(body, limit, cuts):
    text = "k" + PASTE_START + body + PASTE_END + "z"
    out = _run(PasteLimiter(limit), text, cuts)
    assert out == "k" + PASTE_START + body[:limit] + PASTE_END + "z"


_TOKENS = st.sampled_from([PASTE_START, PASTE_END, "a", "\x1b", "[", "201~", "200~"])


@given(st.lists(_TOKENS, max_size=60), st.lists(st.integers(0, 10_000), max_size=20))
def test_paste_limiter_marker_soup(tokens, cuts):
    text = "".join(tokens)
    limiter = PasteLimiter(limit=10_000)
    assert _run(limiter, text, cuts) + limiter.held == text
    out = _run(PasteLimiter(limit=3), text, cuts)
    # After any start marker the parser never sees more than 3 chars before an end marker.
    for piece in out.split(PASTE_START)[1:]:
        assert len(piece.split(PASTE_END)[0]) <= 3 or PASTE_END not in piece


def test_paste_limiter_drops_endless_paste_until_its_end():
    limiter = PasteLimiter(limit=4)
    assert limiter.filter(PASTE_START + "abcdefgh") == PASTE_START + "abcd" + PASTE_END
    assert limiter.filter("more and more") == ""
    assert limiter.filter("tail" + PASTE_END + "q") == "q"
    assert limiter.truncated == 1


def test_colour_downgrade_rewrites_only_colour_parameters():
    text = "\x1b[1;38;2;255;0;0;48;2;0;0;255mX\x1b[0m\x1b[38;5;196mY\x1b[4m"
    assert ColorDowngrader("truecolor")(text) == text
    eight_bit = ColorDowngrader("256")(text)
    assert "38;2;" not in eight_bit and "48;2;" not in eight_bit and "38;5;196" in eight_bit
    standard = ColorDowngrader("standard")(text)
    assert standard == "\x1b[1;31;44mX\x1b[0m\x1b[31mY\x1b[4m"


def test_colour_system_from_client_environment():
    assert pick_color_system("xterm-256color", {"COLORTERM": "truecolor"}) == "truecolor"
    assert pick_color_system("xterm-256color", {}) == "256"
    assert pick_color_system("screen", {"COLORTERM": "24bit"}) == "truecolor"
    assert pick_color_system("xterm", {}) == "standard"
    assert pick_color_system(None, {}) == "standard"
    assert wants_no_color({"NO_COLOR": "1"}) and not wants_no_color({"NO_COLOR": ""})


def test_clamp_size():
    limits = Limits(max_columns=300, max_rows=100)
    assert clamp_size(0, 0, limits) == (80, 24)
    assert clamp_size(1, 1, limits) == (1, 1)
    assert clamp_size(1000, 1000, limits) == (300, 100)


def test_token_bucket_refills_with_time():
    now = [0.0]
    bucket = TokenBucket(rate=10, burst=2, clock=lambda: now[0])
    assert bucket.try_take() and bucket.try_take() and not bucket.try_take()
    now[0] += 0.1
    assert bucket.try_take()
    bucket.charge(5)
    assert not bucket.has_tokens()
    now[0] += 1
    assert bucket.has_tokens()


def test_connection_tracker_limits_and_failure_window():
    now = [0.0]
    limits = Limits(max_connections=3, max_connections_per_ip=2, max_failed_auth_per_ip=2)
    tracker = ConnectionTracker(limits, clock=lambda: now[0])
    tracker.opened("a")
    tracker.opened("a")
    assert tracker.refusal_reason("a") is not None and tracker.refusal_reason("b") is None
    tracker.opened("b")
    assert "full" in (tracker.refusal_reason("c") or "")
    tracker.closed("a")
    tracker.auth_failed("c")
    tracker.auth_failed("c")
    # Failed logins never refuse the connection itself: a key may still get in.
    assert tracker.refusal_reason("c") is None
    assert "failed" in (tracker.lockout_reason("c") or "")
    now[0] += limits.failed_auth_window + 1
    assert tracker.lockout_reason("c") is None


def test_workers_sharing_counts_limit_an_address_and_the_server_together(tmp_path):
    """Two workers' trackers on one counts file (net/ssh/shared_counts.py): an address's
    connections on either count against it on both, and so does the total."""
    from net.ssh import shared_counts
    from net.ssh.shared_counts import SharedCounts

    path = tmp_path / "counts"
    key = shared_counts.create(path, 2)
    limits = Limits(max_connections=3, max_connections_per_ip=2)
    one = ConnectionTracker(limits, shared=SharedCounts(path, 2, 0, key))
    two = ConnectionTracker(limits, shared=SharedCounts(path, 2, 1, key))
    one.opened("10.0.0.1")
    assert two.refusal_reason("10.0.0.1") is None
    two.opened("10.0.0.1")
    # each worker holds one: alone, each would let a second in
    assert "your address" in (one.refusal_reason("10.0.0.1") or "")
    assert "your address" in (two.refusal_reason("10.0.0.1") or "")
    assert one.refusal_reason("10.0.0.2") is None
    one.opened("10.0.0.2")
    assert "full" in (two.refusal_reason("10.0.0.3") or "")
    one.closed("10.0.0.1")
    assert two.refusal_reason("10.0.0.1") is None and two.refusal_reason("10.0.0.3") is None
    # worker 2 dies and is started again: its connections went with it
    restarted = ConnectionTracker(limits, shared=SharedCounts(path, 2, 1, key))
    one.opened("10.0.0.1")
    assert restarted.refusal_reason("10.0.0.1") is None  # one left from 10.0.0.1, not two
    assert "full" not in (restarted.refusal_reason("10.0.0.4") or "")
    with pytest.raises(ValueError):
        SharedCounts(path, 2, 2, key)


def test_workers_sharing_counts_lock_an_address_out_on_their_failures_together(tmp_path):
    """An address failing twice on one worker and once on the other is locked out on both
    at a limit of three; each alone had seen too few. The lock ends with the window."""
    from net.ssh import shared_counts
    from net.ssh.shared_counts import SharedCounts

    now = [1000.0]
    path = tmp_path / "counts"
    key = shared_counts.create(path, 3)
    limits = Limits(max_failed_auth_per_ip=3, failed_auth_window=300.0)

    def worker(i: int) -> ConnectionTracker:
        return ConnectionTracker(limits, clock=lambda: now[0],
                                 shared=SharedCounts(path, 3, i, key))

    one, two = worker(0), worker(2)
    one.auth_failed("198.51.100.9")
    now[0] += 10
    one.auth_failed("198.51.100.9")
    assert one.lockout_reason("198.51.100.9") is None
    now[0] += 10
    two.auth_failed("198.51.100.9")
    for tracker in (one, two):
        assert tracker.recent_failures("198.51.100.9") == 3
        # the oldest of the three (at 1000) leaves the window at 1300: 280 s from now
        assert tracker.lockout_remaining("198.51.100.9") == pytest.approx(280.0)
    assert one.lockout_reason("198.51.100.10") is None  # another address: free
    now[0] += 281
    assert two.lockout_reason("198.51.100.9") is None
    assert two.recent_failures("198.51.100.9") == 2
    # worker 1 (index 2) restarts: its failure went with it
    two = worker(2)
    assert one.recent_failures("198.51.100.9") == 1
