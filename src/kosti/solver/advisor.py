"""Exact values of the decisions of a real game: the advisor, the optimal bot, the report.

Each seat's sheet is valued as a solitaire sheet: the value of a decision is the
expected final score of that player's sheet if they play optimally from then on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from kosti.actions import Action, CellAction, Hold
from kosti.bots.base import Advice, AdvisedBot
from kosti.errors import IllegalActionError, KostiError, OptionError
from kosti.games.base import GameState
from kosti.games.sheet.game import SHEET, SheetState, cells_of, sheet_total
from kosti.record import Record
from kosti.rules.options import UPPER_CELLS, SheetOptions
from kosti.solver import judging
from kosti.solver.judging import Judged
from kosti.solver.model import (
    BAD_BANK,
    BAD_DICE,
    BAD_UPPER,
    F64,
    FIVE,
    INDEX,
    N_SPOT,
    OPEN,
    POSITION,
    Q_BANKED,
    S_BANK,
    S_COLUMN,
    S_FLAG,
    S_LEFT,
    S_LM,
    S_PAIR,
    S_REACH,
    S_STATUS,
    S_UM,
    Model,
)
from kosti.solver.tables import Solution, in_parallel, solve

TIE = 1e-9
"""Decisions closer than this are equally good (the order of ``decisions`` breaks the tie)."""

UPPER = len(UPPER_CELLS)


@dataclass(frozen=True)
class Spot:
    """Where the current player's sheet stands, in the solver's terms."""

    column: int
    lm: int
    um: int
    pair: int
    flag: int
    bank: int
    """Banked throws at the start of the turn (as the solver counts them)."""
    left: int
    """Throws left now (as the solver counts them)."""
    recorded: int
    """The sheet's total so far (recorded cells, decided bonuses, Yahtzee bonuses)."""


def position_row(model: Model, state: SheetState) -> list[int]:
    """The position row of ``state`` (:data:`~kosti.solver.model.POSITION`): what the compiled
    advisor reads of it (the current player's sheet, the turn so far)."""
    sheet = state.sheets[state.current]
    row = [OPEN if v is None else v for column in sheet.columns for v in column]
    row.append(sheet.banked if model.options.banked_throws else 0)
    row.append(state.throws)
    dice = state.dice
    row.extend(dice if len(dice) == 5 else (*dice, 0, 0, 0, 0, 0)[:5])
    row.append(-1 if state.announced is None else _cell_index(model.options, state.announced))
    return row


def _cell_index(options: SheetOptions, cell: str) -> int:
    cells = cells_of(options)
    if cell not in cells:
        raise KostiError(f"{cell!r} is no cell of this sheet")
    return cells.index(cell)


def _refuse(model: Model, row: npt.NDArray[np.int64]) -> NoReturn:
    """Raise the reason why ``row`` is no position of the sheet (:func:`spots`)."""
    from kosti.solver import kernels

    spot = np.zeros((1, N_SPOT), dtype=np.int64)
    kernels.locate_batch(*model.packed, row.reshape(1, -1), spot)
    status = int(spot[0, S_STATUS])
    if status == BAD_BANK:
        banked, reach = int(row[-len(POSITION) + Q_BANKED]), int(spot[0, S_REACH])
        raise KostiError(f"a sheet with these cells recorded cannot have banked {banked} throws (≤ {reach})")
    if status == BAD_UPPER:
        raise KostiError("no sheet of this variant has these upper cells with this total")
    if status == BAD_DICE:
        raise KostiError("the dice on the table are not five faces from 1 to 6")
    raise KostiError("the announced cell is no cell of this sheet")


