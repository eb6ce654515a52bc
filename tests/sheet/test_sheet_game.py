"""The score-sheet turn, stages, banked throws, scratching, the three fences columns,
the Yahtzee joker and settlement (RULES.md §1.1, §1.4–§1.8, §4).

Games are driven with explicit actions written as the players would say them
(``"roll 1 6 6 2 3"``, ``"hold 6 6"``, ``"score sixes"``).
"""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from kosti.actions import Action, Announce, CellAction, Hold, Roll, Score, Scratch, SetAside, Stop
from kosti.errors import IllegalActionError
from kosti.games.sheet.game import SHEET, SheetState
from kosti.rules import UPPER_CELLS, variant
from kosti.settlement import settle
from kosti.show import summary


def cells_to(state: SheetState, kind: str = "score") -> list[str]:
    """The cells that the legal cell actions of ``kind`` name, in the engine's order."""
    return [a.cell for a in SHEET.decisions(state) if isinstance(a, CellAction) and a.kind == kind]


def new(spec: str, players: int = 1) -> SheetState:
    return SHEET.new_game(variant(spec), ["Anna", "Boris", "Vera", "Gleb"][:players])


def play(state: SheetState, *steps: str) -> SheetState:
    for step in steps:
        state = SHEET.apply(state, Action.parse(step))
    return state


def refused(state: SheetState, step: str | Action, *reason: str) -> str:
    """Assert that ``step`` is refused with a message containing ``reason`` and nothing changed."""
    before = copy.deepcopy(state)
    action = Action.parse(step) if isinstance(step, str) else step
    with pytest.raises(IllegalActionError) as caught:
        SHEET.apply(state, action)
    message = str(caught.value)
    for word in reason:
        assert word in message, message
    assert state == before
    return message


def cell(state: SheetState, name: str, seat: int = 0, column: int = 0) -> int | None:
    from kosti.games.sheet.game import cells_of, options_of

    return state.sheets[seat].columns[column][cells_of(options_of(state)).index(name)]


def fill_upper(state: SheetState) -> SheetState:
    """Every player records three of each face, first throw: each upper cell 0 by deviation."""
    for face, name in enumerate(UPPER_CELLS, 1):
        other = 1 if face != 1 else 2
        for _ in state.players:
            state = play(state, f"roll {face} {face} {face} {other} {other}", f"score {name}")
    return state


# -- the turn ---------------------------------------------------------------------------------


def test_a_turn_starts_with_a_throw_of_five() -> None:
    state = new("poker-classic", 2)
    assert SHEET.to_throw(state) == 5
    assert SHEET.current_player(state) == 0
    assert SHEET.decisions(state) == []
    refused(state, "score sixes", "thrown first")
    refused(state, "hold 6", "thrown first")
    refused(state, "roll 1 2 3", "5 dice", "not 3")
    refused(state, Roll((1, 2, 3, 4, 7)), "1 to 6")
    refused(state, Stop(), "thrown first")


def test_hold_keeps_dice_and_throws_the_rest() -> None:
    # the example record: 1,6,6,2,3, hold the sixes, throw three: 6,6,1 → sixes +6
    state = play(new("poker-extended", 2), "roll 1 6 6 2 3", "hold 6 6")
    assert SHEET.to_throw(state) == 3
    refused(state, "roll 6 6 6 6 1", "3 dice")
    state = play(state, "roll 6 6 1")
    assert state.dice == (1, 6, 6, 6, 6)
    state = play(state, "score sixes")
    assert cell(state, "sixes") == 6
    assert SHEET.current_player(state) == 1
    assert state.turn == 1


def test_holds_may_change_between_throws() -> None:
    state = play(new("poker-classic"), "roll 1 2 3 6 6", "hold 6 6", "roll 2 2 2")
    # the sixes held before may be thrown again now: keep the three twos instead
    state = play(state, "hold 2 2 2", "roll 2 5")
    assert state.dice == (2, 2, 2, 2, 5)
    assert SHEET.throws_left(state) == 0


