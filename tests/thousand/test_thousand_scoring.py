"""Scoring one throw of «Тысяча» (RULES.md §3.1), with the source's own examples and table."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from kosti.dice import Faces, multisets
from kosti.errors import KostiError
from kosti.games.thousand.scoring import score_throw, set_aside_points, unions


@pytest.mark.parametrize(
    ("dice", "points", "scoring"),
    [
        # RULES.md §3.1 examples
        ((1, 5, 3, 3, 4), 15, (1, 5)),
        ((5, 5, 2), 10, (5, 5)),
        ((1, 1, 1, 5, 5), 110, (1, 1, 1, 5, 5)),
        ((1, 1, 1, 1, 5), 205, (1, 1, 1, 1, 5)),
        ((5, 5, 5, 5, 1), 110, (1, 5, 5, 5, 5)),
        ((2, 2, 3, 4, 6), 0, ()),
        ((4, 4, 4, 4, 4), 400, (4, 4, 4, 4, 4)),
        ((3, 3, 3, 3), 60, (3, 3, 3, 3)),
    ],
)
def test_rules_examples(dice: Faces, points: int, scoring: Faces) -> None:
    thrown = score_throw(dice)
    assert (thrown.points, thrown.scoring) == (points, scoring)


# seed 000: «3 единицы – 100 очков. 4 единицы – 200 очков. 5 – 1000. 3 двойки – 20, …»
SEED_TABLE: dict[int, tuple[int, int, int]] = {
    1: (100, 200, 1000),
    2: (20, 40, 200),
    3: (30, 60, 300),
    4: (40, 80, 400),
    5: (50, 100, 500),
    6: (60, 120, 600),
}


@pytest.mark.parametrize("face", sorted(SEED_TABLE))
@pytest.mark.parametrize("count", [3, 4, 5])
def test_seed_table_of_kinds(face: int, count: int) -> None:
    assert score_throw((face,) * count).points == SEED_TABLE[face][count - 3]


def test_a_kind_counts_with_other_dice_beside_it() -> None:
    # four 6s and a 2 (seed 000's example throw 6,6,6,6,2 is 120)
    assert score_throw((6, 6, 6, 6, 2)).points == 120
    assert score_throw((3, 3, 3, 1, 5)).points == 45


def test_straights_count_only_with_five_dice() -> None:
    assert score_throw((1, 2, 3, 4, 5)).points == 125
    assert score_throw((2, 3, 4, 5, 6)).points == 250
    assert score_throw((5, 3, 1, 4, 2)).scoring == (1, 2, 3, 4, 5)
    assert score_throw((1, 2, 3, 4)).points == 10
    assert score_throw((2, 3, 4, 5)).points == 5
    assert score_throw((1, 3, 4, 5, 6)).points == 15


@cache
def _best(dice: Faces) -> int:
    """Independent reckoning: the best value over every split of sorted ``dice`` into groups."""
    if not dice:
        return 0
    first = dice[0]
    best = _best(dice[1:])  # the first die scores nothing
    if first in (1, 5):
        best = max(best, (10 if first == 1 else 5) + _best(dice[1:]))
    per = 10 if first == 1 else first
    for size, times in ((3, 10), (4, 20), (5, 100)):
        if dice.count(first) >= size:
            best = max(best, per * times + _best(dice[size:]))
    return best


def _brute_best(dice: Sequence[int]) -> int:
    faces = tuple(sorted(dice))
    straights: dict[Faces, int] = {(1, 2, 3, 4, 5): 125, (2, 3, 4, 5, 6): 250}
    straight = straights.get(faces, 0)
    return max(_best(faces), straight)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_every_throw_is_grouped_to_its_highest_score(n: int) -> None:
    for dice in multisets(n):
        thrown = score_throw(dice)
        assert thrown.points == _brute_best(dice), dice
        # the scoring dice alone are worth the whole throw, and the units add up to it
        if thrown.scoring:
            assert score_throw(thrown.scoring).points == thrown.points
        assert sum(u.points for u in thrown.units) == thrown.points
        assert tuple(sorted(f for u in thrown.units for f in u.faces)) == thrown.scoring


def test_groups_that_may_be_set_aside() -> None:
    assert unions(score_throw((1, 1, 1, 1, 5)).units) == {(1, 1, 1, 1): 200, (5,): 5, (1, 1, 1, 1, 5): 205}
    assert unions(score_throw((1, 5, 3, 3, 4)).units) == {(1,): 10, (5,): 5, (1, 5): 15}
    assert unions(score_throw((5, 5, 2)).units) == {(5,): 5, (5, 5): 10}
    assert unions(score_throw((2, 3, 4, 5, 6)).units) == {(2, 3, 4, 5, 6): 250}
    assert unions(score_throw((2, 2, 3, 4, 6)).units) == {}


def test_set_aside_points() -> None:
    assert set_aside_points((1, 1, 1, 1, 5), (5,)) == 5
    assert set_aside_points((1, 1, 1, 1, 5), (1, 1, 5, 1, 1)) == 205
    assert set_aside_points((3, 3, 3, 1, 2), (3, 3, 3)) == 30


@pytest.mark.parametrize(
    ("dice", "group", "reason"),
    [
        ((1, 5, 3, 3, 4), (3,), "a 3 does not score"),
        ((1, 5, 3, 3, 4), (1, 4), "a 4 does not score"),
        ((1, 1, 1, 1, 5), (1, 1, 1), "scores only as a whole"),
        ((1, 2, 3, 4, 5), (1, 5), "scores only as a whole"),
        ((1, 5, 3, 3, 4), (6,), "not among the dice"),
        ((1, 5, 3, 3, 4), (1, 1), "not among the dice"),
        ((1, 5, 3, 3, 4), (), "at least one"),
    ],
)
def test_a_group_that_cannot_be_set_aside_says_why(dice: Faces, group: Faces, reason: str) -> None:
    with pytest.raises(KostiError, match=reason):
        set_aside_points(dice, group)


@pytest.mark.parametrize("dice", [(), (1, 1, 1, 1, 1, 1), (1, 7), (0, 5)])
def test_bad_throws_are_refused(dice: Faces) -> None:
    with pytest.raises(KostiError):
        score_throw(dice)


@pytest.mark.parametrize(
    ("preset", "dice", "expected"),
    [
        ("thousand-classic", ["1", "5", "3", "3", "4"], {"points": 15, "scoring_dice": [1, 5]}),
        ("thousand-v2", ["3", "3", "3", "3"], {"points": 60, "scoring_dice": [3, 3, 3, 3]}),
        ("thousand-classic", ["6"], {"points": 0, "scoring_dice": []}),
    ],
)
def test_kosti_score(kosti: Any, preset: str, dice: list[str], expected: dict[str, object]) -> None:
    run = kosti("score", preset, *dice, "--json")
    assert run.code == 0, run.err
    assert run.json() == expected


def test_kosti_score_refuses_six_dice(kosti: Any) -> None:
    run = kosti("score", "thousand-classic", "1", "1", "1", "1", "1", "1", "--json")
    assert run.code == 2
    assert run.out == ""
