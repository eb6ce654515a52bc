"""Two real browsers (Debian's chromium, driven by Playwright) play a whole game through the page.

Anna creates the table in English, Boris joins by the invite link in Russian; they play
``poker-free(lower=[chance])`` (seven cells each) by clicks and keys, and Anna reloads
her page in the middle of the game and carries on from her seat.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import fast_settings, first_legal_bots, uvicorn_thread

from kosti.record import Record
from kosti.server.app import create_app
from kosti.server.fair import verify

pytestmark = pytest.mark.timeout(300)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

sync_api = pytest.importorskip("playwright.sync_api")


def chromium_path() -> str:
    found = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if not found:
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    return found


@pytest.fixture
def base_url(sqlite_url: str) -> Iterator[str]:
    with uvicorn_thread(create_app(fast_settings(sqlite_url), bots=first_legal_bots)) as url:
        yield url


# the page's Content-Security-Policy forbids eval, so waits are selectors, not JavaScript


def version(page: Any) -> str:
    return str(page.locator("body").get_attribute("data-version") or "")


def wait_past(page: Any, seen: str) -> None:
    page.locator(f"body[data-version]:not([data-version='{seen}'])").wait_for(timeout=15_000)


def my_turn(page: Any) -> bool:
    return bool(page.locator("#throw, button.cell").count())


def test_two_browsers_play_a_whole_game_with_a_reload(base_url: str) -> None:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        errors: list[str] = []
        anna_context = browser.new_context(locale="en-US", viewport={"width": 1200, "height": 900})
        boris_context = browser.new_context(locale="ru-RU", viewport={"width": 390, "height": 844})
        anna = anna_context.new_page()
        boris = boris_context.new_page()
        for page in (anna, boris):
            page.on("pageerror", lambda error: errors.append(str(error)))

        anna.goto(base_url + "/")
        anna.select_option("#preset", "poker-free")
        anna.locator(".more summary").click()
        anna.fill("#options", "lower=[chance]")
        anna.fill("#seats", "2")
        anna.fill("#name", "Anna")
        anna.get_by_role("button", name="Create the table").click()
        anna.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        invite = anna.locator("#invite").input_value()
        assert invite == anna.url
        table_id = invite.rsplit("/", 1)[1]

        boris.goto(invite)
        boris.fill("#join-name", "<i>Boris</i>")
        boris.get_by_role("button", name="Сесть").click()
        for page in (anna, boris):
            page.wait_for_selector(".board")
        # a name is text, never markup
        assert boris.locator(".board th", has_text="<i>Boris</i>").count() == 1
        assert boris.locator(".board i").count() == 0

        reloaded = False
        anna_moves = 0
        saw_russian_turn = False
        for _ in range(120):
            if anna.locator("#result").count() and boris.locator("#result").count():
                break
            page = anna if my_turn(anna) else boris if my_turn(boris) else None
            if page is None:
                anna.wait_for_timeout(50)
                continue
            if page is boris and "Ваш ход" in boris.locator("#turn").inner_text():
                saw_russian_turn = True
            seen = version(page)
            cells = page.locator("button.cell")
            if page.locator(".die").count() == 0:
                page.keyboard.press("t")  # the first throw of the turn, by key
            elif cells.count() and page.locator("#throw").is_disabled():
                cells.first.click()
            elif page.locator("#die-0[aria-pressed=false]").count() and int(seen) % 3 == 0:
                page.locator("#die-0").click()  # keep one die and throw the rest
                assert page.locator("#die-0").get_attribute("aria-pressed") == "true"
                page.locator("#throw").click()
            else:
                cells.first.click()
            wait_past(page, seen)
            if page is anna:
                anna_moves += 1
            if anna_moves == 6 and not reloaded:
                anna.reload()
                anna.wait_for_selector(".board")
                reloaded = True
        assert reloaded
        assert saw_russian_turn
        for page in (anna, boris):
            page.wait_for_selector("#result")

        record = Record.from_json(httpx.get(f"{base_url}/api/tables/{table_id}/record").json())
        verdict = verify(record)
        assert verdict.fair, verdict.reason
        assert anna.locator("#server-seed").text_content() == record.extra["fair"]["server_seed"]
        totals = boris.locator("#result li").all_inner_texts()
        assert totals == anna.locator("#result li").all_inner_texts()
        assert len(totals) == 2
        assert anna.locator("#announcer").inner_text()  # screen readers heard the last change
        assert not errors
        browser.close()
