"""A name is kept for good and a new key costs nothing: one address may take a bounded
number of new names an hour (``--max-new-names-per-ip``), and is told why when it may not."""

from __future__ import annotations

import sqlite3

from server_harness import Clock, Seat, club_server, first_visit, generous_limits, new_key

from net.club.name_quota import NameQuota, address_key
from net.store.club_store import Store


def test_an_address_takes_its_names_and_then_waits_for_the_oldest_to_age(club_db_target):
    clock = Clock()
    quota = NameQuota(Store(club_db_target), 2, window=3600.0, clock=clock)
    for _ in range(2):
        assert quota.allows("192.0.2.7")
        assert quota.take("192.0.2.7") == clock.now
        clock.now += 600
    assert not quota.allows("192.0.2.7")
    assert quota.take("192.0.2.7") is None
    assert quota.allows("198.51.100.1")  # another address is another count
    clock.now += 3600 - 1200  # the first name is an hour old now
    assert quota.allows("192.0.2.7")
    assert quota.take("192.0.2.7") is not None
    assert not quota.allows("192.0.2.7")


def test_a_name_given_back_no_longer_counts(tmp_path):
    """A name counted and then not taken (taken by another, or the store failed) is given
    back: the address may still take its names."""
    clock = Clock()
    quota = NameQuota(Store(tmp_path / "club.db"), 1, clock=clock)
    taken = quota.take("192.0.2.7")
    assert taken is not None and not quota.allows("192.0.2.7")
    quota.give_back("192.0.2.7", taken)
    assert quota.allows("192.0.2.7")


def test_every_process_of_the_club_counts_the_same_names(tmp_path):
    """Two workers (two stores on one file): names taken through one count in the other."""
    clock = Clock()
    one = NameQuota(Store(tmp_path / "club.db"), 2, clock=clock)
    two = NameQuota(Store(tmp_path / "club.db"), 2, clock=clock)
    assert one.take("192.0.2.7") is not None
    assert two.take("192.0.2.7") is not None
    assert not one.allows("192.0.2.7") and not two.allows("192.0.2.7")
    assert one.take("192.0.2.7") is None and two.take("192.0.2.7") is None


def test_two_workers_at_the_same_instant_cannot_both_take_the_last_name(tmp_path):
    """Both looked and saw one name left; the count is taken with the name, so the second
    to count is refused (a look and a later write let both in)."""
    clock = Clock()
    one = NameQuota(Store(tmp_path / "club.db"), 1, clock=clock)
    two = NameQuota(Store(tmp_path / "club.db"), 1, clock=clock)
    assert one.allows("192.0.2.7") and two.allows("192.0.2.7")
    results = [one.take("192.0.2.7"), two.take("192.0.2.7")]
    assert results[0] is not None and results[1] is None
    rows = one.store._db.execute("SELECT COUNT(*) FROM new_names").fetchone()[0]
    assert rows == 1


def test_no_bound_when_the_operator_sets_none(tmp_path):
    quota = NameQuota(Store(tmp_path / "club.db"), 0)
    for _ in range(50):
        assert quota.take("192.0.2.7") is not None
    assert quota.allows("192.0.2.7")
    assert quota.store._db.execute("SELECT COUNT(*) FROM new_names").fetchone()[0] == 0


def test_old_names_are_forgotten_and_no_address_is_kept_in_clear(tmp_path):
    clock = Clock()
    quota = NameQuota(Store(tmp_path / "club.db"), 1, window=60.0, clock=clock)
    for n in range(3):
        quota.take(f"192.0.2.{n}")
    clock.now += 61
    quota.take("198.51.100.1")  # the three old ones are deleted
    rows = quota.store._db.execute("SELECT address FROM new_names").fetchall()
    assert rows == [(address_key("198.51.100.1"),)]
    assert "198.51" not in rows[0][0]


async def test_a_new_key_past_the_bound_is_told_why_and_no_name_is_taken(tmp_path):
    limits = generous_limits(max_new_names_per_ip=1)
    async with club_server(tmp_path, limits=limits) as server:
        key = new_key()
        anna = await first_visit(server.port, "anna", key)
        await anna.wait_for("C L U B")
        await anna.close()
        ben = await first_visit(server.port, "ben", new_key())
        screen = await ben.wait_for("new players came from your address")
        assert "C L U B" not in screen  # still asked for a name
        assert server.identities.store.name_taken("anna")
        assert not server.identities.store.name_taken("ben")
        guest = await Seat.connect(server.port, "gus")  # no key: a guest is still welcome
        await guest.wait_for("C L U B")
        again = await Seat.connect(server.port, "anna", key=key)  # a known key: no new name
        await again.wait_for("C L U B")
        for seat in (ben, guest, again):
            await seat.close()


async def test_a_name_refused_as_taken_is_not_counted(tmp_path):
    """A new key offered a name that is taken chooses another: the refused one did not use
    up the address's only new name."""
    limits = generous_limits(max_new_names_per_ip=1)
    async with club_server(tmp_path, limits=limits) as server:
        server.identities.store.register("SHA256:someone-earlier", "anna")
        anna = await Seat.connect(server.port, "anna", key=new_key())
        await anna.wait_for("first visit")  # (offered anna2: anna is typed)
        anna.press(b"\x15")
        anna.press(b"anna\r")
        await anna.wait_for("is taken")
        anna.press(b"\x15")  # (ctrl+u: the field emptied)
        anna.press(b"annie\r")
        await anna.wait_for("You are annie")
        assert server.identities.store.name_taken("annie")
        await anna.close()


async def test_the_bound_holds_across_the_machines_of_one_club(tmp_path, postgres_url):
    """A name taken on one machine counts on the other: a script cannot spread its new keys
    over the club's nodes to take more names."""
    limits = generous_limits(max_new_names_per_ip=1)
    async with club_server(tmp_path / "one", store=postgres_url, shared=True,
                           limits=limits) as a, \
            club_server(tmp_path / "two", store=postgres_url, shared=True,
                        limits=limits) as b:
        anna = await first_visit(a.port, "anna", new_key())
        await anna.wait_for("C L U B")
        ben = await first_visit(b.port, "ben", new_key())
        await ben.wait_for("new players came from your address")
        assert not b.identities.store.name_taken("ben")
        for seat in (anna, ben):
            await seat.close()


async def test_a_name_chosen_while_the_store_is_away_is_refused_with_a_word_and_kept_for_later(
        tmp_path, monkeypatch):
    """The database away at the moment a new key takes its name: the name screen says so and
    stays (the session used to end), and the same Enter works once it is back."""
    async with club_server(tmp_path) as server:
        store = server.identities.store
        real = store.register

        def away(*_args: object) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(store, "register", away)
        anna = await first_visit(server.port, "anna", new_key())
        await anna.wait_for("cannot reach its records")
        assert "C L U B" not in anna.text() and not store.name_taken("anna")
        monkeypatch.setattr(store, "register", real)
        await anna.dismiss_toast("The club cannot")
        anna.press(b"\r")
        await anna.wait_for("You are anna")
        await anna.close()
