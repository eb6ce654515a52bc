"""Exact values of the decisions of a real game: the advisor, the optimal bot, the report.

Each seat's sheet is valued as a solitaire sheet: the value of a decision is the
expected final score of that player's sheet if they play optimally from then on.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kosti.actions import Action, CellAction, Hold, Roll
from kosti.bots.base import Advice
from kosti.errors import IllegalActionError, KostiError, OptionError
from kosti.games.base import GameState
from kosti.games.sheet.game import SHEET, SheetState, cells_of, sheet_total, upper_total
from kosti.record import Record, states, written_steps
from kosti.rules.options import UPPER_CELLS
from kosti.solver import kernels
from kosti.solver.model import B_, DICE_INDEX, F64, FIVE, INDEX, T_, Y_, YC, dice_tables
from kosti.solver.tables import Solution, solve

TIE = 1e-9
"""Decisions closer than this are equally good (the order of ``decisions`` breaks the tie)."""


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


@dataclass
class TurnTables:
    """One state's turn, solved: successors, the chain of later throws, the chases.

    Shared by every decision of the turn: ``spot`` is where the turn started, its
    ``left`` and ``bank`` are not those of a later decision.
    """

    solution: Solution
    spot: Spot
    ua: int
    la: int
    joker: bool
    Uv: F64
    Vz: F64
    Vnz: F64
    maxVz: F64
    W: F64
    M: F64
    chases: dict[int, tuple[F64, F64]] = field(default_factory=dict)

    @property
    def jc(self) -> int:
        return int(self.W.shape[0]) - 1

    def record(self, cell: int, left: int, first: bool) -> F64:
        """Recording each throw in ``cell`` (0–5 upper, 6+ lower) with ``left`` throws left."""
        model = self.solution.model
        t = dice_tables()
        out = np.empty(len(t.prob))
        kernels.record_cell(
            left, int(first), cell, model.cfg, model.fcfg, t.counts, t.yahtzee, model.lower_score,
            model.joker_score, self.spot.um, self.joker, self.spot.flag, self.Uv, self.Vz, self.Vnz, out,
        )  # fmt: skip
        return out

    def record_best(self, left: int, first: bool) -> F64:
        """The best record of each throw with ``left`` throws left."""
        model = self.solution.model
        t = dice_tables()
        out = np.empty(len(t.prob))
        kernels.record_all(
            left, int(first), model.cfg, model.fcfg, t.counts, t.yahtzee, model.lower_score,
            model.joker_score, model.nz_ptr, model.nz_cell, self.spot.um, self.ua, self.la, self.joker,
            self.spot.flag, self.Uv, self.Vz, self.Vnz, self.maxVz, out,
        )  # fmt: skip
        return out

    def chase(self, cell: int) -> tuple[F64, F64]:
        """``(Wc, Mc)`` of the chase of one announced cell (computed once)."""
        if cell not in self.chases:
            model = self.solution.model
            t = dice_tables()
            Wc = np.empty((self.jc + 1, len(t.prob)))
            Mc = np.empty((self.jc + 1, len(t.prob)))
            kernels.chase(
                model.cfg, model.fcfg, t.counts, t.yahtzee, model.lower_score, model.joker_score, t.add,
                t.sub_ptr, t.sub_idx, self.spot.um, self.joker, self.spot.flag, cell, self.jc, self.Uv,
                self.Vz, self.Vnz, Wc, Mc,
            )  # fmt: skip
            self.chases[cell] = (Wc, Mc)
        return self.chases[cell]

    def holds(self, later: F64) -> F64:
        """Every hold's value (indexed as :data:`~kosti.solver.model.ALL`) from the next throw's values."""
        t = dice_tables()
        E = np.empty(len(INDEX))
        kernels.step(later, t.add, t.sub_ptr, t.sub_idx, E, np.empty(FIVE), np.empty(len(t.prob)))
        return E

    def start(self, bank: int) -> float:
        """The value of the turn before its first throw (no scratch), with ``bank`` banked."""
        t = dice_tables()
        j1 = bank + self.solution.model.throws - 1
        best = self.record_best(j1, True)
        if j1 >= 1:
            best = np.maximum(best, self.M[j1])
        return float(t.prob @ best)


def spot_of(solution: Solution, state: SheetState) -> Spot:
    """The solver's coordinates of the current player's sheet in ``state``."""
    model = solution.model
    options = model.options
    sheet = state.sheets[state.current]
    col = SHEET.column(state)
    column = sheet.columns[col]
    names = cells_of(options)
    um = sum(1 << i for i, cell in enumerate(UPPER_CELLS) if column[names.index(cell)] is not None)
    lm = sum(1 << i for i, cell in enumerate(model.lower) if column[names.index(cell)] is not None)
    pair = model.pair_of(um, upper_total(options, column))
    flag = 0
    if model.flags == 2:
        flag = int(bool(sheet.columns[0][len(UPPER_CELLS) + int(model.cfg[YC])]))
    cap = int(model.cfg[B_])
    throws = int(model.cfg[T_])
    banked = sheet.banked if options.banked_throws else 0
    bank = min(banked + max(0, state.throws - throws), cap)
    left = min(SHEET.throws_left(state), cap + throws - 1)
    return Spot(col, lm, um, pair, flag, bank, left, sheet_total(options, sheet))


class SheetAdvisor:
    """Exact decision values for score-sheet states, from a solved variant's tables."""

    def __init__(self, cap: int | None = None, progress: Any = None, cache_size: int = 256) -> None:
        self.cap = cap
        self.progress = progress
        self._tables: OrderedDict[tuple[str, int, int, int, int], TurnTables] = OrderedDict()
        self._cache_size = cache_size

    def solution(self, state: GameState) -> Solution:
        """The solved tables of the state's variant (from the disk cache after the first time)."""
        if not isinstance(state, SheetState):
            raise OptionError(
                f"{state.variant.spec} is not a score-sheet game: the solver plays score sheets"
            )
        return solve(state.variant, cap=self.cap, progress=self.progress)

    def tables(self, solution: Solution, spot: Spot) -> TurnTables:
        """The solved turn of ``spot``'s state (kept for the next decisions of the same turn)."""
        key = (solution.spec, spot.column, spot.lm, spot.pair, spot.flag)
        cached = self._tables.get(key)
        if cached is not None:
            self._tables.move_to_end(key)
            return cached
        model = solution.model
        t = dice_tables()
        cap = int(model.cfg[B_])
        throws = model.throws
        jc = cap + throws - 1
        jm = cap + throws + 1
        nd = len(t.prob)
        W = np.full((jc + 1, nd), np.nan)
        M = np.full((jc + 1, nd), np.nan)
        Uv = np.zeros((6, 6, jm))
        Vz = np.zeros((model.n_lower, jm))
        Vnz = np.zeros((model.n_lower, jm))
        maxVz = np.zeros(jm)
        kernels.turn(
            solution.values, model.cfg, model.fcfg, model.kinds, model.pair_um, model.next_pair,
            model.up_reward, t.counts, t.prob, t.yahtzee, model.lower_score, model.joker_score,
            model.nz_ptr, model.nz_cell, t.add, t.sub_ptr, t.sub_idx, t.count_move, spot.column, spot.lm,
            spot.pair, spot.flag, jc, int(model.cfg[Y_]) == 1, W, M, Uv, Vz, Vnz, maxVz,
        )  # fmt: skip
        ua, la = kernels.allowed(model.cfg, int(model.kinds[spot.column]), spot.um, spot.lm)
        joker = bool(kernels.joker_applies(model.cfg, spot.column, spot.lm))
        tables = TurnTables(solution, spot, ua, la, joker, Uv, Vz, Vnz, maxVz, W, M)
        self._tables[key] = tables
        if len(self._tables) > self._cache_size:
            self._tables.popitem(last=False)
        return tables

    def future(self, state: GameState) -> list[tuple[Action, float]]:
        """Each decision of ``state`` with the expected score its player will still make after it."""
        solution = self.solution(state)
        if not isinstance(state, SheetState):  # pragma: no cover - solution() refuses
            raise OptionError("not a score-sheet state")
        decisions = SHEET.decisions(state)
        if not decisions:
            return []
        spot = spot_of(solution, state)
        tables = self.tables(solution, spot)
        return [(a, self._value(tables, state, spot, a)) for a in decisions]

    def _value(self, tables: TurnTables, state: SheetState, spot: Spot, action: Action) -> float:
        model = tables.solution.model
        cells = {cell: i for i, cell in enumerate(UPPER_CELLS)}
        cells.update({cell: 6 + i for i, cell in enumerate(model.lower)})
        if state.throws == 0:
            if isinstance(action, CellAction) and action.kind == "scratch":
                return float(tables.Vz[cells[action.cell] - 6, spot.bank + model.throws])
            return tables.start(spot.bank)
        d = DICE_INDEX[state.dice]
        first = state.throws == 1
        if isinstance(action, CellAction) and action.kind == "score":
            return float(tables.record(cells[action.cell], spot.left, first)[d])
        if isinstance(action, CellAction) and action.kind == "scratch":
            return float(tables.Vz[cells[action.cell] - 6, spot.left])
        if isinstance(action, CellAction) and action.kind == "announce":
            cell = cells[action.cell]
            now = tables.record(cell, spot.left, True)[d]
            if spot.left == 0:
                return float(now)
            return float(max(now, tables.chase(cell)[1][spot.left, d]))
        if isinstance(action, Hold):
            return float(self._later(tables, state, spot)[INDEX[action.faces]])
        raise IllegalActionError(f"{action} is not a decision of score-sheet poker")  # pragma: no cover

    def _later(self, tables: TurnTables, state: SheetState, spot: Spot) -> F64:
        """The value of every hold now, from the values of the next throw."""
        if state.announced is not None:
            cells = cells_of(tables.solution.model.options)
            index = cells.index(state.announced)
            cell = index if index < 6 else 6 + tables.solution.model.lower.index(state.announced)
            later = tables.chase(cell)[0][spot.left - 1]
        else:
            later = tables.W[spot.left - 1]
        return tables.holds(later)

    def position_value(self, state: GameState) -> float:
        """The expected final score of the current player's sheet (the player to move, or at a throw)."""
        solution = self.solution(state)
        if not isinstance(state, SheetState):  # pragma: no cover - solution() refuses
            raise OptionError("not a score-sheet state")
        options = solution.model.options
        if state.finished:
            return float(sheet_total(options, state.sheets[state.current]))
        spot = spot_of(solution, state)
        if state.pending:
            tables = self.tables(solution, spot)
            if state.throws == 0:
                return spot.recorded + tables.start(spot.bank)
            return spot.recorded + float(self._later(tables, state, spot)[INDEX[state.held]])
        return spot.recorded + max(v for _, v in self.future(state))

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


