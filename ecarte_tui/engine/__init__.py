"""The Écarté engine: pure Python, no I/O; chance only through a ``random.Random`` it is given."""

from .actions import ACCEPT, KING, PLAY, PROPOSE, REFUSE, Action, Kind, discard, play_card
from .cards import card_label, card_str, cards_of, mask_of, parse_card
from .deal import Deal, FirstDealDraw, deal_from, draw_first_dealer, shuffled_deck
from .ecn import EcnError, Record, read_ecn, summary, write_ecn
from .errors import IllegalAction
from .match import SEATS, A, B, DealError, HandRecord, Match, Phase
from .rules import PRESET_DESCRIPTIONS, PRESETS, Rules, RulesError
from .view import Event, SeatView, Trick, progress, seat_view

__all__ = [
    "A", "ACCEPT", "Action", "B", "Deal", "DealError", "EcnError", "Event", "FirstDealDraw",
    "HandRecord", "IllegalAction", "KING", "Kind", "Match", "PLAY", "PRESETS",
    "PRESET_DESCRIPTIONS", "PROPOSE", "Phase", "REFUSE", "Record", "Rules", "RulesError",
    "SEATS", "SeatView", "Trick", "card_label", "card_str", "cards_of", "deal_from", "discard",
    "draw_first_dealer", "mask_of", "parse_card", "play_card", "progress", "read_ecn", "seat_view",
    "shuffled_deck", "summary", "write_ecn",
]
