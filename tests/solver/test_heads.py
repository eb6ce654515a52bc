"""poker-fences' shipped first turns of each column, and the rest solved where a hint first asks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import Recorder, random_positions

from kosti.games.sheet.game import cells_of
from kosti.position import parse_position
from kosti.rules.presets import variant
from kosti.solver import heads, shipping
from kosti.solver import tables as solver_tables
from kosti.solver.advisor import SheetAdvisor, recorded_masks
from kosti.solver.model import KIND_ANNOUNCED, Model, build_model
from kosti.solver.tables import sheet_options, solve

FENCES = "poker-fences"
EXPECTED = 688.3968350595673
"""poker-fences' expected score, from a whole solve (``kosti solve poker-fences --json``)."""
SMALL = "poker-fences(lower=[pair,poker])"

FULL = dict.fromkeys(cells_of(variant(FENCES).options), 0)  # type: ignore[arg-type]
"""A whole column of poker-fences, every cell recorded."""


@pytest.fixture(scope="module")
def fences() -> tuple[Model, np.ndarray]:
    rules = variant(FENCES)
    model = build_model(sheet_options(rules))
    table = heads.read(rules, model)
    assert table is not None, "the shipped file is missing or does not match SHA256SUMS"
    return model, table


def solve_states(model: Model, values: np.ndarray, col: int, lms: np.ndarray, ps: np.ndarray) -> None:
    """Solve these states of ``col`` into ``values`` with the solver's own kernel."""
    from kosti.solver import kernels
    from kosti.solver.jit import prepare

    kernel = kernels.solve_announced_level if model.kinds[col] == KIND_ANNOUNCED else kernels.solve_level
    (compiled,) = prepare(None, [kernel])
    ys = np.zeros(len(lms), dtype=np.int64)
    compiled(*model.packed, values, col, lms.astype(np.int64), ps.astype(np.int64), ys)


def test_the_shipped_heads_are_the_whole_solves_first_turns(fences: tuple[Model, np.ndarray]) -> None:
    model, table = fences
    start = model.offset(0, 0, model.pair_of(0, 0), 0, 0)
    assert table[start] == pytest.approx(EXPECTED, abs=1e-9)
    offsets = heads.head_offsets(model)
    assert np.all(table[offsets] != 0.0)
    # every column's start is shipped, with a value for each bank it can hold
    for col in (1, 2):
        top = int(model.layout.top[col, 0, model.pair_of(0, 0), 0])
        first = model.offset(col, 0, model.pair_of(0, 0), 0, 0)
        assert top == 39 * col and np.all(np.diff(table[first : first + top + 1]) >= 0)
    # no state with more than LEVELS cells recorded is
    shipped = np.zeros(model.layout.size, dtype=bool)
    shipped[offsets] = True
    lms, ps, _ = model.column_states(1)[len(model.column_states(1)) - 1 - (heads.LEVELS + 1)]
    assert not shipped[model.layout.slot[1, lms, ps, 0]].any()


def test_the_shipped_values_satisfy_the_optimality_equations(fences: tuple[Model, np.ndarray]) -> None:
    """Each sampled state of the shipped turns but the last, solved again from the shipped
    values of the states after it, comes out at its shipped value to 1e-9."""
    model, table = fences
    rng = np.random.default_rng(3)
    for col in range(3):
        levels = model.column_states(col)
        for recorded in range(heads.LEVELS):
            lms, ps, _ = levels[len(levels) - 1 - recorded]
            pick = rng.choice(len(lms), size=min(12, len(lms)), replace=False)
            again = table.copy()
            rows = [
                slice(s, s + t + 1)
                for s, t in zip(
                    model.layout.slot[col, lms[pick], ps[pick], 0],
                    model.layout.top[col, lms[pick], ps[pick], 0],
                    strict=True,
                )
            ]
            for row in rows:
                again[row] = np.nan
            solve_states(model, again, col, lms[pick], ps[pick])
            for row in rows:
                np.testing.assert_allclose(again[row], table[row], rtol=0, atol=1e-9)


@pytest.mark.parametrize("col", [0, 1])
def test_a_position_past_the_shipped_turns_solves_what_it_can_reach(
    fences: tuple[Model, np.ndarray], col: int
) -> None:
    """A position with LEVELS cells recorded solves the states of its column that hold them: its
    own value, so solved, is the shipped one (the last shipped turn checked against a solve)."""
    model, table = fences
    partial = heads.Heads(model, table.copy())
    lm, um = 0b000010001, 0b000101  # pair and poker, ones and threes
    assert lm.bit_count() + um.bit_count() == heads.LEVELS
    assert not partial.known(col, lm, um)
    heard = Recorder()
    partial.need(col, lm, um, heard)
    plan = solver_tables.subtree_plan(model, col, lm, um)
    work = sum(int(w.sum()) for _, _, w in plan)
    whole = sum(int(w.sum()) for c, _, w in solver_tables._plan(model) if c == col)
    assert heard.of("solving")[-1] == (work, work) and work < whole / 10
    for total in (-5, 0, 3):
        p = model.pair_of(um, total)
        at, top = int(model.layout.slot[col, lm, p, 0]), int(model.layout.top[col, lm, p, 0])
        np.testing.assert_allclose(partial.values[at : at + top + 1], table[at : at + top + 1], atol=1e-9)
    # what lies under the root is known now; a position off it is not, nor another column's
    assert partial.known(col, lm | 0b100, um | 0b1000)
    assert not partial.known(col, 0b000010010, um) and not partial.known(2, lm, um)
    # a position before the last shipped turn needs nothing solved
    assert partial.known(col, 0b1, 0b11)