class OptimalBot:
    """Plays each seat's sheet to the highest expected final score (exact, solitaire)."""

    name = "optimal"

    def __init__(self, cap: int | None = None, progress: Any = None) -> None:
        self.advisor = SheetAdvisor(cap, progress)

    def choose(self, state: GameState) -> Action:
        """The best decision (ties go to the first in the engine's order)."""
        advice = self.advisor.advise(state)
        if not advice:
            raise IllegalActionError("there is no decision to make now")
        return advice[0].action

    def advise(self, state: GameState) -> list[Advice]:
        """Every legal decision ranked, best first, with its expected final score and loss."""
        return self.advisor.advise(state)


@dataclass(frozen=True)
class Judged:
    """One decision of a record next to the best one."""

    turn: int
    player: str
    throws: int
    dice: tuple[int, ...]
    action: Action
    best: Action
    value: float
    best_value: float

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.value)


def judge(record: Record, advisor: SheetAdvisor | None = None) -> list[Judged]:
    """Every decision of every player in ``record`` compared with the optimal one.

    A roll written right after a throw stands for holding nothing (RULES.md §5): that
    implicit decision is judged too. An invalid record raises :class:`~kosti.errors.RecordError`.
    """
    for _ in states(record):  # validates the whole record first, with its usual messages
        pass
    advisor = advisor or SheetAdvisor()
    rules = record.rules()
    state: GameState = SHEET.new_game(rules, record.players)
    judged: list[Judged] = []
    for t, turn in enumerate(record.turns, 1):
        for action in turn.actions:
            for step in written_steps(SHEET, state, action):
                if not isinstance(step, Roll):
                    advice = advisor.advise(state)
                    mine = next(a for a in advice if a.action == step)
                    if not isinstance(state, SheetState):  # pragma: no cover - a sheet record
                        raise OptionError("not a score-sheet game")
                    judged.append(
                        Judged(
                            t,
                            turn.player,
                            state.throws,
                            state.dice,
                            step,
                            advice[0].action,
                            float(mine.value or 0.0),
                            float(advice[0].value or 0.0),
                        )
                    )
                state = SHEET.apply(state, step)  # type: ignore[arg-type]
    return judged


def stored_value(solution: Solution, state: SheetState) -> float:
    """The expected final score of the current player's sheet at the start of a turn, read
    from the solved table (the state must be before the turn's first throw)."""
    if state.finished:
        return float(sheet_total(solution.model.options, state.sheets[state.current]))
    if state.throws:
        raise KostiError("stored values are for the start of a turn")
    spot = spot_of(solution, state)
    return spot.recorded + float(solution.values[spot.column, spot.lm, spot.pair, spot.flag, spot.bank])
