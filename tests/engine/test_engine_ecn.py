"""ECN.md: reading, checking and writing game records; the ``replay --json`` summary."""

import json
import random

import pytest
from engine_support import EXAMPLE, EXAMPLE_JSON, play_deal, random_playout

from ecarte_tui.engine import (
    PRESETS,
    A,
    B,
    EcnError,
    Match,
    Rules,
    read_ecn,
    summary,
    write_ecn,
)

CLASSIC_PARAMS = {  # RULES.md §8, classic column, and ace_high off
    "first_dealer": "higher_chooses", "dealer_min_discard": 1,
    "king_deadline": "own_first_card", "penalized": "committer", "penalty_on_vole": "cap",
    "target": 5, "games_to_win": 1, "ace_high": False,
}

HEAD = EXAMPLE.split("A play\n")[0]  # tags and the hand's five header lines: lines 1-12


def lines_of(text):
    return text.splitlines()


def replace_line(text, n, new):
    ls = text.splitlines()
    ls[n - 1] = new
    return "\n".join(ls) + "\n"


def refused(text):
    with pytest.raises(EcnError) as e:
        read_ecn(text)
    return e.value


def test_example_replays_to_exactly_the_json_of_ecn_md():
    """ECN.md: the example record gives exactly the JSON shown (001's worked example)."""
    got = json.loads(json.dumps(summary(read_ecn(EXAMPLE))))
    want = json.loads(EXAMPLE_JSON)
    shown = want.pop("params")
    params = got.pop("params")
    assert got == want
    assert params == CLASSIC_PARAMS
    assert {k: v for k, v in shown.items() if k != "..."}.items() <= params.items()


def test_example_record_names_and_canonical_text():
    """ECN.md: names are kept; the comment lines are not part of the canonical text."""
    rec = read_ecn(EXAMPLE)
    assert rec.names == ("Anna", "Ben")
    body = [x for x in lines_of(EXAMPLE) if not x.startswith("#")]
    assert write_ecn(rec) == "\n".join(body) + "\n"


# ------------------------------------------------------------------ errors, status 1


def finished_match_text():
    """Three games of target 1, two to win: A, B, A; A wins 2 games to 1."""
    m = Match(Rules.named("classic", target=1, games_to_win=2))
    play_deal(m, B, "E", False, "play")
    play_deal(m, A, "E", False, "play")
    play_deal(m, B, "E", False, "play")
    assert m.match_winner == A and m.games_won == [2, 1]
    return write_ecn(m)


HEAD_AB = """\
[Rules "classic"]
hand
dealer B
A QS 7C 8C 9C TC
B KS JS 7D 8D 9D
up 9H
stock KH QH JH AH TH 8H 7H KD QD JD AD TD KC QC JC AC AS TS 9S 8S 7S
"""  # lines 1-7


RULE_BREAKS = [
    # (text, line, reason)
    (HEAD_AB + "A play\nA QS\nB JS\n", 10, "B must head the trick: QS is led and B holds KS"),
    (replace_line(EXAMPLE, 14, "B king"), 14,
     "B cannot announce the king: B does not hold KS (spades are trumps)"),
    (replace_line(EXAMPLE, 18, "B 9C"), 18,
     "B must trump: JH is led, B has no heart and holds JS (spades are trumps)"),
    (replace_line(EXAMPLE, 10, "B QS JS AH KD 7H"), 12, "card 7H is dealt twice"),
    (replace_line(EXAMPLE, 10, "B QS JS AH KD 7S"), 10, "card 7S is dealt twice"),
    (replace_line(EXAMPLE, 11, "up QS"), 11, "card QS is dealt twice"),
    (replace_line(EXAMPLE, 9, "A KS 7S QH JH"), 9, "A must be dealt 5 cards, not 4"),
    (replace_line(EXAMPLE, 10, "B QS JS AH KD 9C 8C"), 10, "B must be dealt 5 cards, not 6"),
    (replace_line(EXAMPLE, 11, "up 8S 9S"), 11, "exactly one card is turned up, not 2"),
    (replace_line(EXAMPLE, 12, "stock KH QD JD AD TD 9D 7D KC QC JC AC TC 8C 7C TH 9H 8H 7H AS "
                  "TS"), 12, "the stock must hold 21 cards, not 20"),
    (HEAD + "A play\nA QH\n" + HEAD.split("\n", 6)[-1], 15, "the previous hand is not finished"),
    (HEAD + "A propose\nA accept\n", 14, "it is B's turn, not A's"),
    (HEAD + "A propose\nB accept\nA discard\n", 15, "A must discard at least one card"),
    (HEAD + "A king\n", 13, "A cannot announce the king before the play has begun"),
    (HEAD + "A play\nA play\n", 14, "A cannot play: the play has begun"),
    (HEAD + "A play\nA propose\n", 14, "A cannot propose: the play has begun"),
    (EXAMPLE + "A 7S\n", 25, "the hand is over: the next hand must be dealt first"),
]


