"""The table: the dice, the board of the game, the turn and its log, and the keys to play."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, RichLog, Static

from kosti.actions import Action, CellAction
from kosti.bots.base import Advice
from kosti.games.turn import TurnView
from kosti.i18n import Catalog, refusal_text
from kosti.narrate import Narrator
from kosti.tui.boards import Board, SheetBoard, board_class
from kosti.tui.dice import DieLook, DieView
from kosti.tui.session import Refused, Session
from kosti.tui.text import card_name, dice_text, hint_text, log_text, sentence

if TYPE_CHECKING:
    from kosti.tui.app import KostiApp


SMALL_WIDTH = 100
SMALL_HEIGHT = 30
LOG_WIDTH = 30
"""The narrowest log beside the sheet on a small terminal: a log line then takes two rows at most."""


def is_small(size: Size) -> bool:
    """A terminal too small for the dice beside the board (80 × 24 is): the dice go above it."""
    return size.width < SMALL_WIDTH or size.height < SMALL_HEIGHT


def duration(seconds: float, t: Catalog) -> str:
    """A time to wait, roughly: «about 40 s», «about 3 min»."""
    if seconds < 60:
        return t("hint.seconds", n=max(1, round(seconds)))
    return t("hint.minutes", n=round(seconds / 60))


KEY_ORDER: tuple[str, ...] = (
    "hold", "throw", "record", "scratch", "announce", "stop", "edit", "undo", "hint", "quit", "rules",
)  # fmt: skip
"""The table's keys, the most needed first: where the footer cannot show them all, it shows them
in this order while they fit, and the rest behind "? keys" (the list of every key)."""


def footer_width(bindings: list[Binding]) -> int:
    """The columns a compact footer takes for the shown ``bindings`` (each key, a space, its
    label, and the space between two keys)."""
    return sum(cell_len(b.key_display or b.key) + 1 + cell_len(b.description) + 1 for b in bindings if b.show)


def game_bindings(
    t: Catalog,
    family: str,
    width: int | None = None,
    available: Callable[[str], bool] | None = None,
    short: bool = False,
) -> list[Binding]:
    """The keys of the table, described in the player's language (``short``: the short labels
    of a small terminal); ``family`` words them («pick» dice to set aside, «stand»).

    ``width``: the footer has that many columns; the keys that do not fit, in the order of
    :data:`KEY_ORDER`, are left to the list of keys that ``?`` opens. ``available`` says which
    keys work now (the others are bound all the same, to say why, but never shown, so take
    no room).
    """

    def label(name: str) -> str:
        brief = f"key_short.{name}"
        return t(brief) if short and t.has(brief) else t(f"key.{name}")

    labels = {
        "hold": label("set_aside" if family == "thousand" else "hold"),
        "throw": label("throw"),
        "record": label("record"),
        "scratch": label("scratch"),
        "announce": label("announce"),
        "stop": label("stop_showdown" if family == "showdown" else "stop_thousand"),
        "hint": label("hint"),
        "undo": label("undo"),
        "edit": label("edit"),
        "rules": label("rules"),
        "quit": label("quit"),
    }
    keys = {
        "hold": ("1", "hold(0)", "1…5"),
        "throw": ("t,space", "throw", "T"),
        "record": ("enter", "record", "⏎"),
        "scratch": ("x", "scratch", "X"),
        "announce": ("a", "announce", "A"),
        "stop": ("s", "stop", "S"),
        "hint": ("h", "hint", "H"),
        "undo": ("u", "undo", "U"),
        "edit": ("e", "edit", "E"),
        "rules": ("r,f1", "rules", "R"),
        "quit": ("q", "quit_game", "Q"),
    }
    wanted = [name for name in KEY_ORDER if available is None or available(name)]
    shown = set(wanted)
    more = Binding("question_mark", "keys", label("keys"), key_display="?")
    if width is not None:

        def entry(name: str) -> Binding:
            key, _, display = keys[name]
            return Binding(key, name, labels[name], key_display=display)

        if footer_width([entry(name) for name in wanted]) > width:
            # the keys that fit, most needed first, and room kept for "? keys"
            shown = set()
            used = footer_width([more])
            for name in wanted:
                need = footer_width([entry(name)])
                if used + need <= width:  # (a later, shorter key may still fit)
                    shown.add(name)
                    used += need
    more = Binding("question_mark", "keys", label("keys"), key_display="?", show=bool(set(wanted) - shown))
    bindings = [
        Binding(keys[name][0], keys[name][1], labels[name], key_display=keys[name][2], show=name in shown)
        for name in keys
    ]
    bindings += [Binding(str(i + 1), f"hold({i})", "", show=False) for i in range(1, 5)]
    bindings += [more, Binding("escape", "cancel_hint", "", show=False)]
    return bindings


class GameScreen(Screen[None]):
    """A game in progress. Every key goes to the :class:`Session`; the screen only redraws it."""

    def __init__(self, session: Session, t: Catalog) -> None:
        super().__init__()
        self.session = session
        self.t = t
        self.message: Text = Text("")
        self._shown_log = 0
        self._log_of: list[Any] = session.log
        self._solve_timer: Any = None
        self.narrator = Narrator(session.variant, session.recorder.record.players, t.lang)
        """Words the engine's events, as the web page and the reports do."""
        self.board_kind = board_class(session.family)
        """The board of the game's family (its layout; a sheet has cells to pick)."""
        # the footer shows each key's description, in the player's language: the bindings
        # are made per screen from the catalog rather than fixed on the class (and again
        # when the terminal changes size: a narrow footer shows fewer keys, see KEY_ORDER)
        self._bindings = BindingsMap(game_bindings(t, session.family, available=self._available))

    @property
    def kosti(self) -> KostiApp:
        from kosti.tui.app import KostiApp

        app = self.app
        if not isinstance(app, KostiApp):  # pragma: no cover - the screen lives in a KostiApp
            raise TypeError("GameScreen needs a KostiApp")
        return app

    def _available(self, name: str) -> bool:
        """Whether the key of action ``name`` works now (see :meth:`_open`)."""
        return self._open(name)

    def _fit_keys(self, width: int) -> None:
        """Make the footer's keys fit ``width`` columns (short labels on a small terminal)."""
        keys = game_bindings(self.t, self.session.family, width, self._available, short=self.small)
        self._bindings = BindingsMap(keys)
        self.refresh_bindings()

    def compose(self) -> ComposeResult:
        self.small = is_small(self.app.size)
        self._fit_keys(self.app.size.width)
        self._shown_log = 0
        board = self.board_kind(id="board-panel", small=self.small)
        log = RichLog(id="log", wrap=True, markup=False, min_width=16)
        if not self.small:
            yield Header()
            with Horizontal(id="main"):
                with Vertical(id="left"):
                    yield Static(id="status")
                    with Horizontal(id="dice"):
                        for i in range(5):
                            yield DieView(i, id=f"die-{i}")
                    yield Static(id="turn")
                    yield Static(id="prompt")
                    yield Static(id="message")
                    yield log
                yield board
            yield Footer(compact=True)
            return
        # a small terminal: the dice (drawn small) and the turn above, the board and the log below
        with Vertical(id="main", classes="small"):
            with Horizontal(id="top"):
                with Horizontal(id="dice"):
                    for i in range(5):
                        yield DieView(i, id=f"die-{i}", small=True)
                with Vertical(id="info"):
                    yield Static(id="status")
                    yield Static(id="turn")
            # what to press, the whole width of the terminal: never cut off by the turn above it
            yield Static(id="prompt")
            yield Static(id="message")
            body = Horizontal if self.board_kind.picks_cells else Vertical
            with body(id="body"):
                yield board
                yield log
        yield Footer(compact=True)

    def on_mount(self) -> None:
        variant = self.session.variant
        self.title = "kosti"
        self.sub_title = variant.preset.name(self.t.lang) + (
            f" · {variant.spec}" if variant.overrides() else ""
        )
        self._dress()
        self._after_move()

    def _dress(self) -> None:
        """What a freshly composed screen needs: titles, the first drawing, the focus."""
        self.query_one("#log", RichLog).border_title = self.t("game.log")
        self.redraw()
        self._focus_board()

    async def on_resize(self, event: events.Resize) -> None:
        # crossing the size where the layout changes composes the screen anew; the game
        # lives in the session, so nothing is lost
        if is_small(event.size) != self.small:
            await self.recompose()
            self._dress()
        else:
            self._fit_keys(event.size.width)

    def _focus_board(self) -> None:
        if self.board_kind.picks_cells:
            self.query_one("#sheet", DataTable).focus()

    # -- keys ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys this game has: all of them, but the cell keys (Enter, X, A) where there is no
        sheet to pick a cell on, taking moves back where the table forbids it, and correcting a
        throw outside scorekeeper mode. A key the game has works at any moment: where the turn
        does not allow it now, it says why (the footer shows only the keys open now, see
        :meth:`_open`)."""
        session = self.session
        if action in ("record", "scratch", "announce"):
            return self._has_cells()
        if action == "undo":
            return session.undo_allowed
        if action == "edit":
            return session.dice is None
        return True

    def _has_cells(self) -> bool:
        return self.board_kind.picks_cells

    def _open(self, name: str) -> bool:
        """Whether the key of action ``name`` does something now, as the turn view says: the
        footer offers these keys only, and ``?`` lists them (keys to play wait while a bot plays)."""
        if self.check_action(name, ()) is False:
            return False
        session = self.session
        view = session.view
        playing = view.player is not None and not session.bot_to_act
        kinds = {a.kind for a in view.open if isinstance(a, CellAction)}
        opened = {
            "hold": playing and view.pick is not None,
            "throw": playing and view.throw.open,
            "stop": playing and view.stop.open,
            "record": playing and "score" in kinds,
            "scratch": playing and "scratch" in kinds,
            "announce": playing and "announce" in kinds,
            "hint": playing,
        }
        return opened.get(name, True)

    def action_hold(self, position: int) -> None:
        self._do(lambda: self.session.toggle(position), quiet=True)

    def on_die_view_clicked(self, event: DieView.Clicked) -> None:
        self.action_hold(event.position)

    def action_throw(self) -> None:
        session = self.session
        if self._busy():
            return
        if session.dice is None and not session.finished:
            self._ask_for_dice()
            return
        self._do(session.throw)

    def _ask_for_dice(self) -> None:
        from kosti.tui.dialogs import DiceEntry

        session = self.session
        try:
            _, n = session.throw_plan()
        except Refused as refusal:
            self._refuse(refusal)
            return
        if not n:
            self._do(session.throw)  # setting the dice aside ends the turn: nothing to type
            return
        seat = session.seat
        name = seat.name if seat else ""

        def typed(faces: tuple[int, ...] | None) -> None:
            if faces is not None:
                self._do(lambda: session.throw(faces))

        self.app.push_screen(DiceEntry(n, name, self.t, session.faces_style), typed)

    def action_record(self) -> None:
        cell = self._cursor_cell()
        if cell is None:
            self._refuse(Refused("pick_cell"))
            return
        session = self.session
        if session.records_nothing(cell):
            # a 0 is for good: ask first («прочерк»)
            question = self.t("confirm.zero", cell=self.t.cell(cell))
            self._confirm(question, lambda: self._do(lambda: session.record(cell)))
            return
        self._do(lambda: session.record(cell))

    def _confirm(self, question: str, then: Any) -> None:
        from kosti.tui.dialogs import Confirm

        if self._busy():
            return

        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(Confirm(question, self.t), answered)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_record()

    def action_scratch(self) -> None:
        cell = self._cursor_cell()
        if cell is None:
            self._refuse(Refused("pick_cell"))
            return
        session = self.session
        if not session.can_scratch(cell):
            self._do(lambda: session.scratch(cell))  # refused, with the reason
            return
        question = self.t("confirm.scratch", cell=self.t.cell(cell))
        self._confirm(question, lambda: self._do(lambda: session.scratch(cell)))

    def action_announce(self) -> None:
        cell = self._cursor_cell()
        if cell is None:
            self._refuse(Refused("pick_cell"))
            return
        self._do(lambda: self.session.announce(cell))

    def action_stop(self) -> None:
        self._do(self.session.stop)

    def action_hint(self) -> None:
        session = self.session
        if session.finished or session.bot_to_act:
            return
        if session.to_throw:
            self.message = Text(self.t("hint.throw"), style="cyan")
            self.redraw()
            return
        if self.kosti.bot_delay <= 0:
            self._show_hint(session.state, session.advice())
            return
        self.message = Text(self.t("hint.thinking"), style="cyan")
        self.redraw()
        state = session.state
        self.run_worker(lambda: self._advise(state), thread=True, exclusive=True, group="hint")
        if self._solve_timer is None:
            self._solve_timer = self.set_interval(0.25, self._watch_solve)

    def _advise(self, state: object) -> None:
        from kosti.solver.tables import SolveCancelled

        try:
            advice = self.session.advice()
        except SolveCancelled:
            self.app.call_from_thread(self._hint_stopped)
            return
        self.app.call_from_thread(self._show_hint, state, advice)

    def _watch_solve(self) -> None:
        """While a long solve for the hint runs: its progress, the time left, the key to cancel."""
        progress = self.session.hints.progress
        if not progress.running:
            return
        width = 20
        filled = round(progress.share * width)
        bar = "█" * filled + "░" * (width - filled)
        text = Text(self.t("hint.solving", bar=bar, percent=round(100 * progress.share)), style="cyan")
        left = progress.seconds_left()
        if left is not None:
            text.append("  " + self.t("hint.left", time=duration(left, self.t)), style="cyan")
        if progress.guess is not None:
            megabytes = max(1, round(progress.guess.disk / 1e6))
            text.append("  " + self.t("hint.disk", n=megabytes), style="cyan")
        text.append("  " + self.t("hint.cancel_key"), style="grey62")
        self.message = text
        self.query_one("#message", Static).update(self.message)

    def action_cancel_hint(self) -> None:
        progress = self.session.hints.progress
        if progress.running:
            progress.cancel()

    def _hint_stopped(self) -> None:
        self.message = Text(self.t("hint.cancelled"), style="yellow")
        self.redraw()

    def _show_hint(self, state: object, advice: list[Advice]) -> None:
        session = self.session
        if session.state is not state:
            return  # the player moved on meanwhile
        self.message = Text(
            "💡 " + hint_text(session.family, advice, self.t, session.faces_style, session.state),
            style="cyan",
        )
        self.redraw()

    def action_keys(self) -> None:
        from kosti.tui.help_screen import KeysScreen, table_sentences

        self.app.push_screen(
            KeysScreen(self.keys_now(), self.t, table_sentences(self.session.variant, self.t))
        )

    def keys_now(self) -> list[tuple[str, str]]:
        """Every key that works now, with its whole label (the list ``?`` opens)."""
        keys = game_bindings(self.t, self.session.family, available=self._available)
        listed = [(b.key_display or b.key, b.description) for b in keys if b.show]
        if self._open("record") or self._open("scratch") or self._open("announce"):
            listed.insert(1 if self._open("hold") else 0, ("↑↓", self.t("key.cursor")))
        return listed

    def action_rules(self) -> None:
        from kosti.tui.help_screen import RulesScreen

        self.app.push_screen(RulesScreen(self.session.variant, self.t))

    def action_quit_game(self) -> None:
        session = self.session
        if session.path is None and not session.finished and session.recorder.record.turns:
            self._confirm(self.t("confirm.quit"), lambda: self.kosti.finish(session))
            return
        self.kosti.finish(session)

    def action_undo(self) -> None:
        self._do(self.session.undo)

    def action_edit(self) -> None:
        from kosti.tui.dialogs import DiceEntry, ThrowPicker

        session = self.session
        throws = session.throws()
        if not throws:
            self._refuse(Refused("edit_none"))
            return
        shown = {index: (player, faces) for index, player, faces in throws}

        def picked(index: int | None) -> None:
            if index is None:
                return
            player, faces = shown[index]

            def typed(new: tuple[int, ...] | None) -> None:
                if new is None:
                    return
                throws = len(session.throws())
                dropped = 0

                def edit() -> None:
                    nonlocal dropped
                    dropped = session.edit_throw(index, new)

                self._do(edit)
                if dropped:
                    # the throws dropped are the ones to type again (U brings them all back)
                    lost = throws - len(session.throws())
                    said = self.t("edit.dropped_throws", n=lost) if lost else self.t("edit.dropped_moves")
                    self.message = Text(said, style="yellow")
                    self.redraw()

            was = dice_text(faces, session.faces_style, self.t)
            self.app.push_screen(DiceEntry(len(faces), player, self.t, session.faces_style, was), typed)

        style = session.faces_style
        self.app.push_screen(ThrowPicker(throws, self.t, lambda f: dice_text(f, style, self.t)), picked)

    def _cursor_cell(self) -> str | None:
        board = self.query_one(Board)
        return board.selected_cell() if isinstance(board, SheetBoard) else None

    def _busy(self) -> bool:
        """A bot is playing: the player's keys wait."""
        return self.session.bot_to_act

    def _do(self, move: Any, quiet: bool = False) -> None:
        if self._busy():
            return
        try:
            move()
        except Refused as refusal:
            self._refuse(refusal)
            return
        self.message = Text("")
        self.redraw()
        if not quiet:
            self._after_move()

    def _refuse(self, refusal: Refused) -> None:
        self.message = Text("✗ " + sentence(refusal_text(refusal, self.t.lang)), style="bold red")
        self.redraw()
        self.app.bell()

    # -- bots and the end ----------------------------------------------------------

    def _after_move(self) -> None:
        """After any move: let the bots play (with a visible pause), or show the end."""
        session = self.session
        if session.finished:
            self.kosti.show_end(session)
            return
        if not session.bot_to_act:
            return
        delay = self.kosti.bot_delay
        if delay <= 0:
            while session.bot_step():
                pass
            self.redraw()
            if session.finished:
                self.kosti.show_end(session)
            return
        self.set_timer(delay, self._bot_tick)

    def _bot_tick(self) -> None:
        # the bot thinks in a thread (an exact solver may take a while); the move is made here
        state = self.session.state
        self.run_worker(lambda: self._think(state), thread=True, exclusive=True, group="bot")

    def _think(self, state: object) -> None:
        move = self.session.bot_move()
        self.app.call_from_thread(self._bot_moves, state, move)

    def _bot_moves(self, state: object, move: Action | None) -> None:
        if move is not None and self.session.state is state:
            self.session.play_bot_move(move)
            self.redraw()
        self._after_move()

    # -- drawing -----------------------------------------------------------------

    def redraw(self) -> None:
        """Draw everything from the session."""
        session = self.session
        t = self.t
        self._draw_dice()
        self.query_one("#status", Static).update(self._status())
        self.query_one("#turn", Static).update(self.query_one(Board).turn_text(session, t))
        self.query_one("#prompt", Static).update(Text(self._prompt(), style="grey70"))
        self.query_one("#message", Static).update(self.message)
        log = self.query_one("#log", RichLog)
        if session.log is not self._log_of:
            # the game was played again from its record (an undo, a corrected throw): a new log
            log.clear()
            self._shown_log = 0
            self._log_of = session.log
        for entry in session.log[self._shown_log :]:
            log.write(Text(log_text(entry, t, session.faces_style, self.narrator)))
        self._shown_log = len(session.log)
        board = self.query_one(Board)
        board.show(session, t)
        self._fit_keys(self.app.size.width)  # the keys open now, and only those
        if self.small and isinstance(board, SheetBoard):
            # a wide sheet (three columns a player, or many players) would leave the log a
            # sliver beside it: the log goes under the sheet, the whole width of the terminal
            stacked = self.size.width - board.natural_width < LOG_WIDTH
            self.query_one("#body").set_class(stacked, "stacked")
        self.refresh_bindings()

    def _draw_dice(self) -> None:
        session = self.session
        view = session.view
        table = session.table
        locked = session.locked()
        scoring = session.scoring()
        held = session.marks_held
        # the dice of a turn that is over stay on the table, dimmed, until the next throw
        stale = session.finished or not (view.dice or view.aside)
        for i in range(5):
            die = self.query_one(f"#die-{i}", DieView)
            face = table[i] if i < len(table) else None
            label = ""
            if face is not None and not stale:
                if i in locked:
                    label = "locked"
                elif i in session.marked:
                    label = "held" if held else "aside"
                elif i in scoring:
                    label = "scores"
            if label:
                label = self.t(f"dice.{label}_short" if self.small else f"dice.{label}")
            die.show_die(
                DieLook(
                    face,
                    session.faces_style,
                    marked=i in session.marked and not stale,
                    locked=i in locked and not stale,
                    scoring=i in scoring and not stale,
                    stale=stale,
                    label=label,
                    card=card_name(face, self.t) if face is not None else "",
                )
            )

    def _status(self) -> Text:
        session = self.session
        t = self.t
        if session.finished:
            return Text(t("status.over"), style="bold green")
        seat = session.seat
        if seat is None:  # pragma: no cover - not finished means someone acts
            return Text("")
        text = Text("▶ ", style="bold yellow")
        text.append(t("status.turn", name=seat.name), style="bold yellow")
        if seat.is_bot:
            text.append("  " + t("status.bot", level=t(f"level.{seat.level}")), style="grey62")
        if session.dice is None:
            text.append("  " + t("status.manual"), style="magenta")
        return text

    def _prompt(self) -> str:
        session = self.session
        t = self.t
        seat = session.seat
        if seat is not None and seat.is_bot and session.bot_to_act:
            return t("prompt.bot_thinking", name=seat.name)
        view = session.view
        if view.to_throw and session.dice is None:
            return t("prompt.type_throw", n=view.to_throw, name=seat.name if seat else "")
        return prompt_text(view, t)


