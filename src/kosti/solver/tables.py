"""Backward induction over sheet states, and the disk cache of its results."""

from __future__ import annotations

import hashlib
import json
import os
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import platformdirs

from kosti.errors import OptionError
from kosti.rules.options import UPPER_CELLS, SheetOptions
from kosti.rules.presets import Variant
from kosti.solver.model import (
    F64,
    I64,
    KIND_ANNOUNCED,
    LANES,
    Model,
    build_model,
    default_cap,
    exact_bank_cap,
    popcount,
)
from kosti.solver.planes import from_planes, to_planes, width
from kosti.solver.progress import Estimate, Progress, SolveCancelled, begin, report, tell

if TYPE_CHECKING:
    from kosti.solver.heads import Heads

__all__ = ["PROGRESS_STEPS", "Progress", "Solution", "SolveCancelled", "cache_dir", "is_solved", "solve"]

SOLVER_VERSION = "3"
"""Bumped whenever a change could alter a solved table: old cache files are then ignored."""

COMPACT_ABOVE = 10_000_000
"""Tables of more values than this are cached in a fixed point (:func:`compact`): poker-fences'
78 million values take some 140 MB so, where they took 625 MB as float64."""

COMPACT_BITS = 19
"""The fixed point of a compact table: every value is kept to within 2⁻²⁰ (9.5e-7) of the solved
one, inside the 1e-6 to which RULES.md §6 asks a sheet's value to be exact, and far below the
tenth of a point a hint shows."""

COMPACT_CHUNK = 1 << 22
"""Values encoded at a time in a compact cache."""

PROGRESS_STEPS = 200
"""The work of a solve is reported in at least this many steps."""


@dataclass
class Solution:
    """The exact values of a solitaire sheet under the optimal strategy."""

    spec: str
    """The variant solved (its canonical string)."""
    model: Model
    values: F64
    """The expected score still to come at the start of a turn, recorded cells and decided
    bonuses excluded, of every reachable state and bank, laid out by ``model.layout``
    (:meth:`value` reads one)."""
    seconds: float
    """How long solving took (when read from the cache: how long it took then)."""
    cached: bool = False
    """True when the tables were read from the disk cache."""
    partial: Heads | None = None
    """Set when only part of the table is solved: the shipped first turns of each column, and
    what positions asked for since (:class:`~kosti.solver.heads.Heads`, :meth:`need`)."""

    def need(self, column: int, lm: int, um: int, progress: Progress | None = None) -> None:
        """Make sure the states a position of ``column`` with the cells ``lm`` (lower) and ``um``
        (upper) recorded leads to are solved (a whole table has them all)."""
        if self.partial is not None:
            self.partial.need(column, lm, um, progress)

    @property
    def expected_score(self) -> float:
        """The expected final score of an empty sheet."""
        return self.value(0, 0, self.model.pair_of(0, 0), 0, 0)

    def value(self, column: int, lm: int, pair: int, flag: int, bank: int) -> float:
        """The value of a state between turns with ``bank`` banked throws (:attr:`values`)."""
        return float(self.values[self.model.offset(column, lm, pair, flag, bank)])

    @property
    def cap(self) -> int:
        return self.model.cap


