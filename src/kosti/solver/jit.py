"""Numba for the solvers: where its machine code is cached, how a kernel is built from helpers,
and the kernels a task needs compiled up front, as the ``compiling`` phase of its progress
(:mod:`kosti.solver.progress`).

Where the code is cached: numba keeps it beside the source by default (``__pycache__`` in the
package), where every clone and every installed copy compiles it again and a read-only install
cannot keep it. Here it goes to ``$NUMBA_CACHE_DIR`` when that is set, else to ``numba`` in the
solver's cache directory (:func:`kosti.solver.tables.cache_dir`, beside the solved tables).
Numba picks a function's cache directory when the function is decorated, so every decorator
here points it there first; a directory that cannot be written leaves the code uncached
(compiled in each process), never written into the source tree.

How a kernel is built, and what each piece costs to compile:

* :func:`kernel`: an entry point called from Python, with its signature declared
  (:func:`prepare` compiles it for that signature when a task first needs it, and only then),
  its machine code cached on disk;
* :func:`helper`: a function the kernels call. Compiled once per process for the types it is
  called with (a constant argument counts as its type, not as a value of its own, so each
  helper is compiled once, not once per constant), without the wrapper that would let Python
  call it, and not cached by itself: the kernels that call it are;
* :func:`inline`: a small function, or one called from a single place, copied into its
  caller by numba (``inline="always"``). Copying costs compile time at every call site, so a
  large helper called from several places is a :func:`helper` instead.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar, cast

import numba
from numba.core import sigutils, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher

from kosti.solver.progress import Progress, begin, report
from kosti.solver.tables import cache_dir

Fn = TypeVar("Fn", bound=Callable[..., Any])

KERNELS: dict[str, Any] = {}
"""Every :func:`kernel`, by its qualified name (``module.function``)."""
SIGNATURES: dict[str, str] = {}
"""The declared signature of each :func:`kernel`, by its qualified name."""
WEIGHTS: dict[str, float] = {}
"""The relative cost of compiling each :func:`kernel` (by qualified name): its share of the
``compiling`` phase, so that the time left shown is a fair guess from the first kernel on."""

VECTORIZED: set[str] = set()
"""The kernels (by qualified name) that :func:`prepare` compiles with LLVM's SLP vectorizer, which
puts like operations on neighbouring values into one vector instruction (the chases of
:func:`kosti.solver.kernels.chase_lanes`, about 2.5 times faster so). Numba leaves it off for every
other function: it once miscompiled code of LLVM versions numba no longer uses, and the tests check
these kernels' values against exhaustive search through the engine."""


