"""A record told move by move in plain text, for ``ecarte replay`` and bug reports."""

from __future__ import annotations

from collections.abc import Iterator

from .cards import SUIT_NAMES, card_label, cards_of, sorted_hand
from .ecn import Record
from .match import SEATS, Match
from .shown_text import visible_names
from .view import Event


def replay_lines(record: Record, ascii_only: bool = False) -> Iterator[str]:
    """Re-play the record on a fresh match, telling each step and each score."""
    names = visible_names(record.names)
    m = record.match
    rules = m.rules
    yield f"Rules: {rules.preset} (target {rules.target}, games to win {rules.games_to_win})"
    yield f"{SEATS[0]}: {names[0]}   {SEATS[1]}: {names[1]}"
    fresh = Match(rules)
    for i, h in enumerate(m.hands_log, 1):

        def lbl(cards: list[int] | tuple[int, ...], trump: int = h.trump) -> str:
            shown = sorted_hand(cards, trump, rules.ace_high)
            return " ".join(card_label(c, ascii_only) for c in shown)

        yield ""
        yield f"Hand {i} (game {h.game + 1}): {names[h.dealer]} deals"
        yield f"  {names[0]}: {lbl(h.hands[0])}"
        yield f"  {names[1]}: {lbl(h.hands[1])}"
        yield f"  turn-up {card_label(h.up, ascii_only)}: {SUIT_NAMES[h.trump]} are trumps"
        fresh.start_hand(h.hands[0], h.hands[1], h.up, h.stock, dealer=h.dealer)
        if h.turn_up_king:
            yield f"  {names[h.dealer]} turns up the king: 1 point"
        tricks = 0
        for seat, action in h.actions:
            fresh.apply(action, seat)
            text = Event(seat, action, action.cards.bit_count()).describe(names, ascii_only)
            yield f"  {text}"
            if action.kind.name == "DISCARD":
                yield f"    {names[seat]} now holds {lbl(cards_of(fresh.hands[seat]))}"
            if len(fresh.tricks_played) > tricks:
                tricks = len(fresh.tricks_played)
                winner = fresh.tricks_played[-1][3]
                yield f"    trick {tricks} to {names[winner]}"
        rec = fresh.hand
        assert rec is not None
        if rec.at_risk is not None:
            yield f"  {names[rec.at_risk]} insisted and is at risk"
        yield (
            f"  tricks {rec.tricks[0]}-{rec.tricks[1]}; points this hand "
            f"{names[0]} {rec.points[0]}, {names[1]} {rec.points[1]}; "
            f"score {fresh.scores[0]}-{fresh.scores[1]}"
        )
        game = fresh.games[rec.game]
        if game.winner is not None and rec.over:
            yield f"  {names[game.winner]} wins game {rec.game + 1}"
    yield ""
    if m.forfeited is not None:  # [Forfeit]: the record's match ends here, by forfeit
        lost, w = m.forfeited, 1 - m.forfeited
        how = "resigned" if m.resigned else "did not come back"
        if m.games and fresh.games and fresh.games[-1].winner is None:
            yield f"{names[lost]} {how}: {names[w]} wins game {len(m.games)} by forfeit"
        yield (f"{names[lost]} {how}: {names[w]} wins the match by forfeit, "
               f"games {m.games_won[w]}-{m.games_won[lost]}")
    elif fresh.match_winner is not None:
        w = fresh.match_winner
        yield f"{names[w]} wins the match, games {fresh.games_won[w]}-{fresh.games_won[1 - w]}"
    elif m.hands_log:
        yield "The match is in progress."
    else:
        yield "No hand has been played."
