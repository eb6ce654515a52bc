"""What the tests of play on this device share: the pinned files of the page (Pyodide, Babel,
pytrovich) in the user's real cache, and the site built from them.

The root conftest points ``KOSTI_CACHE_DIR`` at a temporary directory for every test; the page's
files are tens of megabytes fetched from the registries, so these tests keep them where
``kosti web fetch`` keeps them (``scripts/test`` fetches them first) and fetch them there on
first use. Only when the registries cannot be reached are the tests that need them skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from kosti.errors import KostiError
from kosti.web.pins import PINS, fetch
from kosti.web.site import Site, build

REAL_CACHE = os.environ.get("KOSTI_CACHE_DIR")
"""The cache directory of the run (read on import, before the root conftest changes it)."""


@contextmanager
def real_cache() -> Iterator[None]:
    """``KOSTI_CACHE_DIR`` as the run had it, for the time of the block."""
    with pytest.MonkeyPatch.context() as patch:
        if REAL_CACHE is None:
            patch.delenv("KOSTI_CACHE_DIR", raising=False)
        else:
            patch.setenv("KOSTI_CACHE_DIR", REAL_CACHE)
        yield


@pytest.fixture(scope="session")
def web_assets() -> None:
    """The pinned files in the real cache, fetched on first use (a skip where no registry answers)."""
    with real_cache():
        try:
            for pin in PINS:
                fetch(pin)
        except KostiError as error:
            pytest.skip(f"the page's pinned files cannot be fetched ({error}); run `kosti web fetch` online")


@pytest.fixture
def assets_cache(web_assets: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """This test reads the pinned files from the real cache."""
    if REAL_CACHE is None:
        monkeypatch.delenv("KOSTI_CACHE_DIR", raising=False)
    else:
        monkeypatch.setenv("KOSTI_CACHE_DIR", REAL_CACHE)


@pytest.fixture(scope="session")
def site(web_assets: None) -> Site:
    """One build of the page for local play, for the whole run."""
    with real_cache():
        return build()
