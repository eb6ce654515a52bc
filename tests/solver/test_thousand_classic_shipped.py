"""The exact two-player «Тысяча» that ships with kosti (``kosti/solver/thousand/data``): the file
named in ``SHA256SUMS`` and under 25 MB, its first player's chance as the solver made it, and
a sample of its positions that satisfy the optimality equations under the shipped values.

The values were made by ``kosti solve thousand-classic --players 2`` (about a quarter of an hour)
and written by ``scripts/ship_thousand.py``; these tests only read them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

import numpy as np
import pytest

from kosti.rules.presets import variant
from kosti.solver.thousand import kernel, shipped
from kosti.solver.thousand.model import default_floor, thousand_options
from kosti.solver.thousand.ready import ready
from kosti.solver.thousand.solve import _MEMORY, SOLVER_VERSION, Solution, _status_rows, solve

CLASSIC = "thousand-classic"
WIN_PROBABILITY = 0.5035396475
"""The first player's chance in thousand-classic under optimal play by both (the solve's own
figure, to the ten digits RULES.md gives)."""
MAX_BYTES = 25_000_000


@pytest.fixture(scope="module")
def shipped_file() -> tuple[str, bytes]:
    name = shipped.SHIPPED[CLASSIC]
    return name, (shipped.DATA / name).read_bytes()


def test_the_shipped_file_is_the_one_named_and_small(shipped_file: tuple[str, bytes]) -> None:
    name, raw = shipped_file
    assert hashlib.sha256(raw).hexdigest() == shipped.digests()[name]
    assert len(raw) <= MAX_BYTES


def test_the_shipped_values_are_read_by_this_solver_version() -> None:
    rules = variant(CLASSIC)
    found = shipped.read(rules, default_floor(thousand_options(rules)), SOLVER_VERSION)
    assert found is not None
    meta, values = found
    assert meta["win_probability"] == pytest.approx(WIN_PROBABILITY, abs=1e-9)
    # values are chances of winning
    assert values.min() >= 0.0 and values.max() <= 1.0


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Solution]:
    """thousand-classic as a fresh install reads it: no cache, the shipped values."""
    mp = pytest.MonkeyPatch()
    mp.setenv("KOSTI_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    _MEMORY.clear()
    try:
        rules = variant(CLASSIC)
        assert ready(rules)
        yield solve(rules)
    finally:
        _MEMORY.clear()
        mp.undo()


def test_a_fresh_install_reads_the_exact_game_without_solving(classic: Solution) -> None:
    assert classic.cached
    assert classic.win_probability == pytest.approx(WIN_PROBABILITY, abs=1e-9)
    model = classic.model
    # the statuses the values were made for are the ones this engine reaches
    found = shipped.read(variant(CLASSIC), model.floor, SOLVER_VERSION)
    assert found is not None
    assert found[0]["statuses"] == shipped.statuses_digest(_status_rows(model.statuses))


def test_sampled_positions_satisfy_the_optimality_equations(classic: Solution) -> None:
    """For each sampled pair of statuses, the best play of the mover's turn against the shipped
    values of what follows gives back the shipped value of the position, to 1e-9."""
    model, values, tables = classic.model, classic.values, classic.tables
    rng = np.random.default_rng(2026)
    n = model.n
    pairs = {(0, 0), (n - 1, n - 1), (0, n - 1), (n - 1, 0)}
    pairs |= {(int(i), int(j)) for i, j in rng.integers(0, n, size=(196, 2))}
    D, R = np.empty((kernel.rows(model), 6)), np.empty(kernel.rows(model))
    worst = 0.0
    for i, j in sorted(pairs):
        start = kernel.solve_turn(tables, values, i, j, D, R)
        worst = max(worst, abs(float(start) - float(values[i, j])))
    assert worst <= 1e-9


def test_the_full_games_estimate_is_what_its_solve_took(classic: Solution) -> None:
    """The yardstick of the estimate other variants are told up front is this game's own solve."""
    from kosti.solver.thousand.solve import estimate

    seconds, size = estimate(classic.model)
    assert 15 * 60 < seconds < 20 * 60
    assert 2.5e9 < size < 3.1e9
