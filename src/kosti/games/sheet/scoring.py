"""Scoring of a score-sheet cell (RULES.md §1.2–§1.4). Pure functions of the dice.

One rule, one function. Dice are any sequence of five faces; order is ignored.
"""

from __future__ import annotations

from collections.abc import Sequence

from kosti.dice import counts
from kosti.errors import KostiError
from kosti.rules.options import UPPER_CELLS, SheetOptions

UPPER_FACE: dict[str, int] = {cell: i + 1 for i, cell in enumerate(UPPER_CELLS)}

RUNS_OF_FOUR: tuple[tuple[int, ...], ...] = ((3, 4, 5, 6), (2, 3, 4, 5), (1, 2, 3, 4))
"""Runs of four, highest first: the highest run present is the one that scores."""
RUNS_OF_FIVE: tuple[tuple[int, ...], ...] = ((2, 3, 4, 5, 6), (1, 2, 3, 4, 5))


def upper_deviation(face: int, dice: Sequence[int]) -> int:
    """Deviation scoring («школа»): (count − 3) × face; three of them is 0 («фигура выполнена»)."""
    return (counts(dice)[face - 1] - 3) * face


def upper_sum(face: int, dice: Sequence[int]) -> int:
    """Sum scoring: count × face."""
    return counts(dice)[face - 1] * face


def best_of_a_kind(dice: Sequence[int], n: int) -> int:
    """The highest face shown at least ``n`` times, or 0."""
    c = counts(dice)
    for face in range(6, 0, -1):
        if c[face - 1] >= n:
            return face
    return 0


def pairs(dice: Sequence[int]) -> list[int]:
    """Faces shown at least twice, highest first."""
    c = counts(dice)
    return [f for f in range(6, 0, -1) if c[f - 1] >= 2]


def full_house(dice: Sequence[int]) -> bool:
    """Three of one face and two of another (five of a kind is not a full house)."""
    return sorted(c for c in counts(dice) if c) == [2, 3]


def run_present(dice: Sequence[int], run: Sequence[int]) -> bool:
    present = set(dice)
    return all(f in present for f in run)


def small_straight(dice: Sequence[int], straights: str) -> tuple[int, ...] | None:
    """The dice of the small straight: exactly 1-2-3-4-5, or the highest run of four."""
    if straights == "exact":
        return (1, 2, 3, 4, 5) if sorted(dice) == [1, 2, 3, 4, 5] else None
    return next((run for run in RUNS_OF_FOUR if run_present(dice, run)), None)


def large_straight(dice: Sequence[int], straights: str) -> tuple[int, ...] | None:
    """The dice of the large straight: exactly 2-3-4-5-6, or any run of five."""
    if straights == "exact":
        return (2, 3, 4, 5, 6) if sorted(dice) == [2, 3, 4, 5, 6] else None
    return next((run for run in RUNS_OF_FIVE if run_present(dice, run)), None)


def combination(cell: str, dice: Sequence[int], straights: str) -> tuple[int, ...] | None:
    """The dice that form ``cell``'s combination, taking the best-scoring way; ``None`` if absent.

    ``pair`` is the highest pair, ``two_pairs`` the two highest different pairs,
    ``three_of_a_kind``/``four_of_a_kind``/``poker`` (aliases ``yahtzee``, ``yatzy``) the highest face
    with that many, ``full_house``/``even``/``odd``/``chance`` all five. An unknown cell
    raises :class:`~kosti.errors.KostiError`.
    """
    if cell == "pair":
        p = pairs(dice)
        return (p[0],) * 2 if p else None
    if cell == "two_pairs":
        p = pairs(dice)
        return (p[0],) * 2 + (p[1],) * 2 if len(p) >= 2 else None
    kinds = {"three_of_a_kind": 3, "four_of_a_kind": 4, "poker": 5, "yahtzee": 5, "yatzy": 5}
    if cell in kinds:
        face = best_of_a_kind(dice, kinds[cell])
        return (face,) * kinds[cell] if face else None
    if cell == "full_house":
        return tuple(dice) if full_house(dice) else None
    if cell == "small_straight":
        return small_straight(dice, straights)
    if cell == "large_straight":
        return large_straight(dice, straights)
    if cell == "even":
        return tuple(dice) if all(f % 2 == 0 for f in dice) else None
    if cell == "odd":
        return tuple(dice) if all(f % 2 == 1 for f in dice) else None
    if cell == "chance":
        return tuple(dice)
    raise KostiError(f"unknown cell {cell!r}")


YAHTZEE_FIXED: dict[str, int] = {
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
}
FREE_FIXED: dict[str, int] = {"poker": 50, "small_straight": 25, "large_straight": 30}
YATZY_FIXED = 50
"""Scandinavian Yatzy's ``yatzy`` (five alike) scores a fixed 50, whatever the dice (RULES.md §1.5)."""


def lower_base(cell: str, dice: Sequence[int], options: SheetOptions, joker: bool = False) -> int:
    """A lower cell's score before any multiplier or bonus; 0 («прочерк») if absent.

    ``joker``: a Yahtzee played as a joker counts as any full house or straight.
    """
    formed = combination(cell, dice, options.straights)
    if joker and cell in ("full_house", "small_straight", "large_straight"):
        formed = tuple(dice)
    if formed is None:
        return 0
    if cell == "yatzy":
        return YATZY_FIXED
    if options.lower_scoring == "combination":
        return sum(formed)
    if options.lower_scoring == "free":
        return FREE_FIXED.get(cell, sum(dice))
    return YAHTZEE_FIXED.get(cell, sum(dice))


def multiplier(cell: str, options: SheetOptions, first_throw: bool) -> int:
    """The first-throw multiplier of a lower cell (1 unless made on the first throw)."""
    if not first_throw or cell == "chance" or options.first_throw == "none":
        return 1
    if options.first_throw == "double":
        return 2
    return {"pair": 1, "two_pairs": 2}.get(cell, 3)


def cell_score(
    cell: str,
    dice: Sequence[int],
    options: SheetOptions,
    first_throw: bool = False,
    joker: bool = False,
) -> int:
    """What recording ``dice`` in ``cell`` scores, with the multiplier and the bonuses that
    belong to the cell (poker bonus, four prize) but not the upper-section bonus."""
    if cell in UPPER_FACE:
        face = UPPER_FACE[cell]
        return upper_deviation(face, dice) if options.upper == "deviation" else upper_sum(face, dice)
    base = lower_base(cell, dice, options, joker)
    score = base * multiplier(cell, options, first_throw)
    if base and cell == "poker":
        score += options.poker_bonus
    if base and cell == "four_of_a_kind":
        score += options.four_bonus
    return score


def upper_bonus(upper_total: int, options: SheetOptions) -> int:
    """The bonus (or penalty) of a full upper section with this total."""
    rule = options.upper_bonus
    if rule == "nonnegative":
        return options.upper_bonus_points if upper_total >= 0 else 0
    if rule == "sign":
        if upper_total > 0:
            return options.upper_bonus_points
        return -options.upper_penalty_points if upper_total < 0 else 0
    if rule == "threshold":
        return options.upper_bonus_points if upper_total >= options.upper_threshold else 0
    return 0
