"""Scoring of one cell (RULES.md §1.2–§1.3), with the sources' own examples.

Expected values are worked out by hand from the rules, never read off the engine.
"""

from __future__ import annotations

import pytest

from kosti.dice import CARD_NAMES, show
from kosti.errors import KostiError
from kosti.games.sheet.scoring import cell_score, combination, upper_bonus
from kosti.rules import SheetOptions, variant


def rules(spec: str) -> SheetOptions:
    options = variant(spec).options
    assert isinstance(options, SheetOptions)
    return options


CLASSIC = rules("poker-classic")
EXTENDED = rules("poker-extended")
MANDATORY = rules("poker-mandatory")
FREE = rules("poker-free")
FENCES = rules("poker-fences")
YAHTZEE = rules("yahtzee")
YATZY = rules("yatzy")
DEVIATION_PRESETS = [CLASSIC, EXTENDED, MANDATORY, FENCES]
COMBINATION_PRESETS = DEVIATION_PRESETS  # lower cells score the dice of the combination


# -- upper section --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "dice", "expected"),
    [
        # seed 000, «Как играть в покер на костях»: the six examples of the first stage
        ("ones", (1, 1, 2, 3, 6), -1),
        ("twos", (2, 2, 2, 3, 5), 0),
        ("threes", (3, 3, 3, 3, 4), 3),
        ("fours", (1, 4, 4, 4, 5), 0),
        ("fives", (2, 3, 5, 5, 6), -5),
        ("sixes", (1, 6, 6, 6, 6), 6),
    ],
)
@pytest.mark.parametrize("options", DEVIATION_PRESETS, ids=["classic", "extended", "mandatory", "fences"])
def test_upper_deviation_seed_examples(
    options: SheetOptions, cell: str, dice: tuple[int, ...], expected: int
) -> None:
    assert cell_score(cell, dice, options) == expected


def test_upper_deviation_none_shown_is_three_times_the_face() -> None:
    # «не выпало ни одной кости нужного достоинства … номиналу нужной кости, умноженному на три»
    assert cell_score("sixes", (1, 2, 3, 4, 5), CLASSIC) == -18
    assert cell_score("ones", (2, 3, 4, 5, 6), CLASSIC) == -3
    # seed 003: one four is −8, two fours −4, four fours +4
    assert cell_score("fours", (4, 1, 2, 3, 5), FENCES) == -8
    assert cell_score("fours", (4, 4, 1, 2, 3), FENCES) == -4
    assert cell_score("fours", (4, 4, 4, 4, 1), FENCES) == 4
    assert cell_score("fives", (5, 5, 5, 5, 5), CLASSIC) == 10


def test_upper_deviation_has_no_first_throw_multiplier() -> None:
    assert cell_score("sixes", (1, 6, 6, 6, 6), CLASSIC, first_throw=True) == 6
    assert cell_score("fives", (2, 3, 5, 5, 6), FENCES, first_throw=True) == -5


@pytest.mark.parametrize("options", [FREE, YAHTZEE], ids=["free", "yahtzee"])
def test_upper_sum_seed_example(options: SheetOptions) -> None:
    # seed 000, «Разновидности» 2: 2,2,2,4,5 → twos 2×3 = 6, fours 4, fives 5, empty cells 0
    dice = (2, 2, 2, 4, 5)
    assert cell_score("twos", dice, options) == 6
    assert cell_score("fours", dice, options) == 4
    assert cell_score("fives", dice, options) == 5
    assert cell_score("ones", dice, options) == 0
    assert cell_score("sixes", dice, options) == 0


# -- lower section, the dice of the combination --------------------------------------------


@pytest.mark.parametrize("options", COMBINATION_PRESETS, ids=["classic", "extended", "mandatory", "fences"])
def test_seed_003_examples(options: SheetOptions) -> None:
    # seed 003: «Пара, состоящая из двух пятерок, дает 10 очков, тройка из трех четверок – это 12»
    assert cell_score("pair", (5, 5, 1, 2, 3), options) == 10
    assert cell_score("three_of_a_kind", (4, 4, 4, 1, 2), options) == 12
    # «две тройки и три шестерки: две тройки – это шесть, три шестерки – 18, вместе – 24»
    assert cell_score("full_house", (3, 3, 6, 6, 6), options) == 24
    assert cell_score("large_straight", (2, 3, 4, 5, 6), options) == 20


