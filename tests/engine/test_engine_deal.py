"""RULES.md §2: first dealer, the seeded shuffle, the deal, the turn-up, the turn-up king."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from engine_support import c, cs, new_hand, random_playout, run, set_hand

from ecarte_tui.engine import (
    A,
    B,
    DealError,
    Match,
    Phase,
    Rules,
    card_str,
    deal_from,
    draw_first_dealer,
    shuffled_deck,
)
from ecarte_tui.engine import deal as deal_module

ROOT = Path(__file__).resolve().parents[2]

# The exact decks of a few seeds. The shuffle is the project's own Fisher-Yates on
# Random.getrandbits (Mersenne Twister, the same on every platform and Python 3 version):
# if one of these changes, every saved seed deals different cards, so it must not change.
PINNED_DECKS = {
    0: "TS KS JC AD TD JS 7S 9H QH 9C 8D JD TC KD 9S QD AS 8C QS 9D TH QC 8H AH KH 7D 7H 8S "
    "JH AC KC 7C",
    1: "9C 8D TH 9H AC 8S JS AS KS 7D 8H TD QC JH QD 7S JD JC QS AH AD KD QH KH TS KC 9S 7C "
    "8C TC 9D 7H",
    42: "9C JS 9H KH 8C TH QD QS TD AH 7D 8H AC QH 7C AD QC 8S JH 9D 9S 8D JD TS JC AS TC KC "
    "7H KD 7S KS",
    20240601: "TS JD QD TC 7D 7C 8S AC TD 7S JS 9C 8H AS QC AD TH 9S AH 8D KD QS 9H JC KC 9D "
    "7H 8C KH JH QH KS",
}


def deck_text(seed: int) -> str:
    return " ".join(card_str(x) for x in shuffled_deck(random.Random(seed)))


@pytest.mark.parametrize("seed", sorted(PINNED_DECKS))
def test_seeded_shuffle_is_pinned(seed):
    """§2: the engine deals from a seeded, reproducible shuffle: the same seed, the same cards."""
    assert deck_text(seed) == PINNED_DECKS[seed]


def test_seeded_shuffle_is_a_permutation_and_varies():
    """§2 / 000 'shuffles': every shuffle holds the 32 cards once; different seeds differ."""
    decks = [shuffled_deck(random.Random(s)) for s in range(50)]
    assert all(sorted(d) == list(range(32)) for d in decks)
    assert len({tuple(d) for d in decks}) == 50


def test_seeded_shuffle_same_in_another_process_and_hash_seed():
    """§2: the same seed deals the same cards on every machine (no dependence on hashing)."""
    code = (
        "import random; from ecarte_tui.engine import shuffled_deck, card_str; "
        "print(' '.join(card_str(x) for x in shuffled_deck(random.Random(42))))"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == PINNED_DECKS[42]


def test_deal_gives_five_each_elder_first_then_turn_up_then_stock():
    """000, 001: 5 cards each in packets of 3 and 2, elder first; the 11th is turned up; 21 left.

    For seed 42, B deals: A (elder) gets the first packet of 3, B the next 3, then 2 each.
    """
    deck = PINNED_DECKS[42].split()
    m = Match(Rules(), first_dealer=B)
    rec = m.deal(random.Random(42))
    assert rec.dealer == B and m.elder == A
    assert [card_str(x) for x in rec.hands[A]] == deck[0:3] + deck[6:8]
    assert [card_str(x) for x in rec.hands[B]] == deck[3:6] + deck[8:10]
    assert card_str(rec.up) == deck[10]
    assert [card_str(x) for x in rec.stock] == deck[11:]
    assert len(rec.stock) == 21
    assert m.trump == rec.up >> 3  # §2: its suit is trumps
    d = deal_from(shuffled_deck(random.Random(42)))
    assert (d.elder, d.dealer, d.up, d.stock) == (rec.hands[A], rec.hands[B], rec.up, rec.stock)


def test_deal_with_a_dealing_is_the_mirror():
    """§2: the elder is whoever does not deal; with A dealing, B receives the elder's cards."""
    m = Match(Rules(), first_dealer=A)
    rec = m.deal(random.Random(42))
    d = deal_from(shuffled_deck(random.Random(42)))
    assert rec.hands[B] == d.elder and rec.hands[A] == d.dealer
    assert m.to_move == B


