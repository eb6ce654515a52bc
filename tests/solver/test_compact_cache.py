"""The sheet solver's cache of a large table (poker-fences): a fixed point of second differences
in byte planes, read back to the same numbers a fresh solve gives, and refused when damaged."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kosti.rules.presets import variant
from kosti.solver import tables as solver_tables
from kosti.solver.planes import from_planes, to_planes, width

# banked throws in three columns: every state has a row of values along its banks
SMALL_FENCES = "poker-fences(lower=[poker,chance])"
STEP = 2.0**-solver_tables.COMPACT_BITS


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(solver_tables, "_MEMORY", {})
    return tmp_path


def exact_values() -> np.ndarray:
    return solver_tables.solve(variant(SMALL_FENCES), fresh=True, use_cache=False).values


@given(arrays(np.int64, st.integers(0, 300), elements=st.integers(-(2**62), 2**62 - 1)))
def test_byte_planes_give_back_every_integer(steps: np.ndarray) -> None:
    nbytes = width(steps)
    assert from_planes(to_planes(steps, nbytes), nbytes).tolist() == steps.tolist()


def test_a_step_too_wide_for_its_planes_is_refused() -> None:
    assert width(np.array([127, -128])) == 1 and width(np.array([128])) == 2
    with pytest.raises(ValueError, match="does not fit 1 bytes"):
        to_planes(np.array([128]), 1)
    with pytest.raises(ValueError, match="whole steps"):
        from_planes(b"\x00\x01\x02", 2)


def test_a_table_below_the_threshold_is_kept_at_full_precision() -> None:
    model = solver_tables.solve(variant(SMALL_FENCES), use_cache=False).model
    assert not solver_tables.compact(model)
    fences = solver_tables.sheet_options(variant("poker-fences"))
    assert solver_tables.compact(solver_tables.build_model(fences))


def test_a_large_table_is_kept_to_its_fixed_point_and_read_back_as_solved(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact = exact_values()
    monkeypatch.setattr(solver_tables, "COMPACT_ABOVE", 0)
    monkeypatch.setattr(solver_tables, "COMPACT_CHUNK", 1000)  # several chunks, each with its carry
    fresh = solver_tables.solve(variant(SMALL_FENCES), fresh=True)
    assert len(fresh.values) > 3 * 1000
    # the fresh table is on the grid, within half a step of the exact values, and not equal to them
    assert np.array_equal(np.rint(fresh.values / STEP) * STEP, fresh.values)
    assert np.abs(fresh.values - exact).max() <= STEP / 2
    assert STEP / 2 < 1e-6  # a sheet's value exact to 1e-6 (RULES.md §6, kosti solve --json)
    assert not np.array_equal(fresh.values, exact)
    path = solver_tables.cache_path(fresh.spec, fresh.cap)
    with np.load(path) as data:
        assert "values" not in data.files
        assert json.loads(str(data["meta"]))["bits"] == solver_tables.COMPACT_BITS
    assert path.stat().st_size < fresh.values.nbytes / 3
    monkeypatch.setattr(solver_tables, "_MEMORY", {})
    again = solver_tables.solve(variant(SMALL_FENCES))
    assert again.cached
    np.testing.assert_array_equal(again.values, fresh.values)
    assert again.expected_score == fresh.expected_score


def test_a_full_precision_cache_of_a_large_table_is_rewritten_compact(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = solver_tables.solve(variant(SMALL_FENCES), fresh=True)  # below the threshold: float64
    path = solver_tables.cache_path(full.spec, full.cap)
    before = path.stat().st_size
    monkeypatch.setattr(solver_tables, "COMPACT_ABOVE", 0)
    monkeypatch.setattr(solver_tables, "_MEMORY", {})
    read = solver_tables.solve(variant(SMALL_FENCES))
    assert read.cached
    assert np.abs(read.values - full.values).max() <= STEP / 2
    assert path.stat().st_size < before / 3
    with np.load(path) as data:
        assert "planes" in data.files


@pytest.mark.parametrize("damage", ["truncated", "other bits", "chunk lengths"])
def test_a_damaged_compact_cache_is_solved_again(
    cache: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    monkeypatch.setattr(solver_tables, "COMPACT_ABOVE", 0)
    fresh = solver_tables.solve(variant(SMALL_FENCES), fresh=True)
    path = solver_tables.cache_path(fresh.spec, fresh.cap)
    with np.load(path) as data:
        planes = data["planes"]
        meta = json.loads(str(data["meta"]))
    if damage == "truncated":
        planes = planes[: len(planes) - 7]
    elif damage == "other bits":
        meta["bits"] += 1
    else:
        meta["lengths"] = meta["lengths"][:-1]
    np.savez(path, planes=planes, meta=np.array(json.dumps(meta)))
    monkeypatch.setattr(solver_tables, "_MEMORY", {})
    again = solver_tables.solve(variant(SMALL_FENCES))
    assert not again.cached
    np.testing.assert_array_equal(again.values, fresh.values)