@pytest.mark.parametrize("options", [CLASSIC, FENCES], ids=["classic", "fences"])
def test_seed_003_straights(options: SheetOptions) -> None:
    # «Малый стрит всегда составляет 15 очков, большой стрит – 20» (exact straights)
    assert cell_score("small_straight", (1, 2, 3, 4, 5), options) == 15
    assert cell_score("large_straight", (2, 3, 4, 5, 6), options) == 20


def test_pair_takes_the_highest_pair() -> None:
    assert cell_score("pair", (2, 2, 5, 5, 1), CLASSIC) == 10
    assert cell_score("pair", (3, 3, 6, 6, 6), CLASSIC) == 12
    assert cell_score("pair", (1, 1, 1, 1, 1), CLASSIC) == 2


def test_two_pairs_are_the_two_highest_different_pairs() -> None:
    assert cell_score("two_pairs", (3, 3, 6, 6, 1), CLASSIC) == 18
    # a full house holds two pairs: 3,3 and 6,6
    assert cell_score("two_pairs", (3, 3, 6, 6, 6), CLASSIC) == 18
    assert cell_score("two_pairs", (2, 2, 5, 5, 5), EXTENDED) == 14
    # four of a kind is one face only: no two pairs
    assert cell_score("two_pairs", (4, 4, 4, 4, 2), CLASSIC) == 0
    assert cell_score("two_pairs", (4, 4, 1, 2, 3), CLASSIC) == 0


def test_of_a_kind_scores_the_dice_of_the_kind() -> None:
    assert cell_score("three_of_a_kind", (6, 6, 6, 6, 2), CLASSIC) == 18
    assert cell_score("four_of_a_kind", (6, 6, 6, 6, 2), CLASSIC) == 24
    assert cell_score("four_of_a_kind", (6, 6, 6, 2, 2), CLASSIC) == 0
    assert cell_score("three_of_a_kind", (6, 6, 5, 5, 1), CLASSIC) == 0


def test_five_of_a_kind_is_neither_full_house_nor_two_pairs() -> None:
    for options in (CLASSIC, EXTENDED, FREE, FENCES):
        assert cell_score("full_house", (4, 4, 4, 4, 4), options) == 0
        assert cell_score("two_pairs", (4, 4, 4, 4, 4), options) == 0
    # but it is a pair, a three, a four
    assert cell_score("pair", (4, 4, 4, 4, 4), CLASSIC) == 8
    assert cell_score("three_of_a_kind", (4, 4, 4, 4, 4), CLASSIC) == 12
    assert cell_score("four_of_a_kind", (4, 4, 4, 4, 4), CLASSIC) == 16
    assert cell_score("full_house", (4, 4, 4, 4, 4), YAHTZEE) == 0


def test_exact_straights() -> None:
    # classic and fences: small is 1-2-3-4-5 exactly, large 2-3-4-5-6 exactly
    for options in (CLASSIC, FENCES):
        assert cell_score("small_straight", (2, 3, 4, 5, 6), options) == 0
        assert cell_score("small_straight", (1, 2, 3, 4, 6), options) == 0
        assert cell_score("large_straight", (1, 2, 3, 4, 5), options) == 0
        assert cell_score("small_straight", (5, 3, 1, 4, 2), options) == 15


def test_runs_of_four_pick_the_highest_run() -> None:
    # extended: small straight is any run of four (seed 000: 1-2-3-4, 2-3-4-5, 3-4-5-6)
    assert cell_score("small_straight", (3, 4, 5, 6, 1), EXTENDED) == 18
    assert cell_score("small_straight", (2, 3, 4, 5, 6), EXTENDED) == 18  # 3-4-5-6 beats 2-3-4-5
    assert cell_score("small_straight", (1, 2, 3, 4, 5), EXTENDED) == 14  # 2-3-4-5 beats 1-2-3-4
    assert cell_score("small_straight", (1, 2, 3, 4, 4), EXTENDED) == 10
    assert cell_score("small_straight", (1, 2, 3, 5, 6), EXTENDED) == 0
    # large straight: any run of five
    assert cell_score("large_straight", (1, 2, 3, 4, 5), EXTENDED) == 15
    assert cell_score("large_straight", (2, 3, 4, 5, 6), MANDATORY) == 20
    assert cell_score("large_straight", (1, 2, 3, 4, 6), EXTENDED) == 0