@pytest.mark.parametrize("text, line, reason", RULE_BREAKS)
def test_rule_breaks_status_1(text, line, reason):
    """ECN.md Errors: a well-formed record that breaks a rule is refused at the first bad line,
    with the line number and a reason, status 1."""
    e = refused(text)
    assert (e.line, e.reason, e.status) == (line, reason, 1)
    assert e.located("game.ecn") == f"game.ecn:{line}: {reason}"


def test_dealer_out_of_turn_status_1():
    """ECN.md: 'after that the deal must alternate': B deals twice in a row."""
    m = Match(Rules())
    play_deal(m, B, "E", False, "play")
    text = write_ecn(m)
    again = "\n".join(text.splitlines()[1:]) + "\n"  # the same hand again, dealer B
    n_lines = len(text.splitlines())
    e = refused(text + again)
    assert (e.line, e.status) == (n_lines + 3, 1)  # the 'dealer B' line of the second hand
    assert e.reason == "dealer out of turn: B dealt the last hand, so A deals"


def test_first_dealer_is_free():
    """ECN.md: the first hand's dealer is free."""
    text = EXAMPLE.replace("dealer B", "dealer A").replace("A play\n", "B play\n")
    e = refused(text)  # the same actions are now out of turn, but the deal is accepted
    assert e.line > 12 and e.status == 1


@pytest.mark.parametrize("extra", ["hand", "A play", "B KS", "A king"])
def test_line_after_the_match_is_over_status_1(extra):
    """ECN.md: 'game.ecn:20: the match is over: A won it, 2 games to 1'."""
    text = finished_match_text()
    n = len(text.splitlines()) + 1
    e = refused(text + extra + "\n")
    assert (e.line, e.status) == (n, 1)
    assert e.reason == "the match is over: A won it, 2 games to 1"


def test_line_after_a_five_straight_match_is_over():
    """§7 five straight: the match is over after one game; the reason gives the points."""
    m = Match(Rules.named("classic", target=1))
    play_deal(m, B, "E", True, "play")
    e = refused(write_ecn(m) + "hand\n")
    assert e.reason == "the match is over: A won it, 2 points to 0" and e.status == 1


# ------------------------------------------------------------------ errors, status 2


