"""Numba for the solvers (:mod:`kosti.solver.jit`): where the machine code is cached, what is
compiled and when, and the ``compiling`` phase of a task's progress.

The kernels compiled here are tiny ones written for the test into a temporary module, so that
each test starts from code that no other test has compiled, and pays a second at most."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import Recorder

from kosti.solver import jit

TINY = """
from kosti.solver.jit import helper, kernel


@helper
def scaled(x, k):
    return x * k


@kernel("int64(int64)")
def {name}(x):
    return scaled(x, 2) + scaled(x, 3)


@kernel("int64(int64)")
def {name}_too(x):
    return scaled(x, 4)
"""


def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
    """A module of two tiny kernels named after ``name`` (and one helper), importable here and by
    a child process."""
    folder = tmp_path / "code"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(textwrap.dedent(TINY.format(name=name)))
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(folder), *sys.path]))
    return importlib.import_module(name)


def test_numba_caches_beside_the_solved_tables(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(tmp_path / "kosti"))
    assert jit.numba_cache_dir() == tmp_path / "kosti" / "numba"
    # numba's own variable, where a user set it, wins
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert jit.numba_cache_dir() == tmp_path / "mine"


def test_compiled_code_lands_in_the_cache_directory_never_beside_the_source(tmp_path: Path) -> None:
    code = tmp_path / "code"
    code.mkdir()
    (code / "fresh.py").write_text(textwrap.dedent(TINY.format(name="fresh")))
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    env["KOSTI_CACHE_DIR"] = str(tmp_path / "kosti")
    env["PYTHONPATH"] = os.pathsep.join([str(code), *sys.path])
    run = "import fresh; print(fresh.fresh(7))"
    done = subprocess.run([sys.executable, "-c", run], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "35"
    assert list((tmp_path / "kosti" / "numba").rglob("fresh.fresh-*.nbi"))
    assert not list(code.rglob("*.nbi")) and not list(code.rglob("*.nbc"))


def test_prepare_compiles_the_declared_signature_as_a_phase_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("KOSTI_THREADS", "1")  # compiled here, by no worker
    module = tiny(tmp_path, monkeypatch, "phased")
    heard = Recorder()
    (twice,) = jit.prepare(heard, [module.phased])
    assert twice(7) == 35
    assert heard.calls[0] == "compiling" and heard.calls[1][0] == 0
    assert heard.calls[-1][0] == heard.calls[-1][1] > 0
    done = [d for d, _ in heard.calls[1:]]
    assert done == sorted(done)
    # compiled in this process: no phase, no report
    again = Recorder()
    jit.prepare(again, [module.phased])
    assert again.calls == []


def test_the_compiling_bar_moves_while_numba_says_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jit, "SECONDS_PER_WEIGHT", 0.01)  # a step of 5 units should take 0.05 s
    heard = Recorder()
    clock = jit._Clock(heard, 1000)
    with clock.step(0, 500):
        time.sleep(1.0)  # it takes longer: the bar stops short of the step's end
    clock.stop()
    done = [d for d, _ in heard.calls]
    assert done and done == sorted(done) and done[-1] == 450


def test_a_cancel_heard_while_compiling_ends_the_step() -> None:
    from kosti.solver.progress import SolveCancelled

    clock = jit._Clock(lambda done, total: False, 1000)
    with pytest.raises(SolveCancelled), clock.step(0, 500):
        time.sleep(1.0)
    clock.stop()


def test_a_helper_is_compiled_once_whatever_constants_it_is_called_with(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("KOSTI_THREADS", "1")
    module = tiny(tmp_path, monkeypatch, "constants")
    jit.prepare(None, [module.constants, module.constants_too])
    # called with the constants 2, 3 and 4: one signature, (int64, int64)
    assert len(module.scaled.overloads) == 1
    with pytest.raises(TypeError, match="compiled into the kernels only"):
        module.scaled(1, 2)


LANES = """
from kosti.solver.jit import kernel