def test_holding_what_is_not_on_the_table_is_refused() -> None:
    state = play(new("poker-classic"), "roll 1 2 3 6 6")
    refused(state, "hold 6 6 6", "not among the dice")
    refused(state, "hold 4", "not among the dice")
    refused(state, "hold 1 2 3 6 6", "holding all five")
    refused(state, Hold((7,)), "not among")


def test_three_throws_at_most() -> None:
    state = play(new("poker-classic"), "roll 1 2 3 4 6", "hold", "roll 1 2 3 4 6", "hold 1", "roll 2 3 4 5")
    assert state.throws == 3
    refused(state, "hold 1", "no throws are left")
    assert not any(isinstance(a, Hold) for a in SHEET.decisions(state))


def test_recording_ends_the_turn_and_a_filled_cell_is_refused() -> None:
    state = play(new("poker-classic", 2), "roll 1 2 3 4 6", "score sixes", "roll 6 6 6 6 6", "score fives")
    state = play(state, "roll 6 6 6 6 6")
    refused(state, "score sixes", "sixes is already recorded")
    refused(state, "score no_such_cell", "no cell")
    assert Score("sixes") not in SHEET.decisions(state)
    assert Score("ones") in SHEET.decisions(state)


def test_first_throw_multiplier_needs_no_further_throw() -> None:
    state = fill_upper(new("poker-classic"))
    assert cell(play(state, "roll 5 5 1 2 3", "score pair"), "pair") == 20
    # the same pair, but after a second throw: single value
    after = play(state, "roll 5 5 1 2 3", "hold 5 5", "roll 1 2 3", "score pair")
    assert cell(after, "pair") == 10
    assert SHEET.score_of(play(state, "roll 6 6 6 6 6"), "poker") == 110


def test_the_game_ends_when_every_sheet_is_full() -> None:
    state = new("poker-free(lower=[chance])", 2)
    for name in (*UPPER_CELLS, "chance"):
        state = play(state, "roll 6 6 6 6 6", f"score {name}", "roll 6 6 6 6 6", f"score {name}")
    assert SHEET.is_finished(state)
    assert SHEET.current_player(state) is None
    assert SHEET.to_throw(state) == 0
    # equal totals share the place
    assert SHEET.scores(state) == [60, 60]
    assert SHEET.winners(state) == [0, 1]
    shown = summary(state)
    assert shown["finished"] is True
    assert shown["winner"] is None
    assert shown["winners"] == ["Anna", "Boris"]
    refused(state, "roll 1 2 3 4 5", "over")
    refused(state, "score chance", "over")


# -- stages -----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["poker-classic", "poker-extended", "poker-mandatory"])
def test_sequential_stages_refuse_a_combination_before_the_upper_section_is_full(spec: str) -> None:
    state = play(new(spec), "roll 6 6 6 6 6")
    refused(state, "score poker", "upper section must be full")
    assert set(cells_to(state)) == set(UPPER_CELLS)
    # with five upper cells filled, still refused
    for name in UPPER_CELLS[:5]:
        state = play(state, f"score {name}", "roll 6 6 6 6 6")
    refused(state, "score chance", "upper section must be full")
    state = play(state, "score sixes", "roll 6 6 6 6 6", "score poker")
    assert cell(state, "poker") == 110


def test_stages_free_option_allows_any_cell() -> None:
    state = play(new("poker-classic(stages=free)"), "roll 6 6 6 6 6", "score poker")
    assert cell(state, "poker") == 110
    state = play(new("poker-free"), "roll 1 2 3 4 6", "score small_straight")
    assert cell(state, "small_straight") == 25


# -- the upper bonus as the score shows it (RULES.md §5: decided once the section is full) --


def upper_turns(spec: str, dice: list[str]) -> SheetState:
    state = new(spec)
    for name, roll in zip(UPPER_CELLS, dice, strict=True):
        state = play(state, f"roll {roll}", f"score {name}")
    return state


