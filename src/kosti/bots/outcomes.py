"""Values over the 252 throws of five dice, and what a hold makes of them.

The heuristic sheet bot (:mod:`kosti.bots.sheet`) weighs every decision with vectors indexed by
the throws of five dice (:data:`THROWN`): one value a throw. :class:`Outcomes` is the handful of
operations it needs on them. Two kinds do the same arithmetic: with NumPy where it is installed
(:mod:`kosti.bots.outcomes_numpy`, the fast one), and in plain Python where it is not (the
browser's Pyodide ships no NumPy: :mod:`kosti.web`). :func:`default_outcomes` picks the first
that can run here.

>>> plain = PlainOutcomes()
>>> w = plain.vector(float(sum(d) == 30) for d in THROWN)  # 1 for five sixes
>>> round(plain.at(plain.after_hold(w), KEEP_INDEX[(6, 6, 6, 6)]), 6)  # one die to throw
0.166667
"""

from __future__ import annotations

import functools
import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kosti.dice import Faces, multisets, reroll, submultisets

THROWN: tuple[Faces, ...] = multisets(5)
"""Every throw of five dice (sorted faces), in the order of the vectors' values."""

INDEX: dict[Faces, int] = {d: i for i, d in enumerate(THROWN)}
KEEPS: tuple[Faces, ...] = tuple(m for n in range(5) for m in multisets(n))
"""Every hold of fewer than five dice, in the order of :meth:`Outcomes.after_hold`'s values."""

KEEP_INDEX: dict[Faces, int] = {k: i for i, k in enumerate(KEEPS)}

FIVE_ALIKE: tuple[bool, ...] = tuple(len(set(d)) == 1 for d in THROWN)
"""Which throws are five of a kind (a Yahtzee, a poker)."""

Vector = Any
"""A vector of the :class:`Outcomes` in use: a NumPy array or a list of floats."""


@functools.cache
def transitions() -> tuple[tuple[tuple[tuple[int, float], ...], ...], tuple[tuple[int, ...], ...]]:
    """Per hold (:data:`KEEPS`), the throws the five dice may show after it, each with its
    chance; per throw (:data:`THROWN`), the holds it allows."""
    after = tuple(
        tuple(sorted((INDEX[faces], float(p)) for faces, p in reroll(keep).items())) for keep in KEEPS
    )
    holds = tuple(tuple(KEEP_INDEX[h] for h in submultisets(d) if len(h) < 5) for d in THROWN)
    return after, holds


class Outcomes(ABC):
    """The operations on vectors over :data:`THROWN` that the sheet bot weighs with."""

    @abstractmethod
    def vector(self, values: Iterable[float]) -> Vector:
        """A vector of ``values``, one a throw in the order of :data:`THROWN`."""

    def full(self, value: float) -> Vector:
        """The vector with ``value`` for every throw."""
        return self.vector(value for _ in THROWN)

    @abstractmethod
    def plus(self, a: Vector, b: Vector | float) -> Vector:
        """``a + b``, throw by throw (``b`` a vector or one number)."""

    @abstractmethod
    def maximum(self, a: Vector, b: Vector | float) -> Vector:
        """The larger of ``a`` and ``b``, throw by throw (``b`` a vector or one number)."""

    @abstractmethod
    def most(self, rows: Sequence[Vector]) -> Vector:
        """The largest of ``rows`` (at least one), throw by throw."""

    @abstractmethod
    def where(self, mask: Sequence[bool], a: Vector, b: Vector) -> Vector:
        """``a`` for the throws ``mask`` holds, ``b`` for the others."""

    @abstractmethod
    def mapped(self, a: Vector, table: Mapping[float, float]) -> Vector:
        """Each value of ``a`` replaced by its entry in ``table``."""

    @abstractmethod
    def values(self, a: Vector) -> set[float]:
        """The distinct values of ``a``."""

    @abstractmethod
    def after_hold(self, w: Vector) -> Vector:
        """Per hold (index :data:`KEEP_INDEX`), the expected ``w`` after throwing the other dice,
        with −∞ appended (the value of no hold)."""

    @abstractmethod
    def best_hold(self, w: Vector) -> Vector:
        """Per throw, the expected ``w`` after its best hold."""

    @abstractmethod
    def normal(self, offsets: Sequence[int], sigma: float) -> list[float]:
        """The weights of a normal spread ``sigma`` (above 0) at the whole-number ``offsets``
        from its centre, scaled to add up to 1."""

    @staticmethod
    def at(a: Vector, i: int) -> float:
        """The value of ``a`` at index ``i``."""
        return float(a[i])


class PlainOutcomes(Outcomes):
    """Vectors as lists of floats, in plain Python: where NumPy is not installed."""

    def vector(self, values: Iterable[float]) -> list[float]:
        return [float(v) for v in values]

    def plus(self, a: Vector, b: Vector | float) -> list[float]:
        if isinstance(b, float | int):
            return [x + b for x in a]
        return [x + y for x, y in zip(a, b, strict=True)]

    def maximum(self, a: Vector, b: Vector | float) -> list[float]:
        if isinstance(b, float | int):
            return [x if x >= b else float(b) for x in a]
        return [x if x >= y else y for x, y in zip(a, b, strict=True)]

    def most(self, rows: Sequence[Vector]) -> list[float]:
        if len(rows) == 1:
            return list(rows[0])
        return [max(column) for column in zip(*rows, strict=True)]

    def where(self, mask: Sequence[bool], a: Vector, b: Vector) -> list[float]:
        return [x if m else y for m, x, y in zip(mask, a, b, strict=True)]

    def mapped(self, a: Vector, table: Mapping[float, float]) -> list[float]:
        return [table[x] for x in a]

    def values(self, a: Vector) -> set[float]:
        return set(a)

    def normal(self, offsets: Sequence[int], sigma: float) -> list[float]:
        weights = [math.exp(-0.5 * (x / sigma) ** 2) for x in offsets]
        total = math.fsum(weights)
        return [w / total for w in weights]

    def after_hold(self, w: Vector) -> list[float]:
        after, _ = transitions()
        return [sum(p * w[j] for j, p in spread) for spread in after] + [-float("inf")]

    def best_hold(self, w: Vector) -> list[float]:
        _, holds = transitions()
        values = self.after_hold(w)
        return [max(values[k] for k in ks) if ks else -float("inf") for ks in holds]


PLAIN = PlainOutcomes()


@functools.cache
def default_outcomes() -> Outcomes:
    """NumPy's outcomes where NumPy is installed, else the plain ones."""
    try:
        from kosti.bots.outcomes_numpy import NumpyOutcomes
    except ImportError:  # the browser's Pyodide ships no NumPy
        return PLAIN
    return NumpyOutcomes()
