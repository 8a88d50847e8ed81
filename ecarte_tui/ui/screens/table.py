"""The table, bound to one seat of a live ``Table``: every widget reads that seat's view only.

The screen does not know who sits opposite (a bot, a friend, a remote player): it submits
this seat's actions to the table and redraws from the updates the table sends it. Table
callbacks may come from another app's task (on the server), so the callback only posts a
message to this screen; all drawing happens in this app's own message loop.

``seat=None`` is a watcher: the table sends it the public view only (no hand, no discard),
both hands are drawn face down, nothing can be played, and a banner says so. A watcher given
a ``view_seat`` (a club backer standing behind a player's chair) is sent that seat's view and
sees that hand, still with no way to act.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.events import Resize
from textual.message import Message
from textual.reactive import Reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ...engine import KING, PLAY, PROPOSE, Action, IllegalAction, Kind, SeatView, discard
from ...engine.actions import ACCEPT, REFUSE
from ...engine.cards import KING as KING_FACE
from ...engine.cards import (
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    card_label,
    cards_of,
    in_hand_order,
    make_card,
)
from ...engine.match import Phase
from ...engine.view import Trick
from ...table import NOT_YET_LOGGED, Table, TableError, Update, spoken
from ..card_art import short_label
from ..narration import (
    Prompt,
    discard_problem,
    log_lines,
    prompt_for,
    role_text,
    seat_names,
    verb,
    watcher_prompt,
)
from ..players import Hint, action_words, hint_for, reason_after_action
from ..widgets.chips import ChipsPanel
from ..widgets.felt import Look
from ..widgets.felt_board import FeltBoard
from ..widgets.felt_layout import felt_and_side
from ..widgets.hand import HandView
from ..widgets.hand_log import HandLog, TailLog
from ..widgets.opponent_hand import OpponentHand
from ..widgets.prompt_bar import PromptBar
from ..widgets.steady_footer import SteadyFooter
from ..widgets.table_dialog import DialogContent, DialogLine, TableDialog
from ..widgets.too_small import MIN_HEIGHT, MIN_WIDTH, TooSmall, too_small_text
from ..widgets.top_bar import TopBar
from .breakpoints import start_with_breakpoints

WATCHING_BANNER = "Watching: you see what is on the table, never a hidden card."
LOG_RETRY_SECONDS = 2.0  # a screen not yet shown the table asks it to read its log again
GAME_ACTIONS = frozenset(
    {"pick", "move", "confirm", "toggle", "word", "pass_king", "next_hand", "hint", "use_hint"}
)
DIALOG_KEYS = ("enter", "n", "d", "o", "h", "k", "x", "escape")
"""The keys of the table's box (``TableDialog``), bound after the table's own: hidden."""
TABLE_KEYS_OF_BOX: dict[str, dict[str, str]] = {
    "hand": {"enter": "confirm", "n": "next_hand"},
    "match": {"n": "new_match"},
}
"""Where the box's key means what the table's own key means there (Enter and n between
hands, n after the match), the table's action takes it: the key bar reads as it did."""

ASCII_SUITS = str.maketrans(dict(zip(SUIT_SYMBOLS, SUITS, strict=True)))
"""Suit symbols in running text (a hint's reason) as the ASCII cards name them."""

WORDS: dict[str, Action] = {
    "play": PLAY, "propose": PROPOSE, "accept": ACCEPT, "refuse": REFUSE, "king": KING,
}


def king_question(view: SeatView, card: int, look: Look, done: Callable[[str], None]
                  ) -> DialogContent:
    """The box asked once per hand, when the player's card would let the king of trumps go
    unannounced: ``done`` is told "announce" (k), "quiet" (x) or "back" (Esc)."""
    g = look.glyphs
    assert view.trump is not None
    king = short_label(make_card(KING_FACE, view.trump), g)
    lines = (
        DialogLine(f"You hold {king}, the king of trumps, and have not announced it."),
        DialogLine(f"Announce it (+1) before you play {short_label(card, g)}, or keep it "
                   "quiet and lose its point?", strong=True),
        DialogLine("Esc: back to your hand."),
    )
    return DialogContent(
        "king", "The king of trumps", lines,
        (("Announce  k", "announce"), ("Keep it quiet  x", "quiet")),
        {"k": "announce", "x": "quiet", "escape": "back"}, done)


class TableChanged(Message):
    """The table sent this seat an update."""

    def __init__(self, update: Update) -> None:
        super().__init__()
        self.update = update


