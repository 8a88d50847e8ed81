"""Cards as small ints and hands as bitmasks, so the bots can search millions of positions.

A card is ``suit * 8 + face``; suits are spades, hearts, diamonds, clubs (0-3) and faces
run 7, 8, 9, 10, ace, jack, queen, king (0-7), which is the normal rank order low to high.
The ``ace_high`` option only changes the strength tables, never the ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SINGULAR = ("spade", "heart", "diamond", "club")
FACES = "789TAJQK"
FACE_NAMES = ("7", "8", "9", "10", "ace", "jack", "queen", "king")

SEVEN, EIGHT, NINE, TEN, ACE, JACK, QUEEN, KING = range(8)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)

DECK: tuple[int, ...] = tuple(range(32))
FULL_MASK = (1 << 32) - 1
SUIT_MASK: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))

# strength of a face inside its suit, for each rank order
_STRENGTH_NORMAL = (0, 1, 2, 3, 4, 5, 6, 7)
_STRENGTH_ACE_HIGH = (0, 1, 2, 3, 7, 4, 5, 6)


def suit_of(card: int) -> int:
    return card >> 3


def face_of(card: int) -> int:
    return card & 7


def make_card(face: int, suit: int) -> int:
    return suit * 8 + face


def bit(card: int) -> int:
    return 1 << card


def strength_table(ace_high: bool) -> tuple[int, ...]:
    """Strength of every card id inside its suit (0 weakest, 7 strongest)."""
    faces = _STRENGTH_ACE_HIGH if ace_high else _STRENGTH_NORMAL
    return tuple(faces[c & 7] for c in DECK)


def higher_masks(ace_high: bool) -> tuple[int, ...]:
    """For each card, the mask of the cards of its suit that beat it."""
    strength = strength_table(ace_high)
    out = []
    for c in DECK:
        m = 0
        for d in range(c & ~7, (c & ~7) + 8):
            if strength[d] > strength[c]:
                m |= 1 << d
        out.append(m)
    return tuple(out)


HIGHER = {False: higher_masks(False), True: higher_masks(True)}
STRENGTH = {False: strength_table(False), True: strength_table(True)}


def cards_of(mask: int) -> list[int]:
    """The card ids in a mask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def popcount(mask: int) -> int:
    return mask.bit_count()


def card_str(card: int) -> str:
    """Canonical ECN token, e.g. ``TH``."""
    return FACES[card & 7] + SUITS[card >> 3]


def card_label(card: int, ascii_only: bool = False) -> str:
    """What a player reads: ``10♥``, or ``10H`` on a terminal without Unicode."""
    face = "10" if card & 7 == TEN else FACES[card & 7]
    return face + (SUITS if ascii_only else SUIT_SYMBOLS)[card >> 3]


_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)}
_SUIT_ALIASES.update({s: i for i, s in enumerate(SUIT_SYMBOLS)})
_SUIT_ALIASES.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})


def parse_card(token: str) -> int:
    """Parse ``KS``, ``10h``, ``K♠``; raise ValueError with the bad token otherwise."""
    t = token.strip()
    if len(t) < 2:
        raise ValueError(f"bad card {token!r}")
    rank, suit = t[:-1].upper(), t[-1].upper()
    if rank == "10":
        rank = "T"
    if len(rank) != 1 or rank not in FACES or suit not in _SUIT_ALIASES:
        raise ValueError(f"bad card {token!r}")
    return make_card(FACES.index(rank), _SUIT_ALIASES[suit])


def parse_suit(token: str) -> int:
    s = token.strip().upper()
    if s not in _SUIT_ALIASES:
        raise ValueError(f"bad suit {token!r}")
    return _SUIT_ALIASES[s]


def sort_key(card: int, trump: int | None = None, ace_high: bool = False) -> tuple[int, int]:
    """Order for showing a hand: trumps first, then by suit, strongest first."""
    suit = card >> 3
    group = -1 if suit == trump else suit
    return (group, -STRENGTH[ace_high][card])


def in_hand_order(mask: int, hand: Sequence[int]) -> list[int]:
    """The cards of ``mask`` in the order of ``hand`` (a view's: trumps first, high to low),
    any others after them: a hint names its discards as the player sees them."""
    rank = {c: i for i, c in enumerate(hand)}
    return sorted(cards_of(mask), key=lambda c: (rank.get(c, len(hand)), c))


def sorted_hand(
    cards: Iterable[int], trump: int | None = None, ace_high: bool = False
) -> list[int]:
    return sorted(cards, key=lambda c: sort_key(c, trump, ace_high))
