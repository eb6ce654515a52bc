"""Who starts (RULES.md §0): the roll-off and the seating from the starter."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kosti.errors import KostiError
from kosti.roller import ScriptedDice, SeededDice
from kosti.rolloff import roll_off, rotate, starting_order


def test_the_highest_total_starts() -> None:
    dice = ScriptedDice([[1, 1, 1, 1, 2], [6, 6, 6, 6, 5], [3, 3, 3, 3, 3]])
    result = roll_off(["Anna", "Boris", "Vera"], dice)
    assert result.starter == "Boris"
    assert [(t.round, t.player, t.total) for t in result.throws] == [
        (1, "Anna", 6),
        (1, "Boris", 29),
        (1, "Vera", 15),
    ]
    assert dice.remaining == 0


def test_only_the_tied_players_throw_again() -> None:
    dice = ScriptedDice(
        [
            [6, 6, 6, 1, 1],  # Anna 20
            [2, 2, 2, 2, 2],  # Boris 10
            [5, 5, 5, 4, 1],  # Vera 20
            [4, 4, 4, 4, 4],  # round 2, Anna 20
            [5, 5, 5, 4, 1],  # round 2, Vera 20: tied again
            [1, 1, 1, 1, 1],  # round 3, Anna 5
            [1, 1, 1, 1, 2],  # round 3, Vera 6
        ]
    )
    result = roll_off(["Anna", "Boris", "Vera"], dice)
    assert result.starter == "Vera"
    assert [(t.round, t.player) for t in result.throws] == [
        (1, "Anna"),
        (1, "Boris"),
        (1, "Vera"),
        (2, "Anna"),
        (2, "Vera"),
        (3, "Anna"),
        (3, "Vera"),
    ]
    assert [len(r) for r in result.rounds()] == [3, 2, 2]
    assert result.throws[0].faces == (1, 1, 6, 6, 6)


def test_a_lone_player_starts_without_throwing() -> None:
    result = roll_off(["Anna"], ScriptedDice([]))
    assert (result.starter, result.throws) == ("Anna", ())


def test_rotate_goes_round_the_seats_from_the_starter() -> None:
    assert rotate(["Anna", "Boris", "Vera", "Gleb"], "Vera") == ["Vera", "Gleb", "Anna", "Boris"]
    assert rotate(["Anna", "Boris"], "Anna") == ["Anna", "Boris"]
    with pytest.raises(KostiError, match="not at the table"):
        rotate(["Anna"], "Boris")


def test_starting_order_by_option() -> None:
    players = ["Anna", "Boris", "Vera"]
    order, result = starting_order(players, "seat", ScriptedDice([]))
    assert (order, result) == (players, None)
    dice = ScriptedDice([[1, 1, 1, 1, 1], [1, 1, 1, 1, 2], [6, 6, 6, 6, 6]])
    order, result = starting_order(players, "rolloff", dice)
    assert order == ["Vera", "Anna", "Boris"]
    assert result is not None and result.starter == "Vera"
    with pytest.raises(KostiError, match="rolloff or seat"):
        starting_order(players, "oldest", dice)


def test_bad_input() -> None:
    with pytest.raises(KostiError, match="at least one player"):
        roll_off([], ScriptedDice([]))
    with pytest.raises(KostiError, match="share a name"):
        roll_off(["Anna", "Anna"], ScriptedDice([]))
    with pytest.raises(KostiError, match="1 to 6"):
        roll_off(["Anna", "Boris"], ScriptedDice([[1, 2, 3, 4, 7], [1, 1, 1, 1, 1]]))


class Stuck:
    """A broken dice source: always the same throw."""

    def roll(self, n: int) -> tuple[int, ...]:
        return (3,) * n


def test_a_broken_source_cannot_loop_for_ever() -> None:
    with pytest.raises(KostiError, match="still tied after 50 rounds"):
        roll_off(["Anna", "Boris"], Stuck(), max_rounds=50)


@settings(max_examples=50, deadline=None)
@given(players=st.integers(min_value=1, max_value=8), seed=st.integers(min_value=0, max_value=2**32))
@example(players=2, seed=17647)  # tied four times running: five rounds
@example(players=8, seed=40)  # four rounds among eight
@example(players=1, seed=0)  # nobody to throw against
def test_the_starter_threw_the_highest_of_every_round_they_were_in(players: int, seed: int) -> None:
    names = [f"P{i}" for i in range(players)]
    result = roll_off(names, SeededDice(seed))
    rounds = result.rounds()
    if players == 1:
        assert rounds == []
        return
    assert [t.player for t in rounds[0]] == names
    for i, round_ in enumerate(rounds):
        best = max(t.total for t in round_)
        leaders = [t.player for t in round_ if t.total == best]
        assert result.starter in leaders
        if i + 1 < len(rounds):
            assert [t.player for t in rounds[i + 1]] == leaders
        else:
            assert leaders == [result.starter]
    order = rotate(names, result.starter)
    assert order[0] == result.starter and sorted(order) == sorted(names)
