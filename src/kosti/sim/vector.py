"""Many solitaire score-sheet games at once, in NumPy, played by a table policy (:class:`VectorPolicy`).

Every game of a batch is at the same turn and throw (a solitaire sheet has a fixed
number of turns), so one turn is a handful of array operations over the batch:
a throw is one uniform key in 0..7775 per game (five independent dice), a hold
adds the fresh key's free digits to the held dice's (see
:func:`~kosti.sim.table.free_key`), and the policy is one gather from its table.
Scores, the Yahtzee joker, the extra-Yahtzee bonus and the upper bonus are read from the
tables of the :class:`~kosti.sim.table.SheetLayout`, which the engine's own functions
(:mod:`kosti.games.sheet`) fill; nothing here restates a rule. The tests check that the two
play the same games on the same dice.

A run of ``games`` is cut into chunks of :data:`CHUNK` games; chunk ``j`` draws
its dice from ``SeedSequence(seed, spawn_key=(j,))``, so a seed gives the same
scores whatever the number of worker processes.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Protocol

import numpy as np
import numpy.typing as npt

from kosti.rules.options import UPPER_CELLS
from kosti.sim.table import (
    ALIKE,
    HOLD_CODES,
    N_KEYS,
    N_KINDS,
    N_THROWN,
    SheetLayout,
    free_key,
    held_key,
    key_to_dice,
)

CHUNK = 1 << 15
"""Games per chunk: big enough that NumPy's per-call overhead vanishes, small enough for the cache."""

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class VectorPolicy(Protocol):
    """A table-driven policy the simulator can play: ``act[row, dice, throw − 1]`` is a decision code
    (below :data:`~kosti.sim.table.HOLD_CODES` a positional hold mask, else ``HOLD_CODES + cell``)."""

    @property
    def layout(self) -> SheetLayout: ...

    @property
    def act(self) -> npt.NDArray[np.uint8]: ...

    def rows(self, mask: IntArray, upper: IntArray, yahtzee_made: BoolArray) -> IntArray:
        """The row of ``act`` for each game at the start of a turn: open cells (bit set = open),
        upper total so far, and whether ``yahtzee`` holds a non-zero score. A policy may grow
        ``act`` here (solving the states it meets for the first time)."""
        ...


def _chunk_rng(seed: int, chunk: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk,))))


def play_chunk(table: VectorPolicy, games: int, rng: np.random.Generator) -> IntArray:
    """Final totals of ``games`` solitaire games played by ``table`` with dice from ``rng``."""
    lay = table.layout
    to_dice = key_to_dice()
    held = held_key().ravel()
    free = free_key().ravel()
    throws = lay.throws
    n_cells = lay.n_cells
    score = lay.score.ravel()
    # per open-cell set and kind of throw, how far a joker moves the index into lay.score
    joker = None
    if lay.joker.any():
        jump = np.zeros((lay.full + 1, N_KINDS), dtype=np.int64)
        jump[lay.masks] = lay.joker * (2 * N_THROWN * n_cells)
        joker = jump.ravel()
    scored_by = lay.scored_by.ravel() if lay.scored_by.any() else None
    extra = lay.extra.ravel() if lay.extra.any() else None

    mask = np.full(games, lay.full, dtype=np.int64)
    total = np.zeros(games, dtype=np.int64)
    upper = np.zeros(games, dtype=np.int64)
    yahtzee_made = np.zeros(games, dtype=bool)
    extra_yahtzees = np.zeros(games, dtype=np.int64)
    everyone = np.arange(games)

    for _ in range(n_cells):
        row = table.rows(mask, upper, yahtzee_made)
        act = table.act.ravel()
        dice = to_dice[rng.integers(0, N_KEYS, games)]
        cell = np.zeros(games, dtype=np.int64)
        first = np.zeros(games, dtype=np.int64)
        active = everyone
        for throw in range(1, throws + 1):
            code = act[(row[active] * N_THROWN + dice[active]) * throws + throw - 1].astype(np.int64)
            records = code >= HOLD_CODES
            done = active[records]
            cell[done] = code[records] - HOLD_CODES
            first[done] = throw == 1
            active = active[~records]
            if not len(active):
                break
            hold = code[~records]
            fresh = rng.integers(0, N_KEYS, len(active))
            dice[active] = to_dice[held[dice[active] * HOLD_CODES + hold] + free[hold * N_KEYS + fresh]]

        where = (first * N_THROWN + dice) * n_cells + cell
        if joker is not None:
            where += joker[mask * N_KINDS + ALIKE[dice]]
        value = score[where]
        if extra is not None:
            extra_yahtzees += extra[np.where(yahtzee_made, dice + N_THROWN, dice)]
        if scored_by is not None:
            yahtzee_made |= scored_by[where]
        total += value
        upper += np.where(cell < len(UPPER_CELLS), value, 0)
        mask &= ~(np.int64(1) << cell)

    return total + lay.bonus(upper, extra_yahtzees)


# The table a worker plays: set before the pool forks (inherited) or by the initializer.
_WORKER_TABLE: VectorPolicy | None = None


def _init_worker(table: VectorPolicy) -> None:
    global _WORKER_TABLE
    _WORKER_TABLE = table


def _run_chunk(args: tuple[int, int, int]) -> IntArray:
    seed, chunk, games = args
    if _WORKER_TABLE is None:  # pragma: no cover - the initializer always runs
        raise RuntimeError("no table in this worker")
    return play_chunk(_WORKER_TABLE, games, _chunk_rng(seed, chunk))


def simulate_vector(
    table: VectorPolicy,
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> IntArray:
    """Final totals of ``games`` solitaire games, in game order, reproducible from ``seed``.

    ``workers`` > 1 plays chunks in that many processes; the result is the same.
    ``progress`` is called with the number of games just finished.
    """
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    jobs = [(seed, j, min(CHUNK, games - start)) for j, start in enumerate(range(0, games, CHUNK))]
    results: list[IntArray] = []
    workers = max(1, min(workers, len(jobs)))
    if workers == 1:
        for job in jobs:
            results.append(play_chunk(table, job[2], _chunk_rng(job[0], job[1])))
            if progress:
                progress(job[2])
    else:
        with ProcessPoolExecutor(
            workers, mp_context=pool_context(), initializer=_init_worker, initargs=(table,)
        ) as pool:
            for job, totals in zip(jobs, pool.map(_run_chunk, jobs), strict=True):
                results.append(totals)
                if progress:
                    progress(job[2])
    return np.concatenate(results) if results else np.zeros(0, dtype=np.int64)


def pool_context() -> multiprocessing.context.BaseContext:
    """Fork where the platform has it (workers inherit tables already built), else the default."""
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)
