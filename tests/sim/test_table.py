"""The table policy and its dice tables (:mod:`kosti.sim.table`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from kosti.actions import Hold, Roll, Score
from kosti.bots.base import play_out
from kosti.dice import reroll
from kosti.errors import OptionError
from kosti.games import engine_for
from kosti.games.sheet.game import Sheet, SheetState
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.sim.table import (
    ALIKE,
    DICE_INDEX,
    HOLD_CODES,
    KEEPS,
    N_KEYS,
    THROWN,
    TableBot,
    check_vector_sheet,
    free_key,
    greedy_table,
    held_key,
    hold_keep,
    key_to_dice,
    layout,
    transition,
)

SMALL_YAHTZEE = "yahtzee(lower=[three_of_a_kind,full_house,small_straight,yahtzee,chance])"


def test_every_ordered_throw_maps_to_its_sorted_dice() -> None:
    lookup = key_to_dice()
    for key in (0, 1, 6, 7775, 1234):
        faces = tuple(sorted(key // 6**i % 6 + 1 for i in range(5)))
        assert THROWN[lookup[key]] == faces


def test_the_transition_rows_are_the_exact_reroll_distributions() -> None:
    p = transition()
    assert np.allclose(p.sum(axis=1), 1)
    for keep in ((), (6, 6), (1, 2, 3, 4)):
        expected = {DICE_INDEX[d]: float(q) for d, q in reroll(keep).items()}
        row = p[KEEPS.index(keep)]
        assert {i: row[i] for i in np.flatnonzero(row)} == pytest.approx(expected)


def test_held_plus_free_digits_throw_exactly_like_the_engine() -> None:
    # every fresh key, for a sample of dice and every hold: the distribution of the result
    lookup, held, free, keeps, p = key_to_dice(), held_key(), free_key(), hold_keep(), transition()
    rng = np.random.default_rng(5)
    for d in rng.choice(len(THROWN), 12, replace=False):
        for h in range(HOLD_CODES - 1):
            results = lookup[held[d, h] + free[h]]
            counts = np.bincount(results, minlength=len(THROWN)) / N_KEYS
            assert np.allclose(counts, p[keeps[d, h]])


def test_only_single_column_sheets_without_banking_are_supported() -> None:
    for preset in ("poker-fences", "poker-mandatory", "thousand-classic"):
        with pytest.raises(OptionError):
            check_vector_sheet(variant(preset).options)
    check_vector_sheet(variant("poker-extended").options)


@pytest.mark.parametrize("spec", ["poker-classic", "poker-free(lower=[pair,poker,chance])", SMALL_YAHTZEE])
def test_the_table_bot_only_makes_legal_decisions(spec: str) -> None:
    rules = variant(spec)
    engine = engine_for(rules)
    bot = TableBot()
    for seed in range(2):
        state = engine.new_game(rules, ["a", "b"])
        dice = SeededDice(seed)
        while not engine.is_finished(state):
            if n := engine.to_throw(state):
                state = engine.apply(state, Roll(dice.roll(n)))
                continue
            action = bot.choose(state)
            assert action in engine.decisions(state)
            state = engine.apply(state, action)


def test_the_table_prefers_a_big_combination_to_a_throw() -> None:
    # five sixes on the first throw of an empty poker-classic sheet: upper cells first (stages),
    # and the table records sixes (+12) rather than throwing on
    rules = variant("poker-classic")
    engine = engine_for(rules)
    state = engine.apply(engine.new_game(rules, ["a"]), Roll((6, 6, 6, 6, 6)))
    assert TableBot().choose(state) == Score("sixes")


def test_the_table_holds_towards_its_cell() -> None:
    # poker-free with only poker open: 1 1 1 2 3 after the first throw keeps the three ones
    rules = variant("poker-free(lower=[poker],upper=sum)")
    engine = engine_for(rules)
    state = engine.new_game(rules, ["a"])
    for cell in ("ones", "twos", "threes", "fours", "fives", "sixes"):
        state = engine.apply(state, Roll((1, 2, 3, 4, 5)))
        state = engine.apply(state, Score(cell))
    state = engine.apply(state, Roll((1, 1, 1, 2, 3)))
    assert TableBot().choose(state) == Hold((1, 1, 1))


def test_a_solitaire_game_ends_with_every_cell_recorded() -> None:
    rules = variant("poker-classic")
    engine = engine_for(rules)
    end = play_out(engine.new_game(rules, ["a"]), [TableBot()], SeededDice(1))
    assert engine.is_finished(end)
    assert end.turn == len(greedy_table("poker-classic").layout.cells)


RULE_SPECS = (
    "poker-classic(lower=[poker,chance])",
    "yahtzee(lower=[full_house,yahtzee])",
    "yahtzee(lower=[full_house,yahtzee],joker=free)",
    "yahtzee(lower=[full_house,yahtzee],joker=none)",
)
PROBES: tuple[tuple[int, ...], ...] = (
    *((f,) * 5 for f in range(1, 7)),
    (1, 2, 3, 4, 5),
    (2, 2, 3, 3, 3),
    (1, 6, 6, 6, 6),
    (1, 1, 4, 5, 6),
)
"""Every five alike (the jokers), and other throws: a straight, a full house, four alike."""


@pytest.mark.parametrize("spec", RULE_SPECS)
@pytest.mark.parametrize("held", [0, 50])
def test_the_layout_records_where_what_and_with_the_bonus_the_engine_does(spec: str, held: int) -> None:
    # every open-cell set, on real states whose recorded cells hold ``held``
    rules = variant(spec)
    lay, engine = layout(rules.spec), engine_for(rules)
    start = engine.new_game(rules, ["a"])
    assert isinstance(start, SheetState)
    masks = np.arange(1, lay.full + 1)
    legal, joker = lay.rules(masks)
    for i, mask in enumerate(masks):
        column = tuple(None if mask >> c & 1 else held for c in range(lay.n_cells))
        sheet = replace(start, sheets=(Sheet((column,)),), pending=0)
        for dice in PROBES:
            d, kind = DICE_INDEX[dice], ALIKE[DICE_INDEX[dice]]
            for throws in (1, 2):
                state = replace(sheet, dice=dice, throws=throws)
                cells = engine.scorable_cells(state)
                assert [lay.cells[c] for c in np.flatnonzero(legal[i, kind])] == cells
                for cell in cells:
                    c = lay.cells.index(cell)
                    value = engine.score_of(state, cell)
                    assert lay.score[joker[i, kind], int(throws == 1), d, c] == value
                    assert lay.scored_by[joker[i, kind], int(throws == 1), d, c] == (
                        cell == "yahtzee" and value != 0
                    )
                if throws == 2:
                    after = engine.apply(state, Score(cells[0]))
                    scored = "yahtzee" in lay.cells and column[lay.cells.index("yahtzee")] == 50
                    assert after.sheets[0].yahtzee_bonuses == lay.extra[int(scored), d]


def test_the_reachable_open_cell_sets_follow_the_stages() -> None:
    # sequential stages (RULES.md §1.4): the lower cells stay open until the upper section is full
    classic = layout(variant(RULE_SPECS[0]).spec)
    lower = classic.full >> 6
    expected = [m for m in range(1, classic.full + 1) if m & 0b111111 == 0 or m >> 6 == lower]
    assert classic.masks.tolist() == expected
    assert classic.row_of_mask[0b111111] == -1 and classic.row_of_mask[lower << 6 | 1] >= 0
    free = layout(variant(RULE_SPECS[1]).spec)
    assert free.masks.tolist() == list(range(1, free.full + 1))


@pytest.mark.parametrize(
    ("spec", "upper", "extras", "added"),
    [
        ("poker-classic", [-1, 0, 6], [0, 0, 0], [0, 50, 50]),
        ("yahtzee", [62, 63, 62, 63], [0, 0, 2, 1], [0, 35, 200, 135]),
        ("yahtzee(extra_yahtzee_bonus=0)", [63], [1], [35]),
        ("poker-free", [-5, 0, 100], [0, 0, 0], [0, 0, 0]),
    ],
)
def test_a_full_sheet_adds_the_upper_bonus_and_the_extra_yahtzees(
    spec: str, upper: list[int], extras: list[int], added: list[int]
) -> None:
    # RULES.md §1.4–§1.5: classic +50 at an upper total of 0 or more, yahtzee +35 at 63, +100 a Yahtzee
    lay = layout(variant(spec).spec)
    assert lay.bonus(np.array(upper), np.array(extras)).tolist() == added
