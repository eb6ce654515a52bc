"""Exact «Тысяча» values shipped with kosti (kosti.solver.thousand.shipped): read instead of a
solve, equal to what the solver made to within the fixed point, and refused when their file is
not the one named or was made by another version of the solver."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import TINY_THOUSAND

from kosti.rules.presets import variant
from kosti.solver.thousand import shipped
from kosti.solver.thousand.model import default_floor, thousand_options
from kosti.solver.thousand.solve import (
    _MEMORY,
    SOLVER_VERSION,
    Solution,
    is_solved,
    ship,
    solve,
)

HALF_STEP = 2.0 ** -(shipped.BITS + 1)
"""The most a value moves in the fixed point: half of its step."""


def test_the_fixed_point_keeps_every_value_to_half_a_step() -> None:
    rng = np.random.default_rng(3)
    values = rng.random((40, 57))
    values[0, :3] = (0.0, 1.0, 0.5)  # the ends of the range, and a value the fixed point holds exactly
    values[1] = np.linspace(1.0, 0.0, 57)  # rows that fall as well as rise
    back = shipped.decode(shipped.encode(values), values.shape)
    assert back.shape == values.shape
    assert float(np.abs(back - values).max()) <= HALF_STEP
    assert back[0, 0] == 0.0 and back[0, 1] == 1.0 and back[0, 2] == 0.5


def ship_tiny(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Solution:
    """Solve the tiny variant without the cache and ship it from ``folder``."""
    rules = variant(TINY_THOUSAND)
    made = solve(rules, use_cache=False)
    _MEMORY.clear()
    monkeypatch.setattr(shipped, "DATA", folder)
    monkeypatch.setattr(shipped, "SHIPPED", {rules.spec: "tiny.npz"})
    ship(made, folder, "tiny.npz")
    return made


def test_shipped_values_are_read_instead_of_solving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path / "cache"))
    made = ship_tiny(tmp_path / "data", monkeypatch)
    rules = variant(TINY_THOUSAND)
    assert is_solved(rules)
    read = solve(rules)
    assert read.cached and read.sweeps == made.sweeps
    assert float(np.abs(read.values - made.values).max()) <= HALF_STEP
    assert read.win_probability == pytest.approx(made.win_probability, abs=1e-10)
    # the next process reads the cache the shipped values were written to
    _MEMORY.clear()
    monkeypatch.setattr(shipped, "SHIPPED", {})
    assert solve(rules).cached


def test_a_file_that_is_not_the_one_named_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path / "cache"))
    ship_tiny(tmp_path / "data", monkeypatch)
    rules = variant(TINY_THOUSAND)
    path = tmp_path / "data" / "tiny.npz"
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 1
    path.write_bytes(bytes(raw))
    assert shipped.read(rules, default_floor(thousand_options(rules)), SOLVER_VERSION) is None
    solved = solve(rules)  # solved again, as a variant that ships nothing
    assert not solved.cached and solved.sweeps > 0


def test_values_made_by_another_solver_version_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path / "cache"))
    ship_tiny(tmp_path / "data", monkeypatch)
    rules = variant(TINY_THOUSAND)
    floor = default_floor(thousand_options(rules))
    assert shipped.read(rules, floor, SOLVER_VERSION) is not None
    assert shipped.read(rules, floor, SOLVER_VERSION + "x") is None
    assert shipped.read(rules, floor - 5, SOLVER_VERSION) is None