class TableScreen(Screen[None]):
    """One seat at the table: the felt, the side panel with chips and log, the prompt."""

    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-narrow"), (MIN_WIDTH, "-normal-width"), (110, "-wide"),
    ]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [
        (0, "-short"), (MIN_HEIGHT, "-normal-height"), (34, "-tall"),
    ]

    KEY_BAR: ClassVar[type[Widget]] = SteadyFooter
    """The keys line; a server swaps in the lighter ``KeyBar`` (redrawn after every move)."""
    LOG: ClassVar[type[HandLog] | type[TailLog]] = HandLog
    """The hand's log; a server swaps in ``TailLog``, which never lays the screen out."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
    """Textual repaints the whole screen when the focus moves (a full frame for every box
    opened or closed at the table, the largest thing a server sent); the widgets that gain
    or lose the focus repaint themselves."""

    # Nothing at the table takes the focus but the box's buttons; the screen's default
    # would focus "New game" when a help screen closes over the end of a match, and Enter
    # would then start one.
    AUTO_FOCUS = ""

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(i + 1), f"pick({i})", f"Card {i + 1}", show=False) for i in range(5)),
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("enter", "confirm", "Choose", key_display="⏎"),
        Binding("space", "toggle", "Toggle", show=False),
        Binding("p", "word('play')", "We play!"),
        Binding("c", "word('propose')", "Cards!"),
        Binding("a", "word('accept')", "Accept"),
        Binding("r", "word('refuse')", "Refuse"),
        Binding("r", "rematch", "Play again"),  # after the match, where the app offers it
        Binding("k", "word('king')", "King!"),
        Binding("x", "pass_king", "Keep quiet"),
        Binding("n", "next_hand", "Next hand"),
        Binding("n", "new_match", "New game"),  # once the match is over (the prompt says so)
        Binding("h", "hint", "Hint"),
        Binding("u", "use_hint", "Use hint"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("f2", "app.rules", "Rules", show=False),
        Binding("f3", "app.settings", "Settings", show=False),
        Binding("q", "app.quit", "Quit"),
        *(Binding(key, f"dialog_key('{key}')", show=False) for key in DIALOG_KEYS),
        Binding("tab", "dialog_focus(1)", show=False),
        Binding("shift+tab", "dialog_focus(-1)", show=False),
    ]

    def __init__(
        self,
        table: Table,
        seat: int | None,
        look: Look,
        auto_announce: bool = False,
        on_watching: Callable[[], None] | None = None,
        view_seat: int | None = None,
    ) -> None:
        """``on_watching`` runs once the screen receives the table's updates; ``view_seat``
        (a watcher only): the seat whose view, hand included, this watcher is shown."""
        super().__init__()
        start_with_breakpoints(self)
        self._on_watching = on_watching
        self.table = table
        self.seat = seat
        self.watching = seat is None
        self.view_seat = seat if seat is not None else view_seat  # whose view is drawn
        self.me = 0 if self.view_seat is None else self.view_seat  # the seat at the bottom
        self.banner: tuple[str, str] | None = (
            (WATCHING_BANNER, "watching") if seat is None else None)
        self.look = look
        self.auto_announce = auto_announce
        self.update: Update | None = None
        self.cursor = 0
        self.marked: set[int] = set()
        self.message = ""
        self.severity = "error"
        self.speech: dict[int, str] = {}
        self._unwatch: object = None
        self._result_shown: tuple[int, int] | None = None
        self._draw_shown = False
        self._choose_shown = False
        self._draw_undecided = False  # the draw's box says the other still chooses
        self._announced_for: int | None = None
        self._dialog: TableDialog | None = None
        self._hint: Hint | None = None
        """The expert's last hint, while the decision it was asked about is still open."""
        self._hint_key: tuple[int, ...] | None = None
        self._note = ""
        self._king_quiet: tuple[int, int] | None = None
        """The (game, hand) in which the player said he keeps the king quiet (``x``)."""
        self._prompt_memo: tuple[Update, Look, tuple[str, str], object, Prompt] | None = None
        self._hidden_memo: tuple[object, bool] | None = None
        self.felt = FeltBoard(OpponentHand(id="opp-hand"), HandView(id="hand"), id="felt")
        # the widgets redrawn after every move, held rather than queried each time
        self._log = self.LOG(id="log")
        self._prompt = PromptBar(id="prompt")
        self._chips: ChipsPanel | None = None
        self._topbar_widget = TopBar(id="topbar")
        self._log_timer: Timer | None = None
        """While the table's log is behind and this screen waits for its first update."""

    # ------------------------------------------------------------------ building

    def compose(self) -> ComposeResult:
        width, height = self.app.size
        yield TooSmall(too_small_text(width, height, self._too_small_keys()), id="too-small")
        # (before the table: Textual numbers a container's children from the last, so a box
        # after the table renumbered the whole table when shown or hidden, and the screen
        # was drawn again whole; on its own layer the box is still on top)
        yield TableDialog(id="table-dialog")
        with Vertical(id="table-root"):
            yield self._topbar_widget
            yield Static(id="banner")
            yield from felt_and_side(self.felt, self._log)
            yield self._prompt
            yield self.KEY_BAR()

    def on_mount(self) -> None:
        self._name_keys_as_the_app_does()
        if not self.is_attached or not self.query("#banner") or not self.query(ChipsPanel):
            return  # closed before it was composed (a burst of keys): nothing to watch
        self._dialog = self.query_one(TableDialog)
        self._chips = self.query_one(ChipsPanel)
        self.set_look(self.look)
        self._show_banner()
        self._unwatch = self.table.watch(self.view_seat, self._on_table)
        if self.table.ahead_of_log:  # (its first update comes when the log has the step)
            self._prompt.show(Prompt(""), NOT_YET_LOGGED, "warning")
            self._log_timer = self.set_interval(LOG_RETRY_SECONDS, self.table.read_log_again)
        if self._on_watching is not None:
            self._on_watching()

    def on_unmount(self) -> None:
        if callable(self._unwatch):
            self._unwatch()
        self._unwatch = None  # (it holds this screen's callback: a cycle otherwise)

    def _on_table(self, update: Update) -> None:
        """Called by the table, possibly from another app's task: only queue a message."""
        self.post_message(TableChanged(update))

    def _too_small_keys(self) -> str:
        from .hand_over import quit_word

        return f"The game waits until then: q {quit_word(self.app).lower()} · ? help"

    def on_resize(self, event: Resize) -> None:
        keys = self._too_small_keys()
        self.query_one(TooSmall).show_size(event.size.width, event.size.height, keys)
        box = self._dialog
        if box is not None:  # an open box hides with the table, and comes back with it
            box.display = box.content is not None and not self.hidden_by_size
        self._fit_prompt()
        self.refresh_bindings()  # the game's keys sleep while the table is hidden

    @property
    def hidden_by_size(self) -> bool:
        """The terminal is too small: the table (and its box) is hidden behind a request to
        enlarge it, and no key may act on a game the player cannot see."""
        # (asked for every key binding each time the keys are checked: the screen's size
        # goes through its styles, the app's does not)
        app_size = self.app.size
        memo = self._hidden_memo
        if memo is None or memo[0] != app_size:
            width, height = self.size
            memo = self._hidden_memo = (app_size, width < MIN_WIDTH or height < MIN_HEIGHT)
        return memo[1]

    def _fit_prompt(self) -> None:
        """Give the prompt's last word (a hint, a refusal) the rows the felt can spare: the
        felt keeps the height it needs (``FeltBoard``: 18 rows, 24 on a tall screen)."""
        if not self.is_mounted:
            return
        height = self.size.height
        tall = height >= 34
        fixed = 1 + (self.banner is not None) + (24 if tall else 18) + 1 + tall
        for bar in self.query(PromptBar):
            bar.set_max_lines(min(4, height - fixed - 1))

    # ------------------------------------------------------------------ state

    @property
    def hand(self) -> HandView:
        """This seat's hand on the felt."""
        hand = self.felt.hand
        assert isinstance(hand, HandView)
        return hand

    @property
    def opponent_hand(self) -> OpponentHand:
        top = self.felt.top
        assert isinstance(top, OpponentHand)
        return top

    @property
    def view(self) -> SeatView | None:
        return self.update.view if self.update else None

    @property
    def player_seat(self) -> int:
        """The seat this screen plays for (only asked when it may act: never a watcher)."""
        assert self.seat is not None, "a watcher does not act"
        return self.seat

    # ------------------------------------------------------------------ banner

    def set_banner(self, text: str | None, severity: str = "warning") -> None:
        """A line above the felt for what is not the game itself: who is away, watching."""
        banner = (text, severity) if text else None
        if banner != self.banner:
            self.banner = banner
            if self.is_mounted:
                self._show_banner()

    def note(self, text: str) -> None:
        """A word above the felt (the app's: "your saved games are kept") until the
        player's first move; a banner already up (watching, away) is left alone."""
        if self.banner is None:
            self._note = text
            self.set_banner(text, "info")

    def _drop_note(self, u: Update) -> None:
        if self._note and u.event is not None and u.event.seat == self.seat:
            if self.banner == (self._note, "info"):
                self.set_banner(None)
            self._note = ""

    def _show_banner(self) -> None:
        widget = self.query_one("#banner", Static)
        widget.display = self.banner is not None
        widget.set_classes(f"-{self.banner[1]}" if self.banner else "")
        widget.update(self.banner[0] if self.banner else "", layout=False)  # one line, always
        self._fit_prompt()

    @property
    def names(self) -> tuple[str, str]:
        if self.seat is None:
            return self.table.names
        opponent = self.table.names[1 - self.seat]
        if self.view is None:
            names = ["", ""]
            names[self.seat], names[1 - self.seat] = "You", opponent
            return names[0], names[1]
        return seat_names(self.view, opponent)

    def current_prompt(self) -> Prompt:
        u = self.update
        if u is None:
            return Prompt("")
        # asked for every key binding each time the keys are checked (dozens of times a
        # move): made once per update, look, names and "keep it quiet"
        memo = self._prompt_memo
        look, names, quiet = self.look, self.table.names, self._king_quiet
        if memo is not None and memo[0] is u and memo[1:4] == (look, names, quiet):
            prompt = memo[4]
        else:
            prompt = self._prompt_of(u)
            self._prompt_memo = (u, look, names, quiet, prompt)
        if prompt.mode == "over" and not self.watching:
            # the keys that work here, named as this app names them (a club: table, lobby)
            from .hand_over import quit_word

            keys = f"q {quit_word(self.app).lower()}"
            if getattr(self.app, "can_start_games", False):
                new_title = str(getattr(self.app, "new_game_title", "New game")).lower()
                keys = f"n {new_title} · {keys}"
            if getattr(self.app, "offers_rematch", False):
                keys = f"r play again · {keys}"
            prompt = Prompt(prompt.text, keys, prompt.mode)
        return prompt

    def _prompt_of(self, u: Update) -> Prompt:
        if self.watching:
            return watcher_prompt(u.view, u.status, u.waiting_for, self.names, self.look.glyphs,
                                  u.ready)
        return prompt_for(u.view, u.status, u.waiting_for, self.names, self.look.glyphs,
                          u.ready, self.keeps_king_quiet)

    def set_look(self, look: Look, auto_announce: bool | None = None) -> None:
        self.look = look
        if auto_announce is not None:
            self.auto_announce = auto_announce
        for w in self.query("#felt, #chips, #draw-cards"):
            set_look = getattr(w, "set_look", None)
            if set_look is not None:
                set_look(look)
        if self.update is not None:
            self.redraw()
            self._maybe_auto_announce()

    def _holds(self, widget: Widget | None) -> bool:
        """``widget`` is still in this screen (what a query for it would say, for less)."""
        node = widget
        while node is not None:
            if node is self:
                return True
            node = node._parent  # type: ignore[assignment]
        return False

    @on(TableChanged)
    def _changed(self, message: TableChanged) -> None:
        if not self._holds(self._chips):
            return  # an update queued for a screen being taken down: its widgets are gone
        if self._log_timer is not None:  # (shown the table at last)
            self._log_timer.stop()
            self._log_timer = None
        prev = self.update
        u = message.update
        self.update = u
        view = u.view
        if prev is None or prev.view.hand_number != view.hand_number:
            self.speech = {}
            self.marked = set()
            self.message = ""
            if u.event is None and view.events:  # sat down mid-hand: what was said last
                last = view.events[-1]
                said = spoken(last, self.names)
                if said:
                    self.speech[last.seat] = said
        if u.event is not None:
            if u.said:
                self.speech[u.event.seat] = u.said
            else:
                self.speech.pop(u.event.seat, None)
            if u.event.seat == self.seat or u.event.action.kind is Kind.CARD:
                self.message = ""
        if prev is None or prev.view.hand != view.hand:
            self.marked &= set(view.hand)
        if u.refused is not None:  # the other player's step reached the table first
            why = u.refused
            self.message = why.personal(self._label) if isinstance(why, IllegalAction) else (
                str(why))
            self.severity = "error"
        self._forget_stale_hint()
        self._drop_note(u)
        self._place_cursor(prev)
        self.redraw()
        self._check_dialogs()
        self.refresh_bindings()
        self._maybe_auto_announce()

    def _place_cursor(self, prev: Update | None) -> None:
        """On the player's turn to play a card, start on a card that may be played."""
        view = self.view
        assert view is not None
        n = len(view.hand)
        self.cursor = min(self.cursor, max(0, n - 1))
        if self.watching or self.current_prompt().mode != "card":
            return
        playable = self._playable()
        was_card = prev is not None and prompt_for(
            prev.view, prev.status, prev.waiting_for, self.names, self.look.glyphs, prev.ready
        ).mode == "card"
        if playable and (not was_card or view.hand[self.cursor] not in playable):
            self.cursor = next(i for i, c in enumerate(view.hand) if c in playable)

    def _playable(self) -> frozenset[int]:
        view = self.view
        if view is None:
            return frozenset()
        return frozenset(a.card for a in view.legal if a.kind is Kind.CARD)

    # ------------------------------------------------------------------ drawing

    def redraw(self) -> None:
        u = self.update
        if u is None:
            return
        view = u.view
        me, opp = self.me, 1 - self.me
        names = self.names
        g = self.look.glyphs
        prompt = self.current_prompt()
        deck = view.dealer if view.dealer is not None else 0

        self._topbar_widget.show(self._topbar(view))
        leader = view.leader if view.phase is Phase.TRICKS else None
        felt = self.felt
        felt.opp_bar.show(
            names[opp], role_text(view, opp), view.tricks_won[opp], view.at_risk == opp,
            view.king == opp, self.speech.get(opp), leader == opp and view.trick_lead is None,
        )
        felt.my_bar.show(
            names[me], role_text(view, me), view.tricks_won[me], view.at_risk == me,
            view.king == me, self.speech.get(me), leader == me and view.trick_lead is None,
        )
        self.opponent_hand.show(view.cards_in_hand[opp], deck)
        felt.stock.show(view.turn_up, view.stock_size, deck)
        felt.trick.show(*self._trick_state(view), names, len(view.tricks) + 1)
        mode = prompt.mode
        active = mode in ("card", "discard")
        if self.watching and self.view_seat is None:
            self.hand.show_backs(view.cards_in_hand[me], deck)
        elif self.watching:  # behind a player's chair: his hand, nothing to choose
            self.hand.show(view.hand)
        else:
            self.hand.show(
                view.hand,
                playable=self._playable() if mode == "card" else frozenset(),
                marked=frozenset(self.marked) if mode == "discard" else self.advised_cards(),
                cursor=self.cursor if active else None,
                active=active,
            )
        order = (opp, me)
        chips = self._chips
        if chips is None or not self._holds(chips):
            return  # the screen is being taken down (a new round's screen replaces it)
        chips.show(
            names, view.scores, view.games_won, view.rules.target, view.rules.games_to_win, order
        )
        if mode == "discard":
            n = len(self.marked)
            chosen = " ".join(short_label(c, g) for c in view.hand if c in self.marked)
            text = f"{n} chosen: {chosen}" if n else "none chosen yet"
            if self.message:  # the keys' line holds the message: the choice goes above
                prompt = Prompt(f"{prompt.text.rstrip('.')} · {text}", prompt.keys, mode)
            else:
                prompt = Prompt(prompt.text, f"{prompt.keys} · {text}", mode)
        self._prompt.show(prompt, self.message, self.severity)
        self._write_log(view, names)

    def advised_cards(self) -> frozenset[int]:
        """Cards to raise in the hand while it is this seat's turn to play (club advice)."""
        return frozenset()

    def _topbar(self, view: SeatView) -> str:
        r = view.rules
        parts = ["Écarté", f"{r.preset} rules"]
        if view.hand_number:
            if r.games_to_win > 1:
                parts.append(f"game {view.game_number}")
            parts.append(f"hand {view.hand_number}")
        if view.trump is not None:
            parts.append(f"{SUIT_NAMES[view.trump]} {self.look.glyphs.suits[view.trump]} trumps")
        if view.phase is Phase.TRICKS:
            parts.append(f"trick {min(5, len(view.tricks) + 1)}/5")
        return " · ".join(parts)

    def _trick_state(
        self, view: SeatView
    ) -> tuple[tuple[tuple[int, int], ...], int | None, Trick | None]:
        """The trick to show in the middle, its winner (when complete), and the one before."""
        tricks = view.tricks
        if view.trick_lead is not None and view.leader is not None:
            last = tricks[-1] if tricks else None
            return ((view.leader, view.trick_lead),), None, last
        if tricks:
            t = tricks[-1]
            cards = ((t.leader, t.lead), (1 - t.leader, t.follow))
            return cards, t.winner, tricks[-2] if len(tricks) > 1 else None
        return (), None, None

    def _write_log(self, view: SeatView, names: tuple[str, str]) -> None:
        lines = log_lines(view, names, self.look.glyphs)
        u = self.update
        if u is not None and u.draw is not None and view.hand_number <= 1:
            lines.insert(0, self._draw_text(u))
        self._log.show(lines)

    def _draw_text(self, u: Update) -> str:
        d = u.draw
        assert d is not None
        names = self.names
        g = self.look.glyphs
        a, b = (short_label(c, g) for c in d.cards)
        text = f"Draw for the deal: {names[0]} {a}, {names[1]} {b}."
        if d.chooser is not None and d.dealer is None:
            return f"{text} {verb(names[d.chooser], 'choose', 'chooses')} who deals."
        if d.dealer is not None:
            return f"{text} {verb(names[d.dealer], 'deal', 'deals')}."
        return text

    def _name_keys_as_the_app_does(self) -> None:
        """The key bar says what q and n do in this app: a served club's q goes back to
        the lobby and its n (after a match) opens a new table."""
        from .hand_over import quit_word

        names = {"app.quit": quit_word(self.app),
                 "new_match": str(getattr(self.app, "new_game_title", "New game"))}
        by_key = self._bindings.key_to_bindings
        for key, bindings in by_key.items():
            by_key[key] = [replace(b, description=names.get(b.action, b.description))
                           for b in bindings]

    # ------------------------------------------------------------------ the box

    @property
    def dialog(self) -> DialogContent | None:
        """What the box over the felt shows now (the draw, a hand's end...), if it is open."""
        return self._dialog.content if self._dialog is not None else None

    def show_dialog(self, content: DialogContent) -> None:
        """Open the box with ``content``; its choice goes to ``content.done``."""
        if self._dialog is not None:
            self._dialog.show(content, self.look)
            self.refresh_bindings()

    def close_dialog(self) -> None:
        if self._dialog is not None and self._dialog.is_open:
            self._dialog.hide()
            self.refresh_bindings()

    def _check_dialogs(self) -> None:
        """Open the box the table's state asks for, once: one at a time (the next waits
        for the open one to be closed); a watcher reads the hand's outcome in the log and
        is asked nothing."""
        u = self.update
        if u is None:
            return
        view = u.view
        if view.forfeit is not None:
            # a match ended by forfeit: the prompt says so; a hand's box is moot now
            self.close_dialog()
            return
        from .draw import draw_dialog
        from .hand_over import game_over_dialog, hand_over_dialog

        if self._draw_undecided and u.draw is not None and u.draw.dealer is not None:
            self._draw_undecided = False
            open_box = self.dialog
            if open_box is not None and open_box.kind == "draw":  # still read: who deals now
                self.show_dialog(draw_dialog(u.draw, self.names, self.player_seat, self.look,
                                             self._dealer_chosen))
        if self.watching or self.dialog is not None:
            return

        if u.status == "choose" and u.waiting_for == self.seat and not self._choose_shown:
            self._choose_shown = self._draw_shown = True
            assert u.draw is not None
            self.show_dialog(draw_dialog(u.draw, self.names, self.player_seat, self.look,
                                         self._dealer_chosen))
            return
        if u.draw is not None and not self._draw_shown and view.hand_number <= 1 and (
            not view.events
        ):
            self._draw_shown = True
            self._draw_undecided = u.draw.dealer is None
            self.show_dialog(draw_dialog(u.draw, self.names, self.player_seat, self.look,
                                         self._dealer_chosen))
            return
        key = (view.game_number, view.hand_number)
        if u.status in ("between", "over") and self._result_shown != key and view.hand_number:
            self._result_shown = key
            if u.status == "over":
                self.show_dialog(game_over_dialog(view, self.names, self.app,
                                                  self._game_over_choice))
            else:
                self.show_dialog(hand_over_dialog(view, self.names, self._hand_over_choice))

    def rename_open_box(self) -> None:
        """The players' names changed (a club's operator renamed one): the open box of the
        draw or of a hand's end says them again, as it would have been opened now."""
        content, u = self.dialog, self.update
        if content is None or u is None:
            return
        from .draw import draw_dialog
        from .hand_over import game_over_dialog, hand_over_dialog

        if content.kind == "draw" and u.draw is not None:
            self.show_dialog(draw_dialog(u.draw, self.names, self.player_seat, self.look,
                                         self._dealer_chosen))
        elif content.kind == "match" and u.status == "over":
            self.show_dialog(game_over_dialog(u.view, self.names, self.app,
                                              self._game_over_choice))
        elif content.kind == "hand" and u.status == "between":
            self.show_dialog(hand_over_dialog(u.view, self.names, self._hand_over_choice))

    def _dialog_key(self, key: str) -> None:
        """A key the open box uses: Enter presses its focused button, if one has the focus."""
        content = self.dialog
        if content is None:
            return
        choice = self._dialog.focused_choice() if key == "enter" and self._dialog else None
        choice = choice or content.keys.get(key)
        if choice is not None:
            self._dialog_chose(content, choice)

    @on(TableDialog.Chosen)
    def _dialog_clicked(self, message: TableDialog.Chosen) -> None:
        content = self.dialog
        if content is not None:
            self._dialog_chose(content, message.choice)

    def _dialog_chose(self, content: DialogContent, choice: str) -> None:
        from .draw import HINT

        if choice == HINT:  # (advice asked: nothing chosen, the box stays open)
            from ...bots.match_value import first_deal_hint

            self._say(f"Hint: {first_deal_hint(self.table.rules)}", "hint")
            return
        self.close_dialog()
        content.done(choice)
        if self.is_attached and self.app.screen is self:
            self._check_dialogs()  # one that waited for this one (a result after the draw)

    def _box_takes(self, content: DialogContent, key: str) -> bool:
        """Whether ``key`` chooses something in the open box (Enter: or presses the button
        that has the focus, which Tab may give one at the end of a match)."""
        if key in content.keys:
            return True
        return key == "enter" and self._dialog is not None and (
            self._dialog.focused_choice() is not None)

    def action_dialog_key(self, key: str) -> None:
        self._dialog_key(key)

    def action_dialog_focus(self, step: int) -> None:
        """Tab and Shift+Tab move the focus among the box's buttons (Enter presses it)."""
        if self._dialog is not None:
            self._dialog.move_focus(step)

    def _dealer_chosen(self, dealer: int | None) -> None:
        if dealer is None:
            return
        if not self.act(lambda: self.table.choose_dealer(self.player_seat, dealer)):
            self._choose_shown = False  # the box again, to choose once more
            self.call_after_refresh(self._check_dialogs)

    def _hand_over_choice(self, choice: str | None) -> None:
        if choice == "next":
            self.act(lambda: self.table.ready(self.player_seat))
        elif choice == "quit":
            self.app.action_quit()

    def action_rematch(self) -> None:
        rematch = getattr(self.app, "action_rematch", None)
        if rematch is not None:
            rematch()

    def _game_over_choice(self, choice: str | None) -> None:
        if choice == "rematch":
            self.action_rematch()
        elif choice == "new":
            new_game = getattr(self.app, "action_new_game", None)
            if new_game is not None:
                new_game()
        elif choice == "home":
            home = getattr(self.app, "action_home", None)
            if home is not None:
                home()
        elif choice == "quit":
            self.app.action_quit()  # what q at the table does (a club: back to the lobby)

    # ------------------------------------------------------------------ acting

    def _say(self, text: str, severity: str = "error") -> None:
        self.message, self.severity = text, severity
        self.redraw()

    def _label(self, card: int) -> str:
        return card_label(card, self.look.ascii_cards)

    def submit(self, action: Action) -> bool:
        return self.act(lambda: self.table.submit(self.player_seat, action))

    def act(self, step: Callable[[], None]) -> bool:
        """Hand the table one of this seat's steps; a refusal is said on the prompt line."""
        try:
            step()
        except IllegalAction as e:
            self._say(e.personal(self._label))
            return False
        except TableError as e:
            self._say(str(e))
            return False
        self.stepped()
        return True

    def stepped(self) -> None:
        """This seat handed the table a step (the club's screen says if its log waits)."""

    def _maybe_auto_announce(self) -> None:
        view = self.view
        if not self.auto_announce or view is None or KING not in view.legal:
            return
        if self._announced_for == view.hand_number:
            return
        self._announced_for = view.hand_number
        self.call_later(self.submit, KING)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.hidden_by_size:
            return False  # (the app's keys still work: help, rules, settings, quit)
        if action == "rematch":  # (the match box open or closed alike)
            return (self.update is not None and not self.watching
                    and self.current_prompt().mode == "over"
                    and bool(getattr(self.app, "offers_rematch", False)))
        dialog = self.dialog
        if dialog is not None:
            # the box's keys act, the game's keys behind it do not (the rest do: help, q...)
            own = TABLE_KEYS_OF_BOX.get(dialog.kind, {})
            if action == "dialog_key":
                key = str(parameters[0])
                return key not in own and self._box_takes(dialog, key)
            if action == "dialog_focus":
                return bool(dialog.choices)
            if action in own.values():
                return self._box_takes(dialog, next(k for k, a in own.items() if a == action))
            if action in GAME_ACTIONS or action == "new_match":
                return False
        elif action in ("dialog_key", "dialog_focus"):
            return False
        if self.watching and action in GAME_ACTIONS:
            return False
        if self.update is None:  # (not shown the table yet: its log is behind, NOT_YET_LOGGED)
            return action not in GAME_ACTIONS and action != "new_match"
        mode = self.current_prompt().mode
        legal = set(self.update.view.legal)
        if action in ("pick", "move", "confirm", "toggle"):
            if action == "confirm" and mode == "between":
                return True
            if action == "toggle":
                return mode == "discard"
            return mode in ("card", "discard")
        if action == "word":
            return WORDS[str(parameters[0])] in legal
        if action == "pass_king":
            return self._may_keep_king_quiet()
        if action == "next_hand":
            return mode == "between"
        if action == "new_match":
            return mode == "over" and bool(getattr(self.app, "can_start_games", False))
        if action == "use_hint":
            return self._usable_hint() is not None
        if action == "hint":
            return mode in ("card", "discard", "decide", "answer", "king_gate", "king")
        return True

    def action_pick(self, index: int) -> None:
        view = self.view
        if view is None or index >= len(view.hand):
            return
        self.cursor = index
        mode = self.current_prompt().mode
        if mode == "discard":
            self._toggle(index)
        elif mode == "card":
            self._play(index)

    @on(HandView.Clicked)
    def _clicked(self, message: HandView.Clicked) -> None:
        if self.check_action("pick", ()):
            self.action_pick(message.index)

    def action_move(self, step: int) -> None:
        view = self.view
        if view is None or not view.hand:
            return
        self.cursor = (self.cursor + step) % len(view.hand)
        self.redraw()

    def action_toggle(self) -> None:
        self._toggle(self.cursor)

    def action_confirm(self) -> None:
        if self.dialog is not None:
            self._dialog_key("enter")
            return
        mode = self.current_prompt().mode
        view = self.view
        if view is None:
            return
        if mode == "card":
            self._play(self.cursor)
        elif mode == "discard":
            self._discard()
        elif mode == "between":
            self.act(lambda: self.table.ready(self.player_seat))

    def action_next_hand(self) -> None:
        if self.dialog is not None:
            self._dialog_key("n")
            return
        if self.seat is not None:
            seat = self.seat
            self.act(lambda: self.table.ready(seat))

    def action_new_match(self) -> None:
        """``n`` once the match is over: the box's "new game" (or as it, its box closed)."""
        if self.dialog is not None:
            self._dialog_key("n")
            return
        self._game_over_choice("new")

    def _toggle(self, index: int) -> None:
        view = self.view
        if view is None or index >= len(view.hand):
            return
        card = view.hand[index]
        self.cursor = index
        self.marked ^= {card}
        if self.severity != "hint":
            self.message = ""  # an error about the discard is answered; a hint stays
        self.redraw()

    def _discard(self) -> None:
        view = self.view
        assert view is not None
        problem = discard_problem(view, len(self.marked))
        if problem:
            self._say(problem[0].upper() + problem[1:])
            return
        mask = 0
        for c in self.marked:
            mask |= 1 << c
        if self.submit(discard(mask)):
            self.marked = set()

    def _play(self, index: int) -> None:
        view = self.view
        assert view is not None
        card = view.hand[index]
        if self._ask_king_first(card):
            return
        self._play_card(card)

    def _play_card(self, card: int) -> None:
        from ...engine import play_card

        view = self.view
        assert view is not None
        if not self.submit(play_card(card)):
            # the reason names the card to play; the cursor goes to the first that may be
            playable = self._playable()
            self.cursor = next((i for i, c in enumerate(view.hand) if c in playable),
                               self.cursor)
            self.redraw()

    def action_word(self, word: str) -> None:
        self.submit(WORDS[word])

    # ------------------------------------------------------------------ the king

    @property
    def keeps_king_quiet(self) -> bool:
        """The player said (``x``) he keeps the king of trumps quiet in this hand."""
        view = self.view
        return view is not None and self._king_quiet == (view.game_number, view.hand_number)

    def _may_keep_king_quiet(self) -> bool:
        """``x`` has something to do: the player holds the king, may still announce it, and
        has not said yet that he keeps it quiet (the gate before the opening lead, too)."""
        view = self.view
        if view is None or self.watching or KING not in view.legal:
            return False
        return self.current_prompt().mode == "king_gate" or not self.keeps_king_quiet

    def action_pass_king(self) -> None:
        view = self.view
        if view is None:
            return
        self._king_quiet = (view.game_number, view.hand_number)
        if self.current_prompt().mode == "king_gate":
            self.act(lambda: self.table.pass_king(self.player_seat))
            return
        if view.to_move == self.seat:
            self._say("You keep the king quiet: its point is lost when you play your card.",
                      "hint")
        else:
            self.redraw()
        self.refresh_bindings()

    def _ask_king_first(self, card: int) -> bool:
        """Before the player's card lets the king's deadline pass with the king unannounced,
        ask him once: announce it, or keep it quiet (RULES.md §4: the point is lost)."""
        view = self.view
        if (view is None or self.watching or self.auto_announce or KING not in view.legal
                or view.to_move != self.seat or self.keeps_king_quiet
                or card not in self._playable()):
            return False
        self.show_dialog(king_question(view, card, self.look, partial(self._king_answer, card)))
        return True

    def _king_answer(self, card: int, choice: str) -> None:
        """The answer to ``king_question``: announce (then play) or keep quiet (then play);
        Esc goes back to the hand, nothing played."""
        view = self.view
        if view is None or choice not in ("announce", "quiet"):
            return
        if choice == "announce":
            if not self.submit(KING):
                return
        else:
            self._king_quiet = (view.game_number, view.hand_number)
        self._play_card(card)

    # ------------------------------------------------------------------ the hint

    def _decision_key(self) -> tuple[int, ...]:
        """Which decision the table is at: a hint holds as long as this stays the same."""
        u = self.update
        if u is None:
            return ()
        v = u.view
        waiting = -1 if u.waiting_for is None else u.waiting_for
        return (v.game_number, v.hand_number, len(v.events), waiting)

    def action_hint(self) -> None:
        view = self.view
        if view is None:
            return
        self._hint, self._hint_key = None, self._decision_key()
        self._say("The expert is thinking…", "hint")
        self.refresh_bindings()
        # (exit_on_error=False: an expert that fails says so here, it does not end the app)
        self.run_worker(lambda: hint_for(view), thread=True, exclusive=True, group="hint",
                        name="hint", exit_on_error=False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name != "hint":
            return
        if self._hint_key != self._decision_key():
            return  # the decision was made meanwhile: the answer is about another one
        if event.state is WorkerState.SUCCESS:
            hint = event.worker.result
            assert isinstance(hint, Hint)
            self._hint = hint
            self._say(self._hint_text(hint), "hint")
            self.refresh_bindings()
        elif event.state is WorkerState.ERROR:
            self._say("The expert could not answer.", "error")

    def _forget_stale_hint(self) -> None:
        """The decision the hint was about is made: the hint goes (with its message)."""
        if self._hint_key is not None and self._hint_key != self._decision_key():
            self._hint = self._hint_key = None
            if self.severity == "hint":
                self.message = ""

    def _usable_hint(self) -> Action | None:
        """The hinted card or discard, when ``u`` can take it for the decision on screen."""
        view, hint = self.view, self._hint
        if view is None or hint is None or hint.action is None or (
                self._hint_key != self._decision_key()):
            return None
        a, mode = hint.action, self.current_prompt().mode
        if a.kind is Kind.CARD and mode == "card" and a.card in view.hand:
            return a
        if a.kind is Kind.DISCARD and mode == "discard" and a.cards:
            return a
        return None

    def action_use_hint(self) -> None:
        """Take the hint (the player says so): its discards become the marked cards, or the
        cursor goes to its card; Enter still confirms. ``h`` alone changes nothing."""
        view, a = self.view, self._usable_hint()
        if view is None or a is None:
            return
        if a.kind is Kind.CARD:
            self.cursor = view.hand.index(a.card)
        else:
            self.marked = set(cards_of(a.cards)) & set(view.hand)
        self.redraw()

    def _hint_text(self, hint: Hint) -> str:
        if hint.action is None:
            return f"Hint: {hint.reason}"
        a = hint.action
        if a.kind is Kind.CARD:
            label = self._label(a.card)
        elif a.kind is Kind.DISCARD:  # (in the order the hand shows them)
            hand = self.view.hand if self.view is not None else ()
            label = " ".join(self._label(c) for c in in_hand_order(a.cards, hand))
        else:
            label = ""
        words = action_words(a, label)
        reason = reason_after_action(a, hint.reason) if hint.reason else ""
        if self.look.ascii_cards:  # the other cards the reason names, as the hand shows them
            reason = reason.translate(ASCII_SUITS)
        text = f"Hint: {words}" + (f" — {reason}" if reason else "")
        if self._usable_hint_for(a):
            # (no-break spaces: the wrapped hint keeps the key with its words)
            what = "select it" if a.kind is Kind.CARD else "mark them"
            text += " " + f"(u: {what})".replace(" ", "\u00a0")
        return text

    def _usable_hint_for(self, a: Action) -> bool:
        mode = self.current_prompt().mode
        return (a.kind is Kind.CARD and mode == "card") or (
            a.kind is Kind.DISCARD and mode == "discard" and bool(a.cards))