def numba_cache_dir() -> Path:
    """Where numba keeps the compiled kernels: ``$NUMBA_CACHE_DIR``, else ``numba`` in the solver's
    cache directory (``$KOSTI_CACHE_DIR`` or the user's cache directory)."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    return Path(env) if env else cache_dir() / "numba"


def point_cache() -> bool:
    """Point numba's cache at :func:`numba_cache_dir` for the functions decorated from now on;
    ``False`` when that directory cannot be made or written (the code is then not cached)."""
    path = numba_cache_dir()
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    if not os.access(path, os.W_OK):
        return False
    config: Any = numba.config
    config.CACHE_DIR = str(path)
    return True


def kernel(
    signature: str | None = None, *, weight: float = 1.0, parallel: bool = False, vectorize: bool = False
) -> Callable[[Fn], Fn]:
    """An entry point called from Python: compiled for ``signature`` (numba's notation) by
    :func:`prepare`, or for the types of its first call; its machine code cached on disk; the
    GIL released, so the solvers run on several threads at once. ``weight``: the relative cost
    of compiling it (:data:`WEIGHTS`). ``vectorize``: :func:`prepare` compiles it with LLVM's
    SLP vectorizer (:data:`VECTORIZED`)."""

    def decorate(fn: Fn) -> Fn:
        name = _qualified(fn)
        WEIGHTS[name] = weight
        if vectorize:
            VECTORIZED.add(name)
        if signature is not None:
            SIGNATURES[name] = signature
        cached = point_cache()
        dispatcher = numba.njit(cache=cached, nogil=True, parallel=parallel)(fn)
        KERNELS[name] = dispatcher
        return cast(Fn, dispatcher)

    return decorate


def helper(fn: Fn) -> Fn:
    """A function the kernels call, compiled once per process for the (non-constant) types it is
    called with, into the machine code of every kernel that calls it (see the module docstring).
    Python cannot call it (:class:`Helper`)."""
    point_cache()
    config: Any = numba.config
    if config.DISABLE_JIT:  # pragma: no cover - debugging the kernels as Python
        return fn
    return cast(Fn, Helper(py_func=fn, locals={}, targetoptions=dict(HELPER_OPTIONS)))


HELPER_OPTIONS = {"nopython": True, "nogil": True, "no_cpython_wrapper": True}
"""How a :func:`helper` is compiled: without the wrapper that lets Python call a function, which
costs compile time and which the kernels do not use."""


def inline(fn: Fn) -> Fn:
    """A small function, or one called from a single place, copied into each caller by numba."""
    cached = point_cache()
    return cast(Fn, numba.njit(cache=cached, nogil=True, inline="always")(fn))


class Helper(CPUDispatcher):
    """The dispatcher of a :func:`helper`: compiled for the types of a call's arguments, not their
    values (numba types a constant argument, ``f(T, 0)``, as a literal of its own and would
    compile a helper once for each constant it is called with; the call still passes the
    constant, which converts to the plain type), and refusing a call from Python, which has no
    wrapper to go through (numba would crash)."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        unliteral: Any = types.unliteral
        plain = tuple(unliteral(a) for a in args)
        return super().get_call_template(plain, {k: unliteral(v) for k, v in kws.items()})

    def __call__(self, *args: Any, **kws: Any) -> Any:
        raise TypeError(f"{self.py_func.__name__} is compiled into the kernels only: Python cannot call it")


def signature_of(*args: Any) -> tuple[Any, ...]:
    """The numba types of ``args``: the signature a kernel is compiled for to take them."""
    typeof: Any = numba.typeof
    return tuple(typeof(a) for a in args)


def prepare(progress: Progress | None, wanted: Sequence[Any]) -> list[Any]:
    """The machine code of each kernel of ``wanted``: a :func:`kernel` (for its declared
    signature) or a pair ``(kernel, args)`` (for the types of ``args``). Each is compiled, or
    read from numba's cache, as the ``compiling`` phase of ``progress``, reported only when some
    kernel is not loaded in this process yet. Calling the result skips the dispatcher's typing of
    every argument, a good part of a call with little work; it takes arguments of exactly
    those types only.

    Numba compiles one function at a time in a process. When several kernels with declared
    signatures are to be compiled and the machine has cores to spare, worker processes compile
    the others into numba's cache while this one compiles the costliest (by :data:`WEIGHTS`),
    then read them from the cache (:func:`compile_elsewhere`); a worker that fails leaves its
    kernels to this process."""
    typed = [_typed(item) for item in wanted]
    todo = [(k, sig) for k, sig in typed if sig not in k.overloads]
    if todo:
        weights = [WEIGHTS.get(_qualified(k.py_func), 1.0) for k, _ in todo]
        total = max(1, round(100 * sum(weights)))
        begin(progress, "compiling")
        report(progress, 0, total)
        # this process compiles the costliest itself, while workers compile the others
        first = max(range(len(todo)), key=weights.__getitem__)
        order = [first, *(n for n in range(len(todo)) if n != first)]
        workers = compile_elsewhere([todo[n][0] for n in order[1:]]) if len(todo) > 1 else []
        clock = _Clock(progress, total)
        try:
            done = 0.0
            for n in order:
                k, sig = todo[n]
                with clock.step(100 * done, 100 * weights[n]):
                    if n != first:
                        _wait(workers, k)
                    compile_one(k, sig)
                done += weights[n]
                report(progress, round(100 * done), total)
        finally:
            clock.stop()
            for worker in workers:
                _stop(worker)
    return [k.compile(sig) for k, sig in typed]


SECONDS_PER_WEIGHT = 1.0
"""About how many seconds a unit of :data:`WEIGHTS` takes to compile on a two-core machine."""


class _Clock:
    """Moves the bar of a ``compiling`` phase while a kernel compiles: numba says nothing until it
    is done, so a step's share grows with the time it has taken against what it should take (its
    weight, :data:`SECONDS_PER_WEIGHT`), up to most of it, every quarter of a second, from a thread
    of its own. What the callback raises there (a cancellation) is raised when the step ends."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress = progress
        self.total = total
        self.lock = threading.Lock()
        self.current: tuple[float, float, float] | None = None
        self.error: BaseException | None = None
        self.stopped = threading.Event()
        self.thread: threading.Thread | None = None
        if progress is not None:
            self.thread = threading.Thread(target=self._run, name="kosti-compiling", daemon=True)
            self.thread.start()

    @contextlib.contextmanager
    def step(self, start: float, size: float) -> Iterator[None]:
        """A step from ``start`` units done, of ``size`` units."""
        with self.lock:
            self.current = (time.monotonic(), start, size)
        try:
            yield
        finally:
            with self.lock:
                self.current = None
                error, self.error = self.error, None
            if error is not None:
                raise error

    def _run(self) -> None:
        while not self.stopped.wait(0.25):
            with self.lock:
                if self.current is None or self.error is not None:
                    continue
                began, start, size = self.current
                part = min(0.9, (time.monotonic() - began) / (SECONDS_PER_WEIGHT * size / 100))
                try:
                    report(self.progress, round(start + part * size), self.total)
                except BaseException as error:  # handed to the step, in the compiling thread
                    self.error = error

    def stop(self) -> None:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join()


def _typed(item: Any) -> tuple[Any, tuple[Any, ...]]:
    """A kernel of :func:`prepare` with the argument types it is to be compiled for."""
    if isinstance(item, tuple):
        return item[0], signature_of(*item[1])
    args, _ = _normalized(SIGNATURES[_qualified(item.py_func)])
    return item, tuple(args)


def _normalized(signature: str) -> tuple[Any, Any]:
    """A signature in numba's notation as (argument types, return type)."""
    normalize: Any = sigutils.normalize_signature
    args, result = normalize(signature)
    return args, result


WORKER_MODULE = "kosti.solver.kernels"
"""The module whose kernels a worker process compiles: the sheet's, which a first hint needs."""
WORKER = "import sys; from kosti.solver import jit, kernels; jit.compile_kernels(sys.argv[1:])"
"""What a worker process of :func:`prepare` runs, with the kernels' names as its arguments."""


class _Worker(NamedTuple):
    kernels: tuple[str, ...]
    process: subprocess.Popen[bytes]


def compile_elsewhere(kernels: Sequence[Any]) -> list[_Worker]:
    """Start worker processes compiling ``kernels`` (each for its declared signature) into numba's
    cache, one worker per core this process leaves free; none where the code is not cached or
    there is a single core (``$KOSTI_THREADS``, :func:`~kosti.solver.tables.threads`), and none
    for a kernel with no declared signature, of another module than :data:`WORKER_MODULE` (the one
    a worker imports), or already in the cache."""
    from kosti.solver.tables import threads

    names = [_qualified(k.py_func) for k in kernels if not _on_disk(k)]
    names = [name for name in names if name in SIGNATURES and name.startswith(f"{WORKER_MODULE}.")]
    cores = threads() - 1
    if not names or cores < 1 or not point_cache():
        return []
    shares = [names[i::cores] for i in range(min(cores, len(names)))]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(numba_cache_dir())}
    workers = []
    for share in shares:
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", WORKER, *share],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            continue
        workers.append(_Worker(tuple(share), process))
    return workers


