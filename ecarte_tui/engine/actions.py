"""Actions as interned value objects, so comparing and hashing them costs nothing in search."""

from __future__ import annotations

from enum import IntEnum

from .cards import card_label, card_str, cards_of, parse_card


class Kind(IntEnum):
    PLAY = 0  # "We play!": the elder plays without proposing (or stops exchanging)
    PROPOSE = 1  # "Cards!"
    ACCEPT = 2
    REFUSE = 3
    DISCARD = 4
    KING = 5  # "I have the king!"
    CARD = 6  # a card played to the trick


_WORDS = {
    Kind.PLAY: "play",
    Kind.PROPOSE: "propose",
    Kind.ACCEPT: "accept",
    Kind.REFUSE: "refuse",
    Kind.KING: "king",
}
_BY_WORD = {w: k for k, w in _WORDS.items()}


class Action:
    """One move: a word, a discard (a card mask) or a card. Use the module constants."""

    __slots__ = ("kind", "cards", "_hash")

    kind: Kind
    cards: int
    _hash: int

    def __new__(cls, kind: Kind, cards: int = 0) -> Action:
        key = (int(kind), cards)
        cached = _INTERNED.get(key)
        if cached is not None:
            return cached
        self = object.__new__(cls)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "_hash", hash(key))
        _INTERNED[key] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[type, tuple[Kind, int]]:
        return (Action, (self.kind, self.cards))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, Action) and self.kind == other.kind and self.cards == other.cards
        )

    @property
    def card(self) -> int:
        """The card of a CARD action."""
        return self.cards.bit_length() - 1

    def __str__(self) -> str:
        """The ECN form: ``propose``, ``discard 7S 8H``, ``KS``."""
        if self.kind is Kind.CARD:
            return card_str(self.card)
        if self.kind is Kind.DISCARD:
            return " ".join(["discard", *(card_str(c) for c in cards_of(self.cards))])
        return _WORDS[self.kind]

    def __repr__(self) -> str:
        return f"Action({self})"

    def label(self, ascii_only: bool = False) -> str:
        """What a player reads."""
        if self.kind is Kind.CARD:
            return card_label(self.card, ascii_only)
        if self.kind is Kind.DISCARD:
            cards = ", ".join(card_label(c, ascii_only) for c in cards_of(self.cards))
            return f"discard {cards}" if cards else "keep the hand"
        return _WORDS[self.kind]

    @staticmethod
    def parse(text: str) -> Action:
        """Parse the ECN form; ValueError on anything else."""
        words = text.split()
        if not words:
            raise ValueError("empty action")
        head = words[0]
        if head in _BY_WORD and len(words) == 1:
            return Action(_BY_WORD[head])
        if head == "discard":
            mask = 0
            for w in words[1:]:
                c = parse_card(w)
                if mask >> c & 1:
                    raise ValueError(f"card {card_str(c)} is discarded twice")
                mask |= 1 << c
            return Action(Kind.DISCARD, mask)
        if len(words) == 1:
            try:
                return play_card(parse_card(head))
            except ValueError:
                pass
        raise ValueError(f"unknown action {text.strip()!r}")


_INTERNED: dict[tuple[int, int], Action] = {}

PLAY = Action(Kind.PLAY)
PROPOSE = Action(Kind.PROPOSE)
ACCEPT = Action(Kind.ACCEPT)
REFUSE = Action(Kind.REFUSE)
KING = Action(Kind.KING)
CARD_ACTIONS: tuple[Action, ...] = tuple(Action(Kind.CARD, 1 << c) for c in range(32))


def play_card(card: int) -> Action:
    return CARD_ACTIONS[card]


def discard(mask: int) -> Action:
    return Action(Kind.DISCARD, mask)
