"""The machines' operator files in the club's store, on SQLite and PostgreSQL alike: one row
a machine and kind, replaced when the machine's file changes."""

from __future__ import annotations

from net.store.club_files import ClubFiles, MachineFile
from net.store.club_store import Store


def test_each_machine_has_one_row_of_each_kind_replaced_when_it_changes(club_db_target):
    store = Store(club_db_target)
    try:
        files = ClubFiles(store)
        files.publish("blocklist", "b:/srv", "name:troll\n", 10.0)
        files.publish("blocklist", "a:/srv", "", 0.0)
        files.publish("notice", "a:/srv", "closing", 12.5)
        files.publish("blocklist", "b:/srv", "203.0.113.7\n", 20.0)  # b's file changed
        assert files.of("blocklist") == [MachineFile("a:/srv", "", 0.0),
                                         MachineFile("b:/srv", "203.0.113.7\n", 20.0)]
        assert files.of("notice") == [MachineFile("a:/srv", "closing", 12.5)]
    finally:
        store.close()
