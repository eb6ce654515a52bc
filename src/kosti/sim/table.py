"""A table-driven policy for single-column score sheets, and the dice tables it stands on.

The policy is a plain array ``act[row, dice, throw]``: for every set of open cells
(a *row*), every throw of five dice (one of the 252 multisets) and every throw
number of the turn, one decision — hold a positional subset of the sorted dice
(codes 0..30: bit ``i`` keeps the ``i``-th smallest die) or record a cell (code
``HOLD_CODES + c``). Both the per-game bot (:class:`TableBot`) and the vectorised
simulator (:mod:`kosti.sim.vector`) read the same array, so the two can only
differ in how they play the game, never in what they decide.

:func:`greedy_table` fills it with a one-turn policy: within the turn, exact
dynamic programming over the 252 outcomes of five dice maximising the recorded
score *relative to the cell's par*, the mean score of a whole turn chasing that
cell alone. Each cell is thus valued as it compares with its usual yield, which
keeps the policy from spending a rich cell on poor dice; it looks no further than
the turn (no upper-bonus planning), which the exact solver does.

Supported: one column, no banked throws, no scratching (``poker-classic``,
``poker-extended``, ``poker-free``, ``yahtzee`` and their option variations).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt
import platformdirs

from kosti.actions import Action, Hold, Score
from kosti.dice import Faces, multisets, reroll
from kosti.errors import IllegalActionError, OptionError
from kosti.games.base import GameState
from kosti.games.sheet.game import SheetState, cells_of, options_of
from kosti.games.sheet.scoring import cell_score
from kosti.rules.options import UPPER_CELLS, SheetOptions
from kosti.rules.presets import Variant
from kosti.rules.presets import variant as make_variant

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

HOLD_CODES = 32
"""Decision codes below this are positional hold masks; 31 (hold all five) never occurs."""

THROWN: tuple[Faces, ...] = multisets(5)
"""The 252 distinct throws of five dice, sorted; a throw's position here is its *dice index*."""
N_THROWN = len(THROWN)
SORTED = np.array(THROWN, dtype=np.int64)
"""``SORTED[i]`` is the dice of index ``i``, smallest first."""

POWERS = 6 ** np.arange(5, dtype=np.int64)
N_KEYS = 6**5
"""An ordered throw of five dice is a key ``Σ (face_i − 1)·6^i`` in 0..7775."""


KEEPS: tuple[Faces, ...] = tuple(m for n in range(5) for m in multisets(n))
"""Every hold as a multiset (0 to 4 dice): 210 of them."""
KEEP_INDEX: dict[Faces, int] = {k: i for i, k in enumerate(KEEPS)}
DICE_INDEX: dict[Faces, int] = {d: i for i, d in enumerate(THROWN)}

HOLD_BITS = ((np.arange(HOLD_CODES)[:, None] >> np.arange(5)[None, :]) & 1).astype(bool)
"""``HOLD_BITS[h, i]``: hold mask ``h`` keeps the ``i``-th smallest die."""


