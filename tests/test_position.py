"""Positions of score-sheet poker in JSON (``kosti hint --position``), read without the solver."""

from __future__ import annotations

from typing import Any

import pytest

from kosti.errors import KostiError
from kosti.games.sheet.game import SHEET
from kosti.position import parse_position


def test_a_position_is_one_sheet_with_its_dice_and_throws() -> None:
    state = parse_position(
        {"variant": "poker-classic", "sheet": {"ones": 3}, "dice": [6, 1, 6, 6, 2], "throws": 2}
    )
    assert state.dice == (1, 2, 6, 6, 6) and state.throws == 2
    assert state.sheets[0].columns[0][0] == 3
    assert SHEET.current_player(state) == 0 and SHEET.to_throw(state) == 0


def test_throws_left_count_back_from_the_allowance() -> None:
    state = parse_position({"variant": "poker-classic", "dice": [1, 2, 3, 4, 5], "throws_left": 0})
    assert state.throws == 3


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([], "JSON object"),
        ({}, '"variant"'),
        ({"variant": "thousand-classic"}, "score-sheet"),
        ({"variant": "poker-classic", "sheet": {"sevens": 1}}, "no cell 'sevens'"),
        ({"variant": "poker-classic", "sheet": {"ones": 1.5}}, "whole number"),
        ({"variant": "poker-classic", "dice": [1, 2, 3]}, "5 dice"),
        ({"variant": "poker-classic", "dice": [1, 2, 3, 4, 5], "throws": 4}, "between 1 and 3"),
        ({"variant": "poker-classic", "banked": 1}, "banks no throws"),
        ({"variant": "poker-classic", "dice": [1, 2, 3, 4, 5], "announced": "poker"}, "column II"),
    ],
)
def test_a_malformed_position_says_what_is_wrong(data: Any, reason: str) -> None:
    with pytest.raises(KostiError, match=reason):
        parse_position(data)
