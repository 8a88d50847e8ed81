"""Random legal playouts (hypothesis): the invariants of the engine over thousands of hands.

Each example is one whole match, played from a seed with random legal actions of both seats
(so the non-mover's king is tried too), for every preset.
"""

import dataclasses
import json
import pickle
import random

import pytest
from engine_support import (
    ALL_CARDS,
    EXAMPLE,
    cards_of_mask,
    played_cards,
    random_playout,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ecarte_tui.engine import (
    ACCEPT,
    KING,
    PLAY,
    PRESETS,
    PROPOSE,
    REFUSE,
    A,
    Action,
    B,
    DealError,
    EcnError,
    IllegalAction,
    Kind,
    Match,
    Phase,
    Rules,
    discard,
    play_card,
    read_ecn,
    seat_view,
    summary,
    write_ecn,
)
from ecarte_tui.engine.view import Event, HandSummary, SeatView, Trick

PRESET_NAMES = sorted(PRESETS)
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def fast(n):
    return settings(max_examples=n, deadline=None, derandomize=False,
                    suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ an oracle from RULES.md


def rank(card, ace_high):
    """Strength inside the suit from RULES.md §1: K Q J A 10 9 8 7 (or A K Q J 10 9 8 7)."""
    return ("789TJQKA" if ace_high else "789TAJQK").index("789TAJQK"[card & 7])


def suit(card):
    return card >> 3


def oracle_cards(m, seat):
    """RULES.md §5: which cards ``seat`` may play now."""
    if m.phase is not Phase.TRICKS or seat != m.to_move:
        return set()
    hand = cards_of_mask(m.hands[seat])
    if m.led < 0:
        return hand
    same = {x for x in hand if suit(x) == suit(m.led)}
    if same:
        ah = m.rules.ace_high
        higher = {x for x in same if rank(x, ah) > rank(m.led, ah)}
        return higher or same
    trumps = {x for x in hand if suit(x) == m.trump}
    return trumps or hand


def oracle_king(m, seat):
    """RULES.md §4: may ``seat`` announce now?"""
    rec = m.hand
    if m.phase is not Phase.TRICKS or rec is None:
        return False
    king = m.trump * 8 + 7
    if not m.hands[seat] >> king & 1:
        return False
    acts = rec.actions
    if any(a.kind is Kind.KING for _, a in acts):
        return False
    cards_by = [sum(1 for s, a in acts if a.kind is Kind.CARD and s == x) for x in (A, B)]
    if m.rules.king_deadline == "own_first_card":
        return cards_by[seat] == 0
    return cards_by[A] + cards_by[B] == 0


def state_bytes(m):
    """Every attribute of the match, nested records included, pickled: the same bytes for
    the same object left untouched (``snapshot``'s text form costs ten times more, and this
    check runs at thousands of states)."""
    return pickle.dumps(vars(m), protocol=pickle.HIGHEST_PROTOCOL)


def oracle_legal(m, seat, action):
    """RULES.md §3-§5 as a predicate, independent of the engine's checks."""
    if m.phase in (Phase.DEAL, Phase.OVER) or seat not in (A, B):
        return False
    if action.kind is Kind.KING:
        return oracle_king(m, seat)
    if seat != m.to_move:
        return False
    if m.phase is Phase.DECIDE:
        return action in (PLAY, PROPOSE) and m.stock_size > 0
    if m.phase is Phase.ANSWER:
        return action in (ACCEPT, REFUSE)
    if m.phase in (Phase.ELDER_DISCARD, Phase.DEALER_DISCARD):
        if action.kind is not Kind.DISCARD or action.cards & ~m.hands[seat]:
            return False
        n = action.cards.bit_count()
        low = 1 if m.phase is Phase.ELDER_DISCARD else m.rules.dealer_min_discard
        return low <= n <= min(5, m.stock_size)
    return action.kind is Kind.CARD and action.card in oracle_cards(m, seat)


def oracle_set(m, seat):
    out = set()
    if m.phase in (Phase.ELDER_DISCARD, Phase.DEALER_DISCARD) and seat == m.to_move:
        hand = sorted(cards_of_mask(m.hands[seat]))
        for bits in range(1 << len(hand)):
            mask = sum(1 << hand[j] for j in range(len(hand)) if bits >> j & 1)
            if oracle_legal(m, seat, discard(mask)):
                out.add(discard(mask))
    for act in (PLAY, PROPOSE, ACCEPT, REFUSE, KING, *(play_card(x) for x in range(32))):
        if oracle_legal(m, seat, act):
            out.add(act)
    return out


# ------------------------------------------------------------------ invariants


def check_cards_accounted(m):
    """All 32 cards: hands + stock remainder + turn-up + discards + played, each exactly once."""
    if m.hand is None:
        return
    parts = [cards_of_mask(m.hands[A]), cards_of_mask(m.hands[B]),
             set(m.stock[m.stock_pos:]), {m.up}, played_cards(m)]
    for seat in (A, B):
        for d in m.discards[seat]:
            parts.append(cards_of_mask(d))
    assert sum(len(p) for p in parts) == 32
    assert set().union(*parts) == ALL_CARDS
    assert len(m.stock) == 21 and 0 <= m.stock_pos <= 21
    if m.phase in (Phase.DECIDE, Phase.ANSWER, Phase.ELDER_DISCARD, Phase.DEALER_DISCARD):
        assert m.hands[A].bit_count() == m.hands[B].bit_count() == 5
    played = [sum(1 for s, a in m.hand.actions if a.kind is Kind.CARD and s == x) for x in (A, B)]
    assert [5 - m.hands[x].bit_count() for x in (A, B)] == played or m.phase is not Phase.TRICKS


def check_someone_may_act(m):
    """Until the match ends a legal action exists for the player to move; none after, and
    nobody acts between hands."""
    legal_a, legal_b = list(m.legal_actions(A)), list(m.legal_actions(B))
    if m.phase in (Phase.DEAL, Phase.OVER):
        assert m.to_move is None and legal_a == [] and legal_b == []
    else:
        assert m.to_move in (A, B)
        assert [legal_a, legal_b][m.to_move], "the player to move has no legal action"
        assert list(m.legal_actions()) == [legal_a, legal_b][m.to_move]
    assert (m.match_winner is not None) == (m.phase is Phase.OVER)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@fast(300)
@given(seed=SEEDS)
def test_cards_accounted_hands_end_someone_may_act(preset, seed):
    """RULES.md §1-§7: all 32 cards always accounted for; every hand ends (all five tricks or
    the target); a legal action exists for someone until the match ends and none after."""
    rng = random.Random(seed)

    def check(m):
        check_cards_accounted(m)
        check_someone_may_act(m)

    m = random_playout(rng, Rules.named(preset), check)
    assert m.is_over
    for h in m.hands_log:
        assert h.over
        assert h.complete == (sum(h.tricks) == 5)
        if not h.complete:  # only a king or a turn-up king reaching the target stops a hand
            assert h is m.hands_log[-1] or m.games[h.game].winner is not None
            g = m.games[h.game]
            assert g.winner is not None and h is [x for x in m.hands_log if x.game == h.game][-1]
    with pytest.raises(DealError):
        m.deal(rng)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@fast(40)
@given(seed=SEEDS)
def test_legal_actions_follow_the_rules_and_illegal_never_changes_state(preset, seed):
    """RULES.md §3-§5: legal_actions(seat) for both seats is exactly what the rules allow (an
    oracle written from RULES.md); any other action raises IllegalAction and changes nothing."""
    rng = random.Random(seed)
    rules = Rules.named(preset, ace_high=bool(seed & 1))

    def check(m):
        for seat in (A, B):
            got = set(m.legal_actions(seat))
            assert got == oracle_set(m, seat)
            assert len(got) == len(list(m.legal_actions(seat)))  # no duplicates
        # a few illegal tries (at half the states, to keep it fast): words, cards, the king,
        # discards of held and of foreign cards
        if rng.random() < 0.5:
            return
        snap = state_bytes(m)
        seat = rng.randrange(2)
        own = m.hands[seat]
        tries = [Action(Kind(rng.randrange(4))) if rng.random() < 0.3 else KING,
                 play_card(rng.randrange(32)),
                 discard(own & rng.getrandbits(32)),
                 discard(rng.getrandbits(32) & rng.getrandbits(32))]
        for act in tries:
            ok = oracle_legal(m, seat, act)
            assert m.is_legal(act, seat) == ok
            if not ok:
                with pytest.raises(IllegalAction) as e:
                    m.apply(act, seat)
                assert str(e.value) and e.value.personal()
        assert state_bytes(m) == snap, f"an illegal action among {tries} changed the state"

    random_playout(rng, rules, check)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@fast(150)
@given(seed=SEEDS)
def test_ecn_round_trip(preset, seed):
    """ECN.md: write -> read -> write gives the same text, and the same JSON summary, for whole
    matches and for records cut at any point after a stock line (a game in progress)."""
    rng = random.Random(seed)
    rules = Rules.named(preset, target=rng.choice([1, 3, 5, 7]))
    cut_at = rng.randrange(1, 200)
    steps = [0]
    cut = {}

    def check(m):
        steps[0] += 1
        if steps[0] == cut_at:
            cut["text"], cut["summary"] = write_ecn(m), summary(m)

    m = random_playout(rng, rules, check)
    tags = {"A": "Anna", "B": 'Ben "B"', "Seed": str(seed)}
    text = write_ecn(m, tags)
    rec = read_ecn(text)
    assert write_ecn(rec) == text and rec.tags == {**tags, "Rules": preset}
    assert summary(rec) == summary(m)
    assert json.loads(json.dumps(summary(rec))) == summary(m)
    if cut:
        rec = read_ecn(cut["text"])
        assert write_ecn(rec) == cut["text"] and summary(rec) == cut["summary"]


# ------------------------------------------------------------------ hidden information

# Every field of SeatView, sorted into those that may show card faces and those that must not.
CARD_FIELDS = {"hand", "own_discards", "turn_up", "tricks", "trick_lead", "events", "legal",
               "previous"}
OTHER_FIELDS = {"seat", "rules", "phase", "to_move", "hand_number", "game_number", "dealer",
                "elder", "opponent_discards", "opponent_cards", "cards_in_hand", "discard_counts",
                "trump", "stock_size",
                "exchanges", "leader", "tricks_won", "king", "at_risk", "scores", "games_won",
                "hand_points", "game_winner", "match_winner", "forfeit", "resigned"}


def faces_in(value, field):
    """The card faces a field of the view shows, read field by field (not visible_cards)."""
    if value is None:
        return set()
    if field in ("hand",):
        return set(value)
    if field == "own_discards":
        return set().union(set(), *(cards_of_mask(x) for x in value))
    if field in ("turn_up", "trick_lead"):
        return {value}
    if field == "tricks":
        assert all(type(t) is Trick for t in value)
        return {x for t in value for x in (t.lead, t.follow)}
    if field == "events":
        assert all(type(e) is Event for e in value)
        return set().union(set(), *(cards_of_mask(e.action.cards) for e in value))
    if field == "legal":
        return set().union(set(), *(cards_of_mask(a.cards) for a in value))
    if field == "previous":
        out = set()
        for h in value:
            assert type(h) is HandSummary
            for f in dataclasses.fields(HandSummary):
                if f.name == "turn_up":
                    out.add(h.turn_up)
                else:  # everything else in a past hand is a count, a seat, a suit or a flag
                    assert f.name in {"number", "dealer", "trump", "turn_up_king", "king",
                                      "at_risk", "tricks", "points", "complete", "over"}
        return out
    raise AssertionError(field)


def check_view(m, seat):
    v = seat_view(m, seat)
    names = {f.name for f in dataclasses.fields(SeatView)}
    assert names == CARD_FIELDS | OTHER_FIELDS, "a new SeatView field: sort it here"
    shown = set()
    for name in CARD_FIELDS:
        shown |= faces_in(getattr(v, name), name)
    assert shown == v.visible_cards()
    for name in OTHER_FIELDS:  # no card masks or Actions hidden in the other fields
        assert plain(getattr(v, name)), name
    if m.hand is None:
        assert shown == set()
        return v
    # what this seat must not see: the opponent's cards and discards, and the stock
    others = (A, B) if seat is None else (1 - seat,)
    hidden = set(m.stock[m.stock_pos:])
    for other in others:
        hidden |= cards_of_mask(m.hands[other])
        for d in m.discards[other]:
            hidden |= cards_of_mask(d)
    # (the turn-ups of past hands in ``previous`` are history, not this hand's cards)
    now = current_faces(v)
    assert not now & hidden, "the view shows a card it must hide"
    assert v.turn_up == m.up and v.stock_size == 21 - m.stock_pos
    assert v.scores == tuple(m.games[m.hand.game].score)
    assert v.cards_in_hand == (m.hands[A].bit_count(), m.hands[B].bit_count())
    assert v.discard_counts == tuple(tuple(d.bit_count() for d in m.discards[x]) for x in (A, B))
    if seat is None:  # a watcher: only the public table
        assert v.hand == () and v.own_discards == () and v.legal == ()
        return v
    other = 1 - seat
    assert set(v.hand) == cards_of_mask(m.hands[seat]) and set(v.hand) <= shown
    assert v.own_discards == tuple(m.discards[seat])
    assert v.opponent_discards == tuple(d.bit_count() for d in m.discards[other])
    assert v.opponent_cards == m.hands[other].bit_count()
    assert set(v.legal) == set(m.legal_actions(seat))
    return v


def current_faces(v):
    """The faces the view shows from the current hand (all but the past hands' turn-ups)."""
    return set().union(*(faces_in(getattr(v, f), f) for f in CARD_FIELDS - {"previous"}))


def plain(value):
    """None, an int (a count, a seat, a score, a phase), the Rules, or tuples of those."""
    if value is None or isinstance(value, (int, Rules)):
        return True
    return isinstance(value, tuple) and all(plain(x) for x in value)


def relabel(m, x, y):
    """The same match with cards x and y swapped in the current hand, or None if that makes
    some recorded action illegal."""
    swap = {x: y, y: x}

    def mc(c):
        return swap.get(c, c)

    def mm(mask):
        out = mask & ~((1 << x) | (1 << y))
        if mask >> x & 1:
            out |= 1 << y
        if mask >> y & 1:
            out |= 1 << x
        return out

    twin = Match(m.rules, first_dealer=m.first_dealer)
    last = len(m.hands_log) - 1
    try:
        for i, h in enumerate(m.hands_log):
            f = mc if i == last else (lambda c: c)
            g = mm if i == last else (lambda k: k)
            twin.start_hand([f(c) for c in h.hands[0]], [f(c) for c in h.hands[1]], f(h.up),
                            [f(c) for c in h.stock], dealer=h.dealer)
            for s, a in h.actions:
                twin.apply(Action(a.kind, g(a.cards)), s)
    except IllegalAction:
        return None
    return twin


@pytest.mark.parametrize("preset", PRESET_NAMES)
@fast(30)
@given(seed=SEEDS)
def test_seat_view_hides_what_it_must(preset, seed):
    """DESIGN.md Hidden information: a seat's view holds its own hand and discards, never the
    opponent's unplayed cards or discards (nor the stock); a watcher's (seat None) holds neither
    hand. Every field is checked. And the view is the same whatever the hidden cards are:
    swapping two cards this seat has not seen (in the opponent's hand, his discards or the
    stock) leaves the view unchanged."""
    rng = random.Random(seed)

    def check(m):
        for seat in (A, B, None):
            v = check_view(m, seat)
            if m.hand is None or rng.random() > 0.15:
                continue
            seen = current_faces(v)
            unseen = sorted(ALL_CARDS - seen)
            for _ in range(3):
                x, y = rng.sample(unseen, 2)
                twin = relabel(m, x, y)
                if twin is not None:
                    assert seat_view(twin, seat) == v
                    break

    random_playout(rng, Rules.named(preset), check)


# ------------------------------------------------------------------ ECN reading never crashes

VOCAB = ["hand", "dealer", "A", "B", "up", "stock", "play", "propose", "accept", "refuse",
         "king", "discard", "KS", "10h", "T♠", "7C", "QQ", "[Rules", '"nl"]', '[target "3"]',
         '[Rules "regles"]', '[ace_high "yes"]', "#", "", "AB", "\t", "²", '[X "\\"]']


@fast(300)
@given(data=st.data())
def test_reading_any_text_gives_a_record_or_an_ecn_error(data):
    """ECN.md Errors: whatever the text, a record is read or refused with EcnError (line,
    reason, status 1 or 2): never another exception (the CLI would crash with a traceback)."""
    lines = EXAMPLE.splitlines()
    for _ in range(data.draw(st.integers(0, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "dup", "word", "swap"]))
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            words = lines[i].split() or [""]
            k = data.draw(st.integers(0, len(words)))
            words.insert(k, data.draw(st.sampled_from(VOCAB) | st.text(max_size=4)))
            lines[i] = " ".join(words)
        if not lines:
            break
    text = "\n".join(lines) + "\n"
    try:
        rec = read_ecn(text)
    except EcnError as e:
        assert e.status in (1, 2) and 1 <= e.line <= max(1, len(text.splitlines()))
        assert e.reason
    else:
        assert write_ecn(read_ecn(write_ecn(rec))) == write_ecn(rec)
