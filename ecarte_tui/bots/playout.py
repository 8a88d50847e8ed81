"""The trick play of one deal by the classic rules of play, on bitmasks.

Exact search (``solver``) lets both players see every card, which flatters the opponent
most: he answers every card as if he saw the hand it came from. Where the expert weighs a
whole hand before the play (proposals, discards), it blends two plainer results: its own
best play against an opponent who plays by the treatises' leads and follows
(``best_tricks``: the opponent cannot see its cards, the expert nearly plays as if it saw
his, its card play being a best reply to that play on sampled deals), and both sides
playing by the treatises (``elder_tricks``, a careful human on each side). The expert's
card play itself uses ``best_tricks`` after each candidate card, on every sampled deal.
"""

from __future__ import annotations

from ..engine.cards import HIGHER, STRENGTH, SUIT_MASK
from .treatises import MASTERS


class PolicyPlay:
    """Plays out a deal with the treatises' leads and cheapest-win follows."""

    def __init__(self, trump: int, ace_high: bool) -> None:
        self.trump = trump
        self.tmask = SUIT_MASK[trump]
        self.higher = HIGHER[ace_high]
        strength = STRENGTH[ace_high]
        self.strength = strength
        # cards of each suit, strongest first
        self.by_suit = tuple(
            tuple(sorted(range(s * 8, s * 8 + 8), key=lambda c: -strength[c])) for s in range(4)
        )
        masters = MASTERS[ace_high]
        # the order in which a player throws away cards he cannot win with
        def keep(c: int) -> tuple[int, int]:
            if c >> 3 == trump:
                return (3, strength[c])
            return (2 if c in masters else 1, strength[c])

        self.throw_order = tuple(sorted(range(32), key=keep))
        tstr = [c for c in self.by_suit[trump]]
        self.top_trump = 1 << tstr[0]
        self.seq_trumps = ((1 << tstr[1]) | (1 << tstr[2]), (1 << tstr[2]) | (1 << tstr[3]))
        self._best: dict[int, int] = {}  # best_tricks' positions, for this trump

    def lead(self, hand: int, tricks_played: int) -> int:
        """The card to lead (see ``classic.classic_lead``)."""
        trumps = hand & self.tmask
        by_suit = self.by_suit
        if trumps and tricks_played <= 1:
            a, b = self.seq_trumps
            if trumps & self.top_trump or trumps & a == a or trumps & b == b:
                for c in by_suit[self.trump]:
                    if trumps >> c & 1:
                        return c
        best = -1
        best_key = (-1, -1, -1)
        for s in range(4):
            if s == self.trump:
                continue
            cards = hand & SUIT_MASK[s]
            if not cards:
                continue
            for c in by_suit[s]:
                if cards >> c & 1:
                    key = (cards.bit_count(), self.strength[c], c)  # (ties: as classic)
                    if key > best_key:
                        best_key, best = key, c
                    break
        if best >= 0:
            return best
        for c in by_suit[self.trump]:
            if hand >> c & 1:
                return c
        return hand.bit_length() - 1

    def options(self, hand: int, led: int) -> int:
        """The legal replies to ``led`` (follow, head, trump)."""
        same = hand & SUIT_MASK[led >> 3]
        if same:
            return same & self.higher[led] or same
        return hand & self.tmask or hand

    def follow(self, hand: int, led: int) -> int:
        """Win as cheaply as possible, or throw the least useful card."""
        led_suit = led >> 3
        same = hand & SUIT_MASK[led_suit]
        if same:
            hi = same & self.higher[led]
            options = hi or same
            if hi:
                for c in reversed(self.by_suit[led_suit]):
                    if options >> c & 1:
                        return c
        else:
            trumps = hand & self.tmask
            options = trumps or hand
            if trumps:
                for c in reversed(self.by_suit[self.trump]):
                    if trumps >> c & 1:
                        return c
        for c in self.throw_order:
            if options >> c & 1:
                return c
        raise AssertionError("no card to play")

    def heads(self, led: int, reply: int) -> bool:
        """Does ``reply`` take the trick ``led`` began (higher in its suit, or a trump)?"""
        if reply >> 3 == led >> 3:
            return self.strength[reply] > self.strength[led]
        return reply >> 3 == self.trump

    def elder_tricks(self, elder: int, dealer: int) -> int:
        """Tricks the elder takes when both play by these rules."""
        hands = [elder, dealer]
        leader = 0
        won = 0
        for t in range(elder.bit_count()):
            lead = self.lead(hands[leader], t)
            hands[leader] ^= 1 << lead
            reply = self.follow(hands[1 - leader], lead)
            hands[1 - leader] ^= 1 << reply
            if self.heads(lead, reply):
                leader = 1 - leader
            if leader == 0:
                won += 1
        return won

    def best_tricks(self, mine: int, theirs: int, i_lead: bool) -> int:
        """Tricks ``mine`` takes from here, each of its cards chosen to take the most, when
        ``theirs`` plays by these rules (his leads and follows are fixed, mine searched)."""
        key = (mine << 33) | (theirs << 1) | i_lead
        found = self._best.get(key)
        if found is not None:
            return found
        n = mine.bit_count()
        if n == 0:
            return 0
        best = -1
        if i_lead:
            m = mine
            while m:
                cb = m & -m
                m ^= cb
                c = cb.bit_length() - 1
                r = self.follow(theirs, c)
                he_wins = self.heads(c, r)
                t = self.best_tricks(mine ^ cb, theirs ^ (1 << r), not he_wins) + (not he_wins)
                if t > best:
                    best = t
                    if best == n:
                        break
        else:
            led = self.lead(theirs, 5 - n)
            replies = self.options(mine, led)
            while replies:
                rb = replies & -replies
                replies ^= rb
                r = rb.bit_length() - 1
                i_win = self.heads(led, r)
                t = self.best_tricks(mine ^ rb, theirs ^ (1 << led), i_win) + i_win
                if t > best:
                    best = t
                    if best == n:
                        break
        self._best[key] = best
        return best
