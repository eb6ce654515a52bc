"""Fixtures of every test: solver tables and simulator policies go to a temporary cache
directory, never the user's own; ``kosti`` runs the command line in-process (:mod:`helpers`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import Run, run_kosti


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