def test_turn_up_never_enters_a_hand():
    """001: the turn-up stays on the table; 000: it goes to nobody when the stock runs out.

    Two exchanges of 5 + 5 leave one card; the elder takes it and the play starts: the 7D
    turned up is in nobody's hand, and the 31 others are all in hands or discards.
    """
    m = Match(Rules())
    set_hand(m, "7S 8S 9S TS AS", "7H 8H 9H TH AH", "7D", B)
    for _ in range(2):
        run(m, "A propose", "B accept")
        m.apply(m.legal_actions()[-1])  # the largest discard: 5 cards
        m.apply(m.legal_actions()[-1])
    assert m.stock_size == 1
    run(m, "A propose", "B accept")
    assert max(a.cards.bit_count() for a in m.legal_actions()) == 1
    m.apply(m.legal_actions()[0])
    assert m.stock_size == 0 and m.phase is Phase.TRICKS
    for hand in m.hands:
        assert not hand >> c("7D") & 1
        assert hand.bit_count() == 5
    held = m.hands[A] | m.hands[B]
    for seat in (A, B):
        for d in m.discards[seat]:
            held |= d
    assert held == ((1 << 32) - 1) & ~(1 << c("7D"))


@pytest.mark.parametrize("dealer", [A, B])
def test_turn_up_king_scores_one_for_the_dealer(dealer):
    """000-004: if the turn-up is a king the dealer scores 1 point at once."""
    m = new_hand(a="7S 8S 9S TS AS", b="7H 8H 9H TH AH", up="KD", dealer=dealer)
    assert m.scores[dealer] == 1 and m.scores[1 - dealer] == 0
    assert m.hand.turn_up_king and m.hand.points == [dealer == A, dealer == B]
    assert m.phase is Phase.DECIDE and m.to_move == 1 - dealer  # the hand goes on


def test_no_point_for_other_turn_ups():
    """000: only a king turned up scores."""
    for up in ("QD", "AD", "7D", "JD"):
        m = new_hand(a="7S 8S 9S TS AS", b="7H 8H 9H TH AH", up=up)
        assert m.scores == [0, 0] and not m.hand.turn_up_king


def test_turn_up_king_can_end_the_game_before_anything_is_played():
    """001 ('it can end the game before the tricks are played'), §2: dealer at 4 turns a king."""
    m = Match(Rules.named("classic", target=1))
    set_hand(m, "7S 8S 9S TS AS", "7H 8H 9H TH AH", "KC", A)
    assert m.phase is Phase.OVER and m.match_winner == A
    assert m.hand.over and not m.hand.complete
    assert list(m.legal_actions(A)) == []
    assert list(m.legal_actions(B)) == []


def play_out(m: Match) -> None:
    """Finish the hand with the first legal action each time (the elder plays at once)."""
    while m.to_move is not None:
        m.apply(m.legal_actions()[0])


