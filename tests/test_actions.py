"""Actions (RULES.md §5): the notation ``Action.parse`` / ``str(action)`` and the record form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kosti.actions import (
    CELL_KINDS,
    Action,
    Announce,
    CellAction,
    Hold,
    Roll,
    Score,
    Scratch,
    SetAside,
    Stop,
    Throw,
    from_json,
    to_json,
)
from kosti.errors import KostiError
from kosti.games.sheet.game import cells_of
from kosti.rules import PRESETS, variant

CELLS = sorted({c for p in PRESETS.values() if p.family == "sheet" for c in cells_of(variant(p.id).options)})
"""Every cell id of every score-sheet preset."""

faces = st.integers(1, 6)
multiset = st.lists(faces, max_size=5).map(lambda f: tuple(sorted(f)))
cell_names = st.sampled_from(CELLS) | st.from_regex(r"[a-z][a-z0-9_]{0,15}", fullmatch=True)
actions: st.SearchStrategy[Action] = st.one_of(
    st.lists(faces, max_size=5).map(lambda f: Roll(tuple(f))),
    multiset.map(Hold),
    multiset.map(SetAside),
    st.builds(CellAction, st.sampled_from(CELL_KINDS), cell_names),
    st.just(Throw()),
    st.just(Stop()),
)


@given(actions)
def test_every_action_reads_back_from_its_notation(action: Action) -> None:
    text = str(action)
    assert Action.parse(text) == action
    assert type(action).parse(text) == action


@given(actions.filter(lambda a: not isinstance(a, Throw)))
def test_every_action_but_a_throw_on_reads_back_from_its_record_form(action: Action) -> None:
    assert from_json(to_json(action)) == action


@given(st.text(max_size=30))
def test_any_text_is_an_action_or_a_clear_error(text: str) -> None:
    try:
        action = Action.parse(text)
    except KostiError as error:
        assert str(error)
    else:
        assert Action.parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("roll 5 1 3", Roll((5, 1, 3))),  # a roll keeps the order the dice were read in
        ("hold 6 1 6", Hold((1, 6, 6))),  # a hold is a multiset
        ("hold nothing", Hold(())),
        ("hold", Hold(())),
        ("  score   sixes ", Score("sixes")),
        ("scratch poker", Scratch("poker")),
        ("announce full_house", Announce("full_house")),
        ("set aside 5 1", SetAside((1, 5))),
        ("throw", Throw()),
        ("stop", Stop()),
    ],
)
def test_the_notation_of_each_kind_of_action(text: str, action: Action) -> None:
    assert Action.parse(text) == action


def test_the_notation_is_the_one_the_cli_prints() -> None:
    assert [str(a) for a in (Hold(()), Hold((6, 6)), SetAside((1, 5)), Roll((3, 1)), Score("chance"))] == [
        "hold nothing",
        "hold 6 6",
        "set aside 1 5",
        "roll 3 1",
        "score chance",
    ]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("dance", "not an action"),
        ("Stop", "not an action"),
        ("stop now", "nothing after"),
        ("throw 6", "nothing after"),
        ("score", "one cell"),
        ("score full house", "one cell"),
        ("hold 7", "1 to 6"),
        ("hold 0", "1 to 6"),
        ("roll six", "whole numbers"),
        ("roll 1.5", "whole numbers"),
        ("roll ٣", "whole numbers"),
        ("hold 6 nothing", "whole numbers"),
        ("set 1 5", "not an action"),
    ],
)
def test_a_text_that_is_no_action_is_refused_saying_why(text: str, reason: str) -> None:
    with pytest.raises(KostiError, match=reason):
        Action.parse(text)


def test_parse_on_a_kind_of_action_refuses_the_others() -> None:
    assert Hold.parse("hold 6 6") == Hold((6, 6))
    assert CellAction.parse("scratch poker") == Scratch("poker")
    with pytest.raises(KostiError, match="not a hold"):
        Hold.parse("score sixes")
    with pytest.raises(KostiError, match="not a roll"):
        Roll.parse("hold 6")


def test_score_scratch_and_announce_are_one_class_with_three_kinds() -> None:
    assert Score("poker") == CellAction("score", "poker")
    assert {type(a) for a in (Score("poker"), Scratch("poker"), Announce("poker"))} == {CellAction}
    assert len({Score("poker"), Scratch("poker"), Announce("poker")}) == 3
    with pytest.raises(KostiError, match="score, scratch, announce"):
        CellAction("dance", "poker")  # type: ignore[arg-type]


def test_the_record_form_is_the_one_of_rules_section_5() -> None:
    for data in (
        {"roll": [1, 5, 3]},
        {"hold": [6, 6]},
        {"score": "sixes"},
        {"scratch": "poker"},
        {"announce": "full_house"},
        {"set_aside": [1, 5]},
        "stop",
    ):
        assert to_json(from_json(data)) == data
    assert from_json({"roll": [5, 1, 3]}) == Roll((5, 1, 3))
    assert from_json({"hold": [6, 1, 6]}) == Hold((1, 6, 6))
    with pytest.raises(KostiError, match="roll that follows"):
        to_json(Throw())
    for bad in (
        "throw",
        {"dance": 1},
        {"score": 3},
        {"hold": "66"},
        {"hold": [7]},
        {"hold": [6], "score": "x"},
    ):
        with pytest.raises(KostiError):
            from_json(bad)
