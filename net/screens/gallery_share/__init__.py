"""Watchers who see the same public view, at the same size and look, share one rendering.

Issue 10: a gallery of twenty must not cost twenty renders per move. Every plain watcher
(no seat, no backed player's view) joins a *group* keyed by what changes the drawing: the
live table, the terminal's size, colour depth and no-colour wish, synchronized output, the
theme and the settings (card look). The group's first member, the *leader*, renders as it
always did; its driver also sends every frame, byte for byte, to the other members, the
*followers*. A follower's table screen is unsubscribed from the table (no work per move)
and its driver is muted (its app keeps running: its keys still work).

A newcomer first gets a full frame of the leader's screen (composed from the leader's
compositor, nothing re-rendered), sent to it alone, before the leader's next partial update.

Anything local to one session makes it leave the group before it is drawn: input (a key,
the mouse, a paste, focus), a toast, a resize, another screen over the table, the screen
going, the session ending. The one who leaves is unmuted, resubscribed and repainted whole;
if it led, the first follower takes over and repaints itself whole for everyone. It joins
again at the next move once it is back to the plain table with no toast.

Only what every watcher sees alike is shared: a member's own bits of the screen (the talk
panel, its keys, the banner, the money panel with his purse) must equal the leader's when
he joins, else he renders alone. A seat's or a backer's view is never shared.
"""

from __future__ import annotations

import contextvars
import logging
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.control import Control
from textual._context import active_app, active_message_pump, visible_screen_stack
from textual.message import Message

from net.screens.money_panel import MoneyPanel
from net.ssh.driver import SSHDriver

if TYPE_CHECKING:
    from textual.app import App

    from net.screens.club_table_screen import ClubTableScreen
    from net.ssh.remote_terminal import RemoteTerminal

log = logging.getLogger(__name__)

_SYNC_START = "\x1b[?2026h"
_SYNC_END = "\x1b[?2026l"

ShareKey = tuple[Any, ...]

ENABLED = os.environ.get("ECARTE_GALLERY_SHARE", "1") != "0"
"""``ECARTE_GALLERY_SHARE=0`` turns sharing off (to measure what it saves: ``bench``)."""


class ShareLeft(Message, bubble=False):
    """Posted to a table screen that stopped following: bring its own banner and talk
    panel up to date (skipped while it followed) in its own app's task."""


@dataclass(eq=False)
class Member:
    """One session in a group: its app, its table screen and its driver."""

    app: App[Any]
    screen: ClubTableScreen
    driver: SSHDriver
    key: ShareKey

    @property
    def terminal(self) -> RemoteTerminal:
        return self.driver.terminal


@dataclass(eq=False)
class Group:
    """The sessions sharing one rendering; ``leader`` draws, the others follow."""

    key: ShareKey
    leader: Member
    followers: list[Member] = field(default_factory=list)

    @property
    def members(self) -> list[Member]:
        return [self.leader, *self.followers]


class ShareRegistry:
    """Process-wide: the groups by key, and each member by its app."""

    def __init__(self) -> None:
        self.groups: dict[ShareKey, Group] = {}
        self.members: dict[int, Member] = {}  # id(app) -> member

    def group_of(self, app: App[Any]) -> Group | None:
        member = self.members.get(id(app))
        return None if member is None else self.groups.get(member.key)

    def following(self, app: App[Any]) -> bool:
        group = self.group_of(app)
        return group is not None and group.leader.app is not app

    def __len__(self) -> int:
        return len(self.groups)


REGISTRY = ShareRegistry()


# ---------------------------------------------------------------------- keys


def share_key(screen: ClubTableScreen, driver: SSHDriver) -> ShareKey:
    """Everything that changes how the public table is drawn, for any member.

    Not whether the terminal answered the synchronized-output query (the answer may come
    after the session joined): a terminal without the mode ignores its markers."""
    app = screen.app
    terminal = driver.terminal
    return (
        id(screen.lt), id(screen.table), terminal.size, terminal.color_system,
        terminal.no_color, app.no_color, app.theme, screen.look, driver._mouse,
        app.console.is_dumb_terminal,
    )


def member_view(member: Member) -> tuple[Any, ...]:
    """A member's own parts of the table screen: equal for all members of a group.

    Read in the member's own app context: a screen's ``app`` (hence who he is) is the
    context's, and a join runs in the newcomer's, where the leader would read as him."""
    with member.app._context():
        return _own_view(member.screen)


def _own_view(screen: ClubTableScreen) -> tuple[Any, ...]:
    # the money as its panel shows it: reading the purse and the pot here would cost store
    # reads at every move for every watcher who cannot join (his purse differs)
    money = tuple(panel.text for panel in screen.query(MoneyPanel))
    talk = tuple(repr(line) for line in getattr(screen, "talk_lines", ()))
    return (screen.banner, talk, screen._talk_keys(), money, bool(screen.query("#talk")),
            screen.advice is None, screen._forfeit_told, screen.message)


def eligible(screen: ClubTableScreen) -> SSHDriver | None:
    """The session's driver if its screen may share: a plain watcher's table, on top,
    no toast, served over SSH; else None."""
    app = screen.app
    driver = app._driver
    if not isinstance(driver, SSHDriver) or not driver.in_application_mode:
        return None
    if screen.seat is not None or screen.view_seat is not None or not screen.watching:
        return None
    if app.screen is not screen or not screen.is_mounted or app._exit:
        return None
    if len(app._notifications) or getattr(app, "_share_hold", False):
        return None
    if screen._backed_seat() is not None:
        return None
    return driver


# ---------------------------------------------------------------------- joining


