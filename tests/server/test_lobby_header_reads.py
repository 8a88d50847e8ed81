"""The lobby's header (record, rating, purse) is read from the store when the lobby is
shown, when the player's chips or name change, and once a minute; not at each change of
the list of tables, which on a busy club comes every second for every lobby, on the event
loop (a round trip each on PostgreSQL)."""

from __future__ import annotations

from test_club_screen_snapshots import club_context, session, settle
from textual.widgets import Static

from net.club import TableOptions
from net.screens import lobby_screen
from net.screens.club_app import ClubApp
from net.store.club_store import Player


async def test_the_header_is_read_when_it_may_have_changed_not_at_every_change_of_the_list(
        tmp_path, monkeypatch):
    ctx = club_context(tmp_path, tables=False)
    ctx.identities.store.register("SHA256:anna", "anna")
    reads: list[str] = []
    real = lobby_screen.who_with_purse

    def counted(app: ClubApp) -> str:
        reads.append("read")
        return real(app)

    monkeypatch.setattr(lobby_screen, "who_with_purse", counted)
    monkeypatch.setattr(lobby_screen, "REFILL_SECONDS", 0.0)  # (every change refills)
    app = ClubApp(ctx, session((80, 24), key="SHA256:anna"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert reads == ["read"]
        lobby = app.screen
        assert isinstance(lobby, lobby_screen.LobbyScreen)
        for n in range(3):  # tables opened by others: the list changes, the header does not
            ctx.club.create(Player(f"SHA256:p{n}", f"p{n}"), TableOptions())
            await settle(pilot)
        assert lobby._rows is not None and len(lobby._rows) == 3  # (refilled: all listed)
        assert reads == ["read"]
        lobby.who_changed()  # chips settled, a rename: read again at once
        await settle(pilot)
        assert reads == ["read", "read"]
        app.renamed(Player("SHA256:anna", "annie"))
        await settle(pilot)
        assert len(reads) == 3
        assert "You are annie" in str(lobby.query_one("#lobby-who", Static).render())


async def test_a_lobby_taken_down_is_not_filled_by_a_late_resume(tmp_path):
    """A session closing (its connection cut) takes the lobby's widgets down; a resume or a
    change of the list queued to it before was handled after, and filling the header ended
    in NoMatches, an error in the server's log (random input, two nodes, seed 2103)."""
    from textual import events

    ctx = club_context(tmp_path, tables=False)
    app = ClubApp(ctx, session((80, 24)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, lobby_screen.LobbyScreen)
        lobby._who_read_at = -lobby_screen.WHO_SECONDS  # (the header is due: it is read)
        await lobby.remove_children()  # (as the session's end prunes it)
        lobby.post_message(events.ScreenResume())
        ctx.club.create(Player("SHA256:p0", "p0"), TableOptions())  # (a change of the list)
        await settle(pilot)
        assert app.is_running and app._exception is None
    assert app.return_code in (None, 0)
