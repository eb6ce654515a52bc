"""The solver's rule tables (:mod:`kosti.solver.legal`) and the kernels' reading of them give the
engine's answers: every entry of every table, and then every sheet of several presets."""

from __future__ import annotations

import random

import pytest

from kosti.games.sheet.game import allowed_cells, cells_of, joker_cells, joker_face
from kosti.rules.options import UPPER_CELLS, SheetOptions
from kosti.rules.presets import variant
from kosti.solver.model import Cfg, build_model

PRESETS = ["yahtzee", "yahtzee(joker=free)", "yatzy", "poker-classic", "poker-free", "poker-mandatory"]
# three columns of every kind, with a Yahtzee cell, so that a later column's joker reads column I
COLUMNS = "poker-fences(lower=[pair,yahtzee,chance],joker=free,extra_yahtzee_bonus=100)"
SHEETS_CHECKED = 1 << 13
"""Sheets of one column checked against the engine; a column with more is sampled (seeded)."""


def options_of(spec: str) -> SheetOptions:
    options = variant(spec).options
    assert isinstance(options, SheetOptions)
    return options


def named(names: tuple[str, ...], bits: int) -> set[str]:
    """The cells of a bit mask (bit ``i``: ``names[i]``)."""
    assert bits >> len(names) == 0, "a bit beyond the column's cells"
    return {name for i, name in enumerate(names) if bits >> i & 1}


def column(names: tuple[str, ...], recorded: set[str]) -> tuple[int | None, ...]:
    return tuple(0 if name in recorded else None for name in names)


@pytest.mark.parametrize("spec", [*PRESETS, COLUMNS])
def test_every_entry_of_the_rule_tables_is_the_engines_answer(spec: str) -> None:
    options = options_of(spec)
    rules = build_model(options).rules
    names = cells_of(options)
    for col, kind in enumerate(options.column_kinds):
        for first in range(len(names)):
            # the cells before the first open one are recorded, every later one is open
            expected = allowed_cells(options, kind, column(names, set(names[:first])))
            assert named(names, int(rules.allowed[col, first])) == set(expected), (kind, first)
    for upper in range(1 << len(UPPER_CELLS)):
        for yahtzee in (0, 1):
            recorded = {UPPER_CELLS[f] for f in range(6) if upper >> f & 1}
            if yahtzee and "yahtzee" in names:
                recorded.add("yahtzee")
            first_column = column(names, recorded)
            faces = int(rules.joker_faces[upper, yahtzee])
            assert faces & 1 == 0
            for face in range(1, 7):
                jokes = joker_face(options, first_column, (face,) * 5) is not None
                assert bool(faces >> face & 1) == jokes, (upper, yahtzee, face)
    for face in range(1, 7):
        for own in (0, 1):
            for lower in (0, 1):
                cells = [c for c in UPPER_CELLS if own or c != UPPER_CELLS[face - 1]]
                cells += options.lower if lower else ()
                expected = joker_cells(options, cells, face)
                assert named(names, int(rules.joker_cells[face - 1, own, lower])) == set(expected)


@pytest.mark.parametrize("spec", [*PRESETS, COLUMNS])
def test_the_kernels_read_the_engines_rules_in_every_sheet(spec: str) -> None:
    # the kernels' own code, run by Python: the tables are indexed by what each rule reads of
    # the sheet, and this checks that it is all the engine reads
    from kosti.solver import kernels

    options = options_of(spec)
    model = build_model(options)
    tables = model.tables
    allowed = kernels.allowed.py_func  # type: ignore[attr-defined]
    jokers_of = kernels.jokers_of.py_func  # type: ignore[attr-defined]
    joker_allowed = kernels.joker_allowed.py_func  # type: ignore[attr-defined]
    names = cells_of(options)
    n_upper = len(UPPER_CELLS)
    n_lower = len(options.lower)
    full_first = column(names, set(names))
    masks = list(range(1 << len(names)))
    if len(masks) > SHEETS_CHECKED:
        masks = random.Random(spec).sample(masks, SHEETS_CHECKED)
    for col, kind in enumerate(options.column_kinds):
        for recorded in masks:
            um, lm = recorded & ((1 << n_upper) - 1), recorded >> n_upper
            this = column(names, named(names, recorded))
            ua, la = allowed(tables, col, um, lm)
            cells = allowed_cells(options, kind, this)
            assert named(names, ua | la << n_upper) == set(cells), (col, bin(recorded))
            assert ua >> n_upper == 0 and la >> n_lower == 0
            faces = jokers_of(tables, col, um, lm)
            first_column = this if col == 0 else full_first
            for face in range(1, 7):
                jokes = joker_face(options, first_column, (face,) * 5) is not None
                assert bool(faces >> face & 1) == jokes, (col, bin(recorded), face)
                if cells:
                    ju, jl = joker_allowed(tables, face, ua, la)
                    expected = joker_cells(options, cells, face)
                    assert named(names, ju | jl << n_upper) == set(expected), (col, bin(recorded), face)
    assert tables.cfg[Cfg.N_LOWER] == n_lower


@pytest.mark.parametrize("spec", [*PRESETS, COLUMNS])
def test_the_states_solved_are_those_the_engine_lets_a_column_reach(spec: str) -> None:
    options = options_of(spec)
    model = build_model(options)
    names = cells_of(options)
    for col, kind in enumerate(options.column_kinds):
        # from the empty column, record in every cell the engine allows
        seen = {0}
        level = {0}
        while level:
            after = set()
            for recorded in level:
                for cell in allowed_cells(options, kind, column(names, named(names, recorded))):
                    after.add(recorded | 1 << names.index(cell))
            seen |= after
            level = after
        reachable = model.reachable[col]
        assert {int(m) for m in reachable.nonzero()[0]} == seen
