"""The exact solver: known values, the engine's rules turn by turn, the optimal bot, the cache."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from helpers import random_positions

from kosti.actions import Action, Announce, Hold, Roll, Score, Scratch
from kosti.bots.base import Bot, play_out
from kosti.dice import multisets
from kosti.errors import OptionError
from kosti.games.sheet.game import SHEET, Sheet, SheetState, cells_of
from kosti.games.sheet.scoring import cell_score
from kosti.roller import SeededDice
from kosti.rules.options import SheetOptions
from kosti.rules.presets import variant
from kosti.solver import OptimalBot, SheetAdvisor, solve
from kosti.solver import tables as solver_tables
from kosti.solver.advisor import spot_of, stored_value
from kosti.solver.model import FIVE, INDEX, Cfg
from kosti.solver.tables import Solution

SMALL_YAHTZEE = "yahtzee(lower=[yahtzee,full_house,chance])"
SMALL_FENCES = "poker-fences(lower=[poker])"
SMALL_MANDATORY = "poker-mandatory(lower=[four_of_a_kind,poker])"
SMALL_CLASSIC = "poker-classic(lower=[pair,chance])"


class TurnBrute:
    """An independent check: the exact values of one turn, by exhaustive search through the engine."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.memo: dict[SheetState, float] = {}

    def value(self, state: SheetState, turn: int) -> float:
        if state.turn != turn or state.finished:
            return stored_value(self.solution, state)
        if state.pending and state.throws:
            # after a hold the old dice no longer matter
            state = replace(state, dice=())
        if state in self.memo:
            return self.memo[state]
        if state.pending:
            value = sum(
                float(p) * self.value(SHEET.apply(state, roll), turn)
                for roll, p in SHEET.chance_outcomes(state)
            )
        else:
            value = max(self.action(state, a, turn) for a in SHEET.decisions(state))
        self.memo[state] = value
        return value

    def action(self, state: SheetState, action: Action, turn: int) -> float:
        return self.value(SHEET.apply(state, action), turn)


def sheet_state(
    spec: str, cells: dict[str, int], *, column: int = 0, banked: int = 0, **fields: object
) -> SheetState:
    """A one-player state of ``spec``: earlier columns full (of zeros), ``cells`` recorded in ``column``."""
    rules = variant(spec)
    start = SHEET.new_game(rules, ["solo"])
    names = cells_of(start.variant.options)  # type: ignore[arg-type]
    columns = []
    for i in range(len(start.sheets[0].columns)):
        if i < column:
            columns.append(tuple(0 for _ in names))
        elif i == column:
            columns.append(tuple(cells.get(c) for c in names))
        else:
            columns.append(tuple(None for _ in names))
    state = replace(start, sheets=(Sheet(tuple(columns), banked),))
    pending = 0 if SHEET.scratchable_cells(state) else 5
    return replace(state, pending=pending, **fields)  # type: ignore[arg-type]


def check_turn(spec: str, state: SheetState, cap: int | None = None) -> None:
    """Every decision value of the advisor (and the stored value at a turn's start) equals
    exhaustive search through the engine."""
    solution = solve(variant(spec), cap=cap)
    brute = TurnBrute(solution)
    advisor = SheetAdvisor(cap)
    if state.throws == 0:
        assert stored_value(solution, state) == pytest.approx(brute.value(state, state.turn), abs=1e-6)
    if not state.pending:
        for advice in advisor.advise(state):
            assert advice.value == pytest.approx(brute.action(state, advice.action, state.turn), abs=1e-6)


def test_yahtzee_matches_the_published_optimum_for_the_engine_rules() -> None:
    # the forced joker (RULES.md §1.5) is worth 254.5877287; Verhoeff's 254.5896 is the free joker
    assert solve(variant("yahtzee")).expected_score == pytest.approx(254.5877287, abs=5e-7)


def test_free_joker_reproduces_verhoeffs_254_5896() -> None:
    solution = solve(variant("yahtzee(joker=free)"), use_cache=False)
    assert f"{solution.expected_score:.4f}" == "254.5896"