def cache_dir() -> Path:
    """Where solved tables are kept: ``$KOSTI_CACHE_DIR`` or the user's cache directory."""
    env = os.environ.get("KOSTI_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("kosti"))


def cache_path(spec: str, cap: int) -> Path:
    """The file of a variant's tables (keyed by the spec, the bank cap and the solver version)."""
    key = f"{spec}|cap={cap}|solver={SOLVER_VERSION}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return cache_dir() / "solver" / f"v{SOLVER_VERSION}-{digest}.npz"


def sheet_options(rules: Variant) -> SheetOptions:
    """The options of a score-sheet variant; :class:`OptionError` for another family."""
    if not isinstance(rules.options, SheetOptions):
        raise OptionError(f"{rules.spec} is not a score-sheet game: the solver plays score sheets only")
    return rules.options


_MEMORY: dict[tuple[str, int], Solution] = {}


def solve(
    rules: Variant,
    *,
    cap: int | None = None,
    fresh: bool = False,
    progress: Progress | None = None,
    use_cache: bool = True,
) -> Solution:
    """The optimal strategy's values for ``rules`` (solitaire), from the cache when possible.

    ``cap``: banked throws tracked (default: every bank the sheet can reach, so the value is
    exact; a smaller cap forfeits throws banked beyond it and gives a lower bound).
    ``fresh``: solve again and overwrite the cache. ``use_cache=False``: neither read nor
    write the disk. The joker rule is the variant's option ``joker`` (``yahtzee`` plays
    ``forced``; ``yahtzee(joker=free)`` is the convention of Verhoeff's published
    254.5896). ``progress`` follows a solve and may cancel it (:data:`Progress`); it is
    not called when the tables come from a cache.
    """
    spec = rules.spec
    key = _key(rules, cap)
    if not fresh and key in _MEMORY:
        return _MEMORY[key]
    model = build_model(sheet_options(rules), cap)
    path = cache_path(spec, model.cap)
    if use_cache and not fresh:
        loaded = _load(path, spec, model)
        if loaded is not None:
            _MEMORY[key] = loaded
            return loaded
    guess = estimate(model)
    if guess.seconds > TELL_ABOVE:
        tell(progress, guess)
    compile_solver(model.options, progress)  # before the clock starts: the seconds are the solve's own
    start = time.perf_counter()
    values = backward_induction(model, progress)
    if compact(model):
        round_to_grid(values)  # as the cache keeps it: a fresh solve and a cached one agree
    solution = Solution(spec, model, values, time.perf_counter() - start)
    if use_cache:
        _save(path, solution)
    _MEMORY[key] = solution
    return solution


_PARTIAL: dict[tuple[str, int], Solution] = {}


def for_hints(rules: Variant, *, cap: int | None = None, progress: Progress | None = None) -> Solution:
    """The table that hints of ``rules`` read: the whole one when it is solved (in this process or
    in the disk cache); else the first turns of each column that kosti ships, the rest solved as
    positions need it (:meth:`Solution.need`, :mod:`kosti.solver.heads`); else a whole solve
    (:func:`solve`)."""
    key = _key(rules, cap)
    known = _MEMORY.get(key) or _PARTIAL.get(key)
    if known is not None:
        return known
    if not is_solved(rules, cap):
        from kosti.solver.heads import partial_solution

        partial = partial_solution(rules, build_model(sheet_options(rules), cap))
        if partial is not None:
            _PARTIAL[key] = partial
            return partial
    return solve(rules, cap=cap, progress=progress)


def _key(rules: Variant, cap: int | None) -> tuple[str, int]:
    options = sheet_options(rules)
    wanted = default_cap(options) if cap is None else cap
    return rules.spec, min(max(wanted, 0), exact_bank_cap(options))


def is_solved(rules: Variant, cap: int | None = None) -> bool:
    """True when :func:`solve` gives ``rules``' tables at once: solved in this process, or in the
    disk cache (a file of the right name; :func:`solve` still checks it when it reads it)."""
    key = _key(rules, cap)
    return key in _MEMORY or cache_path(*key).exists()


def solver_kernels(options: SheetOptions) -> list[Any]:
    """The kernels that solve a sheet with ``options``: one for its free and ordered columns, one
    for its announced ones (each compiled only when a sheet has such a column)."""
    from kosti.solver import kernels  # numba is loaded only when a table must be solved

    kinds = set(options.column_kinds)
    return [kernels.solve_announced_level] * ("announced" in kinds) + [kernels.solve_level] * bool(
        kinds - {"announced"}
    )


def compile_solver(options: SheetOptions, progress: Progress | None = None) -> None:
    """Compile the kernels that solve a sheet with ``options`` (or read them from numba's cache):
    the ``compiling`` phase of ``progress``, when they are not loaded in this process yet."""
    from kosti.solver.jit import prepare

    prepare(progress, solver_kernels(options))


def threads() -> int:
    """Worker threads for the solver and the simulation: ``$KOSTI_THREADS`` or every core."""
    env = os.environ.get("KOSTI_THREADS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    return os.cpu_count() or 1


def in_parallel(n: int, work: Callable[[int, int], None], chunk: int = 512) -> None:
    """Run ``work(start, stop)`` over ``range(n)`` in chunks on :func:`threads` threads.

    The kernels release the GIL, so the threads run on separate cores.
    """
    workers = threads()
    if workers == 1 or n <= chunk:
        work(0, n)
        return
    size = max(chunk, -(-n // (workers * 8)))
    with ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(work, i, min(n, i + size)) for i in range(0, n, size)]:
            future.result()


WORK_SECONDS = 0.44e-6
"""Seconds a unit of :func:`state_work` takes on two cores: poker-fences' 472 million units took
3 min 33 s on an idle two-core machine (its column I 39 s, column II 171 s)."""

BASE_BYTES = 400e6
"""What a sheet solve holds besides its table of values: the model, numba's runtime, Python."""

TELL_ABOVE = 20.0
"""A solve estimated to take longer than this many seconds is announced up front (:func:`estimate`)."""


def state_work(model: Model, col: int, lms: I64, ps: I64, ys: I64) -> I64:
    """About how much work solving each of these states of column ``col`` is: every bank the
    state can hold (and the throws of a turn) takes a pass of the chain, which costs about four
    units in a free or ordered column (every cell's records with it), and in an announced column
    two, plus three for each :data:`~kosti.solver.model.LANES` cells chased side by side after
    the first throw (its open lower cells, and its open upper cells unless counting the face
    alone chases them, which costs next to nothing)."""
    chain: I64 = model.layout.top[col, lms, ps, ys] + model.throws
    if int(model.kinds[col]) != KIND_ANNOUNCED:
        return 4 * chain
    chased: I64 = model.n_lower - popcount(lms)
    if model.flags != 1:
        chased = chased + len(UPPER_CELLS) - popcount(model.pair_um[ps])
    return chain * (2 + 3 * (-(-chased // LANES)))


def _plan(model: Model) -> list[tuple[int, tuple[I64, I64, I64], I64]]:
    """The levels in the order they are solved (last column first, fullest sheet first), each
    with its states' work (:func:`state_work`)."""
    return [
        (col, level, state_work(model, col, *level))
        for col in range(model.n_columns - 1, -1, -1)
        for level in model.column_states(col)
    ]


def estimate(model: Model) -> Estimate:
    """What solving ``model`` will take: its work at the pace :data:`WORK_SECONDS`, its table of
    values and :data:`BASE_BYTES` in memory, and its cache on disk (a compact one at about 1.8
    bytes a value, :func:`compact`)."""
    work = sum(int(w.sum()) for _, _, w in _plan(model))
    states = int((model.layout.slot >= 0).sum())
    table = 8.0 * model.layout.size
    disk = 1.8 * model.layout.size if compact(model) else table
    return Estimate(states, "states", work * WORK_SECONDS, table + BASE_BYTES, disk, False)


def backward_induction(model: Model, progress: Progress | None = None) -> F64:
    """Solve every state, last column first and fullest sheet first: the phase ``solving`` of
    ``progress``, after ``compiling`` the kernel when it is not loaded yet (:mod:`.progress`).
    The phase is reported in units of work (:func:`state_work`), so that its share done and the
    time left worked out from it hold across columns whose states cost differently."""
    values = np.zeros(model.layout.size)
    induct(model, _plan(model), values, progress)
    return values


def subtree_plan(model: Model, column: int, lm: int, um: int) -> list[tuple[int, tuple[I64, I64, I64], I64]]:
    """The levels of :func:`_plan` that the states of ``column`` with at least the lower cells
    ``lm`` and the upper cells ``um`` recorded make (every upper total), fullest first, down to
    the level of ``(lm, um)`` itself: what a position there needs solved, when the next column's
    start is known."""
    levels = model.column_states(column)
    # the levels hold one recorded cell fewer each, the last none
    down_to = len(levels) - 1 - (lm.bit_count() + um.bit_count())
    plan = []
    for lms, ps, ys in levels[: down_to + 1]:
        keep = ((lms & lm) == lm) & ((model.pair_um[ps] & um) == um)
        if keep.any():
            kept = (lms[keep], ps[keep], ys[keep])
            plan.append((column, kept, state_work(model, column, *kept)))
    return plan


def induct(
    model: Model, plan: list[tuple[int, tuple[I64, I64, I64], I64]], values: F64, progress: Progress | None
) -> None:
    """Solve the levels of ``plan`` in order into ``values`` (the states their successors lead
    to must be solved already): the ``solving`` phase of ``progress``, in units of work."""
    if not plan:
        return
    from kosti.solver import kernels  # numba is loaded only when a table must be solved
    from kosti.solver.jit import prepare

    needed = solver_kernels(model.options)
    compiled = dict(zip(needed, prepare(progress, needed), strict=True))
    # each column solved by the kernel of its kind
    by_column = [
        compiled[kernels.solve_announced_level if kind == KIND_ANNOUNCED else kernels.solve_level]
        for kind in model.kinds
    ]
    packed = model.packed
    states = sum(len(lms) for _, (lms, _, _), _ in plan)
    total = sum(int(w.sum()) for _, _, w in plan)
    workers = threads()
    # small pieces keep both cores busy to the end of a level (the states' costs differ with
    # their open cells) and report progress often; a piece's call costs far less than its work
    size = max(1, min(256, -(-states // PROGRESS_STEPS)))
    done = 0
    begin(progress, "solving")
    report(progress, 0, total)

    def work(col: int, lms: I64, ps: I64, ys: I64, weights: I64) -> int:
        by_column[col](*packed, values, col, lms, ps, ys)
        return int(weights.sum())

    with ThreadPoolExecutor(workers) as pool:
        try:
            for col, (lms, ps, ys), weights in plan:
                # a level's states depend only on fuller ones: its pieces can be solved in any
                # order, and the next level waits for all of them
                pieces = [
                    pool.submit(work, col, *(a[i : i + size] for a in (lms, ps, ys, weights)))
                    for i in range(0, len(lms), size)
                ]
                for future in as_completed(pieces):
                    done += future.result()
                    report(progress, done, total)
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def compact(model: Model) -> bool:
    """Whether ``model``'s table is kept in the fixed point :data:`COMPACT_BITS`: it has more
    than :data:`COMPACT_ABOVE` values (poker-fences' 78 million)."""
    return model.layout.size > COMPACT_ABOVE


def round_to_grid(values: F64) -> None:
    """Round ``values`` in place to the fixed point of a compact cache, so that a table just
    solved and the same table read back from the disk are the same numbers."""
    scale = float(1 << COMPACT_BITS)
    values *= scale
    np.rint(values, out=values)
    values /= scale


def _fixed_chunks(values: F64) -> tuple[list[bytes], list[int], list[list[int]]]:
    """``values`` (on the grid of :func:`round_to_grid`) as compressed chunks of second
    differences in byte planes (:mod:`kosti.solver.planes`), each chunk's byte width, and what
    each chunk carries over from those before it (the fixed value and the difference before
    its first value), so that every chunk is read back on its own.

    A state's values run along its banks and change smoothly there, so the second differences
    are small; a chunk at a time, so the integers never take the table's size again."""
    scale = float(1 << COMPACT_BITS)
    chunks: list[bytes] = []
    widths: list[int] = []
    carries: list[list[int]] = []
    last = [0, 0]  # the fixed value and the first difference before the chunk
    for start in range(0, len(values), COMPACT_CHUNK):
        fixed = np.rint(values[start : start + COMPACT_CHUNK] * scale).astype(np.int64)
        steps = np.diff(fixed, prepend=last[0])
        second = np.diff(steps, prepend=last[1])
        carries.append(list(last))
        last = [int(fixed[-1]), int(steps[-1])]
        nbytes = width(second)
        chunks.append(zlib.compress(to_planes(second, nbytes), 6))
        widths.append(nbytes)
    return chunks, widths, carries


def _from_fixed_chunks(
    data: bytes, lengths: list[int], widths: list[int], carries: list[list[int]], size: int
) -> F64:
    """The values :func:`_fixed_chunks` wrote (their chunks concatenated in ``data``), the chunks
    read on every core at once (zlib and NumPy let go of the interpreter while they work)."""
    chunks = -(-size // COMPACT_CHUNK)
    if not len(lengths) == len(widths) == len(carries) == chunks or sum(lengths) != len(data):
        raise ValueError("the chunks do not make the table")
    starts = [i * COMPACT_CHUNK for i in range(chunks)]
    values = np.empty(size)
    offsets = np.cumsum([0, *lengths]).tolist()

    def read(i: int) -> None:
        second = from_planes(zlib.decompress(data[offsets[i] : offsets[i + 1]]), widths[i])
        end = min(size, starts[i] + COMPACT_CHUNK)
        if len(second) != end - starts[i]:
            raise ValueError("a chunk does not hold its values")
        fixed, step = carries[i]
        steps = np.cumsum(second)
        steps += step
        np.cumsum(steps, out=steps)
        steps += fixed
        values[starts[i] : end] = steps

    with ThreadPoolExecutor(threads()) as pool:
        for future in [pool.submit(read, i) for i in range(chunks)]:
            future.result()
    values /= float(1 << COMPACT_BITS)
    return values


def _save(path: Path, solution: Solution) -> None:
    meta: dict[str, Any] = {
        "spec": solution.spec,
        "cap": solution.model.cap,
        "solver": SOLVER_VERSION,
        "expected_score": solution.expected_score,
        "seconds": solution.seconds,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    # a private temporary name: two processes may solve the same variant at once
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
    if compact(solution.model):
        chunks, widths, carries = _fixed_chunks(solution.values)
        meta |= {
            "bits": COMPACT_BITS,
            "chunk": COMPACT_CHUNK,
            "widths": widths,
            "lengths": [len(c) for c in chunks],
            "carries": carries,
        }
        np.savez(tmp, planes=np.frombuffer(b"".join(chunks), np.uint8), meta=np.array(json.dumps(meta)))
    else:
        # full precision: every value read back (the advisor's too) is the solved one
        np.savez(tmp, values=solution.values, meta=np.array(json.dumps(meta)))
    tmp.replace(path)


def _load(path: Path, spec: str, model: Model) -> Solution | None:
    try:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("spec") != spec or meta.get("solver") != SOLVER_VERSION:
                return None
            full = "planes" not in data.files
            if not full:
                if meta.get("bits") != COMPACT_BITS or meta.get("chunk") != COMPACT_CHUNK:
                    return None
                planes = data["planes"].tobytes()
                values = _from_fixed_chunks(
                    planes, meta["lengths"], meta["widths"], meta["carries"], model.layout.size
                )
            else:
                values = np.asarray(data["values"], dtype=np.float64)
    except (OSError, ValueError, KeyError, TypeError, zlib.error):
        return None
    if values.shape != (model.layout.size,):
        return None
    solution = Solution(spec, model, values, float(meta.get("seconds", 0.0)), cached=True)
    if full and compact(model):
        # a table written at full precision by an earlier kosti: kept again in a tenth of the disk
        round_to_grid(solution.values)
        _save(path, solution)
    return solution
