"""The outcomes of :mod:`kosti.bots.outcomes` as NumPy arrays: a hold's expectation is one
product with the dense matrix of the holds' outcomes, the best hold one gather and one max."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from kosti.bots.outcomes import KEEPS, THROWN, Outcomes, Vector, transitions

Array = npt.NDArray[np.float64]


@functools.cache
def _dense() -> tuple[Array, npt.NDArray[np.intp]]:
    """Per hold, the distribution of the five dice after the throw; per throw, its holds
    (padded with the index of the −∞ that :meth:`NumpyOutcomes.after_hold` appends)."""
    after, holds = transitions()
    trans = np.zeros((len(KEEPS), len(THROWN)))
    for k, spread in enumerate(after):
        for j, p in spread:
            trans[k, j] += p
    padded = np.full((len(THROWN), 32), len(KEEPS), dtype=np.intp)
    for i, ks in enumerate(holds):
        padded[i, : len(ks)] = ks
    return trans, padded


class NumpyOutcomes(Outcomes):
    """Vectors as NumPy arrays of float64."""

    def vector(self, values: Iterable[float]) -> Array:
        return np.fromiter(values, dtype=np.float64, count=len(THROWN))

    def full(self, value: float) -> Array:
        return np.full(len(THROWN), value, dtype=np.float64)

    def plus(self, a: Vector, b: Vector | float) -> Array:
        result: Array = a + b
        return result

    def maximum(self, a: Vector, b: Vector | float) -> Array:
        result: Array = np.maximum(a, b)
        return result

    def most(self, rows: Sequence[Vector]) -> Array:
        if len(rows) == 1:
            first: Array = rows[0]
            return first
        result: Array = np.max(np.stack(rows), axis=0)
        return result

    def where(self, mask: Sequence[bool], a: Vector, b: Vector) -> Array:
        chosen: Array = np.asarray(a, dtype=np.float64)
        other: Array = np.asarray(b, dtype=np.float64)
        result: Array = np.where(np.asarray(mask, dtype=np.bool_), chosen, other)
        return result

    def mapped(self, a: Vector, table: Mapping[float, float]) -> Array:
        return np.fromiter((table[x] for x in a.tolist()), dtype=np.float64, count=len(a))

    def values(self, a: Vector) -> set[float]:
        return set(np.unique(a).tolist())

    def normal(self, offsets: Sequence[int], sigma: float) -> list[float]:
        weights = np.exp(-0.5 * (np.asarray(offsets) / sigma) ** 2)
        scaled: list[float] = (weights / weights.sum()).tolist()
        return scaled

    def after_hold(self, w: Vector) -> Array:
        trans, _ = _dense()
        return np.append(trans @ w, -np.inf)

    def best_hold(self, w: Vector) -> Array:
        _, holds = _dense()
        values: Array = np.max(self.after_hold(w)[holds], axis=1)
        return values
