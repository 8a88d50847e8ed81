"""The classical rules of thumb, as pure functions on hand masks.

They are the ``classic`` bot's whole judgement, and the expert uses them to guess what an
opponent does with the hand it samples for him (a cheap model of a sensible player).

Sources, named in each rule:
- 001: the modern English rules in ``seeds/`` ("Tips for beginners").
- 003: Encyclopaedia Britannica (1911), "Écarté"; the seed holds the rules, the article
  goes on with the jeux de règle and the advice quoted here.
- 004: the Dutch rules in ``seeds/`` ("Tips en strategieën").
- Foster: R. F. Foster, *Foster's Complete Hoyle* (1897), "Écarté", the theory of the jeux
  de règle quoted in RULES.md §9.
- Cavendish: *Cavendish on Écarté*, as quoted in *Hoyle's Games Modernized* (1909).

"King" in these texts means the master card of a suit: with ``ace_high`` it is the ace.
"""

from __future__ import annotations

from ..engine.cards import KING as KING_FACE
from ..engine.cards import STRENGTH, SUIT_MASK, make_card
from ..engine.rules import Rules


def master_cards(ace_high: bool) -> tuple[int, ...]:
    """The master card ("king") of each suit."""
    strength = STRENGTH[ace_high]
    return tuple(max(range(s * 8, s * 8 + 8), key=strength.__getitem__) for s in range(4))


def second_cards(ace_high: bool) -> tuple[int, ...]:
    """The second card ("queen") of each suit."""
    strength = STRENGTH[ace_high]
    return tuple(
        next(c for c in range(s * 8, s * 8 + 8) if strength[c] == 6) for s in range(4)
    )


MASTERS = {False: master_cards(False), True: master_cards(True)}
SECONDS = {False: second_cards(False), True: second_cards(True)}


def king_of_trumps(trump: int) -> int:
    """The card that scores the point (always the king, whatever the rank order)."""
    return make_card(KING_FACE, trump)


def trumps_and_kings(hand: int, trump: int, ace_high: bool) -> int:
    """The cards a player keeps when he changes cards (003: "throw out all cards except
    trumps and kings")."""
    keep = hand & SUIT_MASK[trump]
    for s, top in enumerate(MASTERS[ace_high]):
        if s != trump and hand >> top & 1:
            keep |= 1 << top
    return keep


def _counts(hand: int, trump: int, ace_high: bool) -> tuple[int, int, int, int]:
    """(trumps, plain kings, plain suits headed by a king or queen, longest plain suit)."""
    trumps = (hand & SUIT_MASK[trump]).bit_count()
    kings = guarded = longest = 0
    masters, seconds = MASTERS[ace_high], SECONDS[ace_high]
    for s in range(4):
        if s == trump:
            continue
        cards = hand & SUIT_MASK[s]
        if hand >> masters[s] & 1:
            kings += 1
            guarded += 1
        elif hand >> seconds[s] & 1:
            guarded += 1
        longest = max(longest, cards.bit_count())
    return trumps, kings, guarded, longest


def _has_tierce_major(hand: int, trump: int, ace_high: bool) -> bool:
    """King, queen and knave of one plain suit (003: "a tierce major")."""
    strength = STRENGTH[ace_high]
    for s in range(4):
        if s == trump:
            continue
        top3 = sum(1 for c in range(s * 8, s * 8 + 8) if hand >> c & 1 and strength[c] >= 5)
        if top3 == 3:
            return True
    return False


def is_jeu_de_regle(hand_mask: int, trump: int, rules: Rules | None = None) -> bool:
    """A hand the elder should play without proposing (RULES.md §9, Foster, 003).

    Foster's definition: a hand "certain to win three tricks if the dealer has not two
    trumps", which is about 2 : 1 in its favour. The patterns below are the treatises'
    list of such hands; a hand matching any of them is a jeu de règle.
    """
    ace_high = bool(rules and rules.ace_high)
    trumps, kings, guarded, longest = _counts(hand_mask, trump, ace_high)
    # 003: "hands from which only two cards can be discarded without throwing a king or a
    # trump" -- three or more trumps and kings.  This covers "any hand with three trumps"
    # and "two trumps and a king" (001: "two trumps and a King usually make a hand worth
    # playing").
    if trumps + kings >= 3:
        return True
    if trumps == 2:
        # 003 (exceptions for the dealer, which name the elder's hands): "two trumps and
        # three cards of one plain suit"; Cavendish: two trumps with a guarded queen.
        if longest >= 3:
            return True
        return _guarded_queen(hand_mask, trump, ace_high)
    if trumps == 1:
        # 003: "one trump and a tierce major", "one trump and four cards of a plain suit",
        # "one trump and two queens" (a king counts as well as a queen).
        return (
            _has_tierce_major(hand_mask, trump, ace_high) or longest >= 4 or guarded >= 2
        )
    return False


def _guarded_queen(hand: int, trump: int, ace_high: bool) -> bool:
    seconds = SECONDS[ace_high]
    for s in range(4):
        if s != trump and hand >> seconds[s] & 1 and (hand & SUIT_MASK[s]).bit_count() >= 2:
            return True
    return False


def dealer_refuses(hand_mask: int, trump: int, ace_high: bool, eager: bool = False) -> bool:
    """The dealer's answer to a proposal (003, with Cavendish for three trumps).

    003: "you should accept, unless you are guarded in three suits (a queen being a
    sufficient guard), or in two suits with a trump, or in one suit with two trumps."
    Cavendish: "With three trumps, refuse, unless the king of trumps is one of the three".
    ``eager`` lowers every requirement by one guard, for the scores at which refusing is
    worth more (see ``classic``).
    """
    trumps, _, guarded, _ = _counts(hand_mask, trump, ace_high)
    if trumps >= 3:
        return not hand_mask >> king_of_trumps(trump) & 1 or eager
    need = 2 if eager else 3
    return guarded + trumps >= need and guarded >= 1 or trumps >= 2 and eager


def keep_score(card: int, trump: int, ace_high: bool) -> int:
    """How much a card is worth keeping: trumps, then kings, then by strength."""
    strength = STRENGTH[ace_high][card]
    if card >> 3 == trump:
        return 20 + strength
    if strength == 7:
        return 15
    return strength


def treatise_discard(hand: int, trump: int, ace_high: bool, lo: int, hi: int) -> int:
    """All but trumps and kings (003), within the ``lo..hi`` cards the rules allow."""
    out = hand & ~trumps_and_kings(hand, trump, ace_high)
    n = out.bit_count()
    if lo <= n <= hi:
        return out
    order = sorted(
        (c for c in range(32) if hand >> c & 1), key=lambda c: keep_score(c, trump, ace_high)
    )
    if n > hi:
        order = [c for c in order if out >> c & 1]
        return sum(1 << c for c in order[:hi])
    # too few: the dealer must change one card (001, 004) -- the weakest, never the king
    king = king_of_trumps(trump)
    extra = [c for c in order if not out >> c & 1 and c != king]
    for c in extra[: lo - n]:
        out |= 1 << c
    return out