# ones −3, twos 0, threes +3, fours 0, fives 0, sixes 0 → deviation total 0
ZERO = ["2 2 2 3 3", "2 2 2 1 1", "3 3 3 3 1", "4 4 4 1 1", "5 5 5 1 1", "6 6 6 1 1"]
# the same with sixes −6 → −6
MINUS = [*ZERO[:5], "6 6 1 1 1"]
# threes +3 and ones 0 → +3
PLUS = ["1 1 1 2 2", *ZERO[1:]]


def test_upper_bonus_nonnegative_is_decided_when_the_section_is_full() -> None:
    partial = new("poker-classic")
    for name, roll in zip(UPPER_CELLS[:5], ZERO[:5], strict=True):
        partial = play(partial, f"roll {roll}", f"score {name}")
    assert SHEET.scores(partial) == [0]
    assert SHEET.scores(upper_turns("poker-classic", ZERO)) == [50]
    assert SHEET.scores(upper_turns("poker-extended", PLUS)) == [53]
    assert SHEET.scores(upper_turns("poker-classic", MINUS)) == [-6]


def test_no_upper_bonus_in_mandatory() -> None:
    assert SHEET.scores(upper_turns("poker-mandatory", ZERO)) == [0]
    assert SHEET.scores(upper_turns("poker-mandatory", PLUS)) == [3]


def test_no_upper_bonus_in_free() -> None:
    # sum scoring (five ones 5, three twos 6, four threes 12, …) and no bonus
    state = upper_turns("poker-free", ["1 1 1 1 1", *ZERO[1:]])
    assert SHEET.scores(state) == [5 + 6 + 12 + 12 + 15 + 18]


def test_yahtzee_upper_bonus_at_63() -> None:
    three_each = ["1 1 1 2 3", "2 2 2 1 3", "3 3 3 1 2", "4 4 4 1 2", "5 5 5 1 2", "6 6 6 1 2"]
    state = upper_turns("yahtzee", three_each)
    assert SHEET.scores(state) == [63 + 35]
    state = upper_turns("yahtzee", ["1 1 2 2 3", *three_each[1:]])
    assert SHEET.scores(state) == [62]


# -- banked throws («ограды») -----------------------------------------------------------------


@pytest.mark.parametrize(("extra_throws", "banked"), [(0, 2), (1, 1), (2, 0)])
def test_a_turn_recorded_after_throw_k_banks_three_minus_k(extra_throws: int, banked: int) -> None:
    state = play(new("poker-mandatory", 2), "roll 1 1 1 2 2")
    for _ in range(extra_throws):
        state = play(state, "hold 1 1 1", "roll 2 2")
    state = play(state, "score ones")
    assert state.sheets[0].banked == banked
    assert state.sheets[1].banked == 0


def test_banked_throws_are_spent_past_the_third_and_carry_over() -> None:
    state = play(new("poker-mandatory"), "roll 1 1 1 2 2", "score ones", "roll 2 2 2 1 1", "score twos")
    assert state.sheets[0].banked == 4
    state = play(state, "roll 1 2 4 5 6", "hold", "roll 1 2 4 5 6", "hold", "roll 1 2 4 5 6")
    assert (state.throws, state.sheets[0].banked, SHEET.throws_left(state)) == (3, 4, 4)
    state = play(state, "hold", "roll 1 2 4 5 6")
    assert (state.throws, state.sheets[0].banked, SHEET.throws_left(state)) == (4, 3, 3)
    state = play(state, "hold", "roll 1 2 4 5 6", "hold", "roll 1 2 4 5 6", "hold", "roll 3 3 3 1 1")
    assert (state.throws, state.sheets[0].banked, SHEET.throws_left(state)) == (7, 0, 0)
    refused(state, "hold 3 3 3", "no throws are left")
    # throws beyond the third never bank anything
    state = play(state, "score threes")
    assert state.sheets[0].banked == 0


def test_banked_throws_cross_into_the_second_stage() -> None:
    state = new("poker-mandatory")
    for name, roll in zip(UPPER_CELLS, ZERO, strict=True):
        state = play(state, f"roll {roll}", f"score {name}")
    assert state.sheets[0].banked == 12
    state = play(state, "roll 1 2 3 5 6")
    for _ in range(5):
        state = play(state, "hold 6", "roll 1 2 3 5")
    assert state.throws == 6
    assert state.sheets[0].banked == 9


