"""What a solve tells of itself while it runs (:mod:`kosti.solver.progress`): named phases, each
from 0 to its own total; the «Тысяча» bar moving with the sweeps; Ctrl-C at any moment is an
interruption that keeps the checkpoint; and whether a hint's values are exact."""

from __future__ import annotations

import json
import re
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import TINY_THOUSAND, Recorder, thousand_position

from kosti.actions import Hold, Roll
from kosti.games.sheet.game import SHEET
from kosti.games.thousand.game import THOUSAND
from kosti.levels import make_bot
from kosti.rules.presets import variant
from kosti.solver import SheetAdvisor, solve

thousand = import_module("kosti.solver.thousand.solve")
"""The module (the package names its function ``solve``)."""

SMALL_SHEET = "poker-classic(lower=[pair,chance])"
BANKING = "poker-fences(lower=[pair,poker])"
"""A sheet that banks throws: a smaller cap makes its values lower bounds."""


def test_a_sheet_solve_is_a_solving_phase_from_0_to_its_total() -> None:
    heard = Recorder()
    solve(variant(SMALL_SHEET), fresh=True, use_cache=False, progress=heard)
    assert "solving" in heard.calls
    reports = heard.of("solving")
    assert reports[0][0] == 0 and reports[-1][0] == reports[-1][1] > 0
    assert [d for d, _ in reports] == sorted(d for d, _ in reports)


WAYS = {"plain sweeps": 1.0, "policy iteration": -1.0}
"""How a «Тысяча» is solved (the model's estimated plain sweeps at most ``PLAIN_SECONDS``):
the tiny game of these tests, either way."""


@pytest.mark.parametrize("way", WAYS)
def test_the_thousand_solve_advances_with_its_sweeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    monkeypatch.setattr(thousand, "PLAIN_SECONDS", WAYS[way])
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(thousand, "_MEMORY", {})  # solved here, not found solved by another test
    heard = Recorder()
    solution = thousand.solve(variant(TINY_THOUSAND), progress=heard)
    names = [call for call in heard.calls if isinstance(call, str)]
    assert names[0] == "building" and names[-1] == "solving"
    reports = heard.of("solving")
    done = [d for d, _ in reports]
    assert {t for _, t in reports} == {thousand.SHARE_STEPS}
    assert done == sorted(done) and done[-1] == thousand.SHARE_STEPS
    # not at the end from the first seconds: every sweep moves the bar, and within a sweep too
    assert done[1] < thousand.SHARE_STEPS // 2
    assert len(set(done)) > solution.sweeps


def test_the_sweeps_share_never_goes_back_and_ends_below_the_whole() -> None:
    share = thousand.SweepShare(1e-12)
    shown = [share.steps(rows, 10) for rows in range(11)]
    for change in (1e-2, 1e-3, 1e-5, 1e-6, 1e-9):
        share.swept(change)
        shown += [share.steps(rows, 10) for rows in range(11)]
    assert shown == sorted(shown)
    assert shown[10] == int(thousand.FIRST_SWEEP * thousand.SHARE_STEPS)
    assert shown[-1] < thousand.SHARE_STEPS


@pytest.mark.parametrize("way", WAYS)
def test_an_interrupted_thousand_solve_keeps_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    monkeypatch.setattr(thousand, "PLAIN_SECONDS", WAYS[way])
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(thousand, "_MEMORY", {})
    rules = variant(TINY_THOUSAND)

    class Interrupting(Recorder):
        def __call__(self, done: int, total: int) -> None:
            super().__call__(done, total)
            # Ctrl-C once the first sweep is done
            if "solving" in self.calls and done > thousand.FIRST_SWEEP * thousand.SHARE_STEPS:
                raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        thousand.solve(rules, progress=Interrupting())
    low = thousand.default_floor(thousand.thousand_options(rules))
    partial = thousand.cache_path(rules.spec, low, "partial.npz")
    assert not thousand.cache_path(rules.spec, low).exists()
    with np.load(partial) as saved:
        assert int(saved["sweeps"]) >= 1
    # the next solve resumes from it and ends where an uninterrupted one does
    resumed = thousand.solve(rules)
    assert not resumed.cached and not partial.exists()
    fresh = thousand.solve(rules, fresh=True, use_cache=False)
    assert abs(resumed.win_probability - fresh.win_probability) < 1e-9