def spots(model: Model, positions: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """:data:`~kosti.solver.model.SPOT` of each position row (one compiled call); a row that is
    no position of the sheet raises :class:`KostiError` with the reason."""
    from kosti.solver import kernels

    rows = np.ascontiguousarray(positions, dtype=np.int64).reshape(-1, row_length(model))
    out = np.zeros((len(rows), N_SPOT), dtype=np.int64)
    kernels.locate_batch(*model.packed, rows, out)
    bad = np.flatnonzero(out[:, S_STATUS])
    if len(bad):
        _refuse(model, rows[bad[0]])
    return out


def row_length(model: Model) -> int:
    """The length of a position row of ``model``'s sheet."""
    return model.n_columns * (UPPER + model.n_lower) + len(POSITION)


def spot_of(solution: Solution, state: SheetState) -> Spot:
    """The solver's coordinates of the current player's sheet in ``state``."""
    model = solution.model
    s = spots(model, np.array(position_row(model, state), dtype=np.int64))[0]
    recorded = sheet_total(model.options, state.sheets[state.current])
    column, lm, um, pair, flag, bank, left = (
        int(s[k]) for k in (S_COLUMN, S_LM, S_UM, S_PAIR, S_FLAG, S_BANK, S_LEFT)
    )
    return Spot(column, lm, um, pair, flag, bank, left, recorded)


def width(model: Model) -> int:
    """The number of option values of one position: the holds (every multiset of at most four
    dice, by its index in :data:`~kosti.solver.model.ALL`), then per cell (in the sheet's
    order) recording there, then scratching it, then announcing it."""
    return FIVE + 3 * (UPPER + model.n_lower)


def option_index(model: Model, action: Action) -> int:
    """Where ``action``'s value stands in a row of :func:`option_values` (before the first
    throw, ``Hold(())`` is the throw)."""
    if isinstance(action, Hold):
        return INDEX[action.faces]
    if isinstance(action, CellAction):
        cells = UPPER + model.n_lower
        cell = cells_of(model.options).index(action.cell)
        return FIVE + ("score", "scratch", "announce").index(action.kind) * cells + cell
    raise IllegalActionError("not_a_sheet_decision", action=str(action))


def option_values(solution: Solution, positions: npt.NDArray[np.int64]) -> F64:
    """Every option's value for each position row (:func:`position_row`), in one compiled call
    (per thread, for a large batch): a row of :func:`width` values, NaN where the option is
    not legal. A value is the expected score still to come after the option, the sheet's
    recorded total excluded. A row that is no position of the sheet raises
    :class:`KostiError` with the reason."""
    from kosti.solver import kernels  # numba is loaded when the first value is asked for

    model = solution.model
    rows = np.ascontiguousarray(positions, dtype=np.int64).reshape(-1, row_length(model))
    out = np.empty((len(rows), width(model)))
    packed = model.packed
    bad: list[int] = []

    def work(start: int, stop: int) -> None:
        stopped = kernels.position_values_batch(
            *packed, solution.values, rows[start:stop].ravel(), out[start:stop].ravel()
        )
        if stopped >= 0:
            bad.append(start + stopped)

    # threads only for batches of more than 256 positions: a piece (several milliseconds of
    # work) must outweigh handing it to a thread, and on a busy machine a second thread of a
    # small batch costs more than it saves
    in_parallel(len(rows), work, chunk=256)
    if bad:
        _refuse(model, rows[min(bad)])
    return out


@dataclass(frozen=True)
class _Query:
    """What a single query of one solved variant hands the compiled code."""

    model: Model
    tables: tuple[npt.NDArray[Any], ...]
    """The packed tables and the solution's values, as the kernel takes them."""
    width: int
    kernel: Any
    """:func:`~kosti.solver.kernels.position_values_batch`, compiled for these tables."""


class SheetAdvisor:
    """Exact decision values for score-sheet states, from a solved variant's tables."""

    def __init__(self, cap: int | None = None, progress: Any = None) -> None:
        self.cap = cap
        self.progress = progress
        # by the variant object's identity (the states of one game share it); the variant is
        # kept with its solution so that its id is not reused
        self._solved: dict[int, tuple[Any, Solution]] = {}
        # what a single query hands the compiled code, by the variant's identity too
        self._queries: dict[int, _Query] = {}

    def solution(self, state: GameState) -> Solution:
        """The solved tables of the state's variant (from the disk cache after the first time)."""
        known = self._solved.get(id(state.variant))
        if known is not None:
            return known[1]
        if not isinstance(state, SheetState):
            raise OptionError(
                f"{state.variant.spec} is not a score-sheet game: the solver plays score sheets"
            )
        solution = solve(state.variant, cap=self.cap, progress=self.progress)
        self._solved[id(state.variant)] = (state.variant, solution)
        return solution

    def values(self, state: GameState) -> F64:
        """Every option's value in ``state`` (a row of :func:`option_values`), in one compiled
        call: the expected score still to come after each option, recorded total excluded.
        Each call returns a new array."""
        query = self._queries.get(id(state.variant))
        if query is None:
            query = self._query(state)
        if not isinstance(state, SheetState):  # pragma: no cover - _query() refuses
            raise OptionError("not a score-sheet state")
        row = np.fromiter(position_row(query.model, state), np.int64)
        out = np.empty(query.width)
        if query.kernel(*query.tables, row, out) >= 0:
            _refuse(query.model, row)
        return out

    def _query(self, state: GameState) -> _Query:
        """What :meth:`values` needs of the state's variant (solved first if need be)."""
        from kosti.solver import kernels  # numba is loaded when the first value is asked for

        solution = self.solution(state)
        model = solution.model
        tables = (*model.packed, solution.values)
        # the batch kernel on one row (one more compiled function would cost its compile
        # time), its machine code for these arguments' types called directly
        kernel = kernels.compiled(kernels.position_values_batch, *tables, np.empty(0, np.int64), np.empty(0))
        query = _Query(model, tables, width(model), kernel)
        self._queries[id(state.variant)] = query
        return query

    def values_batch(self, states: list[SheetState]) -> F64:
        """Every option's value in each of ``states`` (one variant): :func:`option_values`."""
        if not states:
            return np.empty((0, 0))
        solution = self.solution(states[0])
        if any(s.variant != states[0].variant for s in states):
            raise OptionError("a batch of positions is of one variant")
        model = solution.model
        rows = np.array([position_row(model, s) for s in states], dtype=np.int64)
        return option_values(solution, rows)

    def future(self, state: GameState) -> list[tuple[Action, float]]:
        """Each decision of ``state`` with the expected score its player will still make after it."""
        if not isinstance(state, SheetState):
            self.solution(state)  # refuses with the reason
            return []
        decisions = SHEET.decisions(state)
        if not decisions:
            return []
        solution = self.solution(state)
        row = self.values(state)
        model = solution.model
        return [(a, float(row[option_index(model, a)])) for a in decisions]

    def position_value(self, state: GameState) -> float:
        """The expected final score of the current player's sheet (the player to move, or at a throw)."""
        solution = self.solution(state)
        if not isinstance(state, SheetState):  # pragma: no cover - solution() refuses
            raise OptionError("not a score-sheet state")
        options = solution.model.options
        if state.finished:
            return float(sheet_total(options, state.sheets[state.current]))
        if state.pending:
            # the throw is due: the value of holding what is held (before the first: the throw)
            decided = state if state.throws == 0 else _undo_hold(state)
            row = self.values(decided)
            return spot_of(solution, state).recorded + float(row[INDEX[state.held] if state.throws else 0])
        row = self.values(state)
        return spot_of(solution, state).recorded + float(np.nanmax(row))

    def advise(self, state: GameState) -> list[Advice]:
        """Every legal decision with the expected final score of the player's sheet, best first."""
        future = self.future(state)
        if not future:
            return []
        solution = self.solution(state)
        recorded = spot_of(solution, state).recorded if isinstance(state, SheetState) else 0
        ranked = sorted(enumerate(future), key=lambda item: (-round(item[1][1] / TIE), item[0]))
        best = ranked[0][1][1]
        return [Advice(a, recorded + v, max(0.0, best - v)) for _, (a, v) in ranked]


def _undo_hold(state: SheetState) -> SheetState:
    """The decision before the throw that is due: the same dice on the table, nothing held yet."""
    from dataclasses import replace

    return replace(state, held=(), pending=0)


class OptimalBot(AdvisedBot):
    """Plays each seat's sheet to the highest expected final score (exact, solitaire)."""

    name = "optimal"
    advisor: SheetAdvisor

    def __init__(self, cap: int | None = None, progress: Any = None) -> None:
        super().__init__(SheetAdvisor(cap, progress))


def judge(record: Record, advisor: SheetAdvisor | None = None) -> list[Judged]:
    """Every decision of every player in ``record`` compared with the optimal one, with the
    throws made when it was taken (:func:`kosti.solver.judging.judge`). An invalid record
    raises :class:`~kosti.errors.RecordError`."""
    return judging.judge(
        record, advisor or SheetAdvisor(), lambda state: {"throws": getattr(state, "throws", 0)}
    )


def stored_value(solution: Solution, state: SheetState) -> float:
    """The expected final score of the current player's sheet at the start of a turn, read
    from the solved table (the state must be before the turn's first throw)."""
    if state.finished:
        return float(sheet_total(solution.model.options, state.sheets[state.current]))
    if state.throws:
        raise KostiError("stored values are for the start of a turn")
    spot = spot_of(solution, state)
    return spot.recorded + solution.value(spot.column, spot.lm, spot.pair, spot.flag, spot.bank)
