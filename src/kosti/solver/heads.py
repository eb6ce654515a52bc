"""The first turns of each column of a large sheet, solved and shipped with kosti; the rest solved
a piece at a time, where a hint first asks.

poker-fences has 1.9 million states and 78 million values: a whole solve takes minutes. A
hint needs only the values of the states its position leads to. kosti ships the values of every
state with at most :data:`LEVELS` cells recorded in its column (each column's first turns,
and so the start of every column), and a position with more recorded solves, when first asked
about, the states its column can still come to: those holding at least its recorded cells. The
start of the next column is shipped, so nothing else is needed. Those states are at most a
sixteenth of a column: some 15 s of solving on two cores (:meth:`Heads.need`).

kosti's own solver made the shipped values (``uv run python scripts/ship_sheets.py`` makes them
again). A shipped file is an ``.npz`` of two arrays:

* ``meta``: JSON with the variant, the solver version, :data:`LEVELS`, the fixed point, the count
  of values, the digest of where they stand in the table (:func:`head_offsets`, so that values
  are never put into a table laid out otherwise) and the expected score;
* ``planes``: the values as integers ``round(V · 2**BITS)``, second differences along the
  table (a state's values for its banks lie side by side and change smoothly), zigzag-coded in
  byte planes (:mod:`kosti.solver.planes`), LZMA-compressed.

The file's digest is in ``SHA256SUMS`` beside it (:mod:`kosti.solver.shipping`): a file that
does not match is never read, and the sheet is then solved whole.
"""

from __future__ import annotations

import hashlib
import lzma
import threading
from pathlib import Path

import numpy as np

from kosti.rules.presets import Variant
from kosti.solver import shipping
from kosti.solver.model import F64, I64, Model
from kosti.solver.planes import from_planes, to_planes, width
from kosti.solver.progress import Progress
from kosti.solver.tables import SOLVER_VERSION, Solution, induct, subtree_plan

LEVELS = 4
"""States with at most this many cells recorded in their column are shipped."""

BITS = 32
"""The fixed point of the shipped values: each is within 2**-33 (1.2e-10) of the solved one."""

DATA = Path(__file__).with_name("data")
"""Where the shipped files live, inside the package."""

SHIPPED: dict[str, str] = {"poker-fences": "poker-fences.npz"}
"""Each shipped variant's file in :data:`DATA`."""


def head_offsets(model: Model) -> I64:
    """Where the shipped values stand in ``model``'s table, in the order they are shipped: column
    by column, the states with at most :data:`LEVELS` cells recorded, emptiest last as
    :meth:`~kosti.solver.model.Model.column_states` lists them, each with a value for every bank
    it can hold."""
    layout = model.layout
    parts = []
    for col in range(model.n_columns):
        levels = model.column_states(col)
        for lms, ps, ys in levels[len(levels) - 1 - LEVELS :]:
            slots = layout.slot[col, lms, ps, ys]
            tops = layout.top[col, lms, ps, ys]
            starts = np.repeat(slots, tops + 1)
            firsts = np.repeat(np.cumsum(tops + 1) - (tops + 1), tops + 1)
            parts.append(starts + np.arange(len(starts)) - firsts)
    return np.concatenate(parts).astype(np.int64)


def offsets_digest(offsets: I64) -> str:
    """The digest of where shipped values stand (:func:`head_offsets`)."""
    return hashlib.sha256(np.ascontiguousarray(offsets, np.int64).tobytes()).hexdigest()


def encode(values: F64) -> tuple[bytes, int]:
    """``values`` as the compressed byte planes of the module docstring, and their bytes a step."""
    fixed = np.rint(values * float(1 << BITS)).astype(np.int64)
    steps = np.diff(np.diff(fixed, prepend=0), prepend=0)
    nbytes = width(steps)
    return lzma.compress(to_planes(steps, nbytes), preset=9 | lzma.PRESET_EXTREME), nbytes


