"""The Textual game: one seat at a table, drawn from that seat's view and nothing else.

``EcarteApp`` (in ``ui.app``) is the entry point, both for ``ecarte play`` and for the SSH
server, which runs one app per session bound to a seat of a shared table.
"""