@kernel("void(float64[:, ::1], int64[::1], float64[:, ::1])", vectorize={vectorize})
def {name}(a, idx, out):
    for i in range(idx.shape[0]):
        q = idx[i]
        b0 = max(out[i, 0], a[q, 0])
        b1 = max(out[i, 1], a[q, 1])
        b2 = max(out[i, 2], a[q, 2])
        b3 = max(out[i, 3], a[q, 3])
        out[i, 0] = b0
        out[i, 1] = b1
        out[i, 2] = b2
        out[i, 3] = b3
"""


def test_a_vectorized_kernel_does_its_lanes_in_one_instruction(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import numba

    monkeypatch.setenv("KOSTI_THREADS", "1")
    folder = tmp_path / "code"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    packed = {}
    for vectorize in (True, False):
        name = f"lanes_{str(vectorize).lower()}"
        (folder / f"{name}.py").write_text(textwrap.dedent(LANES.format(name=name, vectorize=vectorize)))
        module = importlib.import_module(name)
        dispatcher = getattr(module, name)
        (compiled,) = jit.prepare(None, [dispatcher])
        a = np.arange(12.0).reshape(3, 4)
        out = np.full((2, 4), 5.0)
        compiled(a, np.array([2, 0]), out)
        assert out.tolist() == [[8.0, 9.0, 10.0, 11.0], [5.0, 5.0, 5.0, 5.0]]
        code = next(iter(dispatcher.inspect_asm().values()))
        packed[vectorize] = re.search(r"\tv?(?:max|cmp\w*)pd\b", code) is not None
    # the four maxima as packed instructions (maxpd, or a packed compare) with the SLP
    # vectorizer, as scalar ones without; numba's setting is left as it was
    assert packed == {True: True, False: False}
    assert numba.config.SLP_VECTORIZE == 0


def test_a_worker_process_compiles_a_kernel_into_the_cache(tmp_path: Path) -> None:
    """In a fresh process with empty caches: a worker compiles the sheet's (smallest) kernel into
    numba's cache, and this process then reads it from there instead of compiling it."""
    run = textwrap.dedent(
        """
        from kosti.solver import jit, kernels
        (worker,) = jit.compile_elsewhere([kernels.locate_batch])
        assert worker.process.wait(timeout=300) == 0
        jit.prepare(None, [kernels.locate_batch])
        stats = kernels.locate_batch.stats
        print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
        """
    )
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    env |= {"KOSTI_CACHE_DIR": str(tmp_path / "kosti"), "KOSTI_THREADS": "2"}
    done = subprocess.run([sys.executable, "-c", run], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "0"]


def test_no_worker_where_there_is_no_core_to_spare_or_for_other_modules(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from kosti.solver import kernels

    monkeypatch.setenv("KOSTI_THREADS", "1")
    assert jit.compile_elsewhere([kernels.locate_batch]) == []
    monkeypatch.setenv("KOSTI_THREADS", "2")
    module = tiny(tmp_path, monkeypatch, "elsewhere")
    # a worker imports the sheet's kernels only
    assert jit.compile_elsewhere([module.elsewhere]) == []


def test_the_first_hint_of_a_sheet_compiles_only_its_two_kernels(tmp_path: Path) -> None:
    """No kernel of the simulator, of announced columns or of refusals is compiled (or read from
    the cache) for a hint in a free column whose table is not solved yet (a cache of its own;
    numba's code may come from the usual cache)."""
    env = {**os.environ, "KOSTI_CACHE_DIR": str(tmp_path), "NUMBA_CACHE_DIR": str(jit.numba_cache_dir())}
    run = textwrap.dedent(
        """
        from kosti.games.sheet.game import SHEET
        from kosti.actions import Roll
        from kosti.rules.presets import variant
        from kosti.solver import SheetAdvisor, kernels
        state = SHEET.new_game(variant("yahtzee(lower=[yahtzee,chance])"), ["solo"])
        state = SHEET.apply(state, Roll((6, 6, 6, 2, 1)))
        SheetAdvisor().advise(state)
        names = ("solve_level", "solve_announced_level", "position_values_batch",
                 "announced_values_batch", "locate_batch", "play_games")
        print(" ".join(n for n in names if getattr(kernels, n).overloads))
        """
    )
    done = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, check=True, env=env)
    assert done.stdout.split() == ["solve_level", "position_values_batch"]