def test_yatzy_matches_the_rust_peer_exactly() -> None:
    # yatzy-solver's "yatzy-scandinavian" plays RULES.md §1.5's yatzy: the same 15 cells, the
    # same scores of every throw in every cell, 50 for 63 in the upper section
    yatzy_solver = pytest.importorskip("yatzy_solver")
    peer_rules = yatzy_solver.Variant("yatzy-scandinavian")
    rules = variant("yatzy")
    options = rules.options
    assert isinstance(options, SheetOptions)
    ours = cells_of(options)
    assert len(peer_rules.categories) == len(ours)
    for dice in multisets(5):
        for theirs, mine in zip(peer_rules.categories, ours, strict=True):
            assert peer_rules.score(theirs, list(dice)) == cell_score(mine, dice, options), (theirs, dice)
    peer = yatzy_solver.Solver.build(peer_rules)
    expected = peer.state_value("upper 0 | filled -")
    assert solve(rules).expected_score == pytest.approx(expected, abs=1e-6)
    # and a position in the middle of a turn: every option of the first throw
    state = SHEET.apply(SHEET.new_game(rules, ["solo"]), Roll((1, 3, 3, 5, 6)))
    values = {str(a.action): a.value for a in SheetAdvisor().advise(state)}
    theirs = dict(peer.option_values("dice 1 3 3 5 6 | rolls 2 | upper 0 | filled -"))
    assert theirs["keep 3 3"] == pytest.approx(values["hold 3 3"], abs=1e-6)
    assert max(theirs.values()) == pytest.approx(max(values.values()), abs=1e-6)


def test_a_further_yahtzee_with_the_bonus_and_the_forced_joker() -> None:
    # yahtzee holds 50; fours is open: five fours must go there (+100)
    state = sheet_state(
        SMALL_YAHTZEE, {"ones": 3, "twos": 6, "threes": 9, "fives": 15, "sixes": 18, "yahtzee": 50}
    )
    state = SHEET.apply(state, Roll((4, 4, 4, 4, 4)))
    check_turn(SMALL_YAHTZEE, state)
    advice = SheetAdvisor().advise(state)
    assert advice[0].action == Score("fours")
    # fours recorded: the joker scores the full house at 25
    state = sheet_state(
        SMALL_YAHTZEE, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "yahtzee": 50}
    )
    check_turn(SMALL_YAHTZEE, SHEET.apply(state, Roll((4, 4, 4, 4, 4))))


def test_one_advisor_follows_a_whole_turn() -> None:
    # the same advisor ranks the decisions after the first and after the second throw
    state = sheet_state(SMALL_YAHTZEE, {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15})
    solution = solve(variant(SMALL_YAHTZEE))
    brute = TurnBrute(solution)
    advisor = SheetAdvisor()
    state = SHEET.apply(state, Roll((1, 3, 6, 6, 2)))
    for roll in ((6, 5, 6), (6, 6)):
        advice = advisor.advise(state)
        for a in advice:
            assert a.value == pytest.approx(brute.action(state, a.action, state.turn), abs=1e-6)
        state = SHEET.apply(
            SHEET.apply(state, Hold((6, 6)) if len(roll) == 3 else Hold((6, 6, 6))), Roll(roll)
        )