def test_ctrl_c_during_a_thousand_solve_says_interrupted(kosti: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kosti.solver.thousand import model

    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    # at the very start (the model is built before numba compiles anything)
    monkeypatch.setattr(model, "build_model", interrupted)
    monkeypatch.setattr(thousand, "build_model", interrupted)
    run = kosti("solve", TINY_THOUSAND, "--players", "2", "--fresh")
    assert run.code == 130
    assert run.err.strip().endswith("run the same command again to resume")
    assert "Traceback" not in run.err and run.out == ""


def test_a_thousand_solve_says_up_front_what_it_will_take(kosti: Any) -> None:
    run = kosti("solve", TINY_THOUSAND, "--players", "2", "--fresh")
    assert run.code == 0, run.err
    line = next(line for line in run.err.splitlines() if "statuses a player" in line)
    assert re.search(
        r"\d+ statuses a player; under a minute, \d+ MB of memory and \d+ MB on disk, on two cores "
        r"\(an estimate\); Ctrl-C keeps the work done",
        line,
    ), line


def test_a_thousand_solve_tells_the_disk_its_cache_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(thousand, "_MEMORY", {})
    heard: list[Any] = []

    class Listening(Recorder):
        def estimate(self, what: Any) -> None:
            heard.append(what)

    rules = variant(TINY_THOUSAND)
    solution = thousand.solve(rules, progress=Listening())
    low = thousand.default_floor(thousand.thousand_options(rules))
    written = thousand.cache_path(rules.spec, low).stat().st_size
    assert heard and heard[0].positions == solution.model.n and heard[0].resumable
    # the values, the statuses and the model's arrays, with the file's headers besides
    assert heard[0].disk == thousand.cache_bytes(solution.model)
    assert abs(heard[0].disk - written) < 0.05 * written


SMALL_FENCES = "poker-fences(lower=[poker,chance])"


def test_a_long_sheet_solve_says_up_front_what_it_will_take(
    kosti: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kosti.solver import tables

    quick = kosti("solve", SMALL_FENCES, "--fresh")
    assert quick.code == 0, quick.err
    assert "on disk" not in quick.err  # a solve of seconds is not announced
    model = tables.build_model(tables.sheet_options(variant(SMALL_FENCES)))
    guess = tables.estimate(model)
    monkeypatch.setattr(tables, "TELL_ABOVE", guess.seconds / 2)
    run = kosti("solve", SMALL_FENCES, "--fresh")
    assert run.code == 0, run.err
    line = next(line for line in run.err.splitlines() if "on disk" in line)
    states = int((model.layout.slot >= 0).sum())
    assert f"{SMALL_FENCES}: {states:,} states; under a minute, " in line, line
    # a sheet's table is not kept before it is whole: Ctrl-C loses the solve, and says so
    assert line.endswith("on two cores (an estimate); Ctrl-C stops it"), line


def test_the_poker_fences_estimate_is_what_its_solve_measured() -> None:
    from kosti.solver import tables

    guess = tables.estimate(tables.build_model(tables.sheet_options(variant("poker-fences"))))
    # measured on an idle two-core machine: 3 min 33 s, 1.03 GB at the peak, a cache of 141 MB
    assert guess.positions == 1_936_522 and guess.unit == "states" and not guess.resumable
    assert 3 * 60 < guess.seconds < 4.5 * 60
    assert 0.9e9 < guess.memory < 1.2e9
    assert 110e6 < guess.disk < 150e6


def test_a_sheet_solve_reports_its_work_not_its_states() -> None:
    from kosti.solver import tables

    rules = variant(SMALL_FENCES)
    model = tables.build_model(tables.sheet_options(rules))
    recorder = Recorder()
    solve(rules, fresh=True, use_cache=False, progress=recorder)
    reports = recorder.of("solving")
    work = [int(w.sum()) for _, _, w in tables._plan(model)]
    assert {total for _, total in reports} == {sum(work)}
    dones = [done for done, _ in reports]
    assert dones == sorted(dones) and dones[0] == 0 and dones[-1] == sum(work)
    # an announced column's state chases each open cell on its own: it weighs more than a free
    # column's state that can bank as much
    full = (1 << model.n_lower) - 1
    free = tables.state_work(model, 0, *(np.array([0]) for _ in range(3)))
    announced = tables.state_work(model, 1, *(np.array([0]) for _ in range(3)))
    assert announced[0] > free[0] > 0
    # the chases go LANES cells at a time: a state with none to chase weighs less
    assert tables.state_work(model, 1, np.array([full]), np.array([0]), np.array([0]))[0] < announced[0]


def test_the_estimate_grows_with_the_recorded_chances(monkeypatch: pytest.MonkeyPatch) -> None:
    from kosti.solver.thousand import rows
    from kosti.solver.thousand.model import build_model
    from kosti.solver.thousand.solve import BASE_BYTES, REFERENCE_OUTCOMES, REFERENCE_SECONDS, estimate

    model = build_model(variant(TINY_THOUSAND))
    # solved by plain sweeps, it takes what they take
    assert estimate(model) == (thousand.plain_seconds(model), BASE_BYTES + 8 * model.n**2)
    monkeypatch.setattr(thousand, "PLAIN_SECONDS", -1.0)
    seconds, size = estimate(model)
    outcomes = rows.outcome_size(model)
    assert seconds == pytest.approx(REFERENCE_SECONDS * outcomes / REFERENCE_OUTCOMES)
    assert size == pytest.approx(BASE_BYTES + 4 * outcomes + 48 * model.n**2)
    assert 0 < seconds < 1  # a game solved at once is said to take no time


def test_the_bar_starts_each_phase_again_with_its_name_and_total() -> None:
    from kosti.commands.solve import _Bar

    bar = _Bar("poker-classic")
    bar.phase("compiling")
    bar(0, 300)
    bar(300, 300)
    bar.phase("solving")
    bar(5, 1000)
    assert bar.progress is not None
    (task,) = bar.progress.tasks
    assert (task.completed, task.total) == (5, 1000)
    assert task.description == "solving (poker-classic)"
    bar.close()


def test_the_solver_says_its_hints_are_exact_and_the_heuristic_that_it_is_not() -> None:
    state = SHEET.apply(SHEET.new_game(variant(SMALL_SHEET), ["solo"]), Roll((6, 6, 6, 2, 1)))
    assert all(a.exact for a in SheetAdvisor().advise(state))
    assert not any(a.exact for a in make_bot("heuristic", "sheet").advise(state))  # type: ignore[attr-defined]


def test_a_capped_bank_makes_the_values_lower_bounds_not_exact() -> None:
    # a sheet with scratches decides before its first throw: throw (hold nothing), then the dice
    start = SHEET.apply(SHEET.new_game(variant(BANKING), ["solo"]), Hold(()))
    state = SHEET.apply(start, Roll((6, 6, 6, 2, 1)))
    assert not any(a.exact for a in SheetAdvisor(cap=1).advise(state))
    assert SheetAdvisor(cap=1).exact(state) is False


def test_the_thousand_advice_is_exact_for_two_players_only() -> None:
    from kosti.solver.thousand.advisor import ThousandAdvisor

    rules = variant(TINY_THOUSAND)
    for players, exact in ((["Anna", "Boris"], True), (["Anna", "Boris", "Vera"], False)):
        state = THOUSAND.apply(THOUSAND.new_game(rules, players), Roll((1, 5, 2, 3, 3)))
        advice = ThousandAdvisor().advise(state)
        assert advice and all(a.exact is exact for a in advice)


def test_kosti_hint_json_says_whether_it_is_exact(kosti: Any) -> None:
    sheet = {"variant": SMALL_SHEET, "dice": [6, 6, 6, 2, 1], "throws": 1}
    assert kosti("hint", "--position", json.dumps(sheet), "--json").json()["exact"] is True
    # a full «Тысяча» not solved yet: the heuristic ranks the decisions, and says it is not exact
    position = thousand_position("thousand-classic(target=2000)", (300, 100), 60, 3)
    run = kosti("hint", "--position", json.dumps(position), "--json")
    assert run.code == 0, run.err
    assert run.json()["exact"] is False and run.json()["decisions"]
