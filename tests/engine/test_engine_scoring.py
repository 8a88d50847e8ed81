"""RULES.md §6 (scoring a hand, the penalty table) and §7 (winning: target, games_to_win)."""

import random

import pytest
from engine_support import DEALS, DECISIONS, new_hand, play_deal, random_playout, run, set_hand

from ecarte_tui.engine import PRESETS, A, B, DealError, IllegalAction, Match, Phase, Rules

# RULES.md §6 table, written out from the sources: (penalized, winner's score for the point,
# winner's score for the vole) when the player at risk loses.
PENALTY = {
    "classic": ("committer", 2, 2),  # 001: 2, 'a vole still scores 2 (no more)'
    "academie": ("committer", 2, 3),  # 000: 1 + 1 refusal point; 2 + 1
    "regles": ("committer", 2, 3),  # 002: 'marque également 1 point supplémentaire'
    "britannica": ("elder", 2, 2),  # 003: 'the dealer scores two, but no more'
    "nl": ("elder", 2, 3),  # 004: point 2 instead of 1, vole 3 instead of 2
}

@pytest.mark.parametrize("dealer", [A, B])
@pytest.mark.parametrize("winner_role, vole", list(DEALS))
def test_point_and_vole(dealer, winner_role, vole):
    """000-004: 3 or 4 tricks score 1 (le point), all 5 score 2 (la vole)."""
    m = Match(Rules())
    play_deal(m, dealer, winner_role, vole, "exchange")
    winner = dealer if winner_role == "D" else 1 - dealer
    assert m.hand.complete and m.hand.at_risk is None
    assert m.hand.tricks[winner] == (5 if vole else 3)
    assert m.hand.points[winner] == (2 if vole else 1) and m.hand.points[1 - winner] == 0
    assert m.scores == m.hand.points and m.phase is Phase.DEAL


@pytest.mark.parametrize("preset", sorted(PENALTY))
@pytest.mark.parametrize("decision", sorted(DECISIONS))
@pytest.mark.parametrize("winner_role, vole", list(DEALS))
@pytest.mark.parametrize("dealer", [A, B])
def test_penalty_table(preset, decision, winner_role, vole, dealer):
    """§6 penalty table, each preset's row: classic (001), academie (000), regles (002),
    britannica (003), nl (004); the elder at risk when he plays, the dealer (committer) or the
    elder (elder) when the dealer refuses the first proposal; nobody after an exchange."""
    penalized, on_point, on_vole = PENALTY[preset]
    m = Match(Rules.named(preset))
    play_deal(m, dealer, winner_role, vole, decision)
    elder = 1 - dealer
    winner = dealer if winner_role == "D" else elder
    at_risk = {"play": elder, "exchange": None,
               "refuse": dealer if penalized == "committer" else elder}[decision]
    assert m.hand.at_risk == at_risk
    if at_risk == 1 - winner:  # the player at risk failed to take 3 tricks
        expected = on_vole if vole else on_point
    else:  # a player at risk who wins scores normally
        expected = 2 if vole else 1
    assert m.hand.points[winner] == expected and m.hand.points[1 - winner] == 0


def test_under_penalized_elder_the_elder_is_at_risk_even_when_the_dealer_refuses():
    """003 ('or his proposal is refused, and he fails to gain three tricks, the dealer scores
    two'), 004: the dealer who refused and loses pays nothing extra."""
    for preset in ("britannica", "nl"):
        m = Match(Rules.named(preset))
        play_deal(m, B, "E", False, "refuse")  # the dealer refused and lost
        assert m.hand.at_risk == A and m.hand.points == [1, 0]
        m = Match(Rules.named(preset))
        play_deal(m, B, "D", False, "refuse")  # the elder lost
        assert m.hand.points == [0, 2]


def test_anna_and_ben_worked_example():
    """001 worked example: spades are trump; Anna (elder) announces the king: 1 point; she plays
    without proposing and takes only 2 tricks; Ben scores 2. Score: Anna 1, Ben 2."""
    m = new_hand(Rules.named("classic"), a="KS 7S QH JH 8D", b="QS JS AH KD 9C", up="8S",
                 dealer=B, stock_top="KH QD JD AD TD 9D 7D KC QC JC AC TC 8C 7C TH 9H 8H 7H AS "
                 "TS 9S")
    run(m, "A play", "A king", "A QH", "B AH", "A JH", "B JS", "B KD", "A 8D", "B 9C", "A KS",
        "A 7S", "B QS")
    assert m.hand.tricks == [2, 3]
    assert m.scores == [1, 2] and m.hand.points == [1, 2]