def test_a_yahtzee_turn_from_its_start() -> None:
    state = sheet_state(
        SMALL_YAHTZEE, {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    )
    check_turn(SMALL_YAHTZEE, state)


def test_classic_first_throw_doubles_after_the_upper_stage() -> None:
    upper = {"ones": 0, "twos": -2, "threes": 3, "fours": 0, "fives": -5, "sixes": 6}
    state = sheet_state(SMALL_CLASSIC, upper)
    check_turn(SMALL_CLASSIC, SHEET.apply(state, Roll((2, 2, 3, 5, 6))))
    check_turn(SMALL_CLASSIC, state)


def test_mandatory_banks_throws_and_spends_them() -> None:
    upper = {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 0, "sixes": 0}
    state = sheet_state(SMALL_MANDATORY, {**upper, "poker": 0}, banked=2)
    check_turn(SMALL_MANDATORY, state)


def test_fences_scratch_announce_and_order() -> None:
    solve(variant(SMALL_FENCES), cap=3)
    # column I: scratch before the first throw, or throw
    free = {"ones": -3, "twos": 0, "threes": 3, "fours": 0, "fives": 5}
    check_turn(SMALL_FENCES, sheet_state(SMALL_FENCES, free), cap=3)
    # column II, right after the first throw: record, scratch or announce
    state = sheet_state(SMALL_FENCES, free, column=1)
    state = SHEET.apply(SHEET.apply(state, Hold(())), Roll((1, 6, 6, 6, 2)))
    decisions = SHEET.decisions(state)
    assert Announce("poker") in decisions and Scratch("poker") in decisions
    check_turn(SMALL_FENCES, state, cap=3)
    announced = SHEET.apply(state, Announce("sixes"))
    check_turn(SMALL_FENCES, announced, cap=3)
    # column III, the forced poker with a banked throw
    ordered = {c: 0 for c in ("ones", "twos", "threes", "fours", "fives", "sixes")}
    check_turn(SMALL_FENCES, sheet_state(SMALL_FENCES, ordered, column=2, banked=1), cap=3)


CHASED = "poker-fences(lower=[pair,small_straight,full_house,chance])"


@pytest.mark.parametrize("shortcut", [True, False])
def test_chasing_cells_side_by_side_is_chasing_each_alone(shortcut: bool) -> None:
    """Column II's chases of several cells at once (and, with ``shortcut``, of each open upper
    cell by counting its face alone) are each cell's own chase."""
    import numba

    from kosti.solver import kernels

    @numba.njit
    def both(T: Any, V: Any, spot: Any, jc: int, shortcut: bool, M: Any, alone: Any) -> None:
        col, lm, p, y = spot
        ua, la = kernels.allowed(T, col, T.pair_um[p], lm)
        Uv = np.zeros((6, 6, jc + 2))
        Vz = np.zeros((T.cfg[Cfg.N_LOWER], jc + 2))
        Vnz = np.zeros((T.cfg[Cfg.N_LOWER], jc + 2))
        maxVz = np.zeros(jc + 2)
        kernels.successors(T, V, col, lm, p, y, ua, la, Uv, Vz, Vnz, maxVz)
        kernels.announced_best(T, ua, la, 0, y, jc, shortcut, Uv, Vz, Vnz, M)
        # each cell on its own, by the single chase the advisor uses
        nd = M.shape[1]
        Wc = np.empty((jc + 1, nd))
        Mc = np.empty((jc + 1, nd))
        Ec = np.empty((jc + 1, 462))
        alone[:] = -1e300
        for cell in range(6 + T.cfg[Cfg.N_LOWER]):
            if (cell < 6 and (ua >> cell) & 1) or (cell >= 6 and (la >> (cell - 6)) & 1):
                kernels.chase(T, 0, y, cell, jc, Uv, Vz, Vnz, Wc, Mc, Ec)
                for j in range(1, jc + 1):
                    for d in range(nd):
                        alone[j, d] = max(alone[j, d], Mc[j, d])

    solution = solve(variant(CHASED), cap=4)
    model = solution.model
    jc = model.cap + model.throws - 1
    upper = {"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 0, "sixes": 0}
    # eight chases side by side (three without the upper cells), and a single one padded to four
    for cells in ({"ones": -3, "pair": 8}, {**upper, "pair": 2, "small_straight": 0, "full_house": 0}):
        spot = spot_of(solution, sheet_state(CHASED, cells, column=1))
        M = np.zeros((jc + 1, 252))
        alone = np.zeros((jc + 1, 252))
        at = (spot.column, spot.lm, spot.pair, spot.flag)
        both(model.tables, solution.values, at, jc, shortcut, M, alone)
        np.testing.assert_allclose(M[1:], alone[1:], rtol=0, atol=1e-9)


def test_a_helper_of_the_kernels_refuses_a_call_from_python() -> None:
    from kosti.solver import kernels

    with pytest.raises(TypeError, match="compiled into the kernels only"):
        kernels.records()


def test_a_cap_on_banked_throws_never_gains() -> None:
    low = solve(variant(SMALL_FENCES), cap=1).expected_score
    high = solve(variant(SMALL_FENCES), cap=3).expected_score
    assert low < high


def test_optimal_bot_plays_legal_actions_in_a_multiplayer_game() -> None:
    bot = OptimalBot()
    assert isinstance(bot, Bot)
    state = SHEET.new_game(variant(SMALL_FENCES), ["Anna", "Boris"])

    class Checked:
        name = "checked"

        def choose(self, s: SheetState) -> object:  # type: ignore[override]
            action = bot.choose(s)
            assert action in SHEET.decisions(s)
            advice = bot.advise(s)
            assert advice[0].loss == 0
            assert all(a.loss is not None and a.loss >= 0 for a in advice)
            values = [a.value for a in advice]
            assert values == sorted(values, reverse=True)
            assert {a.action for a in advice} == set(SHEET.decisions(s))
            return action

    final = play_out(state, [Checked(), Checked()], SeededDice(7))  # type: ignore[list-item]
    assert final.finished  # type: ignore[attr-defined]


def test_the_bot_scores_what_the_solver_expects() -> None:
    rules = variant(SMALL_YAHTZEE)
    expected = solve(rules).expected_score
    bot = OptimalBot()
    scores = []
    for seed in range(60):
        final = play_out(SHEET.new_game(rules, ["solo"]), [bot], SeededDice(seed))
        scores.extend(SHEET.scores(final))  # type: ignore[arg-type]
    mean = float(np.mean(scores))
    error = float(np.std(scores, ddof=1) / np.sqrt(len(scores)))
    assert abs(mean - expected) < 4 * error


def test_fast_simulation_agrees_with_the_expectation() -> None:
    from kosti.solver.simulate import simulate

    solution = solve(variant(SMALL_MANDATORY))
    scores, banks = simulate(solution, 400, seed=1)
    error = scores.std(ddof=1) / np.sqrt(len(scores))
    assert abs(scores.mean() - solution.expected_score) < 4 * error
    assert banks.max() <= solution.cap


def test_the_cache_round_trip(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path))
    rules = variant(SMALL_CLASSIC)
    fresh = solve(rules, fresh=True)
    assert not fresh.cached
    path = solver_tables.cache_path(rules.spec, fresh.cap)
    assert path.exists() and path.is_relative_to(tmp_path)  # type: ignore[arg-type]
    monkeypatch.setattr(solver_tables, "_MEMORY", {})
    again = solve(rules)
    assert again.cached
    assert again.expected_score == fresh.expected_score
    np.testing.assert_array_equal(again.values, fresh.values)


def test_a_solve_reports_its_progress() -> None:
    calls: list[tuple[int, int]] = []
    solve(variant(SMALL_CLASSIC), fresh=True, use_cache=False, progress=lambda d, t: calls.append((d, t)))
    assert calls[0][0] == 0 and calls[-1][0] == calls[-1][1] > 0


def test_more_freedom_never_costs() -> None:
    # built from the options: free stages give the player more choices, so never less
    sequential = solve(variant(SMALL_CLASSIC)).expected_score
    free = solve(variant("poker-classic(lower=[pair,chance],stages=free)")).expected_score
    assert free > sequential


def test_only_score_sheets_are_solved() -> None:
    with pytest.raises(OptionError, match="score-sheet"):
        solve(variant("thousand-classic"))


def test_a_solve_cancelled_by_its_progress_callback_caches_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path))
    rules = variant(SMALL_CLASSIC)
    assert isinstance(rules.options, SheetOptions)
    solver_tables.compile_solver(rules.options)  # the callback follows the solving phase only
    seen: list[float] = []

    def halfway(done: int, total: int) -> bool:
        seen.append(done / total)
        return done / total < 0.5

    with pytest.raises(solver_tables.SolveCancelled, match="cancelled"):
        solve(rules, fresh=True, progress=halfway)
    assert 0.5 <= seen[-1] < 1 and len(seen) > 2
    assert not solver_tables.cache_path(rules.spec, 0).exists()
    # any answer but False goes on
    assert solve(rules, fresh=True, progress=lambda d, t: None).expected_score > 0


