"""Every test keeps solver tables and simulator policies in a temporary cache directory,
never in the user's own cache."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kosti.cli import main


@pytest.fixture(autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """One cache directory for the whole session (solved tables are shared between tests)."""
    path = tmp_path_factory.getbasetemp() / "kosti-cache"
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(path))
    yield path


class Run:
    """What one ``kosti`` command did: its exit code, standard output and standard error."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)


@pytest.fixture
def kosti(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., Run]:
    """Run ``kosti ARGS…`` in-process, as the installed script does (``kosti.cli.main``)."""

    def run(*args: str) -> Run:
        monkeypatch.setattr(sys, "argv", ["kosti", *args])
        with pytest.raises(SystemExit) as exit_:
            main()
        out, err = capsys.readouterr()
        code = exit_.value.code
        return Run(code if isinstance(code, int) else 1, out, err)

    return run