def test_even_and_odd() -> None:
    # seed 000: чет 2,2,4,4,6 or 2,2,2,4,6; нечет 1,3,3,5,5 or 1,1,1,1,5
    assert cell_score("even", (2, 2, 4, 4, 6), EXTENDED) == 18
    assert cell_score("even", (2, 2, 2, 4, 6), EXTENDED) == 16
    assert cell_score("odd", (1, 3, 3, 5, 5), EXTENDED) == 17
    assert cell_score("odd", (1, 1, 1, 1, 5), EXTENDED) == 9
    assert cell_score("even", (2, 2, 4, 4, 5), EXTENDED) == 0
    assert cell_score("odd", (1, 3, 3, 5, 6), EXTENDED) == 0
    assert cell_score("even", (2, 2, 4, 4, 6), MANDATORY, first_throw=True) == 36


def test_chance_is_all_five() -> None:
    for options in (CLASSIC, EXTENDED, MANDATORY, FREE, FENCES, YAHTZEE):
        assert cell_score("chance", (1, 2, 4, 5, 6), options) == 18


def test_dash_when_the_combination_is_absent() -> None:
    # «прочерк»: a lower cell whose combination is not there scores 0, even on the first throw
    nothing = (1, 2, 3, 5, 6)
    for options in (CLASSIC, EXTENDED, MANDATORY, FREE, FENCES, YAHTZEE):
        for cell in options.lower:
            if cell in ("chance", "small_straight", "odd", "even"):
                continue
            assert cell_score(cell, nothing, options) == 0, cell
            assert cell_score(cell, nothing, options, first_throw=True) == 0, cell


# -- lower section, poker-free ----------------------------------------------------------------


def test_free_scores_all_five_dice_with_fixed_poker_and_straights() -> None:
    assert cell_score("pair", (1, 1, 2, 3, 4), FREE) == 11
    assert cell_score("two_pairs", (1, 1, 2, 2, 6), FREE) == 12
    assert cell_score("three_of_a_kind", (6, 6, 6, 1, 2), FREE) == 21
    assert cell_score("full_house", (3, 3, 6, 6, 6), FREE) == 24
    assert cell_score("four_of_a_kind", (2, 2, 2, 2, 6), FREE) == 14
    # «Собрав сочетание "покер", участнику начисляется 50 очков, вне зависимости от номинала»
    assert cell_score("poker", (1, 1, 1, 1, 1), FREE) == 50
    assert cell_score("poker", (6, 6, 6, 6, 6), FREE) == 50
    # «За короткий стрит … 25 баллов, а за длинный – плюс 30»
    assert cell_score("small_straight", (1, 2, 3, 4, 6), FREE) == 25
    assert cell_score("large_straight", (2, 3, 4, 5, 6), FREE) == 30
    assert cell_score("large_straight", (1, 2, 3, 4, 6), FREE) == 0


def test_free_has_no_first_throw_multiplier() -> None:
    assert cell_score("pair", (1, 1, 2, 3, 4), FREE, first_throw=True) == 11
    assert cell_score("poker", (3, 3, 3, 3, 3), FREE, first_throw=True) == 50


# -- first-throw multiplier, poker bonus, four prize ----------------------------------------

PRESENT = {
    "pair": ((5, 5, 1, 2, 3), 10),
    "two_pairs": ((3, 3, 6, 6, 1), 18),
    "three_of_a_kind": ((4, 4, 4, 1, 2), 12),
    "small_straight": ((1, 2, 3, 4, 5), 15),
    "large_straight": ((2, 3, 4, 5, 6), 20),
    "full_house": ((3, 3, 6, 6, 6), 24),
    "four_of_a_kind": ((2, 2, 2, 2, 5), 8),
    "chance": ((1, 2, 4, 5, 6), 18),
}
"""A throw with each combination and its value without multiplier (exact straights)."""


@pytest.mark.parametrize("cell", sorted(PRESENT))
def test_first_throw_doubles_every_lower_cell_but_chance(cell: str) -> None:
    dice, value = PRESENT[cell]
    factor = 1 if cell == "chance" else 2
    assert cell_score(cell, dice, CLASSIC) == value
    assert cell_score(cell, dice, CLASSIC, first_throw=True) == value * factor


@pytest.mark.parametrize("cell", sorted(PRESENT))
def test_fences_first_throw_multipliers(cell: str) -> None:
    # seed 003: «одиночная пара … по номиналу … Две пары … вдвойне, а все остальное – даже втройне»
    # and chance (RULES.md [choice]) is never multiplied
    dice, value = PRESENT[cell]
    factor = {"pair": 1, "two_pairs": 2, "chance": 1}.get(cell, 3)
    assert cell_score(cell, dice, FENCES) == value
    assert cell_score(cell, dice, FENCES, first_throw=True) == value * factor