def test_batched_option_values_are_those_of_each_position() -> None:
    from kosti.solver.advisor import option_values, position_row

    rules = variant(SMALL_YAHTZEE)
    solution = solve(rules)
    advisor = SheetAdvisor()
    states = []
    for dice in ((1, 1, 1, 1, 1), (2, 3, 4, 5, 6), (6, 6, 5, 5, 1)):
        state = SHEET.apply(sheet_state(SMALL_YAHTZEE, {"ones": 3, "yahtzee": 50}), Roll(dice))
        states.append(state)
        states.append(SHEET.apply(SHEET.apply(state, Hold(dice[:2])), Roll((6, 6, 6))))
    rows = np.array([position_row(solution.model, s) for s in states])
    batch = option_values(solution, rows)
    np.testing.assert_array_equal(batch, advisor.values_batch(states))
    for state, row in zip(states, batch, strict=True):
        np.testing.assert_array_equal(advisor.values(state), row)
        legal = {a for a, _ in advisor.future(state)}
        assert np.count_nonzero(~np.isnan(row)) == len(legal)


def test_a_bank_the_recorded_cells_cannot_have_made_is_refused() -> None:
    from kosti.errors import KostiError

    state = sheet_state(SMALL_FENCES, {"ones": -3}, banked=3)  # one upper cell banks at most 2
    with pytest.raises(KostiError, match="cannot have banked 3"):
        SheetAdvisor(cap=3).advise(state)
    assert SheetAdvisor(cap=3).position_value(sheet_state(SMALL_FENCES, {"ones": -3}, banked=2)) > 0


