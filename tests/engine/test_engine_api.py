"""The engine's public API that bots, tables and screens build on (DESIGN.md)."""

import random

import pytest
from engine_support import EXAMPLE, new_hand, random_playout, run, snapshot

from ecarte_tui.engine import (
    ACCEPT,
    KING,
    PLAY,
    PROPOSE,
    REFUSE,
    Action,
    Kind,
    Match,
    Rules,
    discard,
    mask_of,
    play_card,
    read_ecn,
    write_ecn,
)
from ecarte_tui.engine.replay_text import replay_lines


def test_actions_are_interned_values_with_their_ecn_text():
    """ECN.md actions: propose, play, accept, refuse, king, discard c..., a card."""
    for a, text in ((PLAY, "play"), (PROPOSE, "propose"), (ACCEPT, "accept"),
                    (REFUSE, "refuse"), (KING, "king"), (play_card(7), "KS"),
                    (discard(mask_of([0, 15])), "discard 7S KH"), (discard(0), "discard")):
        assert str(a) == text and Action.parse(text) is a
    assert Action(Kind.CARD, 1 << 7) is play_card(7)
    assert play_card(7).card == 7
    assert len({PLAY, Action(Kind.PLAY), PROPOSE}) == 2


def test_copy_is_independent():
    """Match.copy(): playing on the copy leaves the original exactly as it was."""
    m = new_hand(Rules(), a="7S 8S 9S TS AS", b="7H 8H 9H TH AH", up="7D")
    run(m, "A propose", "B accept")
    snap = snapshot(m)
    twin = m.copy()
    assert snapshot(twin) == snap
    rng = random.Random(3)
    while not twin.is_over:
        if twin.to_move is None:
            twin.deal(rng)
        twin.apply(twin.legal_actions()[rng.randrange(len(twin.legal_actions()))])
    assert snapshot(m) == snap


def test_text_replay_tells_the_worked_example():
    """ECN.md 'ecarte replay FILE' shows the match move by move."""
    out = list(replay_lines(read_ecn(EXAMPLE)))
    text = "\n".join(out)
    assert "Anna" in text and "Ben" in text
    assert 'Anna: "I have the king!"' in text
    assert "score 1-2" in text


def test_random_matches_replay_as_text():
    """replay_text replays any valid record without error, ending with the match's winner."""
    rng = random.Random(11)
    for preset in ("classic", "regles"):
        m = random_playout(rng, Rules.named(preset))
        lines = list(replay_lines(read_ecn(write_ecn(m))))
        assert lines[-1].startswith("AB"[m.match_winner]) and "wins the match" in lines[-1]


def test_fresh_match_state():
    """A new match waits for the first deal; nobody moves."""
    m = Match()
    assert m.needs_deal and m.to_move is None and list(m.legal_actions(0)) == []
    assert m.scores == [0, 0] and m.hand is None and m.games == []


def test_apply_for_a_seat_that_does_not_exist_is_refused_cleanly():
    import random

    from ecarte_tui.engine import PLAY, IllegalAction, Match, Rules, write_ecn

    m = Match(Rules(), first_dealer=0)
    m.deal(random.Random(1))
    before = write_ecn(m)
    with pytest.raises(IllegalAction, match="no seat 2"):
        m.apply(PLAY, 2)
    assert write_ecn(m) == before and m.to_move == 1


def test_rules_with_an_unknown_preset_name_are_refused():
    from ecarte_tui.engine import Rules, RulesError

    with pytest.raises(RulesError, match="unknown rules preset 'bogus'"):
        Rules(preset="bogus")