def test_fences_poker_is_tripled_without_a_bonus() -> None:
    # seed 003 names no poker bonus: five sixes on the first throw are 30 × 3
    assert cell_score("poker", (6, 6, 6, 6, 6), FENCES, first_throw=True) == 90
    assert cell_score("poker", (6, 6, 6, 6, 6), FENCES) == 30


def test_poker_bonus_comes_after_the_multiplier() -> None:
    # five sixes on the first throw: 30 × 2 + 50 = 110
    for options in (CLASSIC, EXTENDED, MANDATORY):
        assert cell_score("poker", (6, 6, 6, 6, 6), options, first_throw=True) == 110
        assert cell_score("poker", (6, 6, 6, 6, 6), options) == 80
        assert cell_score("poker", (1, 1, 1, 1, 1), options) == 55
        assert cell_score("poker", (1, 1, 1, 1, 2), options) == 0


def test_four_prize_in_mandatory_only() -> None:
    four = (4, 4, 4, 4, 1)
    assert cell_score("four_of_a_kind", four, MANDATORY) == 16 + 20
    assert cell_score("four_of_a_kind", four, MANDATORY, first_throw=True) == 32 + 20
    assert cell_score("four_of_a_kind", (4, 4, 4, 1, 1), MANDATORY) == 0
    assert cell_score("four_of_a_kind", four, CLASSIC) == 16
    assert cell_score("four_of_a_kind", four, EXTENDED) == 16
    assert cell_score("four_of_a_kind", (5, 5, 5, 5, 5), MANDATORY) == 20 + 20


def test_four_prize_option_overrides() -> None:
    assert cell_score("four_of_a_kind", (4, 4, 4, 4, 1), rules("poker-classic(four_bonus=15)")) == 31


# -- yahtzee ----------------------------------------------------------------------------------


def test_yahtzee_lower_cells() -> None:
    assert cell_score("three_of_a_kind", (3, 3, 3, 4, 5), YAHTZEE) == 18
    assert cell_score("four_of_a_kind", (2, 2, 2, 2, 6), YAHTZEE) == 14
    assert cell_score("full_house", (2, 2, 3, 3, 3), YAHTZEE) == 25
    assert cell_score("small_straight", (1, 2, 3, 4, 6), YAHTZEE) == 30
    assert cell_score("small_straight", (3, 4, 5, 6, 6), YAHTZEE) == 30
    assert cell_score("large_straight", (1, 2, 3, 4, 5), YAHTZEE) == 40
    assert cell_score("yahtzee", (5, 5, 5, 5, 5), YAHTZEE) == 50
    assert cell_score("yahtzee", (5, 5, 5, 5, 4), YAHTZEE) == 0
    # no first-throw multiplier
    assert cell_score("full_house", (2, 2, 3, 3, 3), YAHTZEE, first_throw=True) == 25


def test_yahtzee_joker_counts_as_full_house_and_straights() -> None:
    dice = (3, 3, 3, 3, 3)
    assert cell_score("full_house", dice, YAHTZEE) == 0
    assert cell_score("full_house", dice, YAHTZEE, joker=True) == 25
    assert cell_score("small_straight", dice, YAHTZEE, joker=True) == 30
    assert cell_score("large_straight", dice, YAHTZEE, joker=True) == 40
    assert cell_score("chance", dice, YAHTZEE, joker=True) == 15


# -- yatzy (RULES.md §1.5: "every combination scores the pips of the dice that form it") -----


def test_yatzy_upper_cells_score_their_sum() -> None:
    assert cell_score("twos", (2, 2, 2, 4, 5), YATZY) == 6
    assert cell_score("sixes", (1, 2, 3, 4, 5), YATZY) == 0
    assert cell_score("fives", (5, 5, 5, 5, 5), YATZY) == 25


def test_yatzy_pair_is_the_highest_pair() -> None:
    assert cell_score("pair", (3, 3, 5, 5, 1), YATZY) == 10
    assert cell_score("pair", (6, 6, 6, 2, 1), YATZY) == 12
    assert cell_score("pair", (1, 2, 3, 4, 6), YATZY) == 0


def test_yatzy_two_pairs_need_two_different_pairs() -> None:
    assert cell_score("two_pairs", (3, 3, 5, 5, 1), YATZY) == 16
    assert cell_score("two_pairs", (6, 6, 5, 5, 4), YATZY) == 22
    # four alike or five alike are one face: never two pairs
    assert cell_score("two_pairs", (2, 2, 2, 2, 3), YATZY) == 0
    assert cell_score("two_pairs", (4, 4, 4, 4, 4), YATZY) == 0