def test_no_banked_throws_in_classic() -> None:
    state = play(
        new("poker-classic"), "roll 1 1 1 2 2", "score ones", "roll 1 2 3 4 6", "hold", "roll 1 2 3 4 6"
    )
    assert state.sheets[0].banked == 0
    state = play(state, "hold", "roll 1 2 3 4 6")
    refused(state, "hold", "no throws are left")


def test_mandatory_banked_throws_are_worth_three_points_at_the_end() -> None:
    state = new("poker-mandatory(lower=[chance])")
    for name, roll in zip(UPPER_CELLS, ZERO, strict=True):
        state = play(state, f"roll {roll}", f"score {name}")
    assert SHEET.scores(state) == [0]  # 12 banked, but the sheet is not full yet
    state = play(state, "roll 1 2 4 5 6", "hold", "roll 1 2 4 5 6", "hold", "roll 1 2 4 5 6")
    state = play(state, "hold", "roll 1 2 4 5 6", "score chance")  # spends one: 11 left
    assert SHEET.is_finished(state)
    assert state.sheets[0].banked == 11
    assert SHEET.scores(state) == [18 + 11 * 3]


# -- scratching (poker-fences) ----------------------------------------------------------------


def test_scratch_before_the_first_throw_banks_three() -> None:
    state = new("poker-fences", 2)
    assert SHEET.to_throw(state) == 0
    assert Hold(()) in SHEET.decisions(state)
    assert Scratch("poker") in SHEET.decisions(state)
    assert Scratch("ones") not in SHEET.decisions(state)
    refused(state, "scratch sixes", "upper cells cannot be scratched")
    refused(state, "score poker", "throw the dice")
    refused(state, "hold 6", "nothing can be held")
    state = play(state, "scratch poker")
    assert cell(state, "poker") == 0
    assert state.sheets[0].banked == 3
    assert SHEET.current_player(state) == 1


@pytest.mark.parametrize(("throws", "banked"), [(1, 2), (2, 1), (3, 0)])
def test_scratch_after_throw_k_banks_three_minus_k(throws: int, banked: int) -> None:
    state = play(new("poker-fences"), "hold", "roll 1 2 3 4 6")
    for _ in range(throws - 1):
        state = play(state, "hold", "roll 1 2 3 4 6")
    state = play(state, "scratch full_house")
    assert cell(state, "full_house") == 0
    assert state.sheets[0].banked == banked


def test_scratching_needs_the_option() -> None:
    state = play(new("poker-mandatory(stages=free)"), "roll 1 2 3 4 6")
    refused(state, "scratch poker", "no scratching")
    assert cells_to(state, "scratch") == []


def test_a_filled_cell_cannot_be_scratched() -> None:
    state = play(new("poker-fences"), "scratch poker")
    refused(state, "scratch poker", "already recorded")


def fences_column(state: SheetState) -> SheetState:
    """Fill the current column of a solitaire fences game: each upper cell 0, lower cells scratched."""
    for name in (*UPPER_CELLS, "pair", "two_pairs", "three_of_a_kind", "small_straight"):
        if name in UPPER_CELLS:
            face = UPPER_CELLS.index(name) + 1
            other = 1 if face != 1 else 2
            state = play(state, "hold", f"roll {face} {face} {face} {other} {other}", f"score {name}")
        else:
            state = play(state, f"scratch {name}")
    for name in ("large_straight", "full_house", "four_of_a_kind", "poker", "chance"):
        state = play(state, f"scratch {name}")
    return state


# -- the three columns of poker-fences ------------------------------------------------------


def test_column_one_is_free_and_mixed() -> None:
    state = play(new("poker-fences"), "hold", "roll 3 3 6 6 6", "score full_house")
    assert cell(state, "full_house") == 72  # 24 × 3 on the first throw
    state = play(state, "hold", "roll 1 6 6 6 6", "score sixes")
    assert cell(state, "sixes") == 6
    assert SHEET.column(state) == 0


