"""Solver values kept small on disk: fixed point, differences, zigzag and byte planes.

A table of solved values is smooth where it is laid out (neighbouring statuses of «Тысяча»,
neighbouring banks of a sheet's state), so the differences of its values in a fixed point are
small integers. Zigzag-coded (``0, −1, 1, −2 … → 0, 1, 2, 3 …``) and laid out byte plane by
byte plane (every lowest byte, then every next byte …), their high planes are runs of zeros a
general compressor folds away. Both the shipped «Тысяча» values
(:mod:`kosti.solver.thousand.shipped`) and the sheet solver's large caches
(:mod:`kosti.solver.tables`) are written this way.

>>> steps = np.array([0, -1, 1, -2, 300], dtype=np.int64)
>>> width(steps)
2
>>> from_planes(to_planes(steps, 2), 2).tolist()
[0, -1, 1, -2, 300]
"""

from __future__ import annotations

from typing import Any

import numpy as np

I64 = np.ndarray[Any, np.dtype[np.int64]]


def zigzag(steps: I64) -> np.ndarray[Any, np.dtype[np.uint64]]:
    """``steps`` as unsigned integers, small in magnitude kept small: ``0, −1, 1, −2 → 0, 1, 2, 3``."""
    return ((steps << 1) ^ (steps >> 63)).astype(np.uint64)


def width(steps: I64) -> int:
    """The bytes a plane coding of ``steps`` needs (at least 1)."""
    top = int(zigzag(steps).max(initial=0))
    return max(1, (top.bit_length() + 7) // 8)


def to_planes(steps: I64, nbytes: int) -> bytes:
    """``steps`` zigzag-coded, cut to ``nbytes`` bytes each and laid out plane by plane (the
    lowest byte of every step first). Raises :class:`ValueError` when a step needs more bytes."""
    coded = zigzag(np.ascontiguousarray(steps, dtype=np.int64).ravel())
    if nbytes < 8 and int(coded.max(initial=0)) >= 1 << (8 * nbytes):
        raise ValueError(f"a step does not fit {nbytes} bytes")
    return coded.view(np.uint8).reshape(-1, 8)[:, :nbytes].T.tobytes()


def from_planes(data: bytes, nbytes: int) -> I64:
    """The steps :func:`to_planes` laid out in ``data``, as a flat int64 array."""
    planes = np.frombuffer(data, np.uint8)
    if nbytes < 1 or nbytes > 8 or planes.size % nbytes:
        raise ValueError("the planes do not divide into whole steps")
    wide = np.zeros((planes.size // nbytes, 8), np.uint8)
    wide[:, :nbytes] = planes.reshape(nbytes, -1).T
    coded = wide.view(np.uint64).ravel()
    return (coded >> np.uint64(1)).astype(np.int64) ^ -(coded & np.uint64(1)).astype(np.int64)
