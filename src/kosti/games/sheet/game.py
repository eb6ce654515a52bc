"""Score-sheet poker as an immutable state and the actions that change it (RULES.md §1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Literal

from kosti.actions import Action, Announce, CellAction, Hold, Score, Scratch
from kosti.dice import Faces, is_submultiset, submultisets
from kosti.errors import IllegalActionError
from kosti.events import Event, EventKind
from kosti.games.base import Engine, GameState, check_players, emit, options_as, replaced
from kosti.games.sheet.scoring import UPPER_FACE, cell_score, upper_bonus
from kosti.rules.options import UPPER_CELLS, ColumnKind, SheetOptions
from kosti.rules.presets import Variant

COLUMN_NAMES: tuple[str, ...] = ("I", "II", "III")
"""The columns' names on the sheet; what each column is comes from ``SheetOptions.column_kinds``."""


def options_of(state: SheetState) -> SheetOptions:
    """The options of ``state``'s variant (read through :func:`~kosti.games.base.options_as`)."""
    return options_as(state.variant, SheetOptions, "a score-sheet game")


def cells_of(options: SheetOptions) -> tuple[str, ...]:
    """The cell ids of one column, in table order."""
    return UPPER_CELLS + options.lower


@dataclass(frozen=True)
class Sheet:
    """One player's sheet: recorded values (``None`` = open) per column, banked throws."""

    columns: tuple[tuple[int | None, ...], ...]
    """Per column, per cell in table order: the recorded score or ``None``."""

    banked: int = 0
    """Banked throws («ограды»)."""

    yahtzee_bonuses: int = 0
    """Extra Yahtzees that earned the bonus."""

    def is_full(self) -> bool:
        return all(v is not None for col in self.columns for v in col)

    def open_column(self) -> int | None:
        """The first column with an open cell (columns are played in turn)."""
        for i, col in enumerate(self.columns):
            if any(v is None for v in col):
                return i
        return None


@dataclass(frozen=True)
class SheetState(GameState):
    """A score-sheet game between throws and decisions."""

    sheets: tuple[Sheet, ...]
    current: int
    """The seat whose turn it is."""

    dice: Faces = ()
    """The five dice on the table after the last throw (sorted); empty before the first."""

    held: Faces = ()
    """Dice kept for the throw that is due."""

    throws: int = 0
    """Throws made this turn."""

    pending: int = 0
    """Dice to throw now (0 when the player decides, or at the end)."""

    announced: str | None = None
    """The cell announced this turn (column II of poker-fences)."""

    @cached_property
    def finished(self) -> bool:
        return all(sheet.is_full() for sheet in self.sheets)


def upper_total(options: SheetOptions, column: Sequence[int | None]) -> int:
    """Sum of the recorded upper cells of a column."""
    return sum(v for v in column[: len(UPPER_CELLS)] if v is not None)


def column_bonus(options: SheetOptions, column: Sequence[int | None]) -> int | None:
    """The column's upper bonus once its upper section is full; ``None`` before."""
    if any(v is None for v in column[: len(UPPER_CELLS)]):
        return None
    return upper_bonus(upper_total(options, column), options)


def allowed_cells(options: SheetOptions, kind: ColumnKind, column: Sequence[int | None]) -> list[str]:
    """Open cells of ``column``, a column of ``kind``, that the column and stage rules allow
    now (RULES.md §1.4, §1.7): the next in table order in an ordered column, the upper cells
    while any is open under sequential stages, else every open cell."""
    open_ = [c for c, v in zip(cells_of(options), column, strict=True) if v is None]
    if kind == "ordered":
        return open_[:1]
    if options.stages == "sequential":
        upper_open = [c for c in open_ if c in UPPER_FACE]
        if upper_open:
            return upper_open
    return open_


def joker_face(options: SheetOptions, first_column: Sequence[int | None], dice: Faces) -> int | None:
    """The Yahtzee face when a joker rule applies to ``dice`` (RULES.md §1.5): five alike with
    the Yahtzee cell of column I (``first_column``) recorded; under the free joker, only once
    the dice's own upper cell is recorded too. ``None`` when the dice are no joker."""
    if options.joker == "none" or len(set(dice)) != 1 or len(dice) != 5:
        return None
    names = cells_of(options)
    if "yahtzee" not in names or first_column[names.index("yahtzee")] is None:
        return None
    face = dice[0]
    if options.joker == "free" and first_column[face - 1] is None:
        return None  # free joker: ordinary dice while their own upper cell is open
    return face