def test_column_two_announce_and_the_turn_ends_there() -> None:
    state = fences_column(new("poker-fences"))
    assert SHEET.column(state) == 1
    assert SHEET.column_kind(state) == "announced"
    refused(state, "announce poker", "right after the first throw")
    state = play(state, "hold", "roll 2 5 5 1 3")
    # no throw without an announcement
    refused(state, "hold 5 5", "announce")
    assert not any(isinstance(a, Hold) for a in SHEET.decisions(state))
    assert Announce("four_of_a_kind") in SHEET.decisions(state)
    announced = play(state, "announce four_of_a_kind")
    refused(announced, "announce poker", "announced already")
    refused(announced, "score pair", "four_of_a_kind was announced")
    refused(announced, "scratch pair", "four_of_a_kind was announced")
    assert cells_to(announced) == ["four_of_a_kind"]
    # «Иду на карету»: keep the fives, throw three
    made = play(announced, "hold 5 5", "roll 5 5 2", "score four_of_a_kind")
    assert cell(made, "four_of_a_kind", column=1) == 20
    missed = play(announced, "hold 5 5", "roll 5 1 2", "hold 5 5 5", "roll 3 4", "score four_of_a_kind")
    assert cell(missed, "four_of_a_kind", column=1) == 0
    # recorded after throw 2 banks one, after throw 3 none
    assert made.sheets[0].banked == state.sheets[0].banked + 1
    assert missed.sheets[0].banked == state.sheets[0].banked


def test_column_two_may_record_at_once_or_scratch() -> None:
    state = play(fences_column(new("poker-fences")), "hold", "roll 2 2 3 3 1")
    assert cell(play(state, "score two_pairs"), "two_pairs", column=1) == 20  # 10 × 2 first throw
    assert cell(play(state, "score ones"), "ones", column=1) == -2
    scratched = play(state, "scratch poker")
    assert cell(scratched, "poker", column=1) == 0
    assert scratched.sheets[0].banked == state.sheets[0].banked + 2


def test_column_two_announced_upper_cell_scores_its_deviation() -> None:
    state = play(fences_column(new("poker-fences")), "hold", "roll 6 6 1 2 3", "announce sixes")
    state = play(state, "hold 6 6", "roll 1 2 3", "hold 6 6", "roll 6 1 1", "score sixes")
    assert cell(state, "sixes", column=1) == 0


def test_announcing_is_for_column_two_only() -> None:
    state = play(new("poker-fences"), "hold", "roll 6 6 1 2 3")
    refused(state, "announce sixes", "column II only")
    assert cells_to(state, "announce") == []


def test_column_three_goes_in_table_order() -> None:
    state = fences_column(fences_column(new("poker-fences")))
    assert SHEET.column_kind(state) == "ordered"
    # the forced cell is upper: no choice before the throw
    assert SHEET.to_throw(state) == 5
    state = play(state, "roll 6 6 6 6 6")
    refused(state, "score sixes", "in order", "ones comes next")
    assert cells_to(state) == ["ones"]
    state = play(state, "score ones")
    assert cell(state, "ones", column=2) == -3
    for face, name in enumerate(UPPER_CELLS[1:], 2):
        state = play(state, f"roll {face} {face} {face} 1 1", f"score {name}")
    # the forced lower cell may be scratched, before or after the first throw, but no other
    assert SHEET.to_throw(state) == 0
    assert cells_to(state, "scratch") == ["pair"]
    refused(state, "scratch poker", "pair comes next")
    state = play(state, "scratch pair", "hold", "roll 1 1 2 2 6")
    refused(state, "score pair", "already recorded")
    refused(state, "score full_house", "two_pairs comes next")
    state = play(state, "score two_pairs")
    assert cell(state, "two_pairs", column=2) == 12  # ×2 on the first throw


