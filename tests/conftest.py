"""Every test keeps solver tables and simulator policies in a temporary cache directory,
never in the user's own cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """One cache directory for the whole session (solved tables are shared between tests)."""
    path = tmp_path_factory.getbasetemp() / "kosti-cache"
    monkeypatch.setenv("KOSTI_CACHE_DIR", str(path))
    yield path
