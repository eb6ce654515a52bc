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
from kosti.solver.heads import available as shipped_heads
from kosti.solver.judging import Judged
from kosti.solver.model import (
    BAD_BANK,
    BAD_DICE,
    BAD_UPPER,
    F64,
    FIVE,
    INDEX,
    KIND_ANNOUNCED,
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
from kosti.solver.progress import Progress
from kosti.solver.tables import Solution, for_hints, in_parallel, is_solved

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
    if status == 0:  # pragma: no cover - the rows are routed by the kind of their column
        raise RuntimeError("a position was handed to the kernel of another kind of column")
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


def recorded(solution: Solution, state: SheetState) -> int:
    """The current player's total so far: recorded cells, decided bonuses, Yahtzee bonuses."""
    return sheet_total(solution.model.options, state.sheets[state.current])


def row_length(model: Model) -> int:
    """The length of a position row of ``model``'s sheet."""
    return model.n_columns * (UPPER + model.n_lower) + len(POSITION)


def spot_of(solution: Solution, state: SheetState) -> Spot:
    """The solver's coordinates of the current player's sheet in ``state``."""
    model = solution.model
    s = spots(model, np.array(position_row(model, state), dtype=np.int64))[0]
    column, lm, um, pair, flag, bank, left = (
        int(s[k]) for k in (S_COLUMN, S_LM, S_UM, S_PAIR, S_FLAG, S_BANK, S_LEFT)
    )
    return Spot(column, lm, um, pair, flag, bank, left, recorded(solution, state))


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
    per kind of column (per thread, for a large batch): a row of :func:`width` values, NaN where
    the option is not legal. A value is the expected score still to come after the option, the
    sheet's recorded total excluded. A row that is no position of the sheet raises
    :class:`KostiError` with the reason."""
    model = solution.model
    rows = np.ascontiguousarray(positions, dtype=np.int64).reshape(-1, row_length(model))
    out = np.empty((len(rows), width(model)))
    by_column = values_kernels(model)
    columns = columns_of(model, rows)
    bad: list[int] = []
    for kernel in set(by_column):
        mine = [c for c, k in enumerate(by_column) if k is kernel]
        if len(mine) == len(by_column):
            bad += _values_of(kernel, solution, rows, out)
            continue
        where = np.flatnonzero(np.isin(columns, mine))
        values = np.empty((len(where), out.shape[1]))
        bad += [int(where[i]) for i in _values_of(kernel, solution, rows[where], values)]
        out[where] = values
    if bad:
        _refuse(model, rows[min(bad)])
    return out


def _values_of(kernel: Any, solution: Solution, rows: npt.NDArray[np.int64], out: F64) -> list[int]:
    """``kernel`` on every row of ``rows`` into ``out``: the rows where a piece stopped (no
    position of the sheet)."""
    packed = solution.model.packed
    bad: list[int] = []

    def work(start: int, stop: int) -> None:
        stopped = kernel(*packed, solution.values, rows[start:stop].ravel(), out[start:stop].ravel())
        if stopped >= 0:
            bad.append(start + stopped)

    # threads only for batches of more than 256 positions: a piece (several milliseconds of
    # work) must outweigh handing it to a thread, and on a busy machine a second thread of a
    # small batch costs more than it saves
    in_parallel(len(rows), work, chunk=256)
    return bad


def columns_of(model: Model, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The column each position row is in: the first with an open cell (0 when none is open),
    as :func:`~kosti.solver.kernels.locate` reads it."""
    cells = rows[:, : model.n_columns * (UPPER + model.n_lower)].reshape(len(rows), model.n_columns, -1)
    return np.asarray(np.argmax((cells == OPEN).any(axis=2), axis=1), dtype=np.int64)


def values_kinds(options: SheetOptions) -> list[Any]:
    """The kernels that value positions of a sheet with ``options``: one for free and ordered
    columns, one for announced ones (each compiled only when the sheet has such a column)."""
    from kosti.solver import kernels  # numba is loaded when the first value is asked for

    kinds = set(options.column_kinds)
    return [kernels.announced_values_batch] * ("announced" in kinds) + [kernels.position_values_batch] * bool(
        kinds - {"announced"}
    )


def values_kernels(model: Model, progress: Progress | None = None) -> list[Any]:
    """Per column of ``model``'s sheet, the machine code of the kernel that values its positions
    (compiled, or read from numba's cache, first: the ``compiling`` phase of ``progress``)."""
    from kosti.solver import kernels
    from kosti.solver.jit import prepare

    needed = values_kinds(model.options)
    compiled = dict(zip(needed, prepare(progress, needed), strict=True))
    return [
        compiled[kernels.announced_values_batch if kind == KIND_ANNOUNCED else kernels.position_values_batch]
        for kind in model.kinds
    ]


@dataclass(frozen=True)
class _Query:
    """What a single query of one solved variant hands the compiled code."""

    model: Model
    tables: tuple[npt.NDArray[Any], ...]
    """The packed tables and the solution's values, as the kernel takes them."""
    width: int
    kernels: list[Any]
    """Per column, :func:`~kosti.solver.kernels.position_values_batch` or
    :func:`~kosti.solver.kernels.announced_values_batch`, compiled."""


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
        if not is_solved(state.variant, self.cap):
            # the kernels of the solve and of the values in one ``compiling`` phase, before
            # ``solving`` (a table of shipped first turns compiles the solve's only when a
            # position needs more solved)
            from kosti.solver.jit import prepare
            from kosti.solver.tables import sheet_options, solver_kernels

            options = sheet_options(state.variant)
            solves = [] if shipped_heads(state.variant) else solver_kernels(options)
            prepare(self.progress, [*solves, *values_kinds(options)])
        solution = for_hints(state.variant, cap=self.cap, progress=self.progress)
        self._solved[id(state.variant)] = (state.variant, solution)
        return solution

    def need(self, state: SheetState) -> Solution:
        """The solved tables of the state's variant, with what a position of ``state`` leads to
        solved (:meth:`~kosti.solver.tables.Solution.need`)."""
        solution = self.solution(state)
        solution.need(*recorded_masks(state), progress=self.progress)
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
        self.need(state)
        row = np.fromiter(position_row(query.model, state), np.int64)
        out = np.empty(query.width)
        kernel = query.kernels[0] if len(query.kernels) == 1 else query.kernels[_column(state)]
        if kernel(*query.tables, row, out) >= 0:
            _refuse(query.model, row)
        return out

    def _query(self, state: GameState) -> _Query:
        """What :meth:`values` needs of the state's variant (solved first if need be)."""
        solution = self.solution(state)
        model = solution.model
        tables = (*model.packed, solution.values)
        # the batch kernels on one row (one more compiled function would cost its compile
        # time), their machine code called directly
        query = _Query(model, tables, width(model), values_kernels(model, self.progress))
        self._queries[id(state.variant)] = query
        return query

    def values_batch(self, states: list[SheetState]) -> F64:
        """Every option's value in each of ``states`` (one variant): :func:`option_values`."""
        if not states:
            return np.empty((0, 0))
        solution = self.solution(states[0])
        if any(s.variant != states[0].variant for s in states):
            raise OptionError("a batch of positions is of one variant")
        for state in states:
            self.need(state)
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
            return recorded(solution, state) + float(row[INDEX[state.held] if state.throws else 0])
        row = self.values(state)
        return recorded(solution, state) + float(np.nanmax(row))

    def advise(self, state: GameState) -> list[Advice]:
        """Every legal decision with the expected final score of the player's sheet, best first."""
        future = self.future(state)
        if not future:
            return []
        solution = self.solution(state)
        made = recorded(solution, state) if isinstance(state, SheetState) else 0
        ranked = sorted(enumerate(future), key=lambda item: (-round(item[1][1] / TIE), item[0]))
        best = ranked[0][1][1]
        exact = self.exact(state)
        return [Advice(a, made + v, max(0.0, best - v), exact=exact) for _, (a, v) in ranked]

    def exact(self, state: GameState) -> bool:
        """Whether the values of ``state`` are exact: every throw the sheet can bank is tracked
        (with a smaller ``cap`` they are lower bounds)."""
        model = self.solution(state).model
        return model.cap >= model.exact_cap


def recorded_masks(state: SheetState) -> tuple[int, int, int]:
    """The column the current player fills, and the lower and upper cells recorded in it, as
    masks in table order (what :meth:`~kosti.solver.tables.Solution.need` takes)."""
    column = _column(state)
    cells = state.sheets[state.current].columns[column]
    um = sum(1 << i for i, v in enumerate(cells[:UPPER]) if v is not None)
    lm = sum(1 << i for i, v in enumerate(cells[UPPER:]) if v is not None)
    return column, lm, um


def _column(state: SheetState) -> int:
    """The column the current player fills: the first with an open cell (as :func:`columns_of`)."""
    columns = state.sheets[state.current].columns
    return next((c for c, cells in enumerate(columns) if None in cells), 0)


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
    solution.need(*recorded_masks(state))
    spot = spot_of(solution, state)
    return spot.recorded + solution.value(spot.column, spot.lm, spot.pair, spot.flag, spot.bank)
