"""poker-fences («покер с оградами»): the value against the bank cap, with time and memory.

RULES.md §6 asks for the exact value. A sheet could bank up to 117 throws; the solver
lays out each reachable state with a row of values for every bank its recorded cells can
have made, so by default nothing is capped and the value is exact. A cap below that
forfeits the throws banked beyond it, so each capped value is a lower bound of the exact
one. For each cap this prints the value, how much it gained over the cap before, the CPU
and wall time of the solve, the peak memory of the process and the table's size. Without
``--caps`` it solves caps 10, 20 and then no cap (the exact bound).

    uv run python bench/fences.py [--caps 5,10,20] [--preset poker-fences]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

from kosti.rules.presets import variant
from kosti.solver import solve
from kosti.solver.model import build_model


class Bar:
    """A one-line progress bar on standard error."""

    def __init__(self, title: str) -> None:
        self.title = title

    def __call__(self, done: int, total: int) -> None:
        width = 40
        filled = width * done // max(total, 1)
        sys.stderr.write(
            f"\r{self.title} [{'#' * filled}{'.' * (width - filled)}] {100 * done // max(total, 1)} %"
        )
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="poker-fences")
    parser.add_argument("--caps", default="", help="comma-separated caps (default: 5,10,20,40 and exact)")
    args = parser.parse_args()
    rules = variant(args.preset)
    exact = build_model(rules.options, 0).exact_cap  # type: ignore[arg-type]
    caps = [int(c) for c in args.caps.split(",") if c] or [10, 20, exact]
    print(f"{rules.spec}: a sheet can bank at most {exact} throws")
    print(f"{'cap':>5} {'value':>14} {'gain':>12} {'cpu s':>8} {'wall s':>8} {'peak MB':>8} {'table MB':>8}")
    before: float | None = None
    for cap in caps:
        cpu = time.process_time()
        wall = time.perf_counter()
        solution = solve(rules, cap=cap, fresh=True, use_cache=False, progress=Bar(f"cap {cap}"))
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        value = solution.expected_score
        gain = "" if before is None else f"{value - before:+.6f}"
        table = solution.values.nbytes / 1e6
        print(
            f"{solution.cap:5d} {value:14.6f} {gain:>12} {cpu:8.1f} {wall:8.1f} {peak:8.0f} {table:8.0f}",
            flush=True,
        )
        before = value
    print(f"fences: value {before:.6f} at cap {caps[-1]} (exact at {exact})")


if __name__ == "__main__":
    main()
