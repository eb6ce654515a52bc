"""The heuristic bot of score-sheet poker («покер на костях»), every ``poker-*`` preset and ``yahtzee``.

Strategy (a fair opponent for a casual player, not the exact optimum):

* **Cell values.** Recording dice ``d`` in cell ``c`` is worth its score minus the
  cell's *cost*: what the cell would be worth if kept open. The cost is
  ``KEEP_FACTOR`` × the mean score of a whole turn spent chasing that cell alone
  (an exact one-cell dynamic programme, first-throw multiplier included). So a
  dash («прочерк») goes to the cell that is cheapest to give up, and a big
  combination is taken when it comes.
* **Bonus chase.** An upper cell also changes the expected upper bonus (or the
  penalty of ``poker-fences``): the final upper total is modelled as a normal
  variable around the recorded total plus the means of the open upper cells, and
  the rule's own bonus function is averaged over it. Recording three sixes is
  then worth more than its 0, a −18 is worth less.
* **The turn.** Over the throws left (banked throws «ограды» included) the bot
  takes, for each hold, the expected best cell value reachable, exactly, by
  dynamic programming over the 252 outcomes of five dice: one pass per throw.
  A throw past the third spends a banked throw, which costs ``bank_value`` + 2
  points; stopping early banks throws at the same price. Stages, the column
  rules of ``poker-fences`` (announce, order, scratch) and the Yahtzee joker are
  respected because the bot only ever ranks ``engine.decisions(state)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from kosti.actions import Action, CellAction, Hold
from kosti.bots.heuristic import HeuristicBot
from kosti.dice import Faces, multisets, reroll, submultisets
from kosti.errors import IllegalActionError
from kosti.games.sheet.game import SHEET, SheetState, cells_of, column_bonus, options_of, sheet_total
from kosti.games.sheet.scoring import UPPER_FACE, cell_score, upper_bonus
from kosti.rules.options import UPPER_CELLS, SheetOptions

Vector = npt.NDArray[np.float64]

KEEP_FACTOR = 0.8
"""The share of a cell's one-turn chase value the bot expects to get if it keeps the cell open."""

FLEX_VALUE = 2.0
"""What a banked throw is worth beyond its end-of-game points: the freedom to throw again later."""

MAX_EXTRA_THROWS = 6
"""Banked throws the bot plans with in one turn (more is never worth planning for)."""

THROWN: tuple[Faces, ...] = multisets(5)
INDEX: dict[Faces, int] = {d: i for i, d in enumerate(THROWN)}
KEEPS: tuple[Faces, ...] = tuple(m for n in range(5) for m in multisets(n))
KEEP_INDEX: dict[Faces, int] = {k: i for i, k in enumerate(KEEPS)}


@cache
def _transitions() -> tuple[Vector, npt.NDArray[np.intp]]:
    """Per hold, the distribution of the five dice after the throw; per outcome, its holds."""
    trans = np.zeros((len(KEEPS), len(THROWN)))
    for k, keep in enumerate(KEEPS):
        for faces, p in reroll(keep).items():
            trans[k, INDEX[faces]] += float(p)
    holds = np.full((len(THROWN), 32), len(KEEPS), dtype=np.intp)
    for i, d in enumerate(THROWN):
        ks = [KEEP_INDEX[h] for h in submultisets(d) if len(h) < 5]
        holds[i, : len(ks)] = ks
    return trans, holds


def _hold_values(w: Vector) -> Vector:
    """The expected value of ``w`` after each hold (index :data:`KEEP_INDEX`), −∞ appended."""
    trans, _ = _transitions()
    return np.append(trans @ w, -np.inf)


def _best_hold(w: Vector) -> Vector:
    """Per outcome, the expected value of ``w`` after its best hold."""
    _, holds = _transitions()
    values: Vector = _hold_values(w)[holds].max(axis=1)
    return values


@dataclass(frozen=True)
class SheetModel:
    """What the bot knows of a sheet: each cell's score for every throw, and each cell's cost."""

    cells: tuple[str, ...]
    scores: Vector
    """[first throw?, cell, outcome] → score, cell bonuses included."""

    joker_scores: Vector
    """The same for a Yahtzee played as a joker."""

    mean: Vector
    """Per cell, the mean score of a turn spent chasing it alone."""

    @property
    def cost(self) -> Vector:
        cost: Vector = KEEP_FACTOR * self.mean
        return cost


