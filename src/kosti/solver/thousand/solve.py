"""Value iteration for two-player «Тысяча», and the disk cache of its results (RULES.md §3, §6).

Each player maximises their own chance of winning. The values ``V[i, j]`` (the mover's
chance with status ``i`` against ``j`` at the start of the mover's turn) are swept by
Gauss–Seidel, most advanced positions first, until no value moves by more than ``tol``.
A long solve writes a checkpoint every minute and when interrupted; the next call
resumes from it. Finished tables live in the cache directory of the sheet solver
(``$KOSTI_CACHE_DIR``), keyed by the variant, the floor on scores and the solver version.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import cached_property
from math import log
from pathlib import Path
from typing import Any

import numpy as np

from kosti.games.thousand.game import Player
from kosti.rules.presets import Variant
from kosti.solver.progress import Estimate, SolveCancelled, begin, report, tell
from kosti.solver.tables import cache_dir
from kosti.solver.thousand import kernel, rows
from kosti.solver.thousand.model import (
    F64,
    MAX_STATUSES,
    Model,
    build_model,
    default_floor,
    thousand_options,
    throw_tables,
)

SOLVER_VERSION = "2"
"""Bumped whenever a change could alter a solved table: old cache files are then ignored."""

TOLERANCE = 1e-12
"""Sweeps stop once no value changes by more than this in a full sweep."""

EVALUATION_GAIN = 1e-5
"""Evaluation sweeps of a policy go on until their change is this fraction of the full sweep's."""
MAX_EVALUATIONS = 100
"""At most this many evaluation sweeps follow one full sweep."""

Progress = Callable[[int, int], object]
"""Called as ``progress(done, total)`` in each phase of a solve (:mod:`kosti.solver.progress`):
``building`` (the statuses read off the engine so far, of those found so far), ``compiling``
(the kernels, when numba has not compiled them in this process yet), then ``solving`` (the
share of the sweeps done, :class:`SweepShare`). Answering ``False`` stops the solve, as Ctrl-C
does, leaving a checkpoint (:class:`~kosti.solver.progress.SolveCancelled`)."""


@dataclass
class Solution:
    """The exact values of two-player «Тысяча» under optimal play by both players."""

    spec: str
    model: Model
    values: F64
    """``values[i, j]``: the mover's chance of winning with status ``i`` against ``j``."""
    sweeps: int
    seconds: float
    """How long solving took (when read from the cache: how long it took then)."""
    residual: float
    """The largest change in the last (full) sweep."""
    cached: bool = False
    evaluations: int = 0
    """Evaluation sweeps of a recorded policy between the full sweeps."""

    @property
    def win_probability(self) -> float:
        """The first player's chance of winning from the first turn (no roll-off)."""
        return float(self.values[self.model.start, self.model.start])

    @property
    def positions(self) -> int:
        return self.model.positions

    @cached_property
    def tables(self) -> kernel.Tables:
        """The model's arrays as the kernels read them."""
        return kernel.tables(self.model)