def _on_disk(kernel: Any) -> bool:
    """Whether numba's cache holds machine code of ``kernel`` (its index file is there; stale or
    not, reading it is this process's business, not a worker's)."""
    cache = getattr(kernel, "_cache", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    return isinstance(index, str) and os.path.exists(index)


def _wait(workers: list[_Worker], kernel: Any) -> None:
    """Wait for the worker compiling ``kernel``, if one does (its failure is no error: the kernel
    is then compiled here)."""
    name = _qualified(kernel.py_func)
    for worker in workers:
        if name in worker.kernels:
            worker.process.wait()


def _stop(worker: _Worker) -> None:
    """End a worker that is still running (when this process was interrupted)."""
    if worker.process.poll() is None:
        worker.process.kill()
        worker.process.wait()


def compile_kernels(names: Sequence[str]) -> None:
    """Compile the kernels of these qualified names (:data:`KERNELS`) for their declared
    signatures: the work of one worker process of :func:`prepare`, whose machine code lands in
    numba's cache."""
    for name in names:
        compile_one(*_typed(KERNELS[name]))


def compile_one(dispatcher: Any, sig: tuple[Any, ...]) -> Any:
    """Compile ``dispatcher`` for the argument types ``sig`` (or read it from numba's cache), with
    the SLP vectorizer on for a kernel of :data:`VECTORIZED`.

    Numba reads the setting each time it optimizes a function, while holding its compiler lock:
    the setting is changed under that lock, so no other thread's function is optimized with it."""
    if _qualified(dispatcher.py_func) not in VECTORIZED:
        return dispatcher.compile(sig)
    config: Any = numba.config
    with global_compiler_lock:
        before = config.SLP_VECTORIZE
        config.SLP_VECTORIZE = 1
        try:
            return dispatcher.compile(sig)
        finally:
            config.SLP_VECTORIZE = before


def _qualified(fn: Callable[..., Any]) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"