def test_turn_up_king_reaching_target_mid_match():
    """§2 + §7: the dealer one point short turns up a king: the game ends at once, nothing
    is played, and the match (two games to win) goes on with the other player dealing."""
    m = Match(Rules.named("classic", target=4, games_to_win=2))
    # Hand 1: B deals and turns up KC (B 1); A plays without proposing holding only hearts
    # against five clubs: B takes all five, a vole against the player at risk: 2 (classic).
    set_hand(m, "7H 8H 9H TH AH", "7C 8C 9C TC AC", "KC", B)
    play_out(m)
    assert m.scores == [0, 3]
    # Hand 2: A deals; B plays holding hearts against five diamonds (trumps): A's vole, 2.
    set_hand(m, "8D 9D TD AD JD", "7H 8H 9H TH AH", "7D", A)
    play_out(m)
    assert m.scores == [2, 3]
    # Hand 3: B deals and turns up a king: 3 + 1 = 4 = target.
    set_hand(m, "7S 8S 9S TS AS", "7H 8H 9H TH AH", "KD", B)
    assert m.games[0].winner == B and m.games[0].score == [2, 4]
    assert m.hand.over and not m.hand.complete and m.hand.actions == []
    assert m.phase is Phase.DEAL and m.to_move is None and m.match_winner is None
    assert m.games_won == [0, 1] and m.next_dealer == A
    set_hand(m, "7S 8S 9S TS AS", "7H 8H 9H TH AH", "7D", A)  # game 2 starts at 0-0
    assert len(m.games) == 2 and m.scores == [0, 0] and m.hand.game == 1


def test_deal_alternates_every_hand_and_across_games():
    """000-004: the deal alternates every hand, across the games of a match too."""
    rng = random.Random(7)
    for preset in ("regles", "classic"):
        rules = Rules.named(preset, games_to_win=3, target=3)
        m = random_playout(rng, rules)
        dealers = [h.dealer for h in m.hands_log]
        assert len(m.games) >= 3
        assert all(x != y for x, y in zip(dealers, dealers[1:], strict=False))
        # the first hand of each game after the first is dealt by the other of the last dealer
        firsts = [i for i, h in enumerate(m.hands_log) if i and h.game != m.hands_log[i - 1].game]
        assert firsts and all(dealers[i] != dealers[i - 1] for i in firsts)


def test_dealer_out_of_turn_refused():
    """§2: the deal alternates; a hand dealt by the last dealer is refused."""
    m = new_hand(a="7S 8S 9S TS AS", b="7H 8H 9H TH AH", up="7D", dealer=B)
    run(m, "A play")
    while m.to_move is not None:
        m.apply(m.legal_actions()[0])
    with pytest.raises(DealError, match="dealer out of turn"):
        set_hand(m, "7S 8S 9S TS AS", "7H 8H 9H TH AH", "7D", B)
    assert m.next_dealer == A
    rec = m.deal(random.Random(1))
    assert rec.dealer == A


def test_deal_needs_a_first_dealer_and_a_finished_hand():
    """§2: someone must be chosen to deal first; a new hand waits until the last is over."""
    with pytest.raises(DealError):
        Match(Rules()).deal(random.Random(1))
    m = new_hand(a="7S 8S 9S TS AS", b="7H 8H 9H TH AH", up="7D")
    with pytest.raises(DealError, match="not finished"):
        m.deal(random.Random(1))


@pytest.mark.parametrize(
    "a, b, up, stock_len, why",
    [
        ("7S 8S 9S TS", "7H 8H 9H TH AH", "7D", 21, "A must be dealt 5"),
        ("7S 8S 9S TS AS", "7H 8H 9H TH AH 7C", "7D", 20, "B must be dealt 5"),
        ("7S 8S 9S TS AS", "7H 8H 9H TH AH", "7D", 20, "21 cards"),
        ("7S 8S 9S TS AS", "7H 8H 9H TH 7S", "7D", 21, "card 7S is dealt twice"),
        ("7S 8S 9S TS AS", "7H 8H 9H TH AH", "AS", 21, "card AS is dealt twice"),
    ],
)
def test_impossible_deals_refused(a, b, up, stock_len, why):
    """§2: 5 cards each, one turn-up, 21 in the stock, all 32 different."""
    used = set(cs(a)) | set(cs(b)) | {c(up)}
    rest = [x for x in range(32) if x not in used]  # the stock: the cards left, in id order
    stock = rest[:stock_len]
    assert len(stock) == stock_len
    m = Match(Rules())
    with pytest.raises(DealError, match=why):
        m.start_hand(cs(a), cs(b), c(up), stock, dealer=B)
    assert m.hands_log == [] and m.phase is Phase.DEAL


