"""The exact two-player values shipped with kosti, so that the optimal «Тысяча» bot and exact
hints work on a fresh install without a solve of many minutes.

kosti's own solver made them (``uv run python scripts/ship_thousand.py`` makes them again and
says what it wrote). A shipped file is an ``.npz`` of two arrays:

* ``meta``: JSON with the variant, the floor on scores, the solver version, the digest of the
  statuses in the order of the values (so a model built by other code is never paired with
  them), the fixed-point scale and the solve's own figures;
* ``planes``: the values ``V[i, j]`` as integers ``round(V · 2**BITS)``, each row differenced
  (neighbouring statuses have close values), zigzag-coded, cut to :data:`PLANE_BYTES` bytes and
  laid out byte plane by byte plane (:mod:`kosti.solver.planes`), LZMA-compressed.

The fixed point keeps every value to within ``2**-(BITS + 1)`` (7e-12), well inside the 1e-9 to
which the shipped values must satisfy the optimality equations, and it is what makes the file
small: the high bytes of the differences are nearly all zero. :data:`SHIPPED` names each file,
and ``SHA256SUMS`` beside them (as ``sha256sum`` writes it, so ``sha256sum -c`` checks it too)
gives its digest; a file that does not match (a truncated download, a pointer file of a large
file store) is refused, and the variant is then solved as any other.
"""

from __future__ import annotations

import hashlib
import lzma
from pathlib import Path
from typing import Any

import numpy as np

from kosti.rules.presets import Variant
from kosti.solver import shipping
from kosti.solver.planes import from_planes, to_planes

BITS = 36
"""The fixed-point scale of the shipped values: 2**-36 is 1.5e-11."""

PLANE_BYTES = 5
"""Bytes kept of each zigzag-coded difference: enough for ``BITS + 2`` bits."""

DATA = Path(__file__).with_name("data")
"""Where the shipped files live, inside the package."""

SHIPPED: dict[str, str] = {"thousand-classic": "thousand-classic.npz"}
"""Each shipped variant's file in :data:`DATA`."""

SUMS = shipping.SUMS
"""The digests of the shipped files, in :data:`DATA` (:mod:`kosti.solver.shipping`)."""


def digests() -> dict[str, str]:
    """The SHA-256 of each shipped file, by name, from :data:`SUMS` (empty when it is missing)."""
    return shipping.digests(DATA)


def encode(values: np.ndarray[Any, Any]) -> bytes:
    """``values`` (floats in 0..1) as the compressed byte planes of the module docstring."""
    fixed = np.rint(values * float(1 << BITS)).astype(np.int64)
    planes = to_planes(np.diff(fixed, axis=1, prepend=0), PLANE_BYTES)
    return lzma.compress(planes, preset=9 | lzma.PRESET_EXTREME)


def decode(data: bytes, shape: tuple[int, int]) -> np.ndarray[Any, Any]:
    """The values that :func:`encode` compressed, as float64 of ``shape``."""
    steps = from_planes(lzma.decompress(data), PLANE_BYTES).reshape(shape)
    return np.cumsum(steps, axis=1).astype(np.float64) / float(1 << BITS)


def statuses_digest(rows: np.ndarray[Any, Any]) -> str:
    """The digest of a model's statuses (their rows, in order): the values are indexed by them."""
    return hashlib.sha256(np.ascontiguousarray(rows, np.int64).tobytes()).hexdigest()


def write(folder: Path, name: str, meta: dict[str, Any], values: np.ndarray[Any, Any]) -> str:
    """Write the shipped file ``name`` of ``values`` with ``meta`` into ``folder`` and its digest
    into the folder's :data:`SUMS` (replacing an older line of that name); the digest."""
    data = encode(values)
    meta = {**meta, "bits": BITS, "plane_bytes": PLANE_BYTES, "shape": list(values.shape)}
    return shipping.write(folder, name, meta, data)


def read(rules: Variant, floor: int, solver: str) -> tuple[dict[str, Any], np.ndarray[Any, Any]] | None:
    """The shipped meta and values of ``rules`` at ``floor`` made by solver version ``solver``,
    or ``None`` when none are shipped, or the file is not the one named in :data:`SHIPPED`."""
    name = SHIPPED.get(rules.spec)
    if name is None:
        return None
    found = shipping.read(DATA, name)
    if found is None:
        return None
    meta, planes = found
    if meta.get("spec") != rules.spec or meta.get("floor") != floor or meta.get("solver") != solver:
        return None
    if meta.get("bits") != BITS or meta.get("plane_bytes") != PLANE_BYTES:
        return None
    shape = tuple(meta["shape"])
    return meta, decode(planes, (int(shape[0]), int(shape[1])))


def available(rules: Variant) -> bool:
    """True when a shipped file of ``rules`` is named (its contents are checked when read)."""
    return shipping.available(DATA, SHIPPED.get(rules.spec))