def test_fences_upper_bonus_per_column() -> None:
    state = new("poker-fences")
    # column I: sixes +6, other upper cells 0 → +50
    for face, name in enumerate(UPPER_CELLS, 1):
        other = 1 if face != 1 else 2
        extra = face if face == 6 else other
        state = play(state, "hold", f"roll {face} {face} {face} {extra} {other}", f"score {name}")
    for name in ("pair", "two_pairs", "three_of_a_kind", "small_straight", "large_straight"):
        state = play(state, f"scratch {name}")
    for name in ("full_house", "four_of_a_kind", "poker", "chance"):
        state = play(state, f"scratch {name}")
    assert SHEET.scores(state) == [6 + 50]
    # column II: ones −1 (two ones), the rest 0 → −20
    state = play(state, "hold", "roll 1 1 2 3 4", "score ones")
    for face, name in enumerate(UPPER_CELLS[1:], 2):
        state = play(state, "hold", f"roll {face} {face} {face} 1 1", f"score {name}")
    assert SHEET.scores(state) == [6 + 50 - 1 - 20]
    for name in ("pair", "two_pairs", "three_of_a_kind", "small_straight", "large_straight"):
        state = play(state, f"scratch {name}")
    for name in ("full_house", "four_of_a_kind", "poker", "chance"):
        state = play(state, f"scratch {name}")
    shown = summary(state)
    assert shown["players"][0]["upper_bonus"] == [50, -20, None]
    assert shown["players"][0]["upper"] == [6, -1, 0]
    # column III: exactly 0 → nothing (its upper cells come first: no choice before the throw)
    for face, name in enumerate(UPPER_CELLS, 1):
        other = 1 if face != 1 else 2
        state = play(state, f"roll {face} {face} {face} {other} {other}", f"score {name}")
    assert summary(state)["players"][0]["upper_bonus"] == [50, -20, 0]


def test_fences_game_is_45_turns() -> None:
    state = fences_column(fences_column(new("poker-fences")))
    for face, name in enumerate(UPPER_CELLS, 1):
        state = play(state, f"roll {face} 1 2 3 4", f"score {name}")
    for name in ("pair", "two_pairs", "three_of_a_kind", "small_straight", "large_straight"):
        state = play(state, f"scratch {name}")
    assert not SHEET.is_finished(state)
    for name in ("full_house", "four_of_a_kind", "poker", "chance"):
        state = play(state, f"scratch {name}")
    assert SHEET.is_finished(state)
    assert state.turn == 45


# -- yahtzee: joker and extra Yahtzees --------------------------------------------------------


YAHTZEE_OTHER_LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "chance",
)
"""The lower cells of the yahtzee sheet besides ``yahtzee`` itself."""


def test_extra_yahtzee_forces_its_upper_cell_and_earns_the_bonus() -> None:
    state = play(new("yahtzee"), "roll 5 5 5 5 5", "score yahtzee", "roll 3 3 3 3 3")
    refused(state, "score chance", "forced joker", "threes")
    assert cells_to(state) == ["threes"]
    state = play(state, "score threes")
    assert cell(state, "threes") == 15
    assert state.sheets[0].yahtzee_bonuses == 1
    assert SHEET.scores(state) == [50 + 15 + 100]


def test_joker_lower_cell_at_full_value_when_its_upper_cell_is_filled() -> None:
    state = play(new("yahtzee"), "roll 5 5 5 5 5", "score yahtzee", "roll 3 3 3 1 1", "score threes")
    state = play(state, "roll 3 3 3 3 3")
    refused(state, "score ones", "forced joker")
    assert set(cells_to(state)) == set(YAHTZEE_OTHER_LOWER)
    assert cell(play(state, "score full_house"), "full_house") == 25
    assert cell(play(state, "score small_straight"), "small_straight") == 30
    assert cell(play(state, "score large_straight"), "large_straight") == 40
    assert cell(play(state, "score four_of_a_kind"), "four_of_a_kind") == 15
    assert play(state, "score large_straight").sheets[0].yahtzee_bonuses == 1


