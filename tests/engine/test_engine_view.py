"""DESIGN.md Hidden information: what one seat (or a watcher) sees, on a known hand."""

import dataclasses

from engine_support import c, mask, new_hand, run

from ecarte_tui.engine import A, B, Match, Rules, SeatView, discard, seat_view

HAND_A = "7S 8S 9S TS AS"
HAND_B = "7H 8H 9H TH AH"
TOP = "KS QS JS KH QH"


def exchanged():
    m = new_hand(Rules(), a=HAND_A, b=HAND_B, up="7D", stock_top=TOP)
    run(m, "A propose", "B accept", "A discard 7S 8S", "B discard 7H 8H 9H")
    return m


def test_own_hand_and_own_discards_are_shown():
    """DESIGN.md: a seat's view holds its own hand and its own discards."""
    m = exchanged()
    va = seat_view(m, A)
    assert set(va.hand) == {c(x) for x in "9S TS AS KS QS".split()}
    assert va.own_discards == (mask("7S 8S"),)
    assert va.opponent_discards == (3,) and va.opponent_cards == 5
    vb = seat_view(m, B)
    assert set(vb.hand) == {c(x) for x in "TH AH JS KH QH".split()}
    assert vb.own_discards == (mask("7H 8H 9H"),) and vb.opponent_discards == (2,)


def test_opponents_discards_show_only_their_number():
    """DESIGN.md: the number (never the faces) of the opponent's discards, even in the log."""
    m = exchanged()
    for seat, other_discard, n in ((A, mask("7H 8H 9H"), 3), (B, mask("7S 8S"), 2)):
        v = seat_view(m, seat)
        ev = [e for e in v.events if e.seat != seat and e.action.kind.name == "DISCARD"]
        assert len(ev) == 1 and ev[0].action == discard(0) and ev[0].count == n
        assert ev[0].describe() == f"{'AB'[1 - seat]} discards {n}, takes {n}"
        assert not v.visible_cards() & {x for x in range(32) if other_discard >> x & 1}


def test_opponent_discards_stay_hidden_after_the_hand():
    """DESIGN.md: the opponent's discards are never shown to anyone, not even after the hand."""
    m = exchanged()
    run(m, "A play")
    while m.to_move is not None:
        m.apply(m.legal_actions()[0])
    assert m.hand.over
    v = seat_view(m, A)
    assert not v.visible_cards() & {c(x) for x in "7H 8H 9H".split()}
    w = seat_view(m, None)
    assert not w.visible_cards() & {c(x) for x in "7H 8H 9H 7S 8S".split()}


def test_public_facts_are_shown():
    """DESIGN.md: the turn-up, the stock's size, the cards played, the scores, announcements."""
    m = new_hand(Rules(), a="KD 8S 9S TS AS", b=HAND_B, up="7D")
    run(m, "A play", "A king", "A 8S", "B 7H")
    v = seat_view(m, B)
    assert v.turn_up == c("7D") and v.trump == 2 and v.stock_size == 21
    assert v.king == A and v.scores == (1, 0) and v.hand_points == (1, 0)
    assert [(t.lead, t.follow, t.winner) for t in v.tricks] == [(c("8S"), c("7H"), A)]
    assert v.at_risk == A and v.to_move == A and not v.my_turn
    assert c("KD") not in v.visible_cards()  # announced, not shown (000)


def test_watcher_sees_only_the_public_table():
    """DESIGN.md: nothing that draws a screen is handed more than it may see: a watcher
    (seat None) gets no hand, no discards, no legal actions."""
    m = exchanged()
    w = seat_view(m, None)
    assert w.hand == () and w.own_discards == () and w.legal == ()
    assert w.visible_cards() == {c("7D")}
    assert w.cards_in_hand == (5, 5) and w.discard_counts == ((2,), (3,))


def test_view_holds_no_reference_to_the_match():
    """view.py: nothing in a view reaches the match (and so the opponent's hand)."""
    m = exchanged()
    v = seat_view(m, A)
    seen = set()

    def walk(x):
        if id(x) in seen:
            return
        seen.add(id(x))
        assert not isinstance(x, Match)
        assert type(x).__name__ not in ("HandRecord", "GameRecord", "Match")
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
        elif isinstance(x, (tuple, list, set, frozenset)):
            for y in x:
                walk(y)
        elif isinstance(x, dict):
            for y in x.values():
                walk(y)

    walk(v)
    assert isinstance(v, SeatView)
    m.hands[B] = 0  # changing the match afterwards does not change the view
    assert v.opponent_cards == 5


def test_progress_is_the_views_hand_number_and_score():
    """``progress`` (a club's list of tables) says what a watcher's view says, at every step
    of whole random matches, under each preset."""
    import random

    from engine_support import random_playout

    from ecarte_tui.engine import PRESETS, progress

    seen = set()

    def check(m: Match) -> None:
        view = seat_view(m, None)
        assert progress(m) == (view.hand_number, view.scores)
        seen.add(progress(m))

    for i, preset in enumerate(sorted(PRESETS)):
        random_playout(random.Random(i), PRESETS[preset], check)
    assert progress(Match(Rules())) == (0, (0, 0))
    assert len(seen) > 10  # (hands and scores did move)