def decode(data: bytes, nbytes: int) -> F64:
    """The values :func:`encode` compressed."""
    steps = from_planes(lzma.decompress(data), nbytes)
    return np.cumsum(np.cumsum(steps)).astype(np.float64) / float(1 << BITS)


def write(folder: Path, name: str, spec: str, model: Model, values: F64, expected: float) -> str:
    """Ship the head values of the solved table ``values`` of ``model`` as ``name`` in ``folder``,
    with its digest in the folder's ``SHA256SUMS``; the digest."""
    offsets = head_offsets(model)
    data, nbytes = encode(values[offsets])
    meta = {
        "spec": spec,
        "solver": SOLVER_VERSION,
        "levels": LEVELS,
        "bits": BITS,
        "plane_bytes": nbytes,
        "count": len(offsets),
        "offsets": offsets_digest(offsets),
        "expected_score": expected,
    }
    return shipping.write(folder, name, meta, data)


def read(rules: Variant, model: Model) -> F64 | None:
    """A table of ``model`` holding the shipped values of ``rules`` (zeros elsewhere), or ``None``
    when none are shipped for it, or the file is not the one ``SHA256SUMS`` names, or was made
    by another solver version or for another layout."""
    name = SHIPPED.get(rules.spec)
    if name is None or model.cap < model.exact_cap:
        return None
    found = shipping.read(DATA, name)
    if found is None:
        return None
    meta, planes = found
    offsets = head_offsets(model)
    expected = {"spec": rules.spec, "solver": SOLVER_VERSION, "levels": LEVELS, "bits": BITS}
    if any(meta.get(key) != value for key, value in expected.items()):
        return None
    if meta.get("count") != len(offsets) or meta.get("offsets") != offsets_digest(offsets):
        return None
    shipped = decode(planes, int(meta["plane_bytes"]))
    if len(shipped) != len(offsets):
        return None
    table = np.zeros(model.layout.size)
    table[offsets] = shipped
    return table


def available(rules: Variant) -> bool:
    """True when a shipped file of ``rules`` is named (its contents are checked when read)."""
    return shipping.available(DATA, SHIPPED.get(rules.spec))


class Heads:
    """A table of which only the shipped heads and the states under :attr:`roots` are solved: the
    ``partial`` of a :class:`~kosti.solver.tables.Solution`. :meth:`need` solves what a position
    needs, in place, so that every reader of the table sees it."""

    def __init__(self, model: Model, values: F64) -> None:
        self.model = model
        self.values = values
        self.roots: list[tuple[int, int, int]] = []
        """``(column, lm, um)``: the states of ``column`` holding at least these recorded cells
        are solved."""
        self.lock = threading.Lock()

    def known(self, column: int, lm: int, um: int) -> bool:
        """Whether the state ``(column, lm, um)`` (every upper total) and every state it leads to
        are solved: it is shipped and so are the states after it, or it lies under a root."""
        if lm.bit_count() + um.bit_count() < LEVELS:
            return True
        return any(c == column and lm & l0 == l0 and um & u0 == u0 for c, l0, u0 in self.roots)

    def need(self, column: int, lm: int, um: int, progress: Progress | None = None) -> None:
        """Solve what a position of ``column`` with the cells ``lm``, ``um`` recorded needs, unless
        it is known: every state of the column holding at least those cells (the ``solving``
        phase of ``progress``)."""
        with self.lock:
            if self.known(column, lm, um):
                return
            induct(self.model, subtree_plan(self.model, column, lm, um), self.values, progress)
            self.roots.append((column, lm, um))


def partial_solution(rules: Variant, model: Model) -> Solution | None:
    """A :class:`~kosti.solver.tables.Solution` of ``rules`` holding its shipped heads (solving
    the rest as positions need it), or ``None`` when it ships none."""
    table = read(rules, model)
    if table is None:
        return None
    return Solution(rules.spec, model, table, 0.0, cached=True, partial=Heads(model, table))
