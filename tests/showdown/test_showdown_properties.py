"""Random legal play of showdown matches (Hypothesis): they finish, and the money adds up."""

from __future__ import annotations

import random
from copy import deepcopy
from itertools import combinations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kosti.actions import Action, Hold, Roll, Score, Stop
from kosti.dice import is_submultiset
from kosti.errors import IllegalActionError
from kosti.games.showdown.game import SHOWDOWN, ShowdownState
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.show import summary

MAX_ACTIONS = 20_000


def illegal_actions(state: ShowdownState) -> list[Action]:
    """Actions the rules refuse in ``state`` (a sample of every kind of mistake)."""
    wrong: list[Action] = [Score("pair")]
    n = SHOWDOWN.to_throw(state)
    if n:
        wrong += [Stop(), Hold(()), Roll((1,) * (n % 5 + 1))]
        return wrong
    wrong.append(Roll((1, 2, 3, 4, 5)))
    wrong.append(Hold(state.dice))  # all five
    wrong.append(Hold(tuple(f for f in range(1, 7) if f not in state.dice)[:1] or (7,)))
    # every hold that leaves out a locked die
    for size in range(len(state.locked)):
        for kept in set(combinations(state.locked, size)):
            wrong.append(Hold(kept))
    return wrong


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 6),
    ante=st.integers(0, 4),
    rounds=st.integers(1, 4),
    tiebreak=st.sampled_from(["hand_then_total", "total"]),
    throws=st.integers(1, 4),
    seed=st.integers(0, 2**32),
)
@example(players=6, ante=0, rounds=4, tiebreak="total", throws=1, seed=0)  # one throw: no decision at all
@example(players=1, ante=1, rounds=1, tiebreak="hand_then_total", throws=3, seed=0)  # alone at the table
@example(
    players=2, ante=4, rounds=4, tiebreak="total", throws=4, seed=1
)  # more throws than the source's three
def test_random_legal_play(
    players: int, ante: int, rounds: int, tiebreak: str, throws: int, seed: int
) -> None:
    options = {"ante": ante, "rounds": rounds, "tiebreak": tiebreak, "throws": throws}
    names = [f"P{i}" for i in range(players)]
    state = SHOWDOWN.new_game(variant("poker-showdown", options), names)
    dice = SeededDice(seed)
    choose = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        # the bank and the net winnings hold every ante: nothing is created or lost
        assert sum(state.net) + state.bank == 0
        if SHOWDOWN.is_finished(state):
            break
        snapshot = deepcopy(state)
        for action in illegal_actions(state):
            with pytest.raises(IllegalActionError):
                SHOWDOWN.apply(state, action)
        assert state == snapshot
        n = SHOWDOWN.to_throw(state)
        if n:
            after = SHOWDOWN.apply(state, Roll(dice.roll(n)))
        else:
            decisions = SHOWDOWN.decisions(state)
            assert Stop() in decisions
            assert all(is_submultiset(state.locked, a.faces) for a in decisions if isinstance(a, Hold))
            after = SHOWDOWN.apply(state, choose.choice(decisions))
        assert after.turn in (state.turn, state.turn + 1)
        if after.turn == state.turn and not after.finished:
            assert after.current == state.current
        state = after
    else:
        pytest.fail("the match did not finish")
    assert sum(SHOWDOWN.scores(state)) == 0
    assert state.bank == 0
    assert state.round == rounds
    assert state.turn >= rounds * players
    winners = SHOWDOWN.winners(state)
    assert winners and all(state.net[i] == max(state.net) for i in winners)
    shown = summary(state)
    assert shown["finished"] is True
    assert [p["score"] for p in shown["players"]] == list(state.net)
    assert shown["winners"] == [names[i] for i in winners]