NOT_ECN = [
    # (text, line, reason fragment)
    (HEAD + "deal B\n", 13, "unknown keyword 'deal'"),
    (HEAD + "a play\n", 13, "unknown keyword 'a'"),
    (HEAD.replace("hand\n", "Hand\n"), 7, "unknown keyword 'Hand'"),
    (HEAD + "A pass\n", 13, "unknown action 'pass'"),
    (HEAD + "A PLAY\n", 13, "unknown action 'PLAY'"),
    (HEAD + "A play extra\n", 13, "unknown action 'play extra'"),
    (HEAD + "A play\nA Q♤H\n", 14, "unknown action"),
    (replace_line(EXAMPLE, 9, "A KS 7S QH JH 1D"), 9, "bad card token '1D'"),
    (replace_line(EXAMPLE, 11, "up 8X"), 11, "bad card token '8X'"),
    (replace_line(EXAMPLE, 15, "A QHH"), 15, "unknown action 'QHH'"),
    (HEAD + "A propose\nB accept\nA discard KS ZZ\n", 15, "bad card"),
    (replace_line(EXAMPLE, 3, "[Rules classic]"), 3, "malformed tag"),
    (replace_line(EXAMPLE, 3, '[Rules "classic"'), 3, "malformed tag"),
    (replace_line(EXAMPLE, 3, '[ "classic"]'), 3, "malformed tag"),
    (replace_line(EXAMPLE, 3, '[Rules "classic" "x"]'), 3, "malformed tag"),
    (replace_line(EXAMPLE, 3, '[Rules "french"]'), 3, "unknown rules preset 'french'"),
    (replace_line(EXAMPLE, 3, '[colour "red"]'), 3, "unknown rule parameter 'colour'"),
    (replace_line(EXAMPLE, 3, '[preset "nl"]'), 3, "unknown rule parameter 'preset'"),
    (replace_line(EXAMPLE, 3, '[king_deadline "never"]'), 3, "king_deadline"),
    (replace_line(EXAMPLE, 3, '[ace_high "true"]'), 3, "ace_high must be yes or no"),
    (replace_line(EXAMPLE, 3, '[target "five"]'), 3, "target must be a whole number"),
    (replace_line(EXAMPLE, 3, '[target "²"]'), 3, "target must be a whole number"),
    (replace_line(EXAMPLE, 3, '[target "0"]'), 3, "target"),
    (replace_line(EXAMPLE, 3, '[games_to_win "0"]'), 3, "games_to_win"),
    (replace_line(EXAMPLE, 3, '[dealer_min_discard "2"]'), 3, "dealer_min_discard"),
    (replace_line(EXAMPLE, 4, '[Rules "nl"]'), 4, "given twice"),
    (EXAMPLE + '[Date "2024"]\n', 25, "tags must come before the first hand"),
    (HEAD.replace("up 8S\n", ""), 11, "the hand is cut off: expected the 'up' line"),
    (HEAD.replace("dealer B\n", ""), 8, "the hand is cut off: expected the 'dealer' line"),
    ("\n".join(lines_of(HEAD)[:10]) + "\n", 10, "the hand is cut off: expected the 'up' line"),
    ("\n".join(lines_of(HEAD)[:11]) + "\n\n# the end\n", 13,
     "the hand is cut off: expected the 'stock' line"),
    (HEAD.replace("dealer B", "dealer C"), 8, "expected 'dealer A' or 'dealer B'"),
    (HEAD.replace("dealer B", "dealer AB"), 8, "expected 'dealer A' or 'dealer B'"),
    (HEAD.replace("dealer B", "dealer"), 8, "expected 'dealer A' or 'dealer B'"),
    (HEAD.replace("dealer B", "dealer b"), 8, "expected 'dealer A' or 'dealer B'"),
    (HEAD + "AB play\n", 13, "unknown keyword 'AB'"),
    ("A play\n", 1, "before the first 'hand' line"),
    ("hand now\n", 1, "'hand' takes nothing"),
    (HEAD + "A pl\x00ay\n", 13, "not a text file"),
]


@pytest.mark.parametrize("text, line, reason", NOT_ECN)
def test_not_ecn_status_2(text, line, reason):
    """ECN.md: an unknown keyword, a bad card token, a malformed tag, an unknown preset,
    parameter or value, a hand cut off inside its five header lines: not ECN, status 2."""
    e = refused(text)
    assert (e.line, e.status) == (line, 2), e.reason
    assert reason in e.reason


# ------------------------------------------------------------------ what is accepted


def test_card_token_forms_are_accepted_and_written_canonical():
    """ECN.md Cards: '10' for T, suit symbols, either case; written back canonical."""
    text = (EXAMPLE.replace("A KS 7S QH JH 8D", "A k♠ 7s Q♥ jh 8♦")
            .replace("stock KH QD JD AD TD", "stock kh q♦ JD aD 10d")
            .replace("B 9C\n", "B 9♣\n").replace("A KS\n", "A ks\n"))
    rec = read_ecn(text)
    assert write_ecn(rec) == write_ecn(read_ecn(EXAMPLE))
    assert summary(rec) == summary(read_ecn(EXAMPLE))


