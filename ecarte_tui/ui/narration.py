"""What the table says in words: the log of the hand, the outcome of a hand, the prompts.

Pure functions of one seat's view, so they are easy to test and cannot leak a hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import KING, PLAY, PROPOSE, Kind, SeatView
from ..engine.actions import ACCEPT, REFUSE
from ..engine.cards import KING as KING_FACE
from ..engine.cards import SUIT_NAMES, SUIT_SYMBOLS, cards_of, make_card
from ..engine.match import Phase
from ..engine.view import Event
from .card_art import Glyphs, short_label

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five")


def seat_names(view: SeatView, opponent: str) -> tuple[str, str]:
    """Names as this seat reads them: "You" for itself."""
    me = view.seat if view.seat is not None else 0
    names = ["", ""]
    names[me] = "You"
    names[1 - me] = opponent
    return names[0], names[1]


def verb(name: str, you: str, they: str) -> str:
    """The name with its verb agreeing: "You deal", "Bot deals"."""
    return f"{name} {you if name == 'You' else they}"


def describe_event(e: Event, names: tuple[str, str], g: Glyphs) -> str:
    """One line of the log, in the second person for the reader's own moves."""
    who = names[e.seat]
    kind = e.action.kind
    if kind is Kind.CARD:
        return f"{verb(who, 'play', 'plays')} {short_label(e.action.card, g)}"
    if kind is Kind.DISCARD:
        n = e.count
        if n == 0:
            return f"{verb(who, 'keep', 'keeps')} the hand"
        cards = ""
        if e.action.cards:
            cards = " (" + " ".join(short_label(c, g) for c in cards_of(e.action.cards)) + ")"
        take = "take" if who == "You" else "takes"
        return f"{verb(who, 'discard', 'discards')} {n}{cards} and {take} {n}"
    return {
        Kind.PLAY: f"{who}: “We play!”",
        Kind.PROPOSE: f"{who}: “Cards!”",
        Kind.ACCEPT: f"{who}: “How many?”",
        Kind.REFUSE: f"{who}: “We play!” (refuses)",
        Kind.KING: f"{who}: “I have the king!” (+1)",
    }[kind]


def trump_line(view: SeatView, g: Glyphs) -> str:
    if view.turn_up is None or view.trump is None:
        return ""
    suit = SUIT_NAMES[view.trump].capitalize()
    return f"{suit} are trumps (turn-up {short_label(view.turn_up, g)})"


