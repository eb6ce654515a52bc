"""Make the exact «Тысяча» values that ship with kosti (kosti/solver/thousand/data/).

    uv run python scripts/ship_thousand.py                 # every shipped variant
    uv run python scripts/ship_thousand.py thousand-classic

Each variant is solved by kosti's own solver (read from the cache when it was solved before:
``kosti solve thousand-classic --players 2`` once, about a quarter of an hour), written in the
compact form of :mod:`kosti.solver.thousand.shipped`, and its digest put in ``SHA256SUMS``.
Run it again whenever ``SOLVER_VERSION`` changes: the package ignores values made by another
version of the solver.
"""

from __future__ import annotations

import sys

from kosti.rules.presets import variant
from kosti.solver.thousand import shipped
from kosti.solver.thousand.solve import ship, solve


def main(specs: list[str]) -> None:
    for spec in specs or list(shipped.SHIPPED):
        name = shipped.SHIPPED.get(spec)
        if name is None:
            sys.exit(f"{spec} is not shipped: add it to kosti.solver.thousand.shipped.SHIPPED first")
        solution = solve(variant(spec))
        digest = ship(solution, shipped.DATA, name)
        size = (shipped.DATA / name).stat().st_size
        print(
            f"{spec}: p = {solution.win_probability:.12f}, {solution.model.n} statuses, "
            f"{size / 1e6:.1f} MB, sha256 {digest}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
