"""The board of each family of games, drawn from the session: the score sheets, the «Тысяча»
score board with its pits and barrel, the hands and bank of a showdown. Boards hold no game
state; :meth:`Board.show` redraws them from the model.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from kosti.i18n import Catalog
from kosti.narrate import Narrator
from kosti.tui.session import Session
from kosti.tui.text import dice_text, number, signed

OPEN = Text("·", style="grey50")


def quiet_table(id: str) -> DataTable[Any]:
    """A table to look at only: no cursor, and it never takes the keys (Enter stays the screen's)."""
    table: DataTable[Any] = DataTable(id=id, cursor_type="none", zebra_stripes=True)
    table.can_focus = False
    return table


class Board(Vertical):
    """A family's board. Subclasses draw one family."""

    picks_cells: ClassVar[bool] = False
    """The board is a sheet whose cells the player picks (with ↑↓) to record, scratch or announce."""

    def __init__(self, id: str | None = None, small: bool = False) -> None:
        super().__init__(id=id)
        self.small = small
        """Drawn for a small terminal: short labels, and what must be seen kept in sight."""

    def show(self, session: Session, t: Catalog) -> None:
        """Redraw from ``session``."""
        raise NotImplementedError

    def turn_text(self, session: Session, t: Catalog) -> Text:
        """The state of the turn in play, for the panel under the dice."""
        raise NotImplementedError


SHORT_NAME = 10
"""Names longer than this are cut to this many letters on a small terminal (a bot's own name,
«Профессор» or "Professor", is whole)."""


def short_name(name: str) -> str:
    """``name`` cut to :data:`SHORT_NAME` letters where it is longer, a number at its end kept
    whole, so that two bots of a level stay apart.

    >>> short_name("Professor"), short_name("Professor 2"), short_name("Alexandrina")
    ('Professor', 'Profess… 2', 'Alexandri…')
    """
    if len(name) <= SHORT_NAME:
        return name
    base, _, number = name.rpartition(" ")
    tail = f" {number}" if base and number.isdigit() else ""
    head = name[: len(name) - len(tail)]
    return head[: SHORT_NAME - len(tail) - 1] + "…" + tail


def _player_label(session: Session, seat: int, t: Catalog, short: bool = False) -> Text:
    name = session.seats[seat].name
    if short:
        name = short_name(name)
    current = session.engine.current_player(session.state)
    label = Text()
    if current == seat:
        if not short:  # (a small terminal says whose turn it is in the status line only)
            label.append("▶ ", style="bold yellow")
        label.append(name, style="bold yellow")
    else:
        label.append(name, style="bold")
    if session.seats[seat].is_bot and not short:
        label.append(" " + t("board.bot_mark"), style="grey50")
    return label


# -- score sheets --------------------------------------------------------------


class SheetTable(DataTable[Any]):
    """The score sheet. Enter belongs to the screen (record the cell under the cursor), so
    that the footer shows it; a click on the highlighted row still selects it."""

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self._bindings.key_to_bindings.pop("enter", None)

    def _is_summary(self, row: int) -> bool:
        return str(self.ordered_rows[row].key.value).startswith("_")

    def _step(self, direction: int) -> None:
        """Move the cursor to the next cell in ``direction``, over the subtotal rows."""
        row = self.cursor_row + direction
        while 0 <= row < self.row_count and self._is_summary(row):
            row += direction
        if 0 <= row < self.row_count:
            self.move_cursor(row=row)
        elif direction > 0:
            self.scroll_end(animate=False)  # the totals under the last cell come into sight

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_cursor_up(self) -> None:
        self._step(-1)


class SheetBoard(Board):
    """Every player's sheet, with what the dice on the table would score in each open cell."""

    picks_cells = True

    natural_width = 0
    """On a small terminal: the columns the sheet needs (the screen's width at most)."""

    DEFAULT_CSS = """
    SheetBoard DataTable { height: 1fr; }
    SheetBoard #sheet-note { height: auto; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        yield SheetTable(id="sheet")
        yield Static(id="sheet-note")

    @property
    def table(self) -> DataTable[Any]:
        return self.query_one("#sheet", DataTable)

    def selected_cell(self) -> str | None:
        """The cell id of the row under the cursor (``None`` on a subtotal row)."""
        table = self.table
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return None if key is None or key.startswith("_") else key

    def show(self, session: Session, t: Catalog) -> None:
        from kosti.games.sheet.game import COLUMN_NAMES, SHEET, SheetState, cells_of, column_bonus, options_of
        from kosti.rules.options import UPPER_CELLS

        state = session.state
        if not isinstance(state, SheetState):  # pragma: no cover - the screen picks the board
            return
        options = options_of(state)
        cells = cells_of(options)
        n_columns = len(state.sheets[0].columns)
        table = self.table
        cursor_key = self.selected_cell()
        cursor_row = table.cursor_row
        table.clear(columns=True)
        small = self.small
        names = {cell: self._cell_name(cell, t) for cell in cells}
        summaries = [t("sheet.upper"), t("sheet.bonus"), t("sheet.total")]
        if options.banked_throws:
            summaries.append(t("sheet.banked"))
        # the widest name sets the column from the first paint on (else it starts cut short)
        width = max(len(name) for name in [*names.values(), *summaries])
        table.add_column("" if small else t("sheet.cell"), key="_cell", width=width)
        table.add_column(Text(t("sheet.now_short" if small else "sheet.now"), style="bold cyan"), key="_now")
        table.fixed_columns = 2
        for seat in range(len(state.players)):
            for col in range(n_columns):
                # three columns a player: the name heads the first, the others only their numeral
                label = _player_label(session, seat, t, short=small) if col == 0 else Text("")
                if n_columns > 1:
                    label.append(f" {COLUMN_NAMES[col]}" if col == 0 else COLUMN_NAMES[col], style="cyan")
                table.add_column(label, key=f"{seat}:{col}")

        live = not session.finished and state.throws > 0 and not state.pending
        scorable = set(SHEET.scorable_cells(state)) if live else set()
        allowed = set(SHEET.open_cells(state)) if not session.finished else set()
        deviation = options.upper == "deviation"

        def cell_text(cell: str, value: int | None) -> Text:
            if value is None:
                return OPEN
            if cell in UPPER_CELLS and deviation:
                if value == 0:
                    return Text("✓", style="green")
                return Text(signed(value), style="green" if value > 0 else "red")
            if value == 0:
                return Text("—", style="grey50")
            return Text(str(value))

        def now_text(cell: str) -> Text:
            mark = Text("→ ", style="bold magenta") if state.announced == cell else Text("")
            if cell in scorable:
                value = SHEET.score_of(state, cell)
                upper = deviation and cell in UPPER_CELLS
                if upper and value == 0:
                    return mark + Text("✓", style="bold green")  # three of them: «фигура выполнена»
                style = "bold green" if value > 0 else ("bold red" if value < 0 else "grey62")
                return mark + Text(signed(value) if upper else number(value), style=style)
            if cell in allowed and not session.finished:
                return mark + Text("◦", style="cyan")
            return mark

        def add_summary(key: str, title: str, values: list[Text]) -> None:
            table.add_row(Text(title, style="bold"), Text(""), *values, key=key)

        upper_count = len(UPPER_CELLS)
        for index, cell in enumerate(cells):
            row = [
                cell_text(cell, sheet.columns[c][index]) for sheet in state.sheets for c in range(n_columns)
            ]
            name = Text(names[cell], style="bold" if cell in allowed else "")
            table.add_row(name, now_text(cell), *row, key=cell)
            if index == upper_count - 1:
                uppers: list[Text] = []
                bonuses: list[Text] = []
                for sheet in state.sheets:
                    for column in sheet.columns:
                        total = sum(v for v in column[:upper_count] if v is not None)
                        uppers.append(Text(signed(total) if deviation else str(total), style="bold"))
                        bonuses.append(self._bonus_text(options, column, total, column_bonus, t))
                add_summary("_upper", t("sheet.upper"), uppers)
                if options.upper_bonus != "none":
                    add_summary("_bonus", t("sheet.bonus"), bonuses)
        scores = session.engine.scores(state)
        totals: list[Text] = []
        for seat, _sheet in enumerate(state.sheets):
            for col in range(n_columns):
                totals.append(Text(number(scores[seat]), style="bold") if col == 0 else Text(""))
        add_summary("_total", t("sheet.total"), totals)
        if options.banked_throws:
            add_summary(
                "_banked",
                t("sheet.banked"),
                [Text(str(s.banked) if c == 0 else "") for s in state.sheets for c in range(n_columns)],
            )
        if options.extra_yahtzee_bonus:
            add_summary(
                "_yahtzee",
                t("sheet.yahtzee_bonus"),
                [
                    Text(str(s.yahtzee_bonuses * options.extra_yahtzee_bonus) if c == 0 else "")
                    for s in state.sheets
                    for c in range(n_columns)
                ],
            )
        keys = [str(row.key.value) for row in table.ordered_rows]
        if cursor_key in keys and (cursor_key in allowed or not allowed):
            table.move_cursor(row=keys.index(cursor_key), animate=False)
        elif scorable or allowed:
            first = next(i for i, k in enumerate(keys) if k in (scorable or allowed))
            table.move_cursor(row=first, animate=False)
        else:
            table.move_cursor(row=min(cursor_row, len(keys) - 1), animate=False)
        note = self._note(session, t)
        if small:
            # the totals row may scroll out of a small terminal: every score stays in sight here
            line = Text(t("sheet.total") + ": ", style="bold")
            for seat, score in enumerate(scores):
                if seat:
                    line.append(" · ")
                line.append(short_name(session.seats[seat].name) + " ")
                line.append(number(score), style="bold")
            natural = sum(column.get_render_width(table) for column in table.columns.values()) + 9
            self.natural_width = min(natural, self.screen.size.width)
            self.styles.width = self.natural_width
            # one line when the totals and the column's rule fit side by side (rows are few here)
            room = self.natural_width - 4
            gap = "   " if len(line.plain) + 3 + len(note.plain) <= room else "\n"
            note = line + Text(gap) + note if note.plain else line
        self.query_one("#sheet-note", Static).update(note)

    def _cell_name(self, cell: str, t: Catalog) -> str:
        short = f"cell_short.{cell}"
        return t(short) if self.small and t.has(short) else t.cell(cell)

    def turn_text(self, session: Session, t: Catalog) -> Text:
        from kosti.actions import CellAction, Hold
        from kosti.games.sheet.game import SheetState, options_of

        state = session.state
        if not isinstance(state, SheetState) or session.finished:
            return Text("")
        view = session.view
        options = options_of(state)
        allowance = options.throws
        if state.throws > allowance:
            # the throws past the allowance were banked ones («ограда»)
            text = Text(
                t("turn.throw_banked", n=state.throws, of=allowance, extra=state.throws - allowance),
                style="bold",
            )
        else:
            text = Text(t("turn.throw_of", n=state.throws, of=allowance), style="bold")
        left = max(0, allowance - state.throws)
        banked = (view.throws_left or 0) - left
        if view.to_throw or any(isinstance(a, Hold) for a in view.open):
            text.append("   " + t("turn.throws_left", n=left))
            if options.banked_throws:
                text.append(" + " + t("turn.banked", n=banked), style="cyan")
        elif any(isinstance(a, CellAction) and a.kind == "announce" for a in view.open) and view.throws_left:
            text.append("   " + t("turn.announce_to_throw"), style="magenta")
        else:
            text.append("   " + t("turn.no_throws"))
        if state.announced:
            text.append("   " + t("turn.announced", cell=t.cell(state.announced)), style="magenta")
        return text

    @staticmethod
    def _bonus_text(options: Any, column: Any, total: int, column_bonus: Any, t: Catalog) -> Text:
        decided = column_bonus(options, column)
        if decided is not None:
            if decided == 0:
                return Text("0", style="grey50")
            return Text(signed(decided), style="bold green" if decided > 0 else "bold red")
        if all(v is None for v in column[:6]):
            return OPEN
        goal = {"nonnegative": 0, "sign": 1, "threshold": options.upper_threshold}.get(options.upper_bonus, 0)
        if total >= goal:
            return Text("✓", style="green")
        return Text(t("sheet.to_go", n=goal - total), style="yellow")

    @staticmethod
    def _note(session: Session, t: Catalog) -> Text:
        from kosti.games.sheet.game import COLUMN_NAMES, SHEET, SheetState

        state = session.state
        if session.finished or not isinstance(state, SheetState):
            return Text("")
        kind = SHEET.column_kind(state)
        note = Text()
        columns = len(state.sheets[0].columns)
        column = SHEET.column(state)
        if kind != "free" or columns > 1:
            note.append(t(f"sheet.column_{kind}", column=COLUMN_NAMES[column]), style="cyan")
        if column + 1 < columns:
            # the columns are filled one after another: the ones still to come
            note.append(" " + t("sheet.columns_next", rest=", ".join(COLUMN_NAMES[column + 1 : columns])))
        return note


# -- «Тысяча» ------------------------------------------------------------------

BAR_WIDTH = 20


def score_bar(score: int, options: Any) -> Text:
    """The way to the target as a bar: filled to the score, pits («ямы») and the barrel marked."""
    bar = Text()
    target = options.target
    barrel_at = options.barrel_at if options.barrel in ("points", "capped") else None
    for k in range(BAR_WIDTH):
        low = k * target / BAR_WIDTH
        high = (k + 1) * target / BAR_WIDTH
        filled = score >= high or (score > low and score >= (low + high) / 2)
        in_pit = any(lo < high and low < hi for lo, hi in options.pits)
        on_barrel = barrel_at is not None and high > barrel_at
        if filled:
            bar.append("█", style="green" if not in_pit else "yellow")
        elif on_barrel:
            bar.append("▒", style="red")
        elif in_pit:
            bar.append("░", style="yellow")
        else:
            bar.append("·", style="grey42")
    return bar


class ThousandBoard(Board):
    """The score board of «Тысяча»: scores on the way to 1000, pits, barrel, bolts, dots, falls."""

    DEFAULT_CSS = """
    ThousandBoard DataTable { height: auto; max-height: 1fr; }
    ThousandBoard #legend { height: auto; color: $text-muted; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        yield quiet_table("board")
        yield Static(id="legend")

    def show(self, session: Session, t: Catalog) -> None:
        from kosti.games.thousand.game import THOUSAND, ThousandState, falls_limit, options_of

        state = session.state
        if not isinstance(state, ThousandState):  # pragma: no cover - the screen picks the board
            return
        options = options_of(state)
        table: DataTable[Any] = self.query_one("#board", DataTable)
        table.clear(columns=True)
        table.add_column(t("board.player"), key="name")
        table.add_column(t("board.score"), key="score")
        table.add_column(t("board.way", target=options.target), key="bar")
        table.add_column(t("board.state"), key="state")
        if options.bolt_limit:
            table.add_column(t("board.bolts"), key="bolts")
        if options.barrel in ("points", "open"):
            table.add_column(t("board.falls"), key="falls")
        if options.barrel == "open":
            table.add_column(t("board.dots"), key="dots")
        for seat, player in enumerate(state.board):
            status = Text()
            if not player.opened:
                status.append(t("board.not_opened"), style="grey62")
            elif player.on_barrel:
                attempts = ""
                if options.barrel == "points":
                    attempts = f" {player.barrel_attempts}/{options.barrel_attempts}"
                status.append(t("board.on_barrel") + attempts, style="bold red")
            elif THOUSAND.pit_of(state, player.score) is not None:
                status.append(t("board.in_pit"), style="yellow")
            else:
                status.append(t("board.opened"), style="green")
            row: list[Text | str] = [
                _player_label(session, seat, t),
                Text(number(player.score), style="bold"),
                score_bar(player.score, options),
                status,
            ]
            if options.bolt_limit:
                row.append(f"{player.bolts}/{options.bolt_limit}")
            if options.barrel in ("points", "open"):
                row.append(f"{player.falls}/{falls_limit(options)}")
            if options.barrel == "open":
                row.append(f"{player.dots}/{options.dots_limit}")
            table.add_row(*row, key=str(seat))
        legend = Text()
        if options.pits:
            pits = ", ".join(f"{lo}–{hi}" for lo, hi in options.pits)
            legend.append("░ ", style="yellow")
            legend.append(t("board.legend_pits", pits=pits) + "   ")
        if options.barrel in ("points", "capped"):
            legend.append("▒ ", style="red")
            legend.append(t("board.legend_barrel", at=options.barrel_at, target=options.target))
        elif options.barrel == "open":
            legend.append(t("board.legend_open", target=options.target))
        self.query_one("#legend", Static).update(legend)

    def turn_text(self, session: Session, t: Catalog) -> Text:
        from kosti.games import turn_view
        from kosti.games.thousand.game import THOUSAND, ThousandState

        state = session.state
        if not isinstance(state, ThousandState) or session.finished:
            return Text("")
        view = session.view
        # while the player picks dice to set aside, the turn is shown as it would be with them
        after = session.after_marked()
        shown = view
        if after is None:
            text = Text(t("turn.total", total=view.turn_total or 0), style="bold")
            text.append("   " + t("turn.bad_pick"), style="red")
        elif after is not state and after.turn == state.turn:
            shown = turn_view(after)
            text = Text(t("turn.total_with_marked", total=shown.turn_total, before=view.turn_total))
            text.stylize("bold")
        else:
            text = Text(t("turn.total", total=view.turn_total or 0), style="bold")
        if after is not None:
            text.append("   " + t("turn.dice_left", n=shown.to_throw or shown.throw.throws))
        if shown.aside:
            groups = " · ".join(
                f"{dice_text(group.dice, session.faces_style, t)} ({number(group.points)})"
                for group in shown.aside
            )
            text.append("\n" + t("turn.set_aside", dice=groups))
        if isinstance(after, ThousandState) and after.turn == state.turn:
            state = after
        need = THOUSAND.needed(state)
        player = state.board[state.current]
        if need > state.turn_total or player.on_barrel:
            if player.on_barrel:
                why = t("need.barrel", need=need)
            elif (pit := THOUSAND.pit_of(state, player.score)) is not None:
                why = t("need.pit", need=need, high=pit[1])
            else:
                why = t("need.opening", need=need)
            text.append("\n" + t("turn.must_make", why=why), style="yellow")
        if state.pending == 5 and state.turn_total and state.confirming:
            # (hot dice that play on: the prompt says all five are thrown again)
            text.append("\n" + t("turn.confirm"), style="bold magenta")
        return text


# -- showdown ------------------------------------------------------------------


class ShowdownBoard(Board):
    """The hands of this showdown, the bank, and everyone's net winnings."""

    DEFAULT_CSS = """
    ShowdownBoard #round { height: auto; text-style: bold; margin-bottom: 1; }
    ShowdownBoard DataTable { height: auto; max-height: 1fr; }
    ShowdownBoard #summary { height: auto; margin-top: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="round")
        yield quiet_table("hands")
        yield Static(id="summary")

    def show(self, session: Session, t: Catalog) -> None:
        from kosti.games.showdown.game import SHOWDOWN, ShowdownState, options_of
        from kosti.games.showdown.hands import classify

        state = session.state
        if not isinstance(state, ShowdownState):  # pragma: no cover - the screen picks the board
            return
        options = options_of(state)
        head = Text(t("showdown.round", round=state.round, rounds=options.rounds))
        head.append("   ")
        head.append(t("showdown.bank", bank=state.bank), style="bold yellow")
        if state.deciding:
            head.append("   ")
            head.append(t("showdown.deciding", n=state.deciding), style="magenta")
        self.query_one("#round", Static).update(head)
        # the showdown settled last: every hand named, what settled it, where the bank went
        summary = Text()
        if state.showdown is not None:
            narrator = Narrator(session.variant, state.players, t.lang)
            title, *shown, verdict = narrator.showdown_summary(state.showdown)
            summary.append(title + " ", style="bold")
            summary.append(" · ".join(shown))
            summary.append("\n" + verdict, style="yellow")
        self.query_one("#summary", Static).update(summary)
        table: DataTable[Any] = self.query_one("#hands", DataTable)
        table.clear(columns=True)
        for key, label in (("name", "board.player"), ("net", "showdown.net"), ("hand", "showdown.hand")):
            table.add_column(t(label), key=key)
        table.add_column(t("showdown.dice"), key="dice")
        hands = SHOWDOWN.hands_of(state, range(len(state.players)))
        current = SHOWDOWN.current_player(state)
        for seat, hand in enumerate(hands):
            net = state.net[seat]
            if hand is not None:
                hand_text = Text(t(f"hand.{hand.name}"), style="bold")
                dice = dice_text(hand.dice, session.faces_style, t)
            elif seat == current:
                hand_text = Text(t("showdown.throwing"), style="yellow")
                dice = ""
                if state.dice:
                    hand_text.append(f" ({t('hand.' + classify(state.dice).name)})", style="yellow")
                    dice = dice_text(state.dice, session.faces_style, t)
            elif seat in state.playing and not state.finished:
                hand_text = Text(t("showdown.waiting"), style="grey62")
                dice = ""
            else:
                hand_text = Text(t("showdown.sits_out"), style="grey50")
                dice = ""
            table.add_row(
                _player_label(session, seat, t),
                Text(signed(net), style="green" if net > 0 else ("red" if net < 0 else "")),
                hand_text,
                dice,
                key=str(seat),
            )

    def turn_text(self, session: Session, t: Catalog) -> Text:
        from kosti.games.showdown.game import ShowdownState, options_of

        state = session.state
        if not isinstance(state, ShowdownState) or session.finished:
            return Text("")
        view = session.view
        text = Text(t("turn.throw_of", n=state.throws, of=options_of(state).throws), style="bold")
        text.append("   " + t("turn.throws_left", n=view.throws_left or 0))
        if view.locked:
            text.append(
                "   " + t("turn.locked", dice=dice_text(view.locked, session.faces_style, t)),
                style="magenta",
            )
        return text


def board_class(family: str) -> type[Board]:
    """The board of a family (its layout)."""
    return {"thousand": ThousandBoard, "showdown": ShowdownBoard}.get(family, SheetBoard)