def test_comments_and_blank_lines_are_ignored_anywhere():
    """ECN.md: blank lines and lines starting with '#' are ignored, even inside a hand."""
    ls = lines_of(EXAMPLE)
    noisy = []
    for x in ls:
        noisy += [x, "", "   # a comment", "#"]
    rec = read_ecn("\n".join(noisy))
    assert write_ecn(rec) == write_ecn(read_ecn(EXAMPLE))


def test_crlf_line_ends():
    """A record saved with Windows line ends reads the same."""
    rec = read_ecn(EXAMPLE.replace("\n", "\r\n"))
    assert summary(rec) == summary(read_ecn(EXAMPLE))


def test_free_tags_are_kept_and_written_back():
    """ECN.md: A, B and other tags (Date, Event, Site, Seed, Result) are kept and written back,
    and do not change the play."""
    tags = ('[Date "2024-06-01"]\n[Event "The \\"Grand\\" Cercle"]\n[Site "Paris"]\n'
            '[Seed "42"]\n[Result "1-2"]\n')
    text = EXAMPLE.replace('[B "Ben"]\n', '[B "Ben"]\n' + tags)
    rec = read_ecn(text)
    assert rec.tags == {"Rules": "classic", "A": "Anna", "B": "Ben", "Date": "2024-06-01",
                        "Event": 'The "Grand" Cercle', "Site": "Paris", "Seed": "42",
                        "Result": "1-2"}
    out = write_ecn(rec)
    for line in tags.splitlines() + ['[A "Anna"]', '[B "Ben"]']:
        assert line in out.splitlines()
    assert read_ecn(out).tags == rec.tags
    assert summary(rec) == summary(read_ecn(EXAMPLE))


@pytest.mark.parametrize(
    "tag, name, value",
    [('[target "3"]', "target", 3), ('[games_to_win "2"]', "games_to_win", 2),
     ('[dealer_min_discard "0"]', "dealer_min_discard", 0), ('[ace_high "yes"]', "ace_high", True),
     ('[king_deadline "opening_lead"]', "king_deadline", "opening_lead"),
     ('[penalized "elder"]', "penalized", "elder"),
     ('[penalty_on_vole "add"]', "penalty_on_vole", "add"),
     ('[first_dealer "lowest_deals"]', "first_dealer", "lowest_deals")],
)
def test_parameter_tags_override(tag, name, value):
    """ECN.md: any parameter of RULES.md can be overridden by its own name; the JSON params
    show every parameter in force, and the tag is written back."""
    text = EXAMPLE.replace('[A "Anna"]', tag + '\n[A "Anna"]')
    if name == "ace_high":  # AH beats QH under ace_high: the example's B AH line then heads
        text = text.split("A play")[0]
    rec = read_ecn(text)
    assert getattr(rec.match.rules, name) == value
    assert summary(rec)["params"] == {**CLASSIC_PARAMS, name: value}
    assert summary(rec)["rules"] == "classic"
    assert tag in write_ecn(rec).splitlines()


def test_parameter_tag_after_a_preset_and_before_it():
    """ECN.md: Rules picks the preset, parameter tags override it, in either order."""
    for tags in ('[Rules "academie"]\n[target "3"]\n', '[target "3"]\n[Rules "academie"]\n'):
        rules = read_ecn(tags).match.rules
        assert rules == Rules.named("academie", target=3)
    assert read_ecn('[Rules "nl"]\n[penalty_on_vole "add"]\n').match.rules == PRESETS["nl"]


def test_overridden_rules_change_the_play_of_a_record():
    """ECN.md + §4: the same record is legal under one deadline and refused under the other."""
    text = HEAD_AB.replace("B KS JS", "B KH JS").replace("stock KH", "stock KS") + \
        "A play\nA QS\nB king\n"
    read_ecn(text)  # classic: own_first_card
    e = refused(text.replace('[Rules "classic"]', '[Rules "classic"]\n[king_deadline '
                                                  '"opening_lead"]'))
    assert e.status == 1 and "too late" in e.reason


