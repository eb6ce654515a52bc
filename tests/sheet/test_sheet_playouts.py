"""One generic property test over every score-sheet preset (OpenSpiel style).

Seeded random legal playouts of 1–4 players always end with full sheets; each
total equals the recorded cells plus the bonuses, reckoned here from RULES.md
(§1.4, §1.6, §1.7, the Yahtzee bonus) and not by the engine's own total; the
banked throws follow the rule 3 − k; the same seed gives the same trace; and at
random points an illegal action is refused with the state unchanged.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kosti.actions import Action, Announce, CellAction, Hold, Roll, Score, Scratch
from kosti.dice import counts, is_submultiset, submultisets
from kosti.errors import IllegalActionError
from kosti.games.sheet.game import SHEET, SheetState, cells_of, options_of
from kosti.roller import SeededDice
from kosti.rules import PRESETS, UPPER_CELLS, variant

SHEET_PRESETS = [p.id for p in PRESETS.values() if p.family == "sheet"]
SEQUENTIAL = {"poker-classic", "poker-extended", "poker-mandatory"}
BANKED = {"poker-mandatory", "poker-fences"}
YAHTZEE = 6 + 5
"""The place of the ``yahtzee`` cell on its sheet: six upper cells, then the fifth lower one."""


def upper_bonus(preset: str, upper: int) -> int:
    """RULES.md §1.4 and §1.7, written out per preset."""
    if preset in ("poker-classic", "poker-extended"):
        return 50 if upper >= 0 else 0
    if preset == "poker-fences":
        return 50 if upper > 0 else -20 if upper < 0 else 0
    if preset == "yahtzee":
        return 35 if upper >= 63 else 0
    return 0


@dataclass
class Model:
    """What the test keeps of each player independently of the engine."""

    banked: list[int]
    extra_yahtzees: list[int]
    trace: list[Action] = field(default_factory=list)
    refusals: int = 0


def illegal_actions(state: SheetState, preset: str, rng: random.Random) -> list[Action]:
    """Actions that the rules forbid in ``state``, each for a reason known here."""
    names = cells_of(options_of(state))
    column = state.sheets[state.current].columns[SHEET.column(state)]
    filled = [c for c, v in zip(names, column, strict=True) if v is not None]
    open_ = [c for c, v in zip(names, column, strict=True) if v is None]
    result: list[Action] = [Score("no_such_cell"), Scratch("sixes")]
    result += [Score(c) for c in filled] + [Scratch(c) for c in filled] + [Announce(c) for c in filled]
    if state.pending:
        # a throw is due: nothing but a roll of exactly that many dice
        size = rng.choice([n for n in range(0, 7) if n != state.pending])
        result += [Roll(tuple(rng.randint(1, 6) for _ in range(size))), Hold(()), Score(open_[0])]
        result.append(Roll((0,) * state.pending))
        return result
    # at a decision no throw is due
    result.append(Roll(tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 5)))))
    if state.throws == 0:
        result += [Hold((1,)), Score(open_[0])]
        return result
    shown = counts(state.dice)
    # one die more of a face than the table shows
    missing = rng.choice([f for f in range(1, 7) if shown[f - 1] < 5])
    result.append(Hold((missing,) * (shown[missing - 1] + 1)))
    result.append(Hold(state.dice))
    if preset in SEQUENTIAL and any(u in open_ for u in UPPER_CELLS):
        result += [Score(c) for c in open_ if c not in UPPER_CELLS]
    if SHEET.throws_left(state) == 0:
        result.append(Hold(()))
    if not options_of(state).scratch:
        result += [Scratch(c) for c in open_]
    if SHEET.column_kind(state) != "announced" or state.announced or state.throws != 1:
        result += [Announce(c) for c in open_]
    return result


def check_refused(state: SheetState, action: Action, snapshot: bool = True) -> None:
    """``action`` is refused with a reason and, with ``snapshot``, ``state`` is left as it was."""
    # the variant is immutable and large: share it, copy the rest
    before = copy.deepcopy(state, {id(state.variant): state.variant}) if snapshot else state
    try:
        SHEET.apply(state, action)
    except IllegalActionError as error:
        assert str(error), "a refusal says why"
    else:
        raise AssertionError(f"{action} was accepted in {state}")
    assert state == before


def check_decisions(state: SheetState, decisions: list[Action], names: tuple[str, ...]) -> None:
    """The decisions offered are exactly the records, scratches, announcements and holds accepted."""
    candidates: list[Action] = [Hold(h) for h in submultisets(state.dice)] if state.dice else [Hold(())]
    for cell in names:
        candidates += [Score(cell), Scratch(cell), Announce(cell)]
    for action in candidates:
        if action in decisions:
            SHEET.apply(state, action)
        else:
            check_refused(state, action, snapshot=False)
    assert set(decisions) <= set(candidates)


def choose(decisions: list[Action], rng: random.Random) -> Action:
    """A random decision, first picking its kind so that scratches and announcements happen."""
    kinds: dict[type, list[Action]] = {}
    for action in decisions:
        kinds.setdefault(type(action), []).append(action)
    return rng.choice(kinds[rng.choice(sorted(kinds, key=lambda k: k.__name__))])


def playout(preset: str, players: int, seed: int, inject: bool = True) -> tuple[SheetState, Model]:
    rules = variant(preset)
    state = SHEET.new_game(rules, [f"P{i}" for i in range(players)])
    dice = SeededDice(seed)
    rng = random.Random(f"bot {seed}")
    # refusals draw from a stream of their own: the game is the same with or without them
    mischief = random.Random(f"illegal {seed}")
    model = Model([0] * players, [0] * players)
    names = cells_of(options_of(state))
    while not SHEET.is_finished(state):
        if inject and mischief.random() < 0.2:
            model.refusals += 1
            check_refused(state, mischief.choice(illegal_actions(state, preset, mischief)))
        seat = state.current
        if state.pending:
            action: Action = Roll(dice.roll(state.pending))
            if preset in BANKED and state.throws >= 3:
                model.banked[seat] -= 1  # a throw past the third spends a banked one
        else:
            decisions = SHEET.decisions(state)
            assert decisions, "a player who must decide has a choice"
            if inject and mischief.random() < 0.25:
                check_decisions(state, decisions, names)
            action = choose(decisions, rng)
            if isinstance(action, CellAction) and action.kind in ("score", "scratch"):
                if preset in BANKED:
                    model.banked[seat] += max(0, 3 - state.throws)
                five_alike = (
                    isinstance(action, CellAction) and action.kind == "score" and len(set(state.dice)) == 1
                )
                if preset == "yahtzee" and five_alike and state.sheets[seat].columns[0][YAHTZEE] == 50:
                    model.extra_yahtzees[seat] += 1
            if isinstance(action, Hold):
                assert is_submultiset(action.faces, state.dice)
        model.trace.append(action)
        state = SHEET.apply(state, action)
    return state, model


@settings(max_examples=24, deadline=None)
@given(
    preset=st.sampled_from(SHEET_PRESETS),
    players=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
)
@example(preset="yahtzee", players=2, seed=157)  # a second Yahtzee: the +100 and the forced joker
@example(preset="poker-fences", players=4, seed=0)  # three columns, the longest game
@example(preset="poker-mandatory", players=1, seed=0)  # banked throws counted at the end
def test_random_playouts(preset: str, players: int, seed: int) -> None:
    state, model = playout(preset, players, seed)
    options = options_of(state)
    columns = 3 if preset == "poker-fences" else 1
    cells_per_column = 6 + len(options.lower)
    assert state.turn == players * columns * cells_per_column
    assert SHEET.to_throw(state) == 0
    assert SHEET.decisions(state) == []
    totals = []
    for seat, sheet in enumerate(state.sheets):
        assert len(sheet.columns) == columns
        assert all(v is not None for column in sheet.columns for v in column)
        total = 0
        for column in sheet.columns:
            values = [v for v in column if v is not None]
            total += sum(values) + upper_bonus(preset, sum(values[:6]))
        total += 100 * model.extra_yahtzees[seat]
        if preset in BANKED:
            assert sheet.banked == model.banked[seat] >= 0
        if preset == "poker-mandatory":
            total += 3 * model.banked[seat]
        totals.append(total)
    assert SHEET.scores(state) == totals
    best = max(totals)
    assert SHEET.winners(state) == [i for i, t in enumerate(totals) if t == best]
    # the same seed gives the same game, whether or not refusals were tried on the way
    again, replayed = playout(preset, players, seed, inject=False)
    assert again == state
    assert replayed.trace == model.trace