def test_hand_points_add_every_source():
    """ECN.md points: turn-up king, announced king, tricks and penalty all count in the hand."""
    m = Match(Rules.named("academie"))
    # B deals and turns up KH (B: 1); A plays without proposing (at risk) and B, holding five
    # hearts (trumps) takes all five tricks.
    set_hand(m, "7S 8S 9S TS 7C", "QH JH AH TH 9H", "KH", B)
    run(m, "A play", "A 7S", "B 9H", "B QH", "A 8S", "B JH", "A 9S", "B AH", "A TS",
        "B TH", "A 7C")
    assert m.hand.turn_up_king and m.hand.tricks == [0, 5]
    assert m.hand.points == [0, 1 + 3]  # turn-up king + vole 2 + refusal point 1 (000)


# ------------------------------------------------------------------ §7 winning


def test_scores_not_capped_4_and_a_vole_of_3_make_7():
    """§7, 000: a game ends the moment the target is reached; 4 points and a vole of 3 make 7."""
    m = Match(Rules.named("academie"))
    play_deal(m, B, "E", True, "play")  # A (elder, at risk) wins the vole: 2
    play_deal(m, A, "D", True, "exchange")  # A (dealer) wins the vole: 2
    assert m.scores == [4, 0] and m.phase is Phase.DEAL
    play_deal(m, B, "E", True, "refuse")  # B refused and loses the vole: 2 + 1
    assert m.scores == [7, 0] and m.games[0].winner == A
    assert m.is_over and m.match_winner == A
    with pytest.raises(DealError, match="the match is over: A won it, 7 points to 0"):
        m.deal(random.Random(1))
    with pytest.raises(IllegalAction, match="the match is over"):
        run(m, "A play")


@pytest.mark.parametrize("target", [3, 5, 7, 11])
def test_target_parameter(target):
    """§7 target: 5 (all), 3 quick écarté and 11 de Napoléon (004), 7 online: the game goes on
    below the target and ends exactly when it is reached."""
    m = Match(Rules.named("nl", target=target))
    dealer = B
    while m.phase is Phase.DEAL and not m.is_over:
        play_deal(m, dealer, "E", False, "exchange")  # the elder scores 1 each hand
        dealer = 1 - dealer
    # A and B take turns as the elder, so A (the first elder) gets there first
    assert m.scores == [target, target - 1] and m.match_winner == A
    assert len(m.hands_log) == 2 * target - 1


@pytest.mark.parametrize("games_to_win", [1, 2, 3])
def test_games_to_win(games_to_win):
    """§7 games_to_win: 1 five straight (000), 2 best of three (000, 001), 3 best of five (004).
    With target 1 every hand is a game; the games alternate between A and B; the deal keeps
    alternating into the next game and each game starts at 0-0."""
    m = Match(Rules.named("classic", target=1, games_to_win=games_to_win))
    dealer = B
    while not m.is_over:
        play_deal(m, dealer, "E", False, "exchange")  # the elder wins every game
        assert m.scores[1 - dealer] == 1
        dealer = 1 - dealer
    n = 2 * games_to_win - 1  # A and B win alternately, so it goes the full distance
    assert len(m.games) == n and len(m.hands_log) == n
    assert [h.dealer for h in m.hands_log] == [B, A] * (n // 2) + [B]
    assert [g.winner for g in m.games] == [A, B] * (n // 2) + [A]
    assert all(g.score == ([1, 0] if g.winner == A else [0, 1]) for g in m.games)
    assert m.match_winner == A and m.games_won == [games_to_win, games_to_win - 1]
    if games_to_win > 1:
        with pytest.raises(DealError, match=f"A won it, {games_to_win} games to "
                                            f"{games_to_win - 1}"):
            m.deal(random.Random(0))


def test_linked_games_second_game_starts_from_zero():
    """000 'five linked': after a game of 5 is won, a new game of 5 starts at 0-0."""
    m = Match(Rules.named("regles"))
    dealer = B
    for _ in range(3):  # the elder takes a vole 3 times: A 2, B 2, A 2 + ...
        play_deal(m, dealer, "E", True, "exchange")
        dealer = 1 - dealer
    assert m.games[0].score == [4, 2] and m.games[0].winner is None
    play_deal(m, dealer, "D", False, "exchange")  # A deals and takes the point: 5
    assert m.games[0].winner == A and m.match_winner is None and m.phase is Phase.DEAL
    assert m.next_dealer == B  # the deal alternates into the next game
    play_deal(m, B, "E", False, "exchange")  # A, the elder, takes the point
    assert len(m.games) == 2 and m.games[1].score == [1, 0] and m.scores == [1, 0]
    assert m.games[0].score == [5, 2] and m.hand.game == 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_matches_end_with_the_winner_at_the_target(preset):
    """§7: every game is won by the first player to reach the target, the match by the first
    to win games_to_win games."""
    rng = random.Random(hash(preset) & 0xFFFF)
    rules = Rules.named(preset)
    for _ in range(20):
        m = random_playout(rng, rules)
        for g in m.games:
            assert g.winner is not None and g.score[g.winner] >= rules.target
            assert g.score[1 - g.winner] < rules.target
        assert m.games_won[m.match_winner] == rules.games_to_win
        assert m.games_won[1 - m.match_winner] < rules.games_to_win