def log_lines(view: SeatView, names: tuple[str, str], g: Glyphs) -> list[str]:
    """The hand so far: the deal, what was asked, how many cards each took, tricks, points."""
    if view.hand_number == 0 or view.dealer is None:
        return []
    deals = verb(names[view.dealer], "deal", "deals")
    lines = [f"Hand {view.hand_number}: {deals}.", trump_line(view, g)]
    if view.turn_up is not None and view.turn_up & 7 == 7:
        lines.append(f"Turn-up king: {names[view.dealer]} +1.")
    cards_seen = 0
    king_lost = king_lost_after(view)
    for i, e in enumerate(view.events):
        lines.append(describe_event(e, names, g))
        lines += [king_lost_text(names[s]) for s in (0, 1) if king_lost.get(s) == i]
        if e.action.kind is Kind.CARD:
            cards_seen += 1
            if cards_seen % 2 == 0 and cards_seen // 2 <= len(view.tricks):
                t = view.tricks[cards_seen // 2 - 1]
                lines.append(f"  trick {cards_seen // 2} to {names[t.winner]}")
    if _hand_ended(view):
        lines.extend(outcome_lines(view, names))
    return [line for line in lines if line]


def king_lost_text(name: str) -> str:
    return f"{name}: king not announced, point lost"


def king_lost_after(view: SeatView) -> dict[int, int]:
    """Who is known to have let the king of trumps go unannounced, and after which event
    of the hand to say so (RULES.md §4: not announced in time, the point is lost).

    The reader's own seat is told when its deadline passes (its first card, or the opening
    lead under ``opening_lead``); another seat only when the king shows, played to a trick
    (its hand is never read)."""
    if view.king is not None or view.trump is None or view.turn_up is None:
        return {}
    king = make_card(KING_FACE, view.trump)  # (the turn-up king is nobody's: it is the dealer's +1)
    if view.turn_up == king:
        return {}
    cards = [(i, e) for i, e in enumerate(view.events) if e.action.kind is Kind.CARD]
    found: dict[int, int] = {}
    for seat in (0, 1):
        played = next((i for i, e in cards if e.seat == seat and e.action.card == king), None)
        if seat == view.seat and (played is not None or king in view.hand):
            mine = [i for i, e in cards if view.rules.king_deadline == "opening_lead"
                    or e.seat == seat]
            if mine:
                found[seat] = mine[0]
        elif played is not None:
            found[seat] = played
    return found


def _hand_ended(view: SeatView) -> bool:
    return view.phase in (Phase.DEAL, Phase.OVER) and view.hand_number > 0


def outcome_lines(view: SeatView, names: tuple[str, str]) -> list[str]:
    """Why each point of the hand was scored: point, vole, penalty, king, turn-up king."""
    out: list[str] = []
    if view.dealer is None:
        return out
    if view.turn_up is not None and view.turn_up & 7 == 7:
        out.append(f"{names[view.dealer]}: 1 for the turn-up king")
    if view.king is not None:
        out.append(f"{names[view.king]}: 1 for the king of trumps")
    a, b = view.tricks_won
    if len(view.tricks) == 5:
        winner = 0 if a >= 3 else 1
        tricks = view.tricks_won[winner]
        base = 2 if tricks == 5 else 1
        kind = "the vole" if tricks == 5 else "the point"
        trick_pts = view.hand_points[winner] - (1 if view.king == winner else 0)
        if winner == view.dealer and view.turn_up is not None and view.turn_up & 7 == 7:
            trick_pts -= 1
        why = f"{kind}, {tricks} tricks"
        if view.at_risk == 1 - winner and trick_pts != base:
            why += f"; {names[1 - winner]} insisted and lost"
        elif view.at_risk == 1 - winner:
            why += f"; {names[1 - winner]} insisted and lost (no more)"
        out.append(f"{names[winner]}: {trick_pts} for {why}")
    elif view.forfeit is not None:
        out.append(forfeit_text(view, names))
    elif view.game_winner is not None:
        out.append("The game ends before the cards are played.")
    return out


def forfeit_text(view: SeatView, names: tuple[str, str]) -> str:
    """How a match ended by forfeit reads (the seat names: "You" for the reader)."""
    assert view.forfeit is not None
    lost, won = names[view.forfeit], names[1 - view.forfeit]
    wins = "you win" if won == "You" else f"{won} wins"
    if view.resigned:
        return f"{lost} resigned: {wins} the match"
    who = "You did" if lost == "You" else f"{lost} did"
    return f"{who} not come back: {wins} the match by forfeit"


@dataclass(frozen=True)
class Prompt:
    """The decision in front of the player, in words, and the mode the hand is in."""

    text: str
    keys: str = ""
    mode: str = "wait"  # wait, decide, answer, discard, card, king_gate, choose, between, over


def prompt_for(
    view: SeatView,
    status: str,
    waiting_for: int | None,
    names: tuple[str, str],
    g: Glyphs,
    ready: tuple[bool, bool] = (False, False),
    king_quiet: bool = False,
) -> Prompt:
    """What the player is asked now (or what the table is waiting for). ``king_quiet``: the
    player holding the king said he keeps it quiet (``x``), so it is no longer asked."""
    me = view.seat if view.seat is not None else 0
    opp = names[1 - me]
    if status == "over" and view.forfeit is not None:  # nothing to play, nothing to start
        return Prompt(forfeit_text(view, names), "q leave the table", "over")
    if status == "over":
        return Prompt("The match is over.", "n new game · q quit", "over")
    if status == "choose":
        if waiting_for == me:
            return Prompt("You drew the higher card: choose who deals.", "d I deal · o "
                          f"{opp} deals · h hint", "choose")
        return Prompt(f"{opp} drew the higher card and chooses who deals…", "", "wait")
    if status == "draw":
        return Prompt("Drawing for the deal…", "", "wait")
    if status == "between":
        if ready[me]:
            return Prompt(f"Waiting for {opp} to be ready for the next hand…", "", "wait")
        return Prompt("The hand is over.", "enter next hand", "between")
    legal = set(view.legal)
    first = view.exchanges == 0
    if view.phase is Phase.TRICKS:
        king = KING in legal
        quiet = "" if king_quiet else " · x keep it quiet"
        king_keys = f" · k “I have the king!”{quiet}" if king else ""
        if waiting_for == me and view.to_move != me and king:
            return Prompt(
                "You hold the king of trumps. Announce it before the first lead?",
                "k announce (+1) · x keep it quiet (no point)", "king_gate")
        if view.to_move == me:
            if view.trick_lead is None:
                what = "Your lead: choose a card."
            else:
                what = f"{opp} led {short_label(view.trick_lead, g)}: your card."
            arrows = "←/→" if g.suits == SUIT_SYMBOLS else "left/right"  # ASCII: in words
            return Prompt(what, f"{digit_keys(view)} or {arrows} enter · click" + king_keys,
                          "card")
        if king and king_quiet:
            return Prompt("You keep the king of trumps quiet: its point is lost at your first "
                          "card.", "k “I have the king!”", "king")
        if king:
            return Prompt("You hold the king of trumps. Announce it, or keep it quiet?",
                          "k “I have the king!” (+1) · x keep it quiet", "king")
        if waiting_for is not None and waiting_for != me and view.to_move == me:
            return Prompt(f"Waiting: {opp} may announce the king…", "", "wait")
        return Prompt(f"{opp} to play…", "", "wait")
    if view.to_move != me:
        what = {
            Phase.DECIDE: f"{opp} decides: play or propose…",
            Phase.ANSWER: f"{opp} answers your proposal…",
            Phase.ELDER_DISCARD: f"{opp} discards…",
            Phase.DEALER_DISCARD: f"{opp} discards…",
        }.get(view.phase, f"Waiting for {opp}…")
        return Prompt(what, "", "wait")
    if view.phase is Phase.DECIDE and legal >= {PLAY, PROPOSE}:
        risk = " Playing now puts you at risk." if first else ""
        return Prompt(f"Play the hand as it is, or propose an exchange?{risk}",
                      "p “We play!” · c “Cards!”", "decide")
    if view.phase is Phase.ANSWER and legal >= {ACCEPT, REFUSE}:
        risk = ""
        if first:
            risk = " Refusing puts you at risk." if view.rules.penalized == "committer" else (
                f" Refusing puts {opp} at risk.")
        return Prompt(f"{opp} proposes.{risk}", "a accept · r refuse", "answer")
    if view.phase in (Phase.ELDER_DISCARD, Phase.DEALER_DISCARD):
        lo, hi = discard_bounds(view)
        need = f"{lo} to {hi}" if lo != hi else f"{lo}"
        if lo == 0:
            need = f"up to {hi}"
        return Prompt(f"Choose your discards ({need} cards; stock {view.stock_size}).",
                      f"{digit_keys(view)}/space toggle · enter confirm", "discard")
    return Prompt("Your turn.", "", "wait")


def digit_keys(view: SeatView) -> str:
    """The number keys that reach a card: "1–5" at the first trick, "1" at the last."""
    n = len(view.hand)
    return "1" if n <= 1 else f"1–{n}"


def discard_bounds(view: SeatView) -> tuple[int, int]:
    """How many cards the player may change now (RULES.md §3)."""
    hi = min(5, view.stock_size)
    if view.phase is Phase.ELDER_DISCARD:
        return 1, hi
    return view.rules.dealer_min_discard, hi


def discard_problem(view: SeatView, count: int) -> str | None:
    """Why a discard of ``count`` cards is not allowed, before asking the table."""
    lo, hi = discard_bounds(view)
    if count < lo:
        if view.phase is Phase.ELDER_DISCARD:
            return "choose at least one card to discard"
        return (f"the dealer must change at least one card under these rules "
                f"({view.rules.preset})")
    if count > hi:
        return f"the stock holds only {view.stock_size} cards: you may take no more than {hi}"
    return None


def role_text(view: SeatView, seat: int) -> str:
    if view.dealer is None:
        return ""
    return "dealer" if seat == view.dealer else "elder"


def watcher_prompt(
    view: SeatView,
    status: str,
    waiting_for: int | None,
    names: tuple[str, str],
    g: Glyphs,
    ready: tuple[bool, bool] = (False, False),
) -> Prompt:
    """What a watcher is told: whose turn it is and what they are deciding; never a key to act."""
    keys = "watching · q leave"
    if status == "over" and view.forfeit is not None:
        return Prompt(forfeit_text(view, names), keys, "wait")
    if status == "over":
        winner = view.match_winner
        text = f"The match is over: {names[winner]} wins." if winner is not None else (
            "The match is over.")
        return Prompt(text, keys, "wait")
    if status == "choose" and waiting_for is not None:
        return Prompt(f"{names[waiting_for]} drew the higher card and chooses who deals…", keys)
    if status == "draw":
        return Prompt("Drawing for the deal…", keys)
    if status == "between":
        late = [names[s] for s in (0, 1) if not ready[s]]
        who = " and ".join(late) if late else "the dealer"
        return Prompt(f"The hand is over; waiting for {who} to ask for the next hand…", keys)
    mover = view.to_move
    if view.phase is Phase.TRICKS:
        if waiting_for is not None and waiting_for != mover:
            return Prompt(f"{names[waiting_for]} may announce the king…", keys)
        if mover is None:
            return Prompt("", keys)
        if view.trick_lead is None:
            return Prompt(f"{names[mover]} to lead…", keys)
        return Prompt(f"{names[mover]} to play to {short_label(view.trick_lead, g)}…", keys)
    if mover is None:
        return Prompt("", keys)
    who = names[mover]
    what = {
        Phase.DECIDE: f"{who} decides: play or propose…",
        Phase.ANSWER: f"{who} answers the proposal…",
        Phase.ELDER_DISCARD: f"{who} discards…",
        Phase.DEALER_DISCARD: f"{who} discards…",
    }.get(view.phase, f"Waiting for {who}…")
    return Prompt(what, keys)