def test_record_with_no_hand_is_valid():
    """ECN.md: a record with no hand is valid (no hands, no games)."""
    for text in ("", "# nothing yet\n", '[Rules "regles"]\n[A "Anna"]\n'):
        s = summary(read_ecn(text))
        assert s["hands"] == [] and s["games"] == [] and s["match_winner"] is None
    assert summary(read_ecn('[Rules "regles"]\n'))["rules"] == "regles"


@pytest.mark.parametrize("cut", range(12, 25))
def test_record_may_end_mid_hand(cut):
    """ECN.md: the record may end anywhere after a hand's stock line: a game in progress."""
    text = "\n".join(lines_of(EXAMPLE)[:cut]) + "\n"
    rec = read_ecn(text)
    s = summary(rec)
    assert len(s["hands"]) == 1 and s["hands"][0]["complete"] is (cut == 24)
    assert s["games"][0]["winner"] is None
    assert write_ecn(read_ecn(write_ecn(rec))) == write_ecn(rec)


def test_dealer_keeps_his_hand_written_discard_alone():
    """ECN.md: the dealer's empty discard is written 'discard' alone (dealer_min_discard 0)."""
    text = HEAD.replace('[Rules "classic"]', '[Rules "regles"]') + \
        "A propose\nB accept\nA discard 8D\nB discard\nA play\n"
    rec = read_ecn(text)
    assert "B discard" in write_ecn(rec).splitlines()
    e = refused(text.replace('[Rules "regles"]', '[Rules "classic"]'))
    assert e.line == 16 and e.status == 1 and "at least one card" in e.reason


def test_no_dealer_discard_line_when_the_elder_emptied_the_stock():
    """ECN.md: when the elder has emptied the stock the dealer has no 'discard' line, and the
    play starts with no 'play' line: the elder's next line is his lead."""
    exchange = "A propose\nB accept\nA discard {}\nB discard {}\n"
    text = HEAD_AB + exchange.format("QS 7C 8C 9C TC", "KS JS 7D 8D 9D") + \
        exchange.format("KH QH JH AH TH", "8H 7H KD QD JD") + "A propose\nB accept\nA discard AD\n"
    rec = read_ecn(text)
    assert rec.match.stock_size == 0 and rec.match.to_move == A
    assert write_ecn(rec).splitlines()[-1] == "A discard AD"
    read_ecn(text + "A TD\n")  # the lead, with no 'play' line
    e = refused(text + "B discard KC\n")  # the dealer has no discard
    assert (e.line, e.status) == (19, 1) and e.reason == "it is A's turn, not B's"
    e = refused(text + "A play\n")
    assert (e.line, e.status) == (19, 1) and e.reason == "A cannot play: the play has begun"
    e = refused(text + "A propose\n")
    assert (e.line, e.status) == (19, 1) and e.reason == "A cannot propose: the play has begun"


def test_write_read_round_trip_of_engine_matches():
    """ECN.md: writing a match and reading it back gives the same match and the same text."""
    rng = random.Random(5)
    for preset in sorted(PRESETS):
        rules = Rules.named(preset)
        m = random_playout(rng, rules)
        text = write_ecn(m, {"A": "Anna", "B": "Ben", "Seed": "5"})
        rec = read_ecn(text)
        assert write_ecn(rec) == text
        assert summary(rec) == summary(m)
        assert rec.match.hands_log[-1].actions == m.hands_log[-1].actions


@pytest.mark.parametrize(
    "text, line",
    [('[target "0"]\n[Event x]\n', 1), ('[king_deadline "never"]\nbogus\n', 1),
     ('[A "Anna"]\n[games_to_win "10"]\n[Rules "french"]\n', 2)],
)
def test_refused_at_the_first_bad_line(text, line):
    """ECN.md: 'refused at the first bad line': a parameter value out of range is reported on
    its own line, not where the rules are first used."""
    e = refused(text)
    assert (e.line, e.status) == (line, 2)
