"""The gallery: advice reaches only the backed player; the French adviser rule (003)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ecarte_tui.engine import ACCEPT, PLAY, PROPOSE, REFUSE
from net.club.clubhouse.backers import Gallery, GalleryError, Seating, SeatOffer


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def gallery(**kw) -> Gallery:
    g = Gallery(("anna", "ben"), clock=kw.pop("clock", Clock()), **kw)
    for w in ("w1", "w2", "w3"):
        g.join(w, w.upper())
    return g


def test_advice_goes_to_the_backed_player_only():
    g = gallery()
    g.back("w1", "anna")
    g.back("w2", "ben")
    out = g.advise("w1", PROPOSE, "weak hand", legal=(PLAY, PROPOSE))
    assert [d.recipient for d in out] == ["anna"]
    assert out[0].seat == 0 and out[0].action is PROPOSE
    assert out[0].text() == "advice from W1: propose - weak hand"
    assert [d.recipient for d in g.advise("w2", note="hold on")] == ["ben"]


def test_a_watcher_backing_no_one_cannot_advise_and_sees_only_the_public_table():
    g = gallery()
    with pytest.raises(GalleryError, match="back no one"):
        g.advise("w3", PLAY)
    assert g.view_seat("w3") is None
    g.back("w1", "ben")
    assert g.view_seat("w1") is None  # backing shows nothing: ben decides
    g.grant("ben", "w1")
    assert g.view_seat("w1") == 1
    assert Gallery(("anna", "ben"), backers_see_hand=False).view_seat("w1") is None


def test_only_the_backed_player_shows_his_hand_and_may_take_it_back():
    g = gallery()
    g.back("w1", "ben")
    with pytest.raises(GalleryError, match="does not back you"):
        g.grant("anna", "w1")  # the opponent cannot show ben's backer anything
    with pytest.raises(GalleryError, match="only a player"):
        g.grant("w2", "w1")
    assert g.grant("ben", "w1") and not g.grant("ben", "w1")  # once is enough
    assert g.view_seat("w1") == 1 and g.granted("w1")
    assert g.grant("ben", "w1", see=False)
    assert g.view_seat("w1") is None
    # a new side starts without a grant: backing anna after ben shows nothing
    g.grant("ben", "w1")
    g.back("w1", "anna")
    assert g.view_seat("w1") is None and not g.granted("w1")


def test_the_table_option_is_the_upper_bound():
    g = gallery(backers_see_hand=False)
    g.back("w1", "anna")
    with pytest.raises(GalleryError, match="never shows a backer the hand"):
        g.grant("anna", "w1")
    assert g.view_seat("w1") is None
    g.grant("anna", "w1", see=False)  # taking back is always allowed (a no-op here)


def test_a_backer_shown_the_hand_talks_to_his_player_only_until_the_game_ends():
    g = gallery()
    g.back("w1", "ben")
    g.back("w2", "ben")
    assert g.talk_only_to("w1") is None  # not shown anything: he talks to the table
    g.new_game(game="T/1")
    g.grant("ben", "w1")
    assert g.talk_only_to("w1") == "ben" and g.talk_only_to("w2") is None
    g.grant("ben", "w1", see=False)
    assert g.talk_only_to("w1") == "ben"  # he has seen it this game: still to ben only
    g.game_over("anna")
    assert g.talk_only_to("w1") is None
    g.grant("ben", "w2")
    g.new_game(game="T/2")
    assert g.talk_only_to("w2") == "ben"


def test_a_wager_keeps_a_watcher_on_its_side():
    g = gallery()
    with pytest.raises(GalleryError, match="after wagering on the other in this game"):
        g.back("w1", "ben", wagered_on="anna")
    assert g.backing("w1") is None
    g.back("w1", "anna", wagered_on="anna")
    assert g.backing("w1") == "anna"


def test_backing_and_grants_outlive_the_session_and_the_store_keeps_everything():
    g = gallery(french_rule=True)
    g.back("w1", "ben")
    g.back("w2", "anna")
    g.grant("ben", "w1")
    g.new_game(game="T/1")
    g.grant("anna", "w2")
    g.grant("anna", "w2", see=False)
    g.leave("w1")  # his session ended: he is away, his side and grant are kept
    assert g.backing("w1") == "ben" and g.view_seat("w1") == 1 and not g.present("w1")
    saved: list[dict] = []
    g.on_change = lambda: saved.append(g.state())
    g.back("w3", "anna")
    assert saved and saved[-1] == g.state()

    h = Gallery(("anna", "ben"), french_rule=True)
    h.restore(json.loads(json.dumps(g.state())))  # as the store keeps it
    assert h.state() == g.state()
    assert h.backing("w1") == "ben" and h.view_seat("w1") == 1
    assert h.backers_of("anna") == ["w2", "w3"]
    assert h.talk_only_to("w2") == "anna"  # shown, then taken back, in this game
    assert h.in_game and h.game == "T/1"
    h.join("w2", "W2")
    with pytest.raises(GalleryError, match="change after it ends"):
        h.back("w2", "ben")
    assert h.backer_name("w1") == "W1"  # away: the name he had


def test_the_french_offer_goes_to_an_adviser_who_is_here():
    g = gallery(french_rule=True)
    g.back("w1", "anna")
    g.back("w2", "anna")
    g.new_game()
    g.leave("w1")
    offer = g.game_over("anna")
    assert offer is not None and offer.adviser == "w2"


def test_advice_must_be_legal_and_short():
    g = gallery()
    g.back("w1", "anna")
    with pytest.raises(GalleryError, match="not something"):
        g.advise("w1", ACCEPT, legal=(PLAY, PROPOSE))
    with pytest.raises(GalleryError, match="at most 80"):
        g.advise("w1", note="x" * 81)
    with pytest.raises(GalleryError, match="advise an action"):
        g.advise("w1", note="\x1b[2J")  # nothing left once the escape is stripped
    with pytest.raises(GalleryError, match="only a watcher"):
        g.advise("anna", PLAY)


def test_advice_is_rate_limited():
    clock = Clock()
    g = gallery(clock=clock)
    g.back("w1", "anna")
    for _ in range(3):
        g.advise("w1", PLAY)
    with pytest.raises(GalleryError, match="again in 2 s"):
        g.advise("w1", PLAY)
    clock.t += 2.0
    g.advise("w1", PLAY)


def test_no_changing_sides_during_a_game():
    g = gallery()
    g.back("w1", "anna")
    g.new_game()
    with pytest.raises(GalleryError, match="change after it ends"):
        g.back("w1", "ben")
    g.unback("w1")
    with pytest.raises(GalleryError, match="change after it ends"):
        g.back("w1", "ben")  # not even after letting go: he has seen anna's hand
    g.back("w1", "anna")
    g.game_over("ben")
    g.back("w1", "ben")  # between games, free again
    assert g.backing("w1") == "ben"


def test_backers_may_not_wager_against_their_player():
    g = gallery()
    g.back("w1", "anna")
    assert g.may_wager("w1", "anna") is None
    assert "against" in g.may_wager("w1", "ben")
    assert g.may_wager("w3", "ben") is None
    with pytest.raises(GalleryError, match="after wagering"):
        g.back("w3", "anna", wagered_on="ben")


def test_french_rule_the_adviser_takes_the_losers_seat():
    # 003: "the player losing leaves the table, his adviser taking his place"
    g = gallery(french_rule=True)
    g.back("w2", "anna")
    g.back("w1", "anna")
    g.back("w3", "ben")
    g.new_game()
    offer = g.game_over("anna")
    assert offer == SeatOffer(0, "anna", "w2")  # the first to back her
    with pytest.raises(GalleryError, match="not offered to you"):
        g.take_seat("w1")
    seating = g.take_seat("w2", loser_name="Anna")
    assert seating == Seating(0, "anna", "w2")
    assert g.players == ["w2", "ben"]
    assert "anna" in g.watchers and "w2" not in g.watchers
    assert g.backing("w1") is None  # anna no longer plays: her backers back no one
    with pytest.raises(GalleryError, match="only a watcher"):
        g.advise("w2", PLAY)
    g.back("anna", "w2")  # the loser may now back the one who took her place
    assert [d.recipient for d in g.advise("anna", REFUSE)] == ["w2"]


def test_french_rule_declined_goes_to_the_next_adviser():
    g = gallery(french_rule=True)
    g.back("w1", "ben")
    g.back("w2", "ben")
    g.new_game()
    assert g.game_over("ben").adviser == "w1"
    assert g.decline_seat("w1") == SeatOffer(1, "ben", "w2")
    assert g.decline_seat("w2") is None
    with pytest.raises(GalleryError, match="not offered"):
        g.take_seat("w1")


def test_without_the_french_rule_the_seat_is_never_offered():
    g = gallery()
    g.back("w1", "anna")
    g.new_game()
    assert g.game_over("anna") is None
    with pytest.raises(GalleryError, match="French rule"):
        g.take_seat("w1")
    assert g.players == ["anna", "ben"]


WATCHERS = ["w1", "w2", "w3", "w4"]
OPS = st.one_of(
    st.tuples(st.just("back"), st.sampled_from(WATCHERS), st.sampled_from(["anna", "ben"])),
    st.tuples(st.just("unback"), st.sampled_from(WATCHERS), st.none()),
    st.tuples(st.just("advise"), st.sampled_from(WATCHERS), st.none()),
    st.tuples(st.just("new_game"), st.none(), st.none()),
    st.tuples(st.just("game_over"), st.none(), st.sampled_from(["anna", "ben"])),
    st.tuples(st.just("take"), st.sampled_from(WATCHERS), st.none()),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(OPS, max_size=40), st.booleans())
def test_advice_never_reaches_anyone_but_the_backed_seats_player(ops, french):
    clock = Clock()
    g = Gallery(("anna", "ben"), french_rule=french, clock=clock)
    for w in WATCHERS:
        g.join(w, w)
    for op, who, arg in ops:
        clock.t += 10  # never rate limited here
        try:
            if op == "back":
                g.back(who, g.players[0 if arg == "anna" else 1])
            elif op == "unback":
                g.unback(who)
            elif op == "new_game":
                g.new_game()
            elif op == "game_over":
                g.game_over(g.players[0 if arg == "anna" else 1])
            elif op == "take":
                g.take_seat(who)
            else:
                backed = g.backing(who)
                seated = list(g.players)
                out = g.advise(who, PLAY)
                assert len(out) == 1
                (d,) = out
                assert d.recipient == backed and d.recipient in seated
                assert seated[d.seat] == d.recipient and d.recipient != who
        except GalleryError:
            pass


def test_set_players_reseats_the_gallery_after_a_pool_rotation():
    g = Gallery(("anna", "ben"))
    g.join("carl", "Carl")
    g.join("w1", "W1")
    g.back("w1", "ben")
    g.back("carl", "anna")
    g.set_players(("anna", "carl"), names={"ben": "Ben"})  # ben lost, carl sat down
    assert sorted(g.watchers) == ["ben", "w1"]
    assert g.backing("w1") is None  # ben no longer plays
    assert g.seat_of("carl") == 1
    g.back("ben", "carl")
    assert [d.recipient for d in g.advise("ben", note="courage")] == ["carl"]


GRANT_OPS = st.one_of(
    OPS,
    st.tuples(st.just("grant"), st.sampled_from(WATCHERS), st.sampled_from(["anna", "ben"])),
    st.tuples(st.just("revoke"), st.sampled_from(WATCHERS), st.sampled_from(["anna", "ben"])),
    st.tuples(st.just("leave"), st.sampled_from(WATCHERS), st.none()),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(GRANT_OPS, max_size=50), st.booleans())
def test_nobody_sees_a_hand_unshown_nor_both_hands_of_one_game(ops, option):
    g = Gallery(("anna", "ben"), backers_see_hand=option)
    for w in WATCHERS:
        g.join(w, w)
    shown: dict[str, set[int]] = {w: set() for w in WATCHERS}  # seats seen this game
    for op, who, arg in ops:
        try:
            if op == "back":
                g.back(who, g.players[0 if arg == "anna" else 1])
            elif op == "unback":
                g.unback(who)
            elif op == "new_game":
                g.new_game()
                shown = {w: set() for w in WATCHERS}
            elif op == "game_over":
                g.game_over(g.players[0 if arg == "anna" else 1])
            elif op in ("grant", "revoke"):
                g.grant(arg, who, see=op == "grant")
            elif op == "leave":
                g.leave(who)
                g.join(who, who)
        except GalleryError:
            pass
        for w in WATCHERS:
            seat = g.view_seat(w)
            if seat is None:
                continue
            assert option and g.granted(w) and g.backing(w) == g.players[seat]
            if g.in_game:
                shown[w].add(seat)
                assert len(shown[w]) == 1, "a watcher saw both hands of one game"
                assert g.talk_only_to(w) == g.players[seat]