@cache
def key_to_dice() -> IntArray:
    """``key_to_dice()[key]``: the dice index of an ordered throw (so nothing is ever sorted)."""
    digits = (np.arange(N_KEYS)[:, None] // POWERS[None, :]) % 6 + 1
    return np.array([DICE_INDEX[tuple(sorted(int(f) for f in row))] for row in digits], dtype=np.int64)


@cache
def held_key() -> IntArray:
    """``held_key()[dice, h]``: the key part of the dice hold ``h`` keeps, each in its own position."""
    keys: IntArray = np.where(HOLD_BITS[None, :, :], (SORTED[:, None, :] - 1) * POWERS, 0).sum(axis=2)
    return keys


@cache
def free_key() -> IntArray:
    """``free_key()[h, key]``: the digits of a fresh throw ``key`` in the positions ``h`` does not hold.

    A throw after holding ``h`` is ``held_key()[dice, h] + free_key()[h, uniform key]``: the
    thrown dice are independent uniform digits, exactly as the engine's dice are.
    """
    digits = (np.arange(N_KEYS)[:, None] // POWERS) % 6 * POWERS
    keys: IntArray = np.where(~HOLD_BITS[:, None, :], digits[None, :, :], 0).sum(axis=2)
    return keys


@cache
def transition() -> FloatArray:
    """``transition()[keep, dice]``: the chance that holding ``keep`` and throwing the rest gives ``dice``."""
    p = np.zeros((len(KEEPS), N_THROWN))
    for k, keep in enumerate(KEEPS):
        for faces, prob in reroll(keep).items():
            p[k, DICE_INDEX[faces]] = float(prob)
    return p


@cache
def hold_keep() -> IntArray:
    """``hold_keep()[dice, h]``: the hold (a keep index) that mask ``h`` makes of these dice."""
    return np.array(
        [
            [KEEP_INDEX[tuple(int(f) for f in SORTED[d][HOLD_BITS[h]])] for h in range(HOLD_CODES - 1)]
            for d in range(N_THROWN)
        ],
        dtype=np.int64,
    )


FIVE_OF_A_KIND = np.array([len(set(d)) == 1 for d in THROWN])


def hold_faces(dice: Faces, code: int) -> Faces:
    """The faces a positional hold mask keeps of sorted ``dice``."""
    return tuple(f for i, f in enumerate(dice) if code >> i & 1)


def check_vector_sheet(options: object) -> SheetOptions:
    """The options when the table policy and the vectorised simulator support them; else OptionError."""
    if not isinstance(options, SheetOptions):
        raise OptionError("the table policy plays score-sheet presets only")
    if options.columns != "single":
        raise OptionError("the table policy plays one column, not the three columns of poker-fences")
    if options.banked_throws or options.scratch:
        raise OptionError("the table policy does not bank throws or scratch cells")
    if options.joker == "free":
        raise OptionError("the table policy plays the forced joker, not joker=free")
    return options


@dataclass(frozen=True)
class SheetLayout:
    """The scoring tables of one sheet, indexed by cell (table order) and dice index."""

    variant: Variant
    cells: tuple[str, ...]
    throws: int
    sequential: bool
    """Lower cells only once the upper section is full."""

    score: IntArray
    """``score[first, dice, cell]``: what recording there scores (cell bonuses included)."""

    joker_score: IntArray
    """The same when the forced-joker rule applies (five of a kind, ``yahtzee`` recorded)."""

    joker_cell: int | None
    """The index of ``yahtzee`` when the joker rule is in force, else ``None``."""

    yahtzee_cell: int | None
    """The index of ``yahtzee`` when extra Yahtzees earn a bonus, else ``None``."""

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def full(self) -> int:
        """The bit mask with every cell open."""
        return (1 << self.n_cells) - 1

    def reachable(self, mask: int) -> bool:
        """Can this set of open cells occur? (Sequential stages keep the lower cells open first.)"""
        upper = (1 << len(UPPER_CELLS)) - 1
        return not self.sequential or mask & upper == 0 or mask >> len(UPPER_CELLS) == self.full >> 6

    def legal(self, masks: IntArray) -> npt.NDArray[np.bool_]:
        """``legal[row, dice, cell]``: where the dice may be recorded, for each mask of open cells."""
        open_ = ((masks[:, None] >> np.arange(self.n_cells)[None, :]) & 1).astype(bool)
        allowed = open_.copy()
        if self.sequential:
            upper_open = open_[:, : len(UPPER_CELLS)].any(axis=1)
            allowed[upper_open, len(UPPER_CELLS) :] = False
        legal = np.repeat(allowed[:, None, :], N_THROWN, axis=1)
        if self.joker_cell is not None:
            # forced joker (the engine's scorable_cells): its upper cell if open, else a lower cell, else any
            closed = ~open_[:, self.joker_cell]
            for d in np.flatnonzero(FIVE_OF_A_KIND):
                face = int(SORTED[d, 0])
                rows = np.flatnonzero(closed)
                sub = allowed[rows]
                upper_cell = face - 1
                choice = np.zeros_like(sub)
                has_upper = sub[:, upper_cell]
                choice[has_upper, upper_cell] = True
                lower = sub.copy()
                lower[:, : len(UPPER_CELLS)] = False
                use_lower = ~has_upper & lower.any(axis=1)
                choice[use_lower] = lower[use_lower]
                rest = ~has_upper & ~use_lower
                choice[rest] = sub[rest]
                legal[rows, d, :] = choice
        return legal

    def joker_applies(self, masks: IntArray) -> npt.NDArray[np.bool_]:
        """Per mask: would five of a kind be a joker (``yahtzee`` already recorded)?"""
        if self.joker_cell is None:
            return np.zeros(masks.shape, dtype=bool)
        closed: npt.NDArray[np.bool_] = ((masks >> self.joker_cell) & 1) == 0
        return closed


@cache
def layout(spec: str) -> SheetLayout:
    """The :class:`SheetLayout` of a variant given by its canonical string."""
    rules = make_variant(spec)
    options = check_vector_sheet(rules.options)
    cells = cells_of(options)
    score = np.zeros((2, N_THROWN, len(cells)), dtype=np.int64)
    joker = np.zeros_like(score)
    for first in (0, 1):
        for d, dice in enumerate(THROWN):
            for c, cell in enumerate(cells):
                score[first, d, c] = cell_score(cell, dice, options, first_throw=bool(first))
                joker[first, d, c] = cell_score(cell, dice, options, first_throw=bool(first), joker=True)
    has_yahtzee = "yahtzee" in cells
    return SheetLayout(
        variant=rules,
        cells=cells,
        throws=options.throws,
        sequential=options.stages == "sequential",
        score=score,
        joker_score=joker,
        joker_cell=cells.index("yahtzee") if options.joker != "none" and has_yahtzee else None,
        yahtzee_cell=cells.index("yahtzee") if options.extra_yahtzee_bonus and has_yahtzee else None,
    )


@dataclass(frozen=True)
class SheetTable:
    """A policy as a table: ``act[row_of_mask[mask], dice, throw − 1]`` is the decision code.

    It is a :class:`~kosti.sim.vector.VectorPolicy`: a policy that also looks at the upper
    total (the exact solver's) would map more of the state to its rows, the same way.
    """

    layout: SheetLayout
    row_of_mask: IntArray
    """The row of a mask of open cells (bit ``c`` set: cell ``c`` open), −1 if unreachable."""

    act: npt.NDArray[np.uint8]
    """Decision codes: below :data:`HOLD_CODES` a hold mask, else ``HOLD_CODES + cell``."""

    def rows(self, mask: IntArray, upper: IntArray, yahtzee_made: npt.NDArray[np.bool_]) -> IntArray:
        """The row of ``act`` for each game at the start of a turn (this table reads the mask only)."""
        rows: IntArray = self.row_of_mask[mask]
        return rows

    def decide(self, mask: int, dice: int, throw: int) -> int:
        """The decision code for open cells ``mask``, dice index ``dice``, after throw ``throw`` (1-based)."""
        row = int(self.row_of_mask[mask])
        if row < 0 or not 1 <= throw <= self.layout.throws:
            raise IllegalActionError(f"the table has no decision for mask {mask:b} after throw {throw}")
        return int(self.act[row, dice, throw - 1])


def _turn_dp(
    lay: SheetLayout, masks: IntArray, value: FloatArray, value_joker: FloatArray
) -> tuple[npt.NDArray[np.uint8], FloatArray]:
    """One turn's exact dynamic programme for a batch of masks.

    ``value[first, dice, cell]`` is what recording is worth. Returns the decision codes
    ``[mask, dice, throw]`` and each mask's expected value at the start of the turn.
    Ties go to recording, then to the smallest cell or hold mask, so the table is deterministic.
    """
    legal = lay.legal(masks)
    joker = np.flatnonzero(lay.joker_applies(masks))
    five = np.flatnonzero(FIVE_OF_A_KIND)
    throws = lay.throws
    act = np.zeros((len(masks), N_THROWN, throws), dtype=np.uint8)
    p = transition()
    keeps = hold_keep()

    def record(first: int) -> tuple[FloatArray, IntArray]:
        # a loop over the few cells is much faster than argmax along a short last axis
        best_value = np.full(legal.shape[:2], -np.inf)
        best_cell = np.zeros(legal.shape[:2], dtype=np.int64)
        for c in range(lay.n_cells):
            v = np.broadcast_to(value[first, :, c], best_value.shape).copy()
            if len(joker):
                v[np.ix_(joker, five)] = value_joker[first, five, c]
            v[~legal[:, :, c]] = -np.inf
            np.copyto(best_cell, c, where=v > best_value)
            np.maximum(best_value, v, out=best_value)
        return best_value, best_cell

    v_next, best = record(int(throws == 1))
    act[:, :, throws - 1] = HOLD_CODES + best
    for throw in range(throws - 1, 0, -1):
        expected = v_next @ p.T  # [mask, keep]
        hold_value = np.full(v_next.shape, -np.inf)
        best_hold = np.zeros(v_next.shape, dtype=np.int64)
        for h in range(HOLD_CODES - 1):
            v = expected[:, keeps[:, h]]
            np.copyto(best_hold, h, where=v > hold_value)
            np.maximum(hold_value, v, out=hold_value)
        stop_value, best = record(int(throw == 1))
        stop = stop_value >= hold_value - 1e-9
        act[:, :, throw - 1] = np.where(stop, HOLD_CODES + best, best_hold)
        v_next = np.where(stop, stop_value, hold_value)
    start = v_next @ p[KEEP_INDEX[()]]
    return act, start


BATCH = 512
"""Masks solved together: bounds the memory of one batch to some tens of megabytes."""


TABLE_VERSION = "1"
"""Bumped whenever a change could alter a built table: old cache files are then ignored."""


def cache_dir() -> Path:
    """Where built tables are kept: ``$KOSTI_CACHE_DIR`` or the user's cache directory."""
    env = os.environ.get("KOSTI_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("kosti"))


def cache_path(spec: str) -> Path:
    digest = hashlib.sha256(f"greedy|{spec}|{TABLE_VERSION}".encode()).hexdigest()[:16]
    return cache_dir() / "sim" / f"greedy-v{TABLE_VERSION}-{digest}.npy"


CACHE_FROM_ROWS = 4096
"""Tables with this many rows or more are kept on disk: they take seconds to build."""


@cache
def greedy_table(spec: str) -> SheetTable:
    """The one-turn policy of :mod:`kosti.sim.table` for a variant (canonical string).

    Built once per process; big tables are also kept in the cache directory.
    """
    lay = layout(spec)
    masks = np.array([m for m in range(1, lay.full + 1) if lay.reachable(m)], dtype=np.int64)
    row_of_mask = np.full(lay.full + 1, -1, dtype=np.int64)
    row_of_mask[masks] = np.arange(len(masks))
    shape = (len(masks), N_THROWN, lay.throws)
    path = cache_path(lay.variant.spec) if len(masks) >= CACHE_FROM_ROWS else None
    if path is not None and path.exists():
        try:
            act = np.load(path, allow_pickle=False)
            if act.shape == shape and act.dtype == np.uint8:
                return SheetTable(lay, row_of_mask, act)
        except (OSError, ValueError):
            pass  # a damaged cache file is built again
    n = lay.n_cells
    score = lay.score.astype(float)
    joker = lay.joker_score.astype(float)
    # par: a whole turn spent on the one cell
    singles = np.array([1 << c for c in range(n)], dtype=np.int64)
    _, par = _turn_dp(lay, singles, score, joker)
    value = score - par[None, None, :]
    value_joker = joker - par[None, None, :]
    act = np.zeros(shape, dtype=np.uint8)
    for start in range(0, len(masks), BATCH):
        chunk = masks[start : start + BATCH]
        act[start : start + len(chunk)], _ = _turn_dp(lay, chunk, value, value_joker)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # write then rename: a reader never sees half a file
            partial = path.with_suffix(f".{os.getpid()}.tmp")
            with partial.open("wb") as handle:
                np.save(handle, act, allow_pickle=False)
            partial.replace(path)
        except OSError:
            pass  # no cache, no harm: the table is rebuilt next time
    return SheetTable(lay, row_of_mask, act)


def open_mask(state: SheetState) -> int:
    """The open cells of the current player's (single) column as a bit mask."""
    column = state.sheets[state.current].columns[0]
    return sum(1 << c for c, v in enumerate(column) if v is None)


class TableBot:
    """Plays a score sheet by a :class:`SheetTable` (``greedy_table`` unless given one).

    The table is built on first use for the variant of the state and then cached for
    the process; a bot with a given table plays that variant only.
    """

    name = "table"

    def __init__(self, seed: int | str | None = None, table: SheetTable | None = None) -> None:
        # deterministic: the seed is accepted so that every bot is made the same way
        self._table = table

    def table_for(self, variant: Variant) -> SheetTable:
        if self._table is not None:
            return self._table
        return greedy_table(variant.spec)

    def choose(self, state: GameState) -> Action:
        if not isinstance(state, SheetState):
            raise IllegalActionError("the table bot plays score sheets only")
        check_vector_sheet(options_of(state))
        if state.throws == 0 or state.pending:
            raise IllegalActionError("there is no decision to make now")
        table = self.table_for(state.variant)
        code = table.decide(open_mask(state), DICE_INDEX[state.dice], state.throws)
        if code < HOLD_CODES:
            return Hold(hold_faces(state.dice, code))
        return Score(table.layout.cells[code - HOLD_CODES])