def test_joker_upper_cell_for_zero_when_the_lower_section_is_full() -> None:
    state = play(new("yahtzee"), "roll 6 6 6 6 6", "score yahtzee", "roll 6 6 6 1 1", "score sixes")
    for name in YAHTZEE_OTHER_LOWER:
        state = play(state, "roll 1 2 3 4 6", f"score {name}")
    state = play(state, "roll 6 6 6 6 6")
    assert set(cells_to(state)) == set(UPPER_CELLS[:5])
    state = play(state, "score twos")
    assert cell(state, "twos") == 0
    assert state.sheets[0].yahtzee_bonuses == 1


def test_no_yahtzee_bonus_when_the_yahtzee_cell_holds_zero() -> None:
    state = play(new("yahtzee"), "roll 1 2 3 4 6", "score yahtzee", "roll 4 4 4 4 4")
    assert cell(state, "yahtzee") == 0
    # the joker still forces the upper cell, but there is no bonus
    refused(state, "score chance", "forced joker")
    state = play(state, "score fours")
    assert state.sheets[0].yahtzee_bonuses == 0
    assert SHEET.scores(state) == [20]


def test_no_joker_while_the_yahtzee_cell_is_open() -> None:
    state = play(new("yahtzee"), "roll 2 2 2 2 2")
    assert len(cells_to(state)) == 13
    state = play(state, "score chance")
    assert cell(state, "chance") == 10
    assert state.sheets[0].yahtzee_bonuses == 0


def test_free_joker_scores_ordinary_dice_while_its_upper_cell_is_open() -> None:
    state = play(new("yahtzee(joker=free)"), "roll 5 5 5 5 5", "score yahtzee", "roll 3 3 3 3 3")
    # not forced into threes: every open cell, a full house only as the dice are (none)
    assert len(cells_to(state)) == 12
    assert cell(play(state, "score full_house"), "full_house") == 0
    assert play(state, "score chance").sheets[0].yahtzee_bonuses == 1


def test_free_joker_goes_anywhere_at_full_value_once_its_upper_cell_is_filled() -> None:
    state = play(new("yahtzee(joker=free)"), "roll 5 5 5 5 5", "score yahtzee")
    state = play(state, "roll 3 3 3 1 1", "score threes", "roll 3 3 3 3 3")
    # lower cells at full value, and upper cells too although lower cells are open
    assert cell(play(state, "score full_house"), "full_house") == 25
    assert cell(play(state, "score large_straight"), "large_straight") == 40
    assert cell(play(state, "score ones"), "ones") == 0


# -- settlement against the average (RULES.md §1.8) ------------------------------------------


def test_settle_exact_fractions_sum_to_zero() -> None:
    results = settle([10, 20, 32])
    assert results == [Fraction(-32, 3), Fraction(-2, 3), Fraction(34, 3)]
    assert sum(results) == 0
    assert settle([10, 20, 32], 2) == [Fraction(-64, 3), Fraction(-4, 3), Fraction(68, 3)]
    assert settle([]) == []


def short_three_player_game(spec: str) -> SheetState:
    # Anna five ones, Boris five twos, Vera 3,3,3,3,4 every turn; upper by sum, chance
    state = new(spec, 3)
    for name in (*UPPER_CELLS, "chance"):
        state = play(state, "roll 1 1 1 1 1", f"score {name}", "roll 2 2 2 2 2", f"score {name}")
        state = play(state, "roll 3 3 3 3 4", f"score {name}")
    return state


def test_summary_settles_a_finished_game_against_the_average() -> None:
    state = short_three_player_game("poker-free(lower=[chance])")
    assert SHEET.scores(state) == [10, 20, 32]
    shown = summary(state)
    assert shown["winner"] == "Vera"
    assert shown["settlement"] == [
        {"name": "Anna", "result": "-32/3"},
        {"name": "Boris", "result": "-2/3"},
        {"name": "Vera", "result": "34/3"},
    ]
    staked = summary(short_three_player_game("poker-free(lower=[chance],stake=3)"))
    assert [r["result"] for r in staked["settlement"]] == [-32, -2, 34]


def test_other_actions_are_refused() -> None:
    state = play(new("poker-classic"), "roll 1 2 3 4 5")
    refused(state, SetAside((1,)), "not an action")
    refused(state, Stop(), "not an action")