def test_the_first_hint_of_a_fences_game_solves_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_tables, "_PARTIAL", {})  # what other tests of this process solved is not here
    heard = Recorder()
    advisor = SheetAdvisor(progress=heard)
    state = parse_position({"variant": FENCES, "dice": [6, 6, 6, 2, 1], "throws": 1})
    advice = advisor.advise(state)
    assert advice[0].exact and "solving" not in heard.calls
    solution = advisor.solution(state)
    assert solution.partial is not None and solution.partial.roots == []
    assert solution.expected_score == pytest.approx(EXPECTED, abs=1e-9)
    # a column II position with five cells recorded solves what it can reach, once
    later = parse_position(
        {
            "variant": FENCES,
            "columns": {"I": FULL, "II": {"ones": -2, "twos": 0, "pair": 8, "chance": 20, "poker": 0}},
            "banked": 4,
            "dice": [1, 2, 3, 4, 6],
            "throws": 1,
        }
    )
    advisor.advise(later)
    assert solution.partial.roots == [recorded_masks(later)]
    assert "solving" in heard.calls


@pytest.fixture
def small_shipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """SMALL's heads shipped from its whole solve, in a folder of their own."""
    monkeypatch.setattr(heads, "DATA", tmp_path)
    monkeypatch.setattr(heads, "SHIPPED", {variant(SMALL).spec: "small.npz"})
    monkeypatch.setattr(solver_tables, "_PARTIAL", {})
    monkeypatch.setattr(solver_tables, "_MEMORY", {})
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path / "cache"))
    rules = variant(SMALL)
    whole = solve(rules, use_cache=False)
    heads.write(tmp_path, "small.npz", rules.spec, whole.model, whole.values, whole.expected_score)
    solver_tables._MEMORY.clear()
    return tmp_path


def test_hints_from_shipped_heads_are_the_whole_solves(small_shipped: Path) -> None:
    rules = variant(SMALL)
    partial = solver_tables.for_hints(rules)
    assert partial.partial is not None and not solver_tables.is_solved(rules)
    whole = solve(rules, use_cache=False)
    shipped, exact = SheetAdvisor(), SheetAdvisor()
    shipped._solved[id(rules)] = (rules, partial)
    exact._solved[id(rules)] = (rules, whole)
    states = random_positions(rules, 40, 5)
    assert {recorded_masks(s)[0] for s in states} == {0, 1, 2}
    for state in states:
        np.testing.assert_allclose(shipped.values(state), exact.values(state), atol=1e-9)
    batch = shipped.values_batch(states)
    np.testing.assert_allclose(batch, exact.values_batch(states), atol=1e-9)
    # only positions past the shipped turns solved anything
    assert all(lm.bit_count() + um.bit_count() >= heads.LEVELS for _, lm, um in partial.partial.roots)
    assert partial.partial.roots


def test_a_damaged_shipped_file_is_never_read(small_shipped: Path) -> None:
    rules = variant(SMALL)
    model = build_model(sheet_options(rules))
    assert heads.read(rules, model) is not None
    data = bytearray((small_shipped / "small.npz").read_bytes())
    data[-100] ^= 1
    (small_shipped / "small.npz").write_bytes(bytes(data))
    assert shipping.checked(small_shipped, "small.npz") is None
    assert heads.read(rules, model) is None
    # the sheet is then solved whole
    assert solver_tables.for_hints(rules).partial is None


def test_shipped_heads_are_for_the_exact_table_of_their_solver(
    small_shipped: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = variant(SMALL)
    model = build_model(sheet_options(rules))
    assert heads.read(rules, build_model(sheet_options(rules), cap=3)) is None
    assert heads.read(variant("poker-fences(lower=[poker])"), model) is None
    # values made by another solver version are not read
    heads.write(small_shipped, "small.npz", rules.spec, model, np.zeros(model.layout.size), 0.0)
    assert heads.read(rules, model) is not None
    monkeypatch.setattr(heads, "SOLVER_VERSION", solver_tables.SOLVER_VERSION + "x")
    assert heads.read(rules, model) is None


def test_encoding_keeps_values_to_the_fixed_point() -> None:
    rng = np.random.default_rng(1)
    values = np.cumsum(rng.random(5000)) * 3.7
    data, nbytes = heads.encode(values)
    back = heads.decode(data, nbytes)
    assert np.abs(back - values).max() <= 2.0 ** -(heads.BITS + 1)
