"""How a long piece of the solvers' work reports its progress: named phases, each with a share done.

Work that is not in the disk cache goes through some of these phases, each reported from 0 to
its own total, so that a bar shows a percentage and a time left that mean something:

* ``building``: the «Тысяча» solver reads the statuses a player can reach off the engine;
* ``compiling``: numba compiles the kernels the task needs, and only those (read from numba's
  cache after the first time; not reported at all once they are loaded in the process);
* ``solving``: the backward induction of a sheet, or the sweeps of «Тысяча».

A callback is any ``progress(done, total)``; one that also has a ``phase(name)`` method hears
the name of each phase as it starts (``done`` starts again from 0 after it), and one with an
``estimate(what)`` method hears up front what a long solve will take (:class:`Estimate`).
Returning ``False`` from the call cancels a sheet solve (:class:`SolveCancelled`).

>>> class Bar:
...     def phase(self, name: str) -> None:
...         print("phase", name)
...     def __call__(self, done: int, total: int) -> None:
...         print(done, "of", total)
>>> bar = Bar()
>>> begin(bar, "solving")
phase solving
>>> report(bar, 1, 4)
1 of 4
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from kosti.errors import KostiError

Phase = Literal["building", "compiling", "solving"]
"""The phases a solve reports."""

Progress = Callable[[int, int], object]
"""Called as ``progress(done, total)``: ``done / total`` is the share of the current phase done.
Returning ``False`` cancels the work where it can be cancelled (:class:`SolveCancelled`); any
other result goes on, and an exception raised by the callback ends the work with it."""


class SolveCancelled(KostiError):
    """A solve stopped because its progress callback asked for it (returned ``False``)."""


def begin(progress: Progress | None, phase: Phase) -> None:
    """Tell ``progress`` that ``phase`` starts, if it listens for phases (a ``phase`` method)."""
    listener = getattr(progress, "phase", None)
    if callable(listener):
        listener(phase)


def report(progress: Progress | None, done: int, total: int) -> None:
    """Tell ``progress`` how far the current phase is; :class:`SolveCancelled` if it answers ``False``."""
    if progress is not None and progress(done, total) is False:
        raise SolveCancelled(f"the solve was cancelled after {done} of {total} steps")


@dataclass(frozen=True)
class Estimate:
    """What a solve will take, said before it starts: worked out from the size of its tables and
    the pace of a solve measured on an idle two-core machine, a guess and not a promise."""

    positions: int
    """How many positions are solved (a sheet's states, or the statuses of a «Тысяча» player)."""
    unit: str
    """What they are, in words: ``states`` or ``statuses a player``."""
    seconds: float
    """About how long, on two cores."""
    memory: float
    """About the most memory it holds, in bytes."""
    disk: float
    """The bytes its result keeps in the cache."""
    resumable: bool
    """Whether an interrupted solve keeps its work and goes on from there when run again."""


def tell(progress: Progress | None, estimate: Estimate) -> None:
    """Tell ``progress`` what the solve about to start will take, if it listens (an ``estimate`` method)."""
    listener = getattr(progress, "estimate", None)
    if callable(listener):
        listener(estimate)
