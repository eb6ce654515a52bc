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
from dataclasses import dataclass, field
from functools import cache, cached_property

from kosti.actions import Action, CellAction, Hold
from kosti.bots.heuristic import HeuristicBot
from kosti.bots.outcomes import (
    FIVE_ALIKE,
    INDEX,
    KEEP_INDEX,
    KEEPS,
    THROWN,
    Outcomes,
    Vector,
    default_outcomes,
)
from kosti.errors import IllegalActionError
from kosti.games.sheet.game import SHEET, SheetState, cells_of, column_bonus, options_of, sheet_total
from kosti.games.sheet.scoring import UPPER_FACE, cell_score, upper_bonus
from kosti.rules.options import UPPER_CELLS, SheetOptions

__all__ = [
    "INDEX",
    "KEEPS",
    "KEEP_INDEX",
    "THROWN",
    "SheetBot",
    "SheetModel",
    "TurnPlan",
    "plan_turn",
    "sheet_model",
]

KEEP_FACTOR = 0.8
"""The share of a cell's one-turn chase value the bot expects to get if it keeps the cell open."""

FLEX_VALUE = 2.0
"""What a banked throw is worth beyond its end-of-game points: the freedom to throw again later."""

MAX_EXTRA_THROWS = 6
"""Banked throws the bot plans with in one turn (more is never worth planning for)."""

Table = tuple[tuple[Vector, ...], ...]
"""[first throw?][cell] → a vector over the throws (:data:`~kosti.bots.outcomes.THROWN`)."""


@dataclass(frozen=True)
class SheetModel:
    """What the bot knows of a sheet: each cell's score for every throw, and each cell's cost."""

    cells: tuple[str, ...]
    scores: Table
    """[first throw?][cell] → the score of each throw, cell bonuses included."""

    joker_scores: Table
    """The same for a Yahtzee played as a joker."""

    mean: tuple[float, ...]
    """Per cell, the mean score of a turn spent chasing it alone."""

    @property
    def cost(self) -> tuple[float, ...]:
        return tuple(KEEP_FACTOR * m for m in self.mean)


@cache
def sheet_model(options: SheetOptions, outcomes: Outcomes | None = None) -> SheetModel:
    """The model of a sheet (computed once per option set and kind of outcomes)."""
    o = outcomes or default_outcomes()
    cells = cells_of(options)
    plain = [
        [[float(cell_score(cell, d, options, first_throw=bool(first))) for d in THROWN] for cell in cells]
        for first in (0, 1)
    ]
    scores = tuple(tuple(o.vector(row) for row in rows) for rows in plain)
    joker = tuple(
        tuple(
            o.vector(
                float(cell_score(cell, d, options, first_throw=bool(first), joker=True)) if alike else s
                for d, alike, s in zip(THROWN, FIVE_ALIKE, plain[first][c], strict=True)
            )
            for c, cell in enumerate(cells)
        )
        for first in (0, 1)
    )
    mean = []
    for c in range(len(cells)):
        w = scores[0][c]
        for _ in range(options.throws - 2):
            w = o.maximum(scores[0][c], o.best_hold(w))
        top = o.maximum(scores[1][c], o.best_hold(w)) if options.throws > 1 else scores[1][c]
        mean.append(o.at(o.after_hold(top), KEEP_INDEX[()]))
    return SheetModel(cells, scores, joker, tuple(mean))


def expected_bonus(
    options: SheetOptions, upper: int, open_faces: Sequence[int], model: SheetModel, outcomes: Outcomes
) -> float:
    """The expected upper bonus of a column with ``upper`` recorded and these faces still open."""
    if options.upper_bonus == "none":
        return 0.0
    if not open_faces:
        return float(upper_bonus(upper, options))
    # a player picks the face they threw most of, so the section does better than a one-face chase
    mean = sum(model.mean[f - 1] + 0.4 * f for f in open_faces)
    sigma = math.sqrt(sum(1.2 * f * f for f in open_faces))
    span = math.ceil(4 * sigma) if sigma > 0 else 0
    offsets = range(-span, span + 1)
    weights = outcomes.normal(offsets, sigma) if sigma > 0 else [1.0]
    centre = round(upper + mean)
    return float(sum(w * upper_bonus(centre + o, options) for o, w in zip(offsets, weights, strict=True)))