def test_yatzy_of_a_kind_scores_the_dice_of_the_kind() -> None:
    assert cell_score("three_of_a_kind", (4, 4, 4, 6, 6), YATZY) == 12
    assert cell_score("four_of_a_kind", (5, 5, 5, 5, 6), YATZY) == 20
    assert cell_score("four_of_a_kind", (6, 6, 6, 6, 6), YATZY) == 24
    assert cell_score("four_of_a_kind", (6, 6, 6, 1, 1), YATZY) == 0


def test_yatzy_straights_are_exact() -> None:
    assert cell_score("small_straight", (5, 4, 3, 2, 1), YATZY) == 15
    assert cell_score("small_straight", (1, 2, 3, 4, 4), YATZY) == 0
    assert cell_score("small_straight", (2, 3, 4, 5, 6), YATZY) == 0
    assert cell_score("large_straight", (6, 5, 4, 3, 2), YATZY) == 20
    assert cell_score("large_straight", (1, 2, 3, 4, 5), YATZY) == 0


def test_yatzy_full_house_is_all_five_with_two_different_faces() -> None:
    assert cell_score("full_house", (3, 3, 6, 6, 6), YATZY) == 24
    assert cell_score("full_house", (1, 1, 2, 2, 2), YATZY) == 8
    assert cell_score("full_house", (5, 5, 5, 5, 5), YATZY) == 0
    assert cell_score("full_house", (2, 2, 3, 3, 4), YATZY) == 0


def test_yatzy_five_alike_scores_a_fixed_50() -> None:
    assert cell_score("yatzy", (1, 1, 1, 1, 1), YATZY) == 50
    assert cell_score("yatzy", (6, 6, 6, 6, 6), YATZY) == 50
    assert cell_score("yatzy", (6, 6, 6, 6, 5), YATZY) == 0
    assert cell_score("chance", (6, 6, 6, 6, 5), YATZY) == 29


def test_yatzy_has_no_first_throw_multiplier() -> None:
    for cell, dice in (("yatzy", (3,) * 5), ("full_house", (3, 3, 6, 6, 6)), ("pair", (4, 4, 1, 2, 3))):
        assert cell_score(cell, dice, YATZY, first_throw=True) == cell_score(cell, dice, YATZY)


def test_yatzy_upper_bonus_is_50_from_63() -> None:
    assert upper_bonus(63, YATZY) == 50
    assert upper_bonus(105, YATZY) == 50
    assert upper_bonus(62, YATZY) == 0


# -- upper bonus ------------------------------------------------------------------------------


def test_upper_bonus_nonnegative() -> None:
    # «Если при сложении плюсовых и минусовых очков вышла сумма ноль или более ноля … премия 50»
    for options in (CLASSIC, EXTENDED):
        assert upper_bonus(0, options) == 50
        assert upper_bonus(7, options) == 50
        assert upper_bonus(-1, options) == 0


def test_no_upper_bonus_in_mandatory_and_free() -> None:
    for total in (-30, 0, 30, 100):
        assert upper_bonus(total, MANDATORY) == 0
        assert upper_bonus(total, FREE) == 0


def test_fences_upper_bonus_by_sign() -> None:
    # seed 003: more than 63 (deviation > 0) +50, less −20, exactly 0 nothing
    assert upper_bonus(1, FENCES) == 50
    assert upper_bonus(0, FENCES) == 0
    assert upper_bonus(-1, FENCES) == -20


def test_yahtzee_upper_bonus_threshold() -> None:
    assert upper_bonus(63, YAHTZEE) == 35
    assert upper_bonus(80, YAHTZEE) == 35
    assert upper_bonus(62, YAHTZEE) == 0


# -- display ----------------------------------------------------------------------------------


def test_card_faces_are_display_only() -> None:
    # seed 000: «Девятки, Десятки, Валеты, Дамы, Короли, Тузы»
    assert show((1, 2, 3, 4, 5, 6), "cards") == "9 10 J Q K A"
    assert show((1, 6, 6), "pips") == "1 6 6"
    assert CARD_NAMES[6] == "A"
    cards = rules("poker-classic(faces=cards)")
    assert cards.faces == "cards"
    for cell in ("sixes", "pair", "poker", "large_straight"):
        for dice in ((6, 6, 6, 6, 6), (2, 3, 4, 5, 6)):
            assert cell_score(cell, dice, cards) == cell_score(cell, dice, CLASSIC)


def test_an_unknown_cell_is_a_kosti_error() -> None:
    with pytest.raises(KostiError, match="unknown cell 'sevens'"):
        combination("sevens", (1, 2, 3, 4, 5), "exact")
