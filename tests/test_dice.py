"""Dice as multisets and the exact probabilities of throws (kosti.dice)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kosti.dice import (
    counts,
    is_submultiset,
    multisets,
    normalize,
    outcomes,
    probability,
    remove,
    reroll,
    submultisets,
)
from kosti.errors import KostiError

faces = st.lists(st.integers(min_value=1, max_value=6), min_size=0, max_size=5)


def test_five_dice_have_252_outcomes_summing_to_exactly_one() -> None:
    assert len(multisets(5)) == 252  # C(10, 5)
    assert len(set(multisets(5))) == 252
    assert all(m == tuple(sorted(m)) for m in multisets(5))
    total = sum(p for _, p in outcomes(5))
    assert total == 1
    assert isinstance(total, Fraction)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
def test_outcomes_agree_with_counting_every_ordered_throw(n: int) -> None:
    ordered = Counter(tuple(sorted(t)) for t in product(range(1, 7), repeat=n))
    assert {m: p for m, p in outcomes(n)} == {m: Fraction(c, 6**n) for m, c in ordered.items()}


def test_known_probabilities() -> None:
    assert probability((6, 6, 6, 6, 6)) == Fraction(1, 7776)
    assert probability((1, 2, 3, 4, 5)) == Fraction(120, 7776)
    assert probability((2, 2, 3, 3, 3)) == Fraction(10, 7776)
    assert probability((3, 1, 2, 5, 4)) == probability((1, 2, 3, 4, 5))


def test_reroll_distribution() -> None:
    # keep four sixes, throw one: each face 1/6
    assert reroll((6, 6, 6, 6)) == {
        (f, 6, 6, 6, 6) if f < 6 else (6,) * 5: Fraction(1, 6) for f in range(1, 7)
    }
    # keep all five: nothing changes
    assert reroll((1, 2, 3, 4, 5)) == {(1, 2, 3, 4, 5): Fraction(1)}
    # keep nothing: the plain throw of five
    assert reroll(()) == dict(outcomes(5))
    two = reroll((3, 3, 3))
    assert sum(two.values()) == 1
    assert two[(3, 3, 3, 3, 3)] == Fraction(1, 36)
    assert two[(1, 2, 3, 3, 3)] == Fraction(2, 36)
    assert all(is_submultiset((3, 3, 3), m) for m in two)


@settings(max_examples=60, deadline=None)
@given(kept=faces.filter(lambda f: len(f) <= 5))
@example(kept=[])
@example(kept=[6, 6, 6, 6, 6])
def test_reroll_always_sums_to_one_and_keeps_the_held_dice(kept: list[int]) -> None:
    dist = reroll(sorted(kept))
    assert sum(dist.values()) == 1
    assert all(len(m) == 5 and is_submultiset(kept, m) for m in dist)


def test_submultisets_are_the_possible_holds() -> None:
    holds = submultisets((1, 6, 6, 6, 6))
    assert holds[0] == ()
    assert len(holds) == 2 * 5  # ones: 0..1, sixes: 0..4
    assert (6, 6, 6, 6) in holds and (1, 6, 6, 6, 6) in holds
    assert len(submultisets((1, 2, 3, 4, 5))) == 32


@settings(max_examples=60, deadline=None)
@given(whole=faces, part=faces)
@example(whole=[], part=[])
@example(whole=[1, 1], part=[1, 1, 1])  # more of a face than there is
@example(whole=[6, 6, 6, 6, 6], part=[6, 6, 6, 6, 6])
def test_remove_and_submultiset_agree(whole: list[int], part: list[int]) -> None:
    if is_submultiset(part, whole):
        rest = remove(whole, part)
        assert sorted(rest + tuple(part)) == sorted(whole)
    else:
        with pytest.raises(KostiError):
            remove(whole, part)


def test_normalize_checks_faces_and_count() -> None:
    assert normalize([6, 1, 3]) == (1, 3, 6)
    assert counts((1, 6, 6)) == (1, 0, 0, 0, 0, 2)
    with pytest.raises(KostiError, match="1 to 6, not 7"):
        normalize([1, 7])
    with pytest.raises(KostiError, match="not True"):
        normalize([True])
    with pytest.raises(KostiError, match="expected 5 dice, got 2"):
        normalize([1, 2], 5)