def prompt_text(view: TurnView, t: Catalog) -> str:
    """What to press now, in words: the keys the turn view says are open, and what they do
    (no key it refuses is offered). Empty once the game is over."""
    if view.player is None:
        return ""
    if view.to_throw:
        if view.aside and not view.dice:
            return t("prompt.all_aside")  # hot dice: why all five are thrown again
        return t("prompt.throw", n=view.to_throw)
    throw, stop = view.throw.open, view.stop.open
    cells = {action.kind for action in view.open if isinstance(action, CellAction)}
    # a stop refused while a throw is open: the refusal says why, with the rule's numbers
    why = refusal_text(view.stop.refusal, t.lang) if throw and view.stop.refusal is not None else ""
    if view.pick == "set_aside":
        if why and not cells:
            return t("prompt.choose_throw", why=why)
        return t("prompt.thousand_choose")
    if cells:
        if "announce" in cells and not throw:
            return t("prompt.sheet_announce")  # column II: a throw on needs an announcement
        if view.pick == "hold":
            return t("prompt.sheet_throw")  # (with all five held, T says why it cannot throw)
        if throw:
            # before the first throw (poker-fences): nothing to hold, a combination to scratch
            return t("prompt.sheet_first") if "scratch" in cells else t("prompt.throw", n=view.throw.throws)
        return t("prompt.sheet_record")
    if view.pick == "hold":
        return t("prompt.showdown" if stop else "prompt.hold_throw")
    if throw and stop:
        return t("prompt.thousand_stop")
    if throw:
        return t("prompt.throw_no_stop", why=why) if why else t("prompt.thousand_throw")
    if stop:
        return t("prompt.stop_only")
    return ""