# ------------------------------------------------------------------ the draw for the first deal


def scripted(monkeypatch, draws):
    """Make the draw see these (A's card, B's card) pairs in turn."""
    decks = []
    for a, b in draws:
        rest = [x for x in range(32) if x not in (c(a), c(b))]
        decks.append([c(a), c(b), *rest])
    it = iter(decks)
    monkeypatch.setattr(deal_module, "shuffled_deck", lambda rng: next(it))


@pytest.mark.parametrize(
    "rule, draws, dealer, chooser",
    [
        ("lowest_deals", [("9S", "JH")], A, None),  # 000, 004: the lower card deals
        ("lowest_deals", [("KC", "7D")], B, None),
        ("highest_deals", [("9S", "JH")], B, None),  # 003: the higher card deals
        ("highest_deals", [("KC", "7D")], A, None),
        ("higher_chooses", [("9S", "JH")], None, B),  # 001: the higher card chooses
        ("higher_chooses", [("KC", "7D")], None, A),
    ],
)
def test_first_dealer_parameter(monkeypatch, rule, draws, dealer, chooser):
    """§2 first_dealer: lowest_deals (000, 004), highest_deals (003), higher_chooses (001)."""
    scripted(monkeypatch, draws)
    r = draw_first_dealer(Rules.named("classic", first_dealer=rule), random.Random(0))
    assert (r.dealer, r.chooser, r.redraws) == (dealer, chooser, 0)


def test_first_dealer_draw_equal_cards_draw_again(monkeypatch):
    """§2: equal cards draw again (7S against 7H is a tie; then 8C against QD)."""
    scripted(monkeypatch, [("7S", "7H"), ("AD", "AC"), ("8C", "QD")])
    r = draw_first_dealer(Rules.named("academie"), random.Random(0))
    assert r.redraws == 2 and r.cards == (c("8C"), c("QD")) and r.dealer == A


@pytest.mark.parametrize(
    "ace_high, draws, low_seat",
    [
        (False, [("AS", "JH")], A),  # K Q J A 10: the ace is below the jack
        (False, [("AS", "TH")], B),  # ... and above the ten
        (True, [("AS", "KH")], B),  # ace_high: the ace is above the king
    ],
)
def test_first_dealer_draw_ranks_in_the_games_order(monkeypatch, ace_high, draws, low_seat):
    """§2: the draw ranks cards in the game's rank order (K Q J A ..., or ace_high)."""
    scripted(monkeypatch, draws)
    r = draw_first_dealer(Rules.named("academie", ace_high=ace_high), random.Random(0))
    assert r.dealer == low_seat  # academie: lowest deals


def test_first_dealer_draw_with_a_real_shuffle_redraws_on_ties():
    """§2: with the real seeded shuffle, each draw is the top two cards of a fresh shuffle,
    repeated while they have the same rank; lowest_deals (004) gives the deal to the lower."""
    seen_redraw = False
    for seed in range(60):
        r = draw_first_dealer(Rules.named("nl"), random.Random(seed))
        rng = random.Random(seed)
        for i in range(r.redraws + 1):
            deck = shuffled_deck(rng)
            tie = _face_rank(deck[0]) == _face_rank(deck[1])
            assert tie == (i < r.redraws)
        assert r.cards == (deck[0], deck[1])
        assert r.dealer == (A if _face_rank(deck[0]) < _face_rank(deck[1]) else B)
        seen_redraw |= r.redraws > 0
    assert seen_redraw


def _face_rank(x: int) -> int:
    return "789TAJQK".index(card_str(x)[0])


def test_first_deal_draw_describes_itself(monkeypatch):
    """§2: the draw is shown to the players: who drew what and who deals or chooses."""
    scripted(monkeypatch, [("9S", "JH")])
    r = draw_first_dealer(Rules(), random.Random(0))
    assert r.describe(("Anna", "Ben")) == "Anna draws 9S, Ben draws JH: Ben chooses who deals"