def joker_cells(options: SheetOptions, cells: Sequence[str], face: int | None) -> list[str]:
    """Where dice may be recorded among the allowed ``cells`` when they are a joker of ``face``
    (``None``: no joker). The forced joker (RULES.md §1.5): the matching upper cell if open,
    else any open lower cell, else any cell; the free joker leaves the choice open."""
    if face is None or options.joker == "free":
        return list(cells)
    upper_cell = UPPER_CELLS[face - 1]
    if upper_cell in cells:
        return [upper_cell]
    lower = [c for c in cells if c not in UPPER_FACE]
    return lower or list(cells)


def yahtzee_scored(options: SheetOptions, first_column: Sequence[int | None]) -> bool:
    """The Yahtzee cell of column I holds a score, not a zero: a further Yahtzee then earns the
    extra bonus where the sheet has one (RULES.md §1.5)."""
    names = cells_of(options)
    return "yahtzee" in names and bool(first_column[names.index("yahtzee")])


def extra_yahtzee(options: SheetOptions, scored: bool, dice: Faces) -> bool:
    """Recording ``dice`` earns the extra-Yahtzee bonus (RULES.md §1.5): a bonus in force, five
    alike, and the Yahtzee cell holding a score (``scored``, :func:`yahtzee_scored`)."""
    return bool(options.extra_yahtzee_bonus) and scored and len(dice) == 5 and len(set(dice)) == 1


def sheet_total(options: SheetOptions, sheet: Sheet) -> int:
    """Recorded cells, decided upper bonuses, Yahtzee bonuses, and banked throws at the end."""
    total = 0
    for column in sheet.columns:
        total += sum(v for v in column if v is not None)
        total += column_bonus(options, column) or 0
    total += sheet.yahtzee_bonuses * options.extra_yahtzee_bonus
    if sheet.is_full():
        total += sheet.banked * options.bank_value
    return total