@dataclass(frozen=True)
class TurnPlan:
    """One turn of one player, valued: what ending the turn is worth after each throw."""

    value: Table
    """[first throw?][cell] → what recording each throw there is worth (score − cost + bonus change)."""

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

    outcomes: Outcomes = field(default_factory=default_outcomes, compare=False, repr=False)
    """The arithmetic of its vectors."""

    def gain(self, t: int) -> float:
        """The worth of the throws banked by ending the turn after throw ``t``."""
        return self.bank_price * max(0, self.throws - t)

    def stop(self, t: int) -> Vector:
        """Per throw, the best way to end the turn after throw ``t``."""
        o = self.outcomes
        first = 1 if t == 1 else 0
        best = o.full(-math.inf)
        if self.allowed:
            best = o.most([self.value[first][c] for c in self.allowed])
        if self.scratch is not None:
            best = o.maximum(best, self.scratch)
        return o.plus(best, self.gain(t))

    def price(self, t: int) -> float:
        """The cost of throwing again after throw ``t`` (a banked throw past the allowance)."""
        return self.bank_price if t >= self.throws else 0.0

    @cached_property
    def levels(self) -> dict[int, Vector]:
        """Per throw ``t`` (1 … last), per outcome, the value of the decision point after it."""
        o = self.outcomes
        levels: dict[int, Vector] = {self.last: self.stop(self.last)}
        for t in range(self.last - 1, 0, -1):
            levels[t] = o.maximum(self.stop(t), o.plus(o.best_hold(levels[t + 1]), -self.price(t)))
        return levels


def plan_turn(state: SheetState, only: str | None = None, outcomes: Outcomes | None = None) -> TurnPlan:
    """The plan of the current player's turn; ``only``: the turn must end in that cell."""
    o = outcomes or default_outcomes()
    options = options_of(state)
    model = sheet_model(options, o)
    sheet = state.sheets[state.current]
    column = sheet.columns[SHEET.column(state)]
    names = model.cells
    cost = model.cost
    yahtzee = sheet.columns[0][names.index("yahtzee")] if "yahtzee" in names else None
    joker = options.joker != "none" and yahtzee is not None
    extra = o.vector(float(options.extra_yahtzee_bonus) if alike else 0.0 for alike in FIVE_ALIKE)
    value = [
        [
            o.where(
                FIVE_ALIKE, o.plus(model.joker_scores[f][c], -cost[c]), o.plus(model.scores[f][c], -cost[c])
            )
            if joker
            else o.plus(model.scores[f][c], -cost[c])
            for c in range(len(names))
        ]
        for f in (0, 1)
    ]
    if options.extra_yahtzee_bonus and yahtzee:
        value = [[o.plus(row, extra) for row in rows] for rows in value]
    upper = sum(v for v in column[: len(UPPER_CELLS)] if v is not None)
    open_faces = [UPPER_FACE[c] for c, v in zip(UPPER_CELLS, column, strict=False) if v is None]
    now = expected_bonus(options, upper, open_faces, model, o)
    for face in open_faces:
        c = face - 1
        rest = [f for f in open_faces if f != face]
        scores = model.scores[0][c]
        change = {s: expected_bonus(options, upper + int(s), rest, model, o) - now for s in o.values(scores)}
        bonus = o.mapped(scores, change)
        for rows in value:
            rows[c] = o.plus(rows[c], bonus)
    if only is not None:
        allowed: list[str] = [only]
    elif state.announced is not None:
        allowed = [state.announced]
    else:
        allowed = SHEET.open_cells(state)
    scratchable = [] if only is not None else SHEET.scratchable_cells(state)
    scratch = max((-cost[names.index(c)] for c in scratchable), default=None)
    bank_price = options.bank_value + FLEX_VALUE if options.banked_throws else 0.0
    allowance = max(0, options.throws - state.throws)
    further = min(SHEET.throws_left(state), allowance + MAX_EXTRA_THROWS)
    if SHEET.column_kind(state) == "announced" and state.announced is None and only is None:
        further = min(further, 1 - state.throws if state.throws < 1 else 0)
    return TurnPlan(
        value=tuple(tuple(rows) for rows in value),
        allowed=tuple(names.index(c) for c in allowed),
        scratch=scratch,
        bank_price=bank_price,
        throws=options.throws,
        last=max(1, state.throws + further),
        outcomes=o,
    )


