"""A club evening end to end, calling the modules in the order the server will:
a pool of three at a staked nl table with jeux de règle, a gallery that backs, advises
and wagers, ratings after every game; and the chips are all there at the end."""

from __future__ import annotations

import random

from ecarte_tui.engine import KING, Rules
from ecarte_tui.table import Table
from net.club.clubhouse.backers import Gallery
from net.club.clubhouse.jeu_de_regle import forbidden_by_jeu_de_regle, restrict_view
from net.club.clubhouse.options import ClubOptions
from net.club.clubhouse.pool import Pool
from net.club.clubhouse.purse import Ledger, game_id, match_outcomes
from net.club.clubhouse.ratings import RatingBook
from net.club.clubhouse.talk import TableTalk
from net.store.ledger_db import ClubDB


def play_game(table: Table, rng: random.Random, gallery: Gallery, jeux: bool) -> None:
    """Drive a Table to its end as two players would, through the jeu de règle guard."""
    while table.status != "over":
        if table.status == "between":
            table.ready(0)
            table.ready(1)
            continue
        seat = table.waiting_for
        assert seat is not None
        m = table.match
        if seat != m.to_move:  # the dealer may still announce the king (opening_lead)
            if KING in m.legal_actions(seat):
                table.submit(seat, KING)
            else:
                table.pass_king(seat)
            continue
        view = table.view(seat)
        if jeux:
            view = restrict_view(view)
        action = rng.choice(view.legal)
        # a backer advises; the advice goes to this seat's player only
        backers = gallery.backers_of(gallery.players[seat] or "")
        if backers:
            (advice,) = gallery.advise(backers[0], action, legal=view.legal)
            assert advice.recipient == gallery.players[seat]
        if jeux:
            assert forbidden_by_jeu_de_regle(m, seat, action) is None
        table.submit(seat, action)


def test_a_pool_evening(tmp_path):
    opts = ClubOptions(pool="two_in_row", stake=2, jeux_de_regle=True)
    opts.check()
    rules = Rules.named("nl")
    db = ClubDB(tmp_path / "club.db")
    ledger, book = Ledger(db), RatingBook(db)
    pool = Pool(["anna", "ben", "carl"], rule=opts.pool)
    clock = iter(range(10**6))
    gallery = Gallery(pool.pairing, clock=lambda: float(next(clock)) * 10)
    talk = TableTalk()
    for p in pool.players:
        talk.join(p, p.title(), "player" if p in pool.pairing else "watcher")
    gallery.join(pool.waiting, pool.waiting)
    for w in ("w1", "w2"):
        gallery.join(w, w)
        talk.join(w, w, "watcher")
    rng = random.Random(5)
    for n in range(1, 7):
        players = pool.pairing
        gid = game_id("POOL", n)
        # 1. the pairing is known: open the game (stakes escrowed), the gallery's sides
        assert ledger.check_stake(players[0], opts.stake, rules) is None
        ledger.open_game(gid, players, opts.stake, rules)
        gallery.back("w1", players[0])
        assert gallery.may_wager("w1", players[0]) is None
        ledger.place_wager(gid, "w1", players[0], 30)
        ledger.place_wager(gid, "w2", players[n % 2], 20)
        ledger.place_wager(gid, pool.waiting, players[1], 10)  # the one waiting may bet
        # 2. the first hand is dealt: no more wagers, sides are fixed
        gallery.new_game(players)
        table = Table.new(rules, players, seed=rng.getrandbits(32))
        ledger.close_betting(gid)
        play_game(table, rng, gallery, opts.jeux_de_regle)
        # 3. the game is over: settle, rate, rotate
        (outcome,) = match_outcomes(table.match, players)
        assert outcome is not None
        s = ledger.settle(gid, outcome.winner, outcome.score)
        assert sum(s.credits.values()) == 2 * ledger.game(gid).escrow_each + 60
        book.record_match(gid, players, table.match)
        loser = players[1] if outcome.winner == players[0] else players[0]
        assert gallery.game_over(loser) is None  # no French rule in a pool
        result = pool.record_game(outcome.winner)
        talk.set_role(result.loser, "watcher")
        talk.set_role(result.entering, "player")
        gallery.set_players(pool.pairing)  # the loser joins the gallery, the entrant sits
        assert result.loser in gallery.watchers and result.entering not in gallery.watchers
        talk.say(result.game.winner, "merci")
    assert len(pool.games) == 6
    assert ledger.purses_total() == ledger.minted() == 5 * 1000
    assert ledger.escrow_total() == 0
    recs = [book.record(p) for p in pool.players]
    assert sum(r.games for r in recs) == 12 and sum(r.wins for r in recs) == 6
    assert sum(r.rating for r in recs) == 3 * 1500
    assert [s.player for s in book.leaderboard(3)] == sorted(
        pool.players, key=lambda p: (-book.rating(p), p)
    )
    db.close()