class SheetEngine(Engine[SheetState]):
    """The rules of every ``poker-*`` sheet preset and ``yahtzee``."""

    def new_game(self, variant: Variant, players: Sequence[str]) -> SheetState:
        options = options_as(variant, SheetOptions, "a score-sheet game")
        names = check_players(players)
        empty = tuple((None,) * len(cells_of(options)) for _ in options.column_kinds)
        state = SheetState(variant, names, 0, tuple(Sheet(empty) for _ in names), 0)
        return self._start_turn(state)

    # -- queries ---------------------------------------------------------------

    def to_throw(self, state: SheetState) -> int:
        return state.pending

    def current_player(self, state: SheetState) -> int | None:
        return None if state.finished else state.current

    def is_finished(self, state: SheetState) -> bool:
        return state.finished

    def column(self, state: SheetState) -> int:
        """The column the current player is filling."""
        col = state.sheets[state.current].open_column()
        return 0 if col is None else col

    def column_kind(self, state: SheetState) -> ColumnKind:
        """``free``, ``announced`` or ``ordered``: the kind of the column being filled."""
        return options_of(state).column_kinds[self.column(state)]

    def throws_left(self, state: SheetState) -> int:
        """Further throws this turn, counting banked ones."""
        options = options_of(state)
        left = max(0, options.throws - state.throws)
        if options.banked_throws:
            left += state.sheets[state.current].banked
        return left

    def open_cells(self, state: SheetState) -> list[str]:
        """Open cells of the current column that the stage and column rules allow now."""
        column = state.sheets[state.current].columns[self.column(state)]
        return allowed_cells(options_of(state), self.column_kind(state), column)

    def scorable_cells(self, state: SheetState) -> list[str]:
        """Cells the dice on the table may be recorded in now (announcement and joker applied)."""
        if state.announced is not None:
            return [state.announced]
        return joker_cells(options_of(state), self.open_cells(state), self._joker(state))

    def scratchable_cells(self, state: SheetState) -> list[str]:
        """Lower cells that may be scratched now (poker-fences)."""
        if not options_of(state).scratch or state.announced is not None:
            return []
        return [c for c in self.open_cells(state) if c not in UPPER_FACE]

    def score_of(self, state: SheetState, cell: str) -> int:
        """What recording the dice on the table in ``cell`` would score now (cell bonuses included)."""
        options = options_of(state)
        joker = self._joker(state) is not None
        return cell_score(cell, state.dice, options, first_throw=state.throws == 1, joker=joker)

    def _joker(self, state: SheetState) -> int | None:
        """The Yahtzee face when a joker rule applies to the dice on the table (:func:`joker_face`)."""
        return joker_face(options_of(state), state.sheets[state.current].columns[0], state.dice)

    def decisions(self, state: SheetState) -> list[Action]:
        if state.finished or state.pending:
            return []
        actions: list[Action] = []
        if state.throws == 0:
            # only poker-fences stops here: throw, or scratch before the first throw
            actions.append(Hold(()))
            actions.extend(Scratch(c) for c in self.scratchable_cells(state))
            return actions
        if self._may_throw(state):
            actions.extend(Hold(h) for h in submultisets(state.dice) if len(h) < 5)
        actions.extend(Score(c) for c in self.scorable_cells(state))
        actions.extend(Scratch(c) for c in self.scratchable_cells(state))
        if self._may_announce(state):
            actions.extend(Announce(c) for c in self.open_cells(state))
        return actions

    def _may_throw(self, state: SheetState) -> bool:
        if self.throws_left(state) == 0:
            return False
        # column II: a further throw needs an announcement
        return not (self.column_kind(state) == "announced" and state.announced is None)

    def _may_announce(self, state: SheetState) -> bool:
        return self.column_kind(state) == "announced" and state.announced is None and state.throws == 1

    # -- transitions -----------------------------------------------------------

    def decide(self, state: SheetState, action: Action) -> SheetState:
        if isinstance(action, Hold):
            return self._hold(state, action.faces)
        if isinstance(action, CellAction) and action.kind == "score":
            return self._score(state, action.cell)
        if isinstance(action, CellAction) and action.kind == "scratch":
            return self._scratch(state, action.cell)
        if isinstance(action, CellAction) and action.kind == "announce":
            return self._announce(state, action.cell)
        raise IllegalActionError("not_a_sheet_action", action=str(action))

    def implicit_throw(self, state: SheetState) -> Action | None:
        if not state.pending and not state.finished and (state.throws == 0 or self._may_throw(state)):
            return Hold(())
        return None

    def throw(self, state: SheetState, faces: Faces) -> SheetState:
        sheet = state.sheets[state.current]
        options = options_of(state)
        throws = state.throws + 1
        if throws > options.throws:
            # a throw past the allowance spends a banked one («ограда»)
            sheet = replace(sheet, banked=sheet.banked - 1)
            spent = Event(
                state.turn,
                state.current,
                "banked",
                0,
                sheet_total(options, sheet),
                throws=-1,
                count=sheet.banked,
            )
            state = emit(state, spent)
        dice = tuple(sorted(state.held + faces))
        return replace(
            state,
            sheets=replaced(state.sheets, state.current, sheet),
            dice=dice,
            held=(),
            throws=throws,
            pending=0,
        )

    def _hold(self, state: SheetState, faces: Faces) -> SheetState:
        held = tuple(sorted(faces))
        if state.throws == 0:
            if held:
                raise IllegalActionError("hold_before_throw")
            if not options_of(state).scratch:  # pragma: no cover - such turns start at a throw
                raise IllegalActionError("thrown_already")
            return replace(state, pending=5)
        if not is_submultiset(held, state.dice):
            raise IllegalActionError("not_among", faces=list(held), dice=list(state.dice))
        if len(held) == 5:
            raise IllegalActionError("hold_all_record")
        if self.throws_left(state) == 0:
            raise IllegalActionError("no_throws_record")
        if self.column_kind(state) == "announced" and state.announced is None:
            raise IllegalActionError("announce_first")
        return replace(state, held=held, pending=5 - len(held))

    def _check_cell(self, state: SheetState, cell: str) -> int:
        names = cells_of(options_of(state))
        if cell not in names:
            raise IllegalActionError("no_such_cell", cell=cell)
        index = names.index(cell)
        column = state.sheets[state.current].columns[self.column(state)]
        if column[index] is not None:
            raise IllegalActionError("cell_filled", cell=cell)
        return index

    def _score(self, state: SheetState, cell: str) -> SheetState:
        index = self._check_cell(state, cell)
        if state.throws == 0:
            raise IllegalActionError("throw_before_record")
        allowed = self.scorable_cells(state)
        if cell not in allowed:
            raise self._why_not(state, cell, allowed)
        value = self.score_of(state, cell)
        return self._end_turn(state, *self._recording(state, index, value, "recorded", self._extra(state)))

    def _extra(self, state: SheetState) -> bool:
        """Recording the dice on the table earns the extra-Yahtzee bonus (:func:`extra_yahtzee`)."""
        options = options_of(state)
        scored = yahtzee_scored(options, state.sheets[state.current].columns[0])
        return extra_yahtzee(options, scored, state.dice)

    def _why_not(self, state: SheetState, cell: str, allowed: list[str]) -> IllegalActionError:
        """Why the open cell ``cell`` of the current column takes nothing now, ``allowed`` being
        the cells that do: the announced cell, column III's next cell, the cells a forced
        joker allows, or the upper section first."""
        if state.announced is not None:
            return IllegalActionError("cell_announced", announced=state.announced)
        if self.column_kind(state) == "ordered":
            return IllegalActionError("column_order", next=allowed[0])
        if self._joker(state) is not None:
            return IllegalActionError("forced_joker", cells=list(allowed))
        if cell not in UPPER_FACE and options_of(state).stages == "sequential":
            return IllegalActionError("upper_first")
        return IllegalActionError("cell_closed", cell=cell)

    def _scratch(self, state: SheetState, cell: str) -> SheetState:
        index = self._check_cell(state, cell)
        if not options_of(state).scratch:
            raise IllegalActionError("no_scratching")
        if cell not in self.scratchable_cells(state):
            if cell in UPPER_FACE:
                raise IllegalActionError("scratch_upper")
            raise self._why_not(state, cell, self.open_cells(state))
        return self._end_turn(state, *self._recording(state, index, 0, "scratched"))

    def _announce(self, state: SheetState, cell: str) -> SheetState:
        self._check_cell(state, cell)
        if self.column_kind(state) != "announced":
            raise IllegalActionError("announce_column")
        if state.announced is not None:
            raise IllegalActionError("announced_already", announced=state.announced)
        if state.throws != 1:
            raise IllegalActionError("announce_late")
        return replace(state, announced=cell)

    def _end_turn(self, state: SheetState, sheet: Sheet, events: list[Event]) -> SheetState:
        """End the turn with the current player's sheet now ``sheet`` (:meth:`_recording`), with
        ``events`` saying what the record brought."""
        seat = state.current
        state = replace(
            emit(state, *events),
            sheets=replaced(state.sheets, seat, sheet),
            current=(seat + 1) % len(state.players),
            turn=state.turn + 1,
            dice=(),
            held=(),
            throws=0,
            announced=None,
        )
        return self._start_turn(state)

    def _recording(
        self,
        state: SheetState,
        index: int,
        value: int,
        kind: Literal["recorded", "scratched"],
        extra: bool = False,
    ) -> tuple[Sheet, list[Event]]:
        """The current player's sheet after ``value`` goes into cell ``index`` of the current
        column, the throws left over banked, and an event for every point and throw this brings;
        ``extra``: the record earns the extra-Yahtzee bonus."""
        options = options_of(state)
        seat, column = state.current, self.column(state)
        old = state.sheets[seat]
        cells = list(old.columns[column])
        cells[index] = value
        banked = max(0, options.throws - state.throws) if options.banked_throws else 0
        sheet = replace(
            old,
            columns=replaced(old.columns, column, tuple(cells)),
            banked=old.banked + banked,
            yahtzee_bonuses=old.yahtzee_bonuses + extra,
        )
        where = {"column": column} if options.columns == "fences" else {}
        running = sheet_total(options, old)

        def event(name: EventKind, points: int, **details: Any) -> Event:
            nonlocal running
            running += points
            return Event(state.turn, seat, name, points, running, **details)

        events = [
            event(
                kind,
                value,
                cell=cells_of(options)[index],
                dice=state.dice,
                first_throw=state.throws == 1,
                **where,
            )
        ]
        if extra:
            events.append(event("yahtzee_bonus", options.extra_yahtzee_bonus))
        if banked:
            events.append(event("banked", 0, throws=banked, count=sheet.banked))
        decided = column_bonus(options, sheet.columns[column])
        if decided is not None and column_bonus(options, old.columns[column]) is None:
            events.append(event("upper_bonus", decided, **where))
        if sheet.is_full() and sheet.banked and options.bank_value:
            events.append(event("bank_bonus", sheet.banked * options.bank_value, throws=sheet.banked))
        return sheet, events

    def gains(self, state: SheetState) -> dict[str, int]:
        """What recording the dice on the table in each cell allowed now would add to the current
        player's score (the bonuses it settles included): the points of the events the record
        would bring, worked out by the record's own rule without playing it."""
        if state.finished or state.pending or state.throws == 0:
            return {}
        names = cells_of(options_of(state))
        extra = self._extra(state)
        gains = {}
        for cell in self.scorable_cells(state):
            value = self.score_of(state, cell)
            _, events = self._recording(state, names.index(cell), value, "recorded", extra)
            gains[cell] = sum(event.points for event in events)
        return gains

    def _start_turn(self, state: SheetState) -> SheetState:
        if state.finished:
            return replace(state, pending=0)
        # only a preset with scratching offers a choice before the first throw
        if self.scratchable_cells(state):
            return replace(state, pending=0)
        return replace(state, pending=5)

    # -- results ---------------------------------------------------------------

    def scores(self, state: SheetState) -> list[int]:
        options = options_of(state)
        return [sheet_total(options, sheet) for sheet in state.sheets]

    def winners(self, state: SheetState) -> list[int]:
        if not state.finished:
            return []
        totals = self.scores(state)
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]


SHEET = SheetEngine()