@cache
def sheet_model(options: SheetOptions) -> SheetModel:
    """The model of a sheet (computed once per option set)."""
    cells = cells_of(options)
    scores = np.zeros((2, len(cells), len(THROWN)))
    joker = np.zeros_like(scores)
    for first in (0, 1):
        for c, cell in enumerate(cells):
            for i, d in enumerate(THROWN):
                scores[first, c, i] = cell_score(cell, d, options, first_throw=bool(first))
                if len(set(d)) == 1:
                    joker[first, c, i] = cell_score(cell, d, options, first_throw=bool(first), joker=True)
                else:
                    joker[first, c, i] = scores[first, c, i]
    mean = np.zeros(len(cells))
    for c in range(len(cells)):
        w: Vector = scores[0, c]
        for _ in range(options.throws - 2):
            w = np.maximum(scores[0, c], _best_hold(w))
        top = np.maximum(scores[1, c], _best_hold(w)) if options.throws > 1 else scores[1, c]
        mean[c] = float(_hold_values(top)[KEEP_INDEX[()]])
    return SheetModel(cells, scores, joker, mean)


def _normal_weights(sigma: float) -> tuple[npt.NDArray[np.intp], Vector]:
    """Integer offsets and their weights for a normal spread ``sigma`` (one point when 0)."""
    if sigma <= 0:
        return np.zeros(1, dtype=np.intp), np.ones(1)
    span = math.ceil(4 * sigma)
    offsets = np.arange(-span, span + 1)
    weights = np.exp(-0.5 * (offsets / sigma) ** 2)
    return offsets.astype(np.intp), weights / weights.sum()


def expected_bonus(options: SheetOptions, upper: int, open_faces: Sequence[int], model: SheetModel) -> float:
    """The expected upper bonus of a column with ``upper`` recorded and these faces still open."""
    if options.upper_bonus == "none":
        return 0.0
    if not open_faces:
        return float(upper_bonus(upper, options))
    # a player picks the face they threw most of, so the section does better than a one-face chase
    mean = sum(model.mean[f - 1] + 0.4 * f for f in open_faces)
    sigma = math.sqrt(sum(1.2 * f * f for f in open_faces))
    offsets, weights = _normal_weights(sigma)
    centre = round(upper + mean)
    return float(
        sum(w * upper_bonus(int(centre + o), options) for o, w in zip(offsets, weights, strict=True))
    )


@dataclass(frozen=True)
class TurnPlan:
    """One turn of one player, valued: what ending the turn is worth after each throw."""

    value: Vector
    """[first throw?, cell, outcome] → what recording there is worth (score − cost + bonus change)."""

    allowed: tuple[int, ...]
    """The cells the turn may end in (indices into the model's cells)."""

    scratch: float | None
    """What the best scratch is worth (``None`` when no cell may be scratched)."""

    bank_price: float
    """What one banked throw is worth."""

    throws: int
    """Throws per turn without banked ones."""

    last: int
    """The last throw the turn may reach (banked throws included, capped)."""

    def gain(self, t: int) -> float:
        """The worth of the throws banked by ending the turn after throw ``t``."""
        return self.bank_price * max(0, self.throws - t)

    def stop(self, t: int) -> Vector:
        """Per outcome, the best way to end the turn after throw ``t``."""
        first = 1 if t == 1 else 0
        best = np.full(len(THROWN), -np.inf)
        if self.allowed:
            best = self.value[first, list(self.allowed)].max(axis=0)
        if self.scratch is not None:
            best = np.maximum(best, self.scratch)
        return best + self.gain(t)

    def price(self, t: int) -> float:
        """The cost of throwing again after throw ``t`` (a banked throw past the allowance)."""
        return self.bank_price if t >= self.throws else 0.0

    @cached_property
    def levels(self) -> dict[int, Vector]:
        """Per throw ``t`` (1 … last), per outcome, the value of the decision point after it."""
        levels: dict[int, Vector] = {self.last: self.stop(self.last)}
        for t in range(self.last - 1, 0, -1):
            levels[t] = np.maximum(self.stop(t), _best_hold(levels[t + 1]) - self.price(t))
        return levels


