"""Fixtures of every test: solver tables and simulator policies go to a temporary cache
directory, never the user's own; ``kosti`` runs the command line in-process (:mod:`helpers`).

Hypothesis runs under the ``ci`` profile when ``HYPOTHESIS_PROFILE=ci`` or ``CI`` is set: the
examples are derived from each test's name (``derandomize``), so a failure in CI comes back
the same on every run and on every machine. Elsewhere it explores new examples each run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import Run, run_kosti
from hypothesis import settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,  # nothing saved from earlier runs changes what is tried
    deadline=None,
    print_blob=True,
)
settings.register_profile("dev", derandomize=False, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev"))


@pytest.fixture(autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """One cache directory for the whole session (solved tables are shared between tests)."""
    path = tmp_path_factory.getbasetemp() / "kosti-cache"
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(path))
    yield path


@pytest.fixture
def kosti(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    """Run ``kosti ARGS…`` in-process, as the installed script does (``kosti.cli.main``)."""

    def run(*args: str) -> Run:
        return run_kosti(capsys, monkeypatch, *args)

    return run


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refusals and hints are worded in the locale's language unless --lang says: every test
    starts from no locale (English), and a test that wants one sets it."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
