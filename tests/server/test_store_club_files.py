"""The machines' operator files in the club's store, on SQLite and PostgreSQL alike: one row
a machine and kind, replaced when the machine's file changes; a machine that stopped saying
its files (taken out of the club) no longer counts."""

from __future__ import annotations

from pathlib import Path

from server_harness import Clock

from net.club_sync import operator_files
from net.club_sync.operator_files import OperatorFiles
from net.screens.club_notice import Notice
from net.ssh.blocklist import Blocklist
from net.store.club_files import ClubFiles, MachineFile
from net.store.club_store import Store


def test_each_machine_has_one_row_of_each_kind_replaced_when_it_changes(club_db_target):
    store = Store(club_db_target)
    try:
        files = ClubFiles(store)
        files.publish("blocklist", "b:/srv", "name:troll\n", 10.0, 100.0)
        files.publish("blocklist", "a:/srv", "", 0.0, 100.0)
        files.publish("notice", "a:/srv", "closing", 12.5, 100.0)
        files.publish("blocklist", "b:/srv", "203.0.113.7\n", 20.0, 200.0)  # b's file changed
        assert files.of("blocklist") == [MachineFile("a:/srv", "", 0.0),
                                         MachineFile("b:/srv", "203.0.113.7\n", 20.0)]
        assert files.of("notice") == [MachineFile("a:/srv", "closing", 12.5)]
        assert files.of("blocklist", since=150.0) == [MachineFile("b:/srv", "203.0.113.7\n",
                                                                  20.0)]
    finally:
        store.close()



def _machine(store: Store, folder: Path, clock: Clock) -> OperatorFiles:
    folder.mkdir(exist_ok=True)
    blocklist, notice = Blocklist(folder / "blocklist"), Notice(folder / "notice", shared=True)
    blocklist.refresh()
    notice.refresh()
    return OperatorFiles(store, str(folder), blocklist, notice, clock=clock)


def test_a_machine_silent_for_a_day_no_longer_keeps_anyone_out(club_db_target, tmp_path):
    store, clock = Store(club_db_target), Clock()
    try:
        (tmp_path / "old").mkdir()
        (tmp_path / "old" / "blocklist").write_text("name:troll\n")
        old = _machine(store, tmp_path / "old", clock)
        here = _machine(store, tmp_path / "here", clock)
        old.step()
        assert here.step() == (True, False) and here.blocklist.name("troll")
        for _ in range(3):  # the old machine still runs: it says its files again
            clock.now += operator_files.REPEAT_SECONDS
            old.step()
            here.step()
        clock.now += operator_files.STALE_SECONDS - 10
        assert here.step() == (False, False) and here.blocklist.name("troll")
        clock.now += 20  # a day without a word from it: taken out of the club
        assert here.step() == (True, False) and not here.blocklist.name("troll")
    finally:
        store.close()



def test_a_list_read_by_a_login_first_still_reaches_the_other_machines(club_db_target,
                                                                        tmp_path):
    """A connection reads the block list before the watcher does (net/ssh/server.py): the
    change must still be published, not wait for the ten-minute repeat."""
    store, clock = Store(club_db_target), Clock()
    try:
        there = _machine(store, tmp_path / "there", clock)
        here = _machine(store, tmp_path / "here", clock)
        there.step()
        here.step()
        (tmp_path / "there" / "blocklist").write_text("name:troll\n")
        (tmp_path / "there" / "notice").write_text("back at ten\n")
        assert there.blocklist.refresh() and there.notice.refresh()  # (a login, say)
        there.step()
        here.step()
        assert here.blocklist.name("troll") and here.notice.text == "back at ten"
    finally:
        store.close()