def plan_turn(state: SheetState, only: str | None = None) -> TurnPlan:
    """The plan of the current player's turn; ``only``: the turn must end in that cell."""
    options = options_of(state)
    model = sheet_model(options)
    sheet = state.sheets[state.current]
    column = sheet.columns[SHEET.column(state)]
    names = model.cells
    value = model.scores - model.cost[None, :, None]
    yahtzee = sheet.columns[0][names.index("yahtzee")] if "yahtzee" in names else None
    five_alike = np.array([len(set(d)) == 1 for d in THROWN])
    if options.joker != "none" and yahtzee is not None:
        value = np.where(five_alike[None, None, :], model.joker_scores - model.cost[None, :, None], value)
    if options.extra_yahtzee_bonus and yahtzee:
        value = value + np.where(five_alike, float(options.extra_yahtzee_bonus), 0.0)[None, None, :]
    upper = sum(v for v in column[: len(UPPER_CELLS)] if v is not None)
    open_faces = [UPPER_FACE[c] for c, v in zip(UPPER_CELLS, column, strict=False) if v is None]
    now = expected_bonus(options, upper, open_faces, model)
    for face in open_faces:
        c = face - 1
        rest = [f for f in open_faces if f != face]
        scores = model.scores[0, c]
        change = {s: expected_bonus(options, upper + int(s), rest, model) - now for s in np.unique(scores)}
        value[:, c, :] += np.vectorize(change.__getitem__)(scores)
    if only is not None:
        allowed: list[str] = [only]
    elif state.announced is not None:
        allowed = [state.announced]
    else:
        allowed = SHEET.open_cells(state)
    scratchable = [] if only is not None else SHEET.scratchable_cells(state)
    scratch = max((float(-model.cost[names.index(c)]) for c in scratchable), default=None)
    bank_price = options.bank_value + FLEX_VALUE if options.banked_throws else 0.0
    allowance = max(0, options.throws - state.throws)
    further = min(SHEET.throws_left(state), allowance + MAX_EXTRA_THROWS)
    if SHEET.column_kind(state) == "announced" and state.announced is None and only is None:
        further = min(further, 1 - state.throws if state.throws < 1 else 0)
    return TurnPlan(
        value=value,
        allowed=tuple(names.index(c) for c in allowed),
        scratch=scratch,
        bank_price=bank_price,
        throws=options.throws,
        last=max(1, state.throws + further),
    )


class SheetBot(HeuristicBot[SheetState]):
    """The heuristic player of score-sheet poker (see the module docstring for the strategy).

    Its values are a rough estimate of the final total after each decision.
    """

    plays = SheetState

    def weigh(self, state: SheetState, decisions: list[Action]) -> list[float]:
        plan = plan_turn(state)
        return [self._worth(state, plan, a) for a in decisions]

    def baseline(self, state: SheetState) -> float:
        return self._baseline(state)

    def _worth(self, state: SheetState, plan: TurnPlan, action: Action) -> float:
        """What ``action`` is worth to the plan of the turn (relative to keeping every cell open)."""
        t = state.throws
        model = sheet_model(options_of(state))
        if isinstance(action, CellAction) and action.kind == "scratch":
            return float(-model.cost[model.cells.index(action.cell)]) + plan.gain(t)
        if isinstance(action, Hold) and t == 0:
            return float(_hold_values(self._after_first(state, plan))[KEEP_INDEX[()]])
        i = INDEX[state.dice]
        if isinstance(action, Hold):
            return float(_hold_values(plan.levels[t + 1])[KEEP_INDEX[action.faces]]) - plan.price(t)
        if isinstance(action, CellAction) and action.kind == "score":
            c = model.cells.index(action.cell)
            return float(plan.value[1 if t == 1 else 0, c, i]) + plan.gain(t)
        if isinstance(action, CellAction) and action.kind == "announce":
            return float(plan_turn(state, only=action.cell).levels[t][i])
        raise IllegalActionError("not_a_sheet_action", action=str(action))

    def _after_first(self, state: SheetState, plan: TurnPlan) -> Vector:
        """Per outcome of the first throw, the value of the decision point it leads to."""
        if SHEET.column_kind(state) != "announced":
            return plan.levels[1]
        best = plan.stop(1)
        for cell in SHEET.open_cells(state):
            best = np.maximum(best, plan_turn(state, only=cell).levels[1])
        return best

    def _baseline(self, state: SheetState) -> float:
        """The total so far plus what the open cells and undecided bonuses are expected to add."""
        options = options_of(state)
        model = sheet_model(options)
        sheet = state.sheets[state.current]
        total = float(sheet_total(options, sheet))
        for column in sheet.columns:
            total += sum(float(model.cost[c]) for c, v in enumerate(column) if v is None)
            if column_bonus(options, column) is None:
                upper = sum(v for v in column[: len(UPPER_CELLS)] if v is not None)
                faces = [UPPER_FACE[c] for c, v in zip(UPPER_CELLS, column, strict=False) if v is None]
                total += expected_bonus(options, upper, faces, model)
        return total
