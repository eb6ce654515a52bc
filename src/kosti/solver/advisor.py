"""Exact values of the decisions of a real game: the advisor, the optimal bot, the report.

Each seat's sheet is valued as a solitaire sheet: the value of a decision is the
expected final score of that player's sheet if they play optimally from then on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kosti.actions import Action, CellAction, Hold
from kosti.bots.base import Advice, AdvisedBot
from kosti.errors import IllegalActionError, KostiError, OptionError
from kosti.games.base import GameState
from kosti.games.sheet.game import SHEET, SheetState, cells_of, sheet_total
from kosti.record import Record
from kosti.rules.options import UPPER_CELLS
from kosti.solver import judging
from kosti.solver.judging import Judged
from kosti.solver.model import B_, BANK_COLUMN, DICE_INDEX, F64, FIVE, INDEX, T_, YC, Model, bank_gains
from kosti.solver.tables import Solution, in_parallel, solve

TIE = 1e-9
"""Decisions closer than this are equally good (the order of ``decisions`` breaks the tie)."""

POSITION_FIELDS = ("column", "lm", "pair", "flag", "bank", "throws", "dice", "left", "announced")
"""The columns of a position row as the compiled advisor takes it (:func:`encode`)."""
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


def spot_of(solution: Solution, state: SheetState) -> Spot:
    """The solver's coordinates of the current player's sheet in ``state``."""
    spot, _ = _where(solution, state, with_total=True)
    return spot


def _where(solution: Solution, state: SheetState, with_total: bool) -> tuple[Spot, int]:
    """The spot of ``state`` (its recorded total only ``with_total``, else 0) and the dice's index."""
    model = solution.model
    options = model.options
    sheet = state.sheets[state.current]
    col = SHEET.column(state)
    column = sheet.columns[col]
    # a column lists the upper cells first, then the lower ones in table order
    um = 0
    total = 0
    for i in range(UPPER):
        v = column[i]
        if v is not None:
            um |= 1 << i
            total += v
    lm = 0
    for i, v in enumerate(column[UPPER:]):
        if v is not None:
            lm |= 1 << i
    pair = model.pair_of(um, total)
    flag = 0
    if model.flags == 2:
        flag = int(bool(sheet.columns[0][UPPER + int(model.cfg[YC])]))
    cap = int(model.cfg[B_])
    throws = int(model.cfg[T_])
    banked = sheet.banked if options.banked_throws else 0
    upper_gain, lower_gain = bank_gains(options)
    reach = col * int(model.cfg[BANK_COLUMN]) + upper_gain * um.bit_count() + lower_gain * lm.bit_count()
    if banked > reach:
        raise KostiError(f"a sheet with these cells recorded cannot have banked {banked} throws (≤ {reach})")
    bank = min(banked + max(0, state.throws - throws), cap)
    left = min(SHEET.throws_left(state), cap + throws - 1)
    recorded = sheet_total(options, sheet) if with_total else 0
    return Spot(col, lm, um, pair, flag, bank, left, recorded), DICE_INDEX[state.dice] if state.dice else 0


def encode(solution: Solution, state: SheetState) -> tuple[Spot, tuple[int, ...]]:
    """The spot of ``state`` (its recorded total left at 0) and its position row for the
    compiled advisor (:data:`POSITION_FIELDS`)."""
    spot, dice = _where(solution, state, with_total=False)
    announced = -1
    if state.announced is not None:
        announced = cells_of(solution.model.options).index(state.announced)
    row = (spot.column, spot.lm, spot.pair, spot.flag, spot.bank, state.throws, dice, spot.left, announced)
    return spot, row


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
    raise IllegalActionError(f"{action} is not a decision of score-sheet poker")


def option_values(solution: Solution, positions: npt.NDArray[np.int64]) -> F64:
    """Every option's value for each position row (:func:`encode`), in one compiled call per
    thread: a row of :func:`width` values, NaN where the option is not legal. A value is the
    expected score still to come after the option, the sheet's recorded total excluded."""
    from kosti.solver import kernels  # numba is loaded when the first value is asked for

    rows = np.ascontiguousarray(positions, dtype=np.int64).reshape(-1, len(POSITION_FIELDS))
    out = np.empty((len(rows), width(solution.model)))
    packed = solution.model.packed

    def work(start: int, stop: int) -> None:
        kernels.position_values_batch(*packed, solution.values, rows[start:stop], out[start:stop])

    in_parallel(len(rows), work, chunk=256)
    return out


class SheetAdvisor:
    """Exact decision values for score-sheet states, from a solved variant's tables."""

    def __init__(self, cap: int | None = None, progress: Any = None) -> None:
        self.cap = cap
        self.progress = progress
        # by the variant object's identity (the states of one game share it); the variant is
        # kept with its solution so that its id is not reused
        self._solved: dict[int, tuple[Any, Solution]] = {}

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

    def values(self, state: GameState) -> tuple[Spot, F64]:
        """The spot of ``state`` (recorded total left at 0) and every option's value there
        (a row of :func:`option_values`), in one compiled call."""
        from kosti.solver import kernels

        solution = self.solution(state)
        if not isinstance(state, SheetState):  # pragma: no cover - solution() refuses
            raise OptionError("not a score-sheet state")
        spot, row = encode(solution, state)
        out = np.empty((1, width(solution.model)))
        # the batch kernel on one row: one more compiled function would cost its compile time
        kernels.position_values_batch(*solution.model.packed, solution.values, np.array([row]), out)
        return spot, out[0]

    def values_batch(self, states: list[SheetState]) -> F64:
        """Every option's value in each of ``states`` (one variant), in one compiled call per thread."""
        if not states:
            return np.empty((0, 0))
        solution = self.solution(states[0])
        if any(s.variant != states[0].variant for s in states):
            raise OptionError("a batch of positions is of one variant")
        rows = np.array([encode(solution, s)[1] for s in states], dtype=np.int64)
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
        _, row = self.values(state)
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
            _, row = self.values(decided)
            return spot_of(solution, state).recorded + float(row[INDEX[state.held] if state.throws else 0])
        _, row = self.values(state)
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
