"""Hands of showdown poker dice (RULES.md §2): kinds, order, sums, tie-breaks."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kosti.errors import KostiError
from kosti.games.showdown.hands import HANDS, best_seats, classify


@pytest.mark.parametrize(
    ("dice", "hand", "rank", "hand_sum", "total"),
    [
        ((4, 4, 4, 4, 4), "poker", 6, 20, 20),
        ((5, 5, 5, 5, 1), "four_of_a_kind", 5, 20, 21),
        ((3, 6, 3, 6, 6), "full_house", 4, 24, 24),
        ((2, 4, 4, 4, 6), "three_of_a_kind", 3, 12, 20),
        ((1, 1, 6, 6, 3), "two_pairs", 2, 14, 17),
        ((5, 5, 1, 2, 3), "pair", 1, 10, 16),
        ((1, 2, 4, 5, 6), "nothing", 0, 0, 18),
    ],
)
def test_every_hand_kind(dice: tuple[int, ...], hand: str, rank: int, hand_sum: int, total: int) -> None:
    h = classify(dice)
    assert (h.name, h.rank, h.hand_sum, h.total) == (hand, rank, hand_sum, total)


def test_ranking_order_is_poker_four_full_three_two_pairs_pair_nothing() -> None:
    assert HANDS[::-1] == (
        "poker",
        "four_of_a_kind",
        "full_house",
        "three_of_a_kind",
        "two_pairs",
        "pair",
        "nothing",
    )
    # the weakest example of each hand beats the strongest example of the hand below it
    weakest = [
        (1, 2, 3, 4, 6),
        (1, 1, 2, 3, 4),
        (1, 1, 2, 2, 3),
        (1, 1, 1, 2, 3),
        (1, 1, 1, 2, 2),
        (1, 1, 1, 1, 2),
        (1, 1, 1, 1, 1),
    ]
    strongest = [
        (2, 3, 4, 5, 6),
        (6, 6, 3, 4, 5),
        (6, 6, 5, 5, 4),
        (6, 6, 6, 5, 4),
        (6, 6, 6, 5, 5),
        (6, 6, 6, 6, 5),
        (6, 6, 6, 6, 6),
    ]
    for tiebreak in ("hand_then_total", "total"):
        for lower, higher in zip(strongest, weakest[1:], strict=False):
            assert classify(higher).key(tiebreak) > classify(lower).key(tiebreak)


def test_five_of_a_kind_is_poker_not_a_full_house() -> None:
    hand = classify((6, 6, 6, 6, 6))
    assert hand.name == "poker"
    assert classify((6, 6, 6, 6, 6)).key() > classify((6, 6, 6, 5, 5)).key()


@pytest.mark.parametrize("dice", [(1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (5, 3, 1, 4, 2)])
def test_straights_do_not_count(dice: tuple[int, ...]) -> None:
    assert classify(dice).name == "nothing"
    assert classify(dice).rank == 0
    # any pair beats a straight
    assert classify((1, 1, 2, 3, 4)).key() > classify(dice).key()


def test_hand_then_total_compares_the_hand_dice_first() -> None:
    # two pairs 6,6,2,2 (16) against 5,5,4,4 (18): the hand's dice decide, not all five
    a, b = classify((6, 6, 2, 2, 5)), classify((5, 5, 4, 4, 1))
    assert (a.hand_sum, a.total, b.hand_sum, b.total) == (16, 21, 18, 19)
    assert best_seats([a, b], "hand_then_total") == [1]
    assert best_seats([a, b], "total") == [0]


def test_hand_then_total_falls_back_to_all_five() -> None:
    a, b = classify((4, 4, 1, 2, 3)), classify((4, 4, 1, 2, 6))
    assert best_seats([a, b], "hand_then_total") == [1]
    assert best_seats([a, b], "total") == [1]


def test_equal_keys_tie_under_each_tiebreak() -> None:
    a, b = classify((6, 6, 3, 3, 1)), classify((3, 6, 1, 3, 6))
    assert best_seats([a, b], "hand_then_total") == [0, 1]
    # under "total" only the rank and the five dice count: 6,6,2,2,4 ties with 5,5,4,4,2 (20 each)
    c, d = classify((6, 6, 2, 2, 4)), classify((5, 5, 4, 4, 2))
    assert best_seats([c, d], "total") == [0, 1]
    assert best_seats([c, d], "hand_then_total") == [1]


def test_nobody_has_a_hand_the_highest_total_wins() -> None:
    hands = [classify((1, 2, 3, 4, 6)), classify((2, 3, 4, 5, 6)), classify((1, 3, 4, 5, 6))]
    for tiebreak in ("hand_then_total", "total"):
        assert best_seats(hands, tiebreak) == [1]


def test_seats_without_a_hand_sit_out() -> None:
    assert best_seats([None, classify((1, 1, 2, 3, 4)), None]) == [1]
    assert best_seats([None, None]) == []


@pytest.mark.parametrize("dice", [(1, 2, 3, 4), (1, 2, 3, 4, 5, 6), ()])
def test_only_five_dice_make_a_hand(dice: tuple[int, ...]) -> None:
    with pytest.raises(KostiError, match="exactly 5 dice"):
        classify(dice)


def test_faces_outside_one_to_six_are_refused() -> None:
    with pytest.raises(KostiError, match="1 to 6"):
        classify((1, 2, 3, 4, 7))


@given(st.lists(st.integers(1, 6), min_size=5, max_size=5))
@example([6, 6, 6, 6, 6])  # poker: also a four and a three, never a full house
@example([3, 3, 6, 6, 6])  # full house
@example([3, 3, 1, 6, 6])  # two pairs and a loose die
@example([1, 2, 3, 4, 5])  # a straight counts for nothing here
def test_hand_dice_are_part_of_the_throw_and_order_does_not_matter(dice: list[int]) -> None:
    hand = classify(dice)
    assert hand == classify(sorted(dice, reverse=True))
    assert hand.total == sum(dice)
    assert 0 <= hand.hand_sum <= hand.total
    assert hand.name == HANDS[hand.rank]
    # the dice of the hand are the faces shown at least twice
    assert set(hand.formed_by) == {f for f in dice if dice.count(f) >= 2}
