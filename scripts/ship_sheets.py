"""Make the first turns of each column of the large sheets that ship with kosti
(kosti/solver/data/).

    uv run python scripts/ship_sheets.py                # every shipped variant
    uv run python scripts/ship_sheets.py poker-fences

Each variant is solved whole by kosti's own solver (poker-fences: some four minutes on two
cores; not read from the cache, which keeps values only to 2**-20), and the values of every
state with at most :data:`kosti.solver.heads.LEVELS` cells recorded in its column are written
in the compact form of :mod:`kosti.solver.heads`, their digest put in ``SHA256SUMS``. Run it
again whenever ``SOLVER_VERSION`` changes: the package ignores values made by another version
of the solver.
"""

from __future__ import annotations

import sys
import time

from kosti.rules.presets import variant
from kosti.solver import heads
from kosti.solver.model import build_model
from kosti.solver.tables import backward_induction, compile_solver, sheet_options


def main(specs: list[str]) -> None:
    for spec in specs or list(heads.SHIPPED):
        name = heads.SHIPPED.get(spec)
        if name is None:
            sys.exit(f"{spec} is not shipped: add it to kosti.solver.heads.SHIPPED first")
        rules = variant(spec)
        model = build_model(sheet_options(rules))
        compile_solver(model.options)
        start = time.perf_counter()
        values = backward_induction(model)
        seconds = time.perf_counter() - start
        expected = float(values[model.offset(0, 0, model.pair_of(0, 0), 0, 0)])
        digest = heads.write(heads.DATA, name, rules.spec, model, values, expected)
        size = (heads.DATA / name).stat().st_size
        count = len(heads.head_offsets(model))
        print(
            f"{spec}: expected score {expected:.10f}, solved in {seconds:.0f} s; {count} values of "
            f"{model.layout.size} shipped, {size / 1e6:.2f} MB, sha256 {digest}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
