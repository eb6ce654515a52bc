"""The real browser of the page tests: Debian's chromium, headless, driven by Playwright.

Both the server's page tests and the tests of play on this device launch it the same way, at
the same screen sizes; without chromium installed they are skipped, saying how to install it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def chromium_path() -> str:
    """Debian's chromium (or one on the path); skips the test where there is none."""
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    return found


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless chromium under Playwright, closed at the end (Playwright imported here: a run
    without it skips the browser tests, not the whole suite)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