class SheetBot(HeuristicBot[SheetState]):
    """The heuristic player of score-sheet poker (see the module docstring for the strategy).

    Its values are a rough estimate of the final total after each decision. ``outcomes``: the
    arithmetic of its vectors (:func:`~kosti.bots.outcomes.default_outcomes`: NumPy's where it is
    installed).
    """

    plays = SheetState

    def __init__(self, outcomes: Outcomes | None = None) -> None:
        self.outcomes = outcomes or default_outcomes()

    def weigh(self, state: SheetState, decisions: list[Action]) -> list[float]:
        plan = plan_turn(state, outcomes=self.outcomes)
        return [self._worth(state, plan, a) for a in decisions]

    def baseline(self, state: SheetState) -> float:
        return self._baseline(state)

    def _worth(self, state: SheetState, plan: TurnPlan, action: Action) -> float:
        """What ``action`` is worth to the plan of the turn (relative to keeping every cell open)."""
        o = self.outcomes
        t = state.throws
        model = sheet_model(options_of(state), o)
        if isinstance(action, CellAction) and action.kind == "scratch":
            return -model.cost[model.cells.index(action.cell)] + plan.gain(t)
        if isinstance(action, Hold) and t == 0:
            return o.at(o.after_hold(self._after_first(state, plan)), KEEP_INDEX[()])
        i = INDEX[state.dice]
        if isinstance(action, Hold):
            return o.at(o.after_hold(plan.levels[t + 1]), KEEP_INDEX[action.faces]) - plan.price(t)
        if isinstance(action, CellAction) and action.kind == "score":
            c = model.cells.index(action.cell)
            return o.at(plan.value[1 if t == 1 else 0][c], i) + plan.gain(t)
        if isinstance(action, CellAction) and action.kind == "announce":
            return o.at(plan_turn(state, only=action.cell, outcomes=o).levels[t], i)
        raise IllegalActionError("not_a_sheet_action", action=str(action))

    def _after_first(self, state: SheetState, plan: TurnPlan) -> Vector:
        """Per outcome of the first throw, the value of the decision point it leads to."""
        if SHEET.column_kind(state) != "announced":
            return plan.levels[1]
        o = self.outcomes
        best = plan.stop(1)
        for cell in SHEET.open_cells(state):
            best = o.maximum(best, plan_turn(state, only=cell, outcomes=o).levels[1])
        return best

    def _baseline(self, state: SheetState) -> float:
        """The total so far plus what the open cells and undecided bonuses are expected to add."""
        options = options_of(state)
        model = sheet_model(options, self.outcomes)
        sheet = state.sheets[state.current]
        total = float(sheet_total(options, sheet))
        for column in sheet.columns:
            total += sum(model.cost[c] for c, v in enumerate(column) if v is None)
            if column_bonus(options, column) is None:
                upper = sum(v for v in column[: len(UPPER_CELLS)] if v is not None)
                faces = [UPPER_FACE[c] for c, v in zip(UPPER_CELLS, column, strict=False) if v is None]
                total += expected_bonus(options, upper, faces, model, self.outcomes)
        return total