def table_drawn(screen: ClubTableScreen) -> None:
    """A watcher screen handled a move: keep its followers alive, or join a group."""
    member = REGISTRY.members.get(id(screen.app))
    if member is not None:
        group = REGISTRY.groups.get(member.key)
        if group is not None and group.leader is member:
            for f in group.followers:
                f.terminal.touch()  # a follower's table moved too: it is not idle
        return
    join(screen)


def join(screen: ClubTableScreen) -> Group | None:
    """Put a plain watcher's session in the group of its key (a new one if none)."""
    app = screen.app
    if id(app) in REGISTRY.members:
        return REGISTRY.group_of(app)
    if not ENABLED:
        return None
    driver = eligible(screen)
    if driver is None:
        return None
    key = share_key(screen, driver)
    member = Member(app, screen, driver, key)
    group = REGISTRY.groups.get(key)
    if group is None:
        group = REGISTRY.groups[key] = Group(key, member)
        REGISTRY.members[id(app)] = member
        driver.on_local_change = lambda: _local_change(app)
        return group
    leader = group.leader
    if leader.screen.lt is not screen.lt or member_view(leader) != member_view(member):
        return None  # his talk, purse or banner differs: he renders alone
    leader.driver.flush()  # what the leader has queued goes out before the newcomer counts
    frame = full_frame(leader.app)
    if frame is None:
        return None
    REGISTRY.members[id(app)] = member
    group.followers.append(member)
    driver.on_local_change = lambda: _local_change(app)
    _mute(member)
    leader.driver.send_text(frame, [member.terminal])
    leader.driver.mirrors.append(member.terminal)
    return group


def _local_change(app: App[Any]) -> None:
    """The driver passed on input or a resize (queued, not yet handled) or is stopping."""
    leave(app)
    if app.is_running:
        hold(app)


def _mute(member: Member) -> None:
    """Stop a follower's own work per move and its own output."""
    member.driver.muted = True
    screen = member.screen
    screen.following = True
    unwatch = screen._unwatch
    screen._unwatch = None
    if callable(unwatch):
        unwatch()
    timer = screen._timer
    if timer is not None:
        timer.pause()


# ---------------------------------------------------------------------- leaving


def hold(app: App[Any]) -> None:
    """Keep ``app`` out of any group until what is queued in it now has been handled: a
    toast or a key is only queued when it makes the session leave, and a move handled
    before it must not put the session back in a group."""
    if getattr(app, "_share_hold", False):
        return
    app._share_hold = True  # type: ignore[attr-defined]

    def release() -> None:
        app._share_hold = False  # type: ignore[attr-defined]

    app.call_later(release)


def leave(app: App[Any], *, screen_closing: bool = False) -> None:
    """``app``'s session stops sharing (something local to it is about to be drawn)."""
    member = REGISTRY.members.pop(id(app), None)
    if member is None:
        return
    member.driver.on_local_change = None
    group = REGISTRY.groups.get(member.key)
    if group is None:
        return
    if group.leader is member:
        member.driver.mirrors.clear()
        if not group.followers:
            del REGISTRY.groups[member.key]
            return
        new = group.followers.pop(0)
        group.leader = new
        audience = [f.terminal for f in group.followers]
        if _resume(new, audience):
            new.driver.mirrors[:] = audience
            return
        # no whole frame to start the others on: each draws for itself again
        del REGISTRY.groups[member.key]
        REGISTRY.members.pop(id(new.app), None)
        new.driver.on_local_change = None
        for f in group.followers:
            REGISTRY.members.pop(id(f.app), None)
            f.driver.on_local_change = None
            _resume(f, [])
        return
    group.followers.remove(member)
    group.leader.driver.mirrors.remove(member.terminal)
    if not screen_closing:
        _resume(member, audience=[])
    else:
        member.driver.muted = False
        member.screen.following = False


def _resume(member: Member, audience: list[RemoteTerminal]) -> bool:
    """A follower draws for itself again (and for ``audience``, if it now leads): unmute,
    repaint its whole screen, then take the table's updates again. False if there was no
    whole frame to send (then the screen is marked for a full repaint of its own)."""
    driver, screen = member.driver, member.screen
    driver.muted = False
    screen.following = False
    frame = full_frame(member.app)
    if frame is not None:
        driver.send_text(frame, [driver.terminal, *audience])
    else:
        screen.refresh()
    if screen.is_mounted and screen._unwatch is None:
        screen._unwatch = screen.table.watch(screen.view_seat, screen._on_table)
    screen.post_message(ShareLeft())
    return frame is not None


# ---------------------------------------------------------------------- frames


def full_frame(app: App[Any]) -> str | None:
    """The whole of ``app``'s current screen as terminal output, from its compositor's
    current state (regions waiting to be redrawn stay waiting). None if not laid out."""
    try:
        screen = app.screen
    except Exception:
        return None
    compositor = screen._compositor
    if not compositor.size or not compositor._full_map:
        return None
    dirty = set(compositor._dirty_regions)

    def render() -> str:
        # drawn as if by the app itself (widgets read their app from the context)
        active_app.set(app)
        active_message_pump.set(screen)
        visible_screen_stack.set(app._background_screens)
        update = compositor.render_full_update()
        cursor = screen.outer_size.clamp_offset(app.cursor_position)
        return update.render_segments(app.console) + Control.move_to(*cursor).segment.text

    try:
        text = contextvars.copy_context().run(render)
    except Exception:
        log.exception("full frame for a shared rendering failed")
        return None
    finally:
        compositor._dirty_regions.update(dirty)
    if getattr(app, "_sync_available", False):
        text = f"{_SYNC_START}{text}{_SYNC_END}"
    return text


def live_members() -> int:
    """Sessions in a group (leaders included), for tests and the bench."""
    return len(REGISTRY.members)