def test_the_packed_tables_unpack_to_the_tables() -> None:
    from kosti.solver import kernels

    model = solve(variant(SMALL_FENCES), cap=3).model
    unpacked = kernels.unpacked(*model.packed)
    assert len(unpacked) == len(model.tables)
    for name, mine, theirs in zip(model.tables._fields, model.tables, unpacked, strict=True):
        assert theirs.dtype == mine.dtype, name
        np.testing.assert_array_equal(theirs, mine, err_msg=name)


def test_the_layout_gives_each_reachable_state_a_row_of_every_bank_it_can_hold() -> None:
    from kosti.solver.model import build_model, exact_bank_cap

    options = variant(SMALL_FENCES).options
    assert isinstance(options, SheetOptions)
    model = build_model(options)
    assert model.cap == exact_bank_cap(options) == 3 * (6 * 2 + 1 * 3)
    slot, top, size = model.layout
    laid = slot >= 0
    order = np.argsort(slot[laid])
    starts, tops = slot[laid][order], top[laid][order]
    # rows follow one another without gap or overlap
    assert starts[0] == 0 and starts[-1] + tops[-1] + 1 == size
    np.testing.assert_array_equal(starts[1:], starts[:-1] + tops[:-1] + 1)
    # column III's first state can hold what two full columns banked; column I's only 0
    p0 = model.pair_of(0, 0)
    assert top[2, 0, p0, 0] == 2 * (6 * 2 + 3) and top[0, 0, p0, 0] == 0
    # a stage rule makes states unreachable: no row for them
    classic = variant(SMALL_CLASSIC).options
    assert isinstance(classic, SheetOptions)
    staged = build_model(classic)
    assert staged.layout.slot[0, 1, staged.pair_of(0, 0), 0] == -1
    assert staged.layout.slot[0, 0, staged.pair_of(0, 0), 0] >= 0


def test_fences_without_a_cap_is_the_limit_of_the_caps() -> None:
    rules = variant(SMALL_FENCES)
    exact = solve(rules)
    assert exact.cap == exact.model.exact_cap
    capped = [solve(rules, cap=c).expected_score for c in (3, 10, exact.cap - 1)]
    assert capped == sorted(capped) and capped[-1] <= exact.expected_score
    # a turn with a large bank, checked against exhaustive search through the engine
    state = sheet_state(SMALL_FENCES, {"ones": 0, "twos": -6}, column=2, banked=5)
    check_turn(SMALL_FENCES, state)