def peak_memory_mb() -> float:
    """The most memory this process has held so far, in megabytes."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cache_path(spec: str, floor: int, kind: str = "npz") -> Path:
    key = f"thousand|{spec}|floor={floor}|solver={SOLVER_VERSION}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir() / "thousand" / f"v{SOLVER_VERSION}-{digest}.{kind}"


_MEMORY: dict[tuple[str, int], Solution] = {}


def is_solved(rules: Variant, floor: int | None = None) -> bool:
    """True when ``rules`` has been solved already (in this process or in the disk cache), so
    that :func:`solve` answers at once instead of starting a solve that may take many minutes."""
    from kosti.solver.thousand import shipped

    default = default_floor(thousand_options(rules))
    low = default if floor is None else floor
    if (rules.spec, low) in _MEMORY or cache_path(rules.spec, low).exists():
        return True
    return low == default and shipped.available(rules)


def solve(
    rules: Variant,
    *,
    floor: int | None = None,
    fresh: bool = False,
    progress: Progress | None = None,
    use_cache: bool = True,
    tol: float = TOLERANCE,
    limit: int = MAX_STATUSES,
    checkpoint_seconds: float = 60.0,
) -> Solution:
    """The optimal values of two-player ``rules`` (from the cache when solved before).

    ``floor``: scores below it count as it (default :func:`~.model.default_floor`).
    Raises :class:`OptionError` for a variant that is not «Тысяча» or whose state space is
    out of reach (more than ``limit`` statuses per player). An interrupted solve
    (``KeyboardInterrupt``) leaves a checkpoint that the next call resumes from.
    """
    options = thousand_options(rules)
    low = default_floor(options) if floor is None else floor
    spec = rules.spec
    key = (spec, low)
    if not fresh and key in _MEMORY:
        return replace(_MEMORY[key], cached=True)
    path = cache_path(spec, low)
    if use_cache and not fresh:
        loaded = _load(path, rules, low)
        if loaded is None and low == default_floor(options):
            loaded = _shipped(rules, low, limit, progress)
            if loaded is not None:
                _save(path, loaded)  # the next process reads the model too, not only the values
        if loaded is not None:
            _MEMORY[key] = loaded
            return loaded
    start = time.perf_counter()
    model = build_model(rules, low, limit, progress)
    seconds, size = estimate(model)
    tell(progress, Estimate(model.n, "statuses a player", seconds, size, cache_bytes(model), True))
    partial = cache_path(spec, low, "partial.npz")
    values, sweeps = None, 0
    if use_cache and not fresh:
        values, sweeps = _load_partial(partial, model)
    if values is None:
        values = np.full((model.n, model.n), 0.5)
    residual, sweeps, evaluations = iterate(
        model, values, tol, progress, partial if use_cache else None, sweeps, checkpoint_seconds
    )
    seconds = time.perf_counter() - start
    solution = Solution(spec, model, values, sweeps, seconds, residual, evaluations=evaluations)
    if use_cache:
        _save(path, solution)
        partial.unlink(missing_ok=True)
    _MEMORY[key] = solution
    return solution


def iterate(
    model: Model,
    values: F64,
    tol: float,
    progress: Progress | None,
    partial: Path | None,
    sweeps: int,
    checkpoint_seconds: float,
) -> tuple[float, int, int]:
    """Modified policy iteration on ``values`` in place: a full sweep (which also records the
    turn's outcomes under the policy it found), then evaluation sweeps of that policy until
    their change is far below the full sweep's, again until a full sweep changes no value by
    more than ``tol``. Returns that last change, the full sweeps (counting those of a resumed
    checkpoint) and the evaluation sweeps. A small model is solved by plain sweeps instead
    (:func:`plain`)."""
    import numba  # the kernels import it anyway; the workers share each row

    from kosti.solver.jit import prepare

    if plain_seconds(model) <= PLAIN_SECONDS:
        return plain(model, values, tol, progress, partial, sweeps)
    tables = kernel.tables(model)
    n = model.n
    workers = numba.get_num_threads()
    work = rows.scratch(kernel.rows(model), workers)
    chances = np.zeros(rows.outcome_size(model), np.float32)
    ends = np.zeros((n, n, 3))
    constant = np.zeros((n, n))
    # the sweeps read the values transposed (see :mod:`.rows`)
    transposed = np.ascontiguousarray(values.T)
    arrays = (tables, transposed, chances, ends, constant)
    improve, evaluate = prepare(
        progress, [(rows.improve, (*arrays, work, n, 0)), (rows.evaluate, (*arrays, workers))]
    )
    share = SweepShare(tol)
    begin(progress, "solving")
    report(progress, 0, SHARE_STEPS)
    saved = time.monotonic()
    residual = 1.0
    evaluations = 0
    # an improvement sweep in pieces of rows, the most advanced movers first, to report its progress
    pieces = list(range(n, 0, -max(1, -(-n // SWEEP_PIECES))))
    try:
        while True:
            residual = 0.0
            for stop in pieces:
                start = max(0, stop - max(1, -(-n // SWEEP_PIECES)))
                residual = max(residual, improve(*arrays, work, stop, start))
                report(progress, share.steps(n - start, n), SHARE_STEPS)
            sweeps += 1
            share.swept(residual)
            report(progress, share.steps(0, n), SHARE_STEPS)
            if residual <= tol:
                report(progress, SHARE_STEPS, SHARE_STEPS)
                return residual, sweeps, evaluations
            goal = max(residual * EVALUATION_GAIN, tol / 10)
            for _ in range(MAX_EVALUATIONS):
                evaluations += 1
                if evaluate(*arrays, workers) <= goal:
                    break
            if partial is not None and time.monotonic() - saved > checkpoint_seconds:
                values[:] = transposed.T
                _save_partial(partial, values, sweeps)
                saved = time.monotonic()
    except (KeyboardInterrupt, SolveCancelled):
        if partial is not None:
            values[:] = transposed.T
            _save_partial(partial, values, sweeps)
        raise
    finally:
        values[:] = transposed.T


PLAIN_SECONDS = 8.0
"""A model whose plain value iteration (:func:`plain`) should take at most this long on two
cores is solved by it: its one small kernel compiles in about 2 s, where the parallel kernels of
policy iteration take some 40 s to compile on a machine that has not compiled them yet."""

PLAIN_PACE = 5e-8
"""Seconds a turn total of one position takes in a plain sweep (measured: 2.3e-8 at 37
statuses a player, 4.8e-8 at 247)."""

PLAIN_SWEEPS = 70
"""About how many plain sweeps a solve takes to ``TOLERANCE`` (measured: 44 to 66)."""


def plain_seconds(model: Model) -> float:
    """About how long plain value iteration takes to solve ``model`` (:data:`PLAIN_PACE`)."""
    return PLAIN_PACE * PLAIN_SWEEPS * model.n * model.n * kernel.rows(model)


def plain(
    model: Model, values: F64, tol: float, progress: Progress | None, partial: Path | None, sweeps: int
) -> tuple[float, int, int]:
    """Plain Gauss–Seidel value iteration on ``values`` in place (:func:`kernel.sweep`: every
    sweep solves every turn afresh) until a sweep changes no value by more than ``tol``; the
    same fixed point as :func:`iterate` reaches. Interrupted, it leaves its checkpoint in
    ``partial`` as :func:`iterate` does. Returns the last change, the sweeps (counting those of
    a resumed checkpoint) and no evaluation sweeps."""
    from kosti.solver.jit import prepare

    tables = kernel.tables(model)
    rows_ = kernel.rows(model)
    (sweep,) = prepare(progress, [(kernel.sweep, (tables, values, rows_))])
    share = SweepShare(tol)
    begin(progress, "solving")
    report(progress, 0, SHARE_STEPS)
    try:
        while True:
            residual = float(sweep(tables, values, rows_))
            sweeps += 1
            share.swept(residual)
            if residual <= tol:
                report(progress, SHARE_STEPS, SHARE_STEPS)
                return residual, sweeps, 0
            report(progress, share.steps(0, 1), SHARE_STEPS)
    except (KeyboardInterrupt, SolveCancelled):
        if partial is not None:
            _save_partial(partial, values, sweeps)
        raise


REFERENCE_OUTCOMES = 544_124_651
"""The recorded chances of the full ``thousand-classic`` (2 149 statuses a player), whose solve
took 17 min 32 s on an idle two-core machine at a peak of 2.8 GB: the yardstick of :func:`estimate`."""
REFERENCE_SECONDS = 17 * 60 + 32
BASE_BYTES = 420e6
"""What a solve holds besides its arrays: the model, numba's runtime, the interpreter."""


def estimate(model: Model) -> tuple[float, float]:
    """About how long (seconds, on two cores) and how much memory (bytes) solving ``model``
    takes: the sweeps' work and memory grow with the chances they record (:func:`rows.outcome_size`,
    4 bytes each), besides six ``n × n`` arrays of values; the time is scaled from
    ``thousand-classic``'s (:data:`REFERENCE_OUTCOMES`), a guess to say up front, not a promise."""
    if plain_seconds(model) <= PLAIN_SECONDS:
        return plain_seconds(model), 8.0 * model.n * model.n + BASE_BYTES
    outcomes = rows.outcome_size(model)
    seconds = REFERENCE_SECONDS * outcomes / REFERENCE_OUTCOMES
    size = 4.0 * outcomes + 6 * 8.0 * model.n * model.n + BASE_BYTES
    return seconds, size


SHARE_STEPS = 1000
"""The solving phase is reported in thousandths."""
SWEEP_PIECES = 50
"""Pieces of rows an improvement sweep is reported in."""
FIRST_SWEEP = 0.08
"""The share of a solve's work the first improvement sweep stands for (the full
``thousand-classic`` takes 13; each costs about the same)."""


class SweepShare:
    """How much of a solve is done, for its progress: the first improvement sweep counts for
    :data:`FIRST_SWEEP` of the work, and the rest by how far the largest change of a sweep has come
    down from the first sweep's towards the tolerance, on a log scale (value iteration converges
    geometrically). During a sweep the share moves towards where the pace of the last two
    sweeps puts the next one; it never goes back."""

    def __init__(self, tol: float) -> None:
        self.tol = tol
        self.changes: list[float] = []
        self.shown = 0

    def share(self, change: float) -> float:
        """The share done once a sweep changes no value by more than ``change``."""
        first = max(self.changes[0], self.tol * 10)
        gone = log(first / max(change, self.tol)) / log(first / self.tol)
        return FIRST_SWEEP + (1 - FIRST_SWEEP) * min(1.0, max(0.0, gone))

    def swept(self, change: float) -> None:
        """A sweep ended with ``change`` as its largest change."""
        self.changes.append(change)

    def steps(self, rows_done: int, rows: int) -> int:
        """The share done (in :data:`SHARE_STEPS`) with ``rows_done`` of the current sweep's rows done."""
        part = rows_done / rows if rows else 1.0
        if not self.changes:
            now = FIRST_SWEEP * part
        else:
            done = self.share(self.changes[-1])
            pace = self.changes[-1] / self.changes[-2] if len(self.changes) > 1 else 0.1
            now = done + (self.share(self.changes[-1] * min(pace, 0.9)) - done) * part
        self.shown = max(self.shown, min(SHARE_STEPS - 1, int(SHARE_STEPS * now)))
        return self.shown


# -- the cache -------------------------------------------------------------------------

ARRAYS = [f.name for f in fields(Model) if f.name not in ("rules", "options", "statuses", "index", "throws")]


def _status_rows(statuses: list[Player]) -> np.ndarray[Any, Any]:
    return np.array(
        [
            (
                p.score,
                p.opened,
                -1 if p.opening_score is None else p.opening_score,
                p.bolts,
                p.on_barrel,
                p.barrel_attempts,
                p.falls,
                p.dots,
                p.opening_failures,
            )
            for p in statuses
        ],
        np.int64,
    )


def _shipped(rules: Variant, floor: int, limit: int, progress: Progress | None) -> Solution | None:
    """The solution of ``rules`` from the values shipped with kosti (:mod:`.shipped`), with its
    model built here; ``None`` when none are shipped, or they were made for other statuses."""
    from kosti.solver.thousand import shipped

    found = shipped.read(rules, floor, SOLVER_VERSION)
    if found is None:
        return None
    meta, values = found
    model = build_model(rules, floor, limit, progress)
    if values.shape != (model.n, model.n) or meta.get("statuses") != shipped.statuses_digest(
        _status_rows(model.statuses)
    ):
        return None
    return _read_solution(rules, model, values, meta)


def ship(solution: Solution, folder: Path, name: str) -> str:
    """Write ``solution``'s values as a shipped file (:mod:`.shipped`) into ``folder``; its digest."""
    from kosti.solver.thousand import shipped

    meta = {**_meta(solution), "statuses": shipped.statuses_digest(_status_rows(solution.model.statuses))}
    return shipped.write(folder, name, meta, solution.values)


def _meta(solution: Solution) -> dict[str, Any]:
    """What a cached or shipped file says of the solve besides its values: which game and solver
    made them, and how (read back by :func:`_read_solution`)."""
    return {
        "spec": solution.spec,
        "floor": solution.model.floor,
        "solver": SOLVER_VERSION,
        "win_probability": solution.win_probability,
        "sweeps": solution.sweeps,
        "seconds": solution.seconds,
        "residual": solution.residual,
        "evaluations": solution.evaluations,
    }


def _read_solution(rules: Variant, model: Model, values: F64, meta: dict[str, Any]) -> Solution:
    """The solution of ``rules`` read back from a file whose meta :func:`_meta` wrote."""
    return Solution(
        rules.spec,
        model,
        values,
        int(meta["sweeps"]),
        float(meta["seconds"]),
        float(meta["residual"]),
        cached=True,
        evaluations=int(meta.get("evaluations", 0)),
    )


ENTRY_BYTES = 320
"""About what an array's headers take in an ``.npz`` file (its zip entries and its ``.npy`` header)."""


def _arrays(model: Model) -> dict[str, Any]:
    """The model's arrays a cache file keeps beside the values (:data:`ARRAYS`)."""
    return {name: getattr(model, name) for name in ARRAYS if isinstance(getattr(model, name), np.ndarray)}


def cache_bytes(model: Model) -> float:
    """The bytes the cache file of ``model``'s solution takes: the ``n × n`` values, the
    statuses and the model's arrays (:func:`_save`; the chances a solve records are not kept),
    each with its headers in the archive."""
    arrays = _arrays(model)
    kept = sum(a.nbytes for a in arrays.values()) + _status_rows(model.statuses).nbytes
    return float(8 * model.n * model.n + kept + ENTRY_BYTES * (len(arrays) + 3))


def _save(path: Path, solution: Solution) -> None:
    model = solution.model
    meta = {**_meta(solution), "unit": model.unit, "start": model.start}
    arrays = _arrays(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez(
        tmp,
        values=solution.values,
        statuses=_status_rows(model.statuses),
        meta=np.array(json.dumps(meta)),
        **arrays,
    )
    tmp.replace(path)


def _load(path: Path, rules: Variant, floor: int) -> Solution | None:
    try:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            if (
                meta.get("spec") != rules.spec
                or meta.get("solver") != SOLVER_VERSION
                or meta.get("floor") != floor
            ):
                return None
            values = data["values"]
            rows = data["statuses"]
            arrays = {name: data[name] for name in data.files if name in ARRAYS}
    except (OSError, ValueError, KeyError):
        return None
    options = thousand_options(rules)
    statuses = [
        Player(
            int(r[0]),
            bool(r[1]),
            None if r[2] < 0 else int(r[2]),
            int(r[3]),
            bool(r[4]),
            int(r[5]),
            int(r[6]),
            int(r[7]),
            int(r[8]),
        )
        for r in rows
    ]
    model = Model(
        rules=rules,
        options=options,
        statuses=statuses,
        index={p: i for i, p in enumerate(statuses)},
        throws=throw_tables(options),
        unit=int(meta["unit"]),
        floor=floor,
        start=int(meta["start"]),
        **arrays,
    )
    return _read_solution(rules, model, values, meta)


def _save_partial(path: Path, values: F64, sweeps: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    np.savez(tmp, values=values, sweeps=np.array(sweeps))
    tmp.replace(path)


def _load_partial(path: Path, model: Model) -> tuple[F64 | None, int]:
    try:
        with np.load(path) as data:
            values = data["values"]
            sweeps = int(data["sweeps"])
    except (OSError, ValueError, KeyError):
        return None, 0
    if values.shape != (model.n, model.n):
        return None, 0
    return values, sweeps