def reference_spot(solution: Solution, state: SheetState) -> tuple[int, ...]:
    """The solver's coordinates of ``state`` worked out from the engine's own queries."""
    model = solution.model
    options = model.options
    sheet = state.sheets[state.current]
    col = SHEET.column(state)
    column = sheet.columns[col]
    upper, lower = column[:6], column[6:]
    um = sum(1 << i for i, v in enumerate(upper) if v is not None)
    lm = sum(1 << i for i, v in enumerate(lower) if v is not None)
    pair = model.pair_of(um, sum(v for v in upper if v is not None))
    flag = 0
    if "yahtzee" in options.lower and options.extra_yahtzee_bonus:
        flag = int(bool(sheet.columns[0][6 + options.lower.index("yahtzee")]))
    banked = sheet.banked if options.banked_throws else 0
    bank = min(banked + max(0, state.throws - options.throws), model.cap)
    left = min(SHEET.throws_left(state), model.cap + options.throws - 1)
    return (col, lm, um, pair, flag, bank, left)


@pytest.mark.parametrize("spec", [SMALL_YAHTZEE, SMALL_FENCES, SMALL_MANDATORY, SMALL_CLASSIC])
def test_batched_and_single_values_agree_and_are_the_engines_on_random_positions(spec: str) -> None:
    from kosti.solver.advisor import option_index

    solution = solve(variant(spec))
    advisor = SheetAdvisor()
    states = random_positions(spec, 40, seed=len(spec))
    batch = advisor.values_batch(states)
    for state, row in zip(states, batch, strict=True):
        np.testing.assert_array_equal(advisor.values(state), row)
        spot = spot_of(solution, state)
        assert (spot.column, spot.lm, spot.um, spot.pair, spot.flag, spot.bank, spot.left) == (
            reference_spot(solution, state)
        )
        legal = SHEET.decisions(state)
        assert np.count_nonzero(~np.isnan(row)) == len(legal)
    # against exhaustive search through the engine, on a few of them
    brute = TurnBrute(solution)
    for state, row in list(zip(states, batch, strict=True))[:4]:
        recorded = spot_of(solution, state).recorded
        for action in SHEET.decisions(state):
            exact = brute.action(state, action, state.turn)
            assert recorded + row[option_index(solution.model, action)] == pytest.approx(exact, abs=1e-6)


def test_every_option_of_random_yahtzee_positions_is_the_rust_peers() -> None:
    yatzy_solver = pytest.importorskip("yatzy_solver")
    peer = yatzy_solver.Solver.build(yatzy_solver.Variant("american+forced-joker"))
    rules = variant("yahtzee")
    solution = solve(rules)
    model = solution.model
    names = cells_of(model.options)
    states = random_positions("yahtzee", 30, seed=3)
    values = SheetAdvisor().values_batch(states)
    checked = 0
    for state, row in zip(states, values, strict=True):
        cells = state.sheets[0].columns[0]
        if not state.throws:
            continue  # the peer is asked after a throw
        upper = [v for v in cells[:6] if v is not None]
        filled = [
            ("five_of_a_kind" if n == "yahtzee" else n)
            for n, v in zip(names, cells, strict=True)
            if v is not None
        ]
        text = (
            f"dice {' '.join(map(str, state.dice))} | rolls {3 - state.throws} | upper {min(63, sum(upper))}"
        )
        text += f" | filled {','.join(filled) or '-'}"
        if cells[names.index("yahtzee")] is not None:
            text += f" | five_of_a_kind {cells[names.index('yahtzee')]}"
        # the peer pays the upper bonus as soon as it is made, the sheet once the section is full
        early = 35.0 if sum(upper) >= 63 and len(upper) < 6 else 0.0
        for option, theirs in peer.option_values(text):
            kind, _, what = option.partition(" ")
            if kind == "keep":
                mine = row[INDEX[() if what == "-" else tuple(int(f) for f in what.split())]]
            else:
                mine = row[FIVE + names.index("yahtzee" if what == "five_of_a_kind" else what)]
            assert mine == pytest.approx(theirs - early, abs=1e-6), (text, option)
        checked += 1
    assert checked >= 10
