"""Play on this device in Debian's chromium (driven by Playwright), on a phone (390 × 844), in
Russian and in English: the exported page (``kosti web export``) on a plain static host.

Each phone visits the page once online, then plays with the network off: «Тысяча» against the
heuristic bot (to a low target), a whole hot-seat game of poker-classic, the scorekeeper with an
undo and the edit of a past throw, a game closed and opened again. The records the page gives
replay in CPython to the scores it shows. No request leaves for another origin. The budgets:
the first visit's bytes on the wire, a later visit's, and the time to the first throw of a
cached visit under a 4× CPU slowdown (written to ``test-artifacts/web-budget.json``). A new
build is picked up on the next visit, and the saved game plays on.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browsers import PHONE, chromium
from helpers import uvicorn_thread
from static_host import Served, static_host

from kosti.record import Record, replay
from kosti.show import summary
from kosti.web.site import Site, asset, build, export, page_assets

pytestmark = pytest.mark.timeout(600)

pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(os.environ.get("KOSTI_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts"))

FIRST_VISIT_BYTES = 10_000_000
FIRST_THROW_SECONDS = 5.0
BUDGET: dict[str, Any] = {}


@pytest.fixture(scope="module")
def exported(site: Site, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("site")
    export(site, directory)
    return directory


@pytest.fixture(scope="module")
def host(exported: Path) -> Iterator[tuple[str, Served]]:
    with static_host(exported) as served:
        yield served


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


class Phone:
    """One phone: a browser context of its own (its cache, service worker and IndexedDB), in one
    language, whose every request (the workers' too) is noted."""

    def __init__(self, browser: Any, base: str, served: Served, lang: str) -> None:
        self.base = base
        self.served = served
        self.lang = lang
        self.context = browser.new_context(
            locale="ru-RU" if lang == "ru" else "en-US",
            viewport=PHONE,
            reduced_motion="reduce",
            accept_downloads=True,
        )
        # the bots move at once (a player sees them at 0.6 s a move)
        self.context.add_init_script(
            f"localStorage.setItem('kosti.lang', '{lang}'); localStorage.setItem('kosti.botDelay', '0.02')"
        )
        self.requests: list[str] = []
        self.context.on("request", lambda request: self.requests.append(request.url))
        self.errors: list[str] = []
        self.page: Any = None

    def open(self, path: str = "/", throttle: float = 1.0) -> Any:
        """A new page at ``path`` (the old one closed), with the CPU slowed ``throttle`` times."""
        if self.page is not None:
            self.page.close()
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        if throttle != 1.0:
            self.context.new_cdp_session(self.page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        self.page.goto(self.base + path)
        return self.page

    def first_visit(self) -> list[tuple[str, int, int]]:
        """Visit online once: the page, the engine warmed up (its snapshot kept), everything kept by
        the service worker. What the host sent meanwhile, request by request."""
        mark = self.served.mark()
        page = self.open()
        page.wait_for_selector("body[data-engine^=ready]", timeout=240_000)
        page.wait_for_selector("body[data-offline=ready]", timeout=240_000)
        return self.served.since(mark)

    def offline(self, value: bool = True) -> None:
        self.context.set_offline(value)

    def check(self) -> None:
        """Every word from a catalog, no page error, no request to another origin."""
        page = self.page
        assert page.locator("body").get_attribute("data-missing") is None
        assert "⟦" not in page.locator("body").inner_text()
        assert not self.errors, self.errors
        assert [url for url in self.requests if not url.startswith(self.base)] == []

    def version(self) -> str:
        return str(self.page.locator("body").get_attribute("data-version") or "")

    def wait_past(self, seen: str) -> None:
        self.page.locator(f"body[data-version]:not([data-version='{seen}'])").wait_for(timeout=30_000)

    def my_turn(self) -> bool:
        return self.page.locator("body[data-my-turn=true]").count() == 1

    def status(self) -> str:
        return str(self.page.locator("body").get_attribute("data-status") or "")

    def table_id(self) -> str:
        match = re.search(r"/t/(local-[A-Za-z0-9_-]+)$", self.page.url)
        assert match, self.page.url
        return match.group(1)

    def record(self) -> dict[str, Any]:
        """The record the page gives for its table, read by the service worker from IndexedDB."""
        url = f"/api/tables/{self.table_id()}/record"
        return dict(self.page.evaluate(f"fetch('{url}').then((r) => r.json())"))

    def scores(self) -> dict[str, int]:
        """The scores shown at the end, by player, as the result card lists them."""
        rows = self.page.locator("#result .standings li")
        shown = {}
        for i in range(rows.count()):
            name = rows.nth(i).locator(".name").inner_text()
            score = rows.nth(i).locator("strong").inner_text().replace("\u2212", "-")  # a minus sign
            shown[name] = int(re.sub(r"[^\d-]", "", score))
        return shown

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def phones(browser: Any, host: tuple[str, Served]) -> Iterator[dict[str, Phone]]:
    """A phone a language, each visited once online before its first test."""
    made: dict[str, Phone] = {}
    yield made
    for phone in made.values():
        phone.close()


def phone_of(phones: dict[str, Phone], browser: Any, host: tuple[str, Served], lang: str) -> Phone:
    """The phone of ``lang``, visited once online when it is first asked for."""
    if lang not in phones:
        base, served = host
        phone = phones[lang] = Phone(browser, base, served, lang)
        sent = phone.first_visit()
        BUDGET[f"first_visit_bytes_{lang}"] = sum(size for _, _, size in sent)
        BUDGET[f"first_visit_files_{lang}"] = sorted({path for path, _, _ in sent})
        write_budget()
    return phones[lang]


# -- how a player plays (enough to finish a game, not to win it) -------------------------------------


def act(phone: Phone, click: Callable[[], None]) -> None:
    seen = phone.version()
    click()
    phone.wait_past(seen)


def sheet_move(phone: Phone) -> None:
    page = phone.page
    if page.locator("#dice .die").count() == 0:
        act(phone, lambda: page.locator("#throw").click())
    elif page.locator("button.cell").count():
        act(phone, lambda: page.locator("button.cell").first.click())
    else:  # nothing worth recording: a dash
        act(phone, lambda: page.locator(".other-moves button").first.click())


def thousand_move(phone: Phone) -> None:
    page = phone.page
    total = page.locator("#turn-total")
    points = int(re.sub(r"\D", "", total.inner_text()) or 0) if total.count() else 0
    stop = page.locator("#stop:not([disabled])")
    if stop.count() and (points >= 50 or page.locator("#dice .die").count() <= 2):
        act(phone, lambda: stop.click())
    else:
        act(phone, lambda: page.locator("#throw").click())


def play_out(phone: Phone, move: Callable[[Phone], None], moves: int = 800) -> int:
    """Play this page's seats until the game is over; the moves made."""
    made = 0
    for _ in range(moves * 4):
        if phone.status() in ("finished", "abandoned"):
            return made
        if not phone.my_turn():
            phone.page.wait_for_timeout(30)
            continue
        move(phone)
        made += 1
    raise AssertionError(f"the game did not end in {made} moves")


def start_thousand(phone: Phone, how: str, target: int | None = None) -> None:
    """A new «Тысяча» table from the home screen (``bot``, ``friend`` or ``keeper``), to ``target``."""
    page = phone.page
    page.wait_for_selector("#bot-thousand")
    if target is not None:
        page.locator("#rules-thousand summary").click()
        page.locator("#opt-thousand-barrel").select_option("none")
        page.fill("#opt-thousand-target", str(target))
    page.locator(f"#{how}-thousand").click()
    page.wait_for_url(re.compile(r"/t/local-"))


def replays_to(record: dict[str, Any], shown: dict[str, int]) -> None:
    """``record`` replays in CPython (``kosti replay``) to the scores ``shown`` (players by name)."""
    replayed = summary(replay(Record.from_json(record)))
    assert {p["name"]: p["score"] for p in replayed["players"]} == shown


# -- the tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_online_once_then_offline_thousand_against_the_heuristic_bot(
    phones: dict[str, Phone], browser: Any, host: tuple[str, Served], site: Site, lang: str
) -> None:
    phone = phone_of(phones, browser, host, lang)
    assert BUDGET[f"first_visit_bytes_{lang}"] <= FIRST_VISIT_BYTES
    # every file the page loaded is one the build names (docs/offline.md says why each is there)
    assert set(BUDGET[f"first_visit_files_{lang}"]) <= {*site_files(site), "/sw.js"}
    phone.offline()
    page = phone.open()
    page.wait_for_selector("#device")
    assert page.locator("body").get_attribute("data-where") == "device"
    start_thousand(phone, "bot", target=300)
    page.wait_for_selector("#board")
    play_out(phone, thousand_move)
    page.wait_for_selector("#result")
    phone.check()
    shown = phone.scores()
    record = phone.record()
    assert record["options"] == {"target": 300, "barrel": "none"}
    assert "fair" not in record and record["local"]["bots"]
    # the device's own dice (crypto.getRandomValues): no seeds, so no "check the dice" is offered
    assert page.locator("#fair, #verify").count() == 0
    bots = {name: name for name in record["local"]["bots"]}
    replayed = summary(replay(Record.from_json(record)))
    humans = {p["name"]: p["score"] for p in replayed["players"] if p["name"] not in bots}
    assert all(shown[name] == score for name, score in humans.items())
    assert sorted(shown.values()) == sorted(p["score"] for p in replayed["players"])
    # the result's download link gives the record kept on the phone
    with page.expect_download() as download:
        page.locator("#download").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved["turns"] == record["turns"]
    page.screenshot(path=str(artifact(f"local-thousand-{lang}-end.png")), full_page=True)
    phone.offline(False)


DEVICE_WORDS = {
    "en": {
        "title": "This device",
        "ready": "Ready to play with no signal.",
        "leave": "Resign or leave the table",
    },
    "ru": {
        "title": "Это устройство",
        "ready": "Можно играть без связи.",
        "leave": "Сдаться или выйти из-за стола",
    },
}
"""The "This device" panel's words and a local table's seat tools, as the page's catalog gives them."""


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_table_of_this_device_offers_no_invite_link_and_no_turn_timer(
    phones: dict[str, Phone], browser: Any, host: tuple[str, Served], lang: str
) -> None:
    phone = phone_of(phones, browser, host, lang)
    phone.offline()
    page = phone.open()
    page.wait_for_selector("#device")
    # the panel speaks the page's language, from the page's catalog
    assert page.locator("#device summary").inner_text() == DEVICE_WORDS[lang]["title"]
    page.locator("#device summary").click()
    page.wait_for_selector(f"#offline-status:text-is('{DEVICE_WORDS[lang]['ready']}')")
    # the new table's settings: players, bots and hints, but nobody to invite and no clock
    page.locator("#more-settings summary").click()
    assert page.locator("#seats").is_visible() and page.locator("#bot-level").is_visible()
    assert page.locator("#timer").count() == 0
    assert page.locator("input[name=visibility]").count() == 0
    page.fill("#name", "Anna")
    page.locator("#friend-sheet").click()
    page.wait_for_url(re.compile(r"/t/local-"))
    page.wait_for_selector("#join-name")  # the friend sits down at this same screen
    assert page.locator("#invite").count() == 0
    page.fill("#join-name", "Boris")
    page.locator("#join button[type=submit]").click()
    page.wait_for_selector("body[data-my-turn=true]")
    page.wait_for_selector("#board")
    assert page.locator("#clock").count() == 0
    # resigning and leaving are there, a link to this seat from another device is not
    assert page.locator("#seat-tools #resign").count() == page.locator("#seat-tools #leave").count() == 1
    assert page.locator("#seat-link").count() == 0
    assert page.locator("#seat-tools summary").inner_text() == DEVICE_WORDS[lang]["leave"]
    phone.check()
    phone.offline(False)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_whole_hot_seat_game_of_poker_classic_offline(
    phones: dict[str, Phone], browser: Any, host: tuple[str, Served], lang: str
) -> None:
    phone = phone_of(phones, browser, host, lang)
    phone.offline()
    page = phone.open()
    page.wait_for_selector("#friend-sheet")
    page.fill("#name", "Anna")
    page.locator("#friend-sheet").click()
    page.wait_for_url(re.compile(r"/t/local-"))
    page.fill("#join-name", "Boris")  # the friend sits down at the same phone
    page.locator("#join button[type=submit]").click()
    page.wait_for_selector("#board")
    page.wait_for_selector("body[data-my-turn=true]")
    assert page.locator("#emotes").count() == 0  # no quick phrases: everyone is at this one phone
    act(phone, lambda: page.locator("#throw").click())
    page.locator("#hint").click()  # the heuristic bot's advice, worked out in the browser with no NumPy
    assert page.locator("#hint-text").inner_text(timeout=30_000)
    turns = play_out(phone, sheet_move)
    assert turns >= 2 * 15 * 2 - 5
    page.wait_for_selector("#result")
    phone.check()
    shown = phone.scores()
    replays_to(phone.record(), shown)
    assert set(shown) == {"Anna", "Boris"}
    page.screenshot(path=str(artifact(f"local-poker-classic-hot-seat-{lang}-end.png")), full_page=True)
    phone.offline(False)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_scorekeeper_with_an_undo_and_an_edit_then_closed_and_opened_again_offline(
    phones: dict[str, Phone], browser: Any, host: tuple[str, Served], lang: str
) -> None:
    phone = phone_of(phones, browser, host, lang)
    phone.offline()
    page = phone.open()
    page.fill("#name", "Анна" if lang == "ru" else "Anna")
    start_thousand(phone, "keeper")
    page.fill("#join-name", "Борис" if lang == "ru" else "Boris")
    page.locator("#join button[type=submit]").click()
    page.wait_for_selector("#keeper")

    def tap(*faces: int, done: str = "#record-throw") -> None:
        for face in faces:
            page.locator(f"#pad-{face}").click()
        act(phone, lambda: page.locator(done).click())

    tap(1, 5, 2, 3, 3)
    tap(1, 1, 1)
    assert "115" in page.locator("#turn-total").inner_text()
    act(phone, lambda: page.locator("#undo").click())
    assert "15" in page.locator("#turn-total").inner_text()
    page.locator("#throws summary").click()
    page.locator("#edit-1").click()
    tap(5, 5, 2, 3, 4, done="#save-edit")
    assert re.search(r"\b10\b", page.locator("#turn-total").inner_text())
    tap(5, 2, 3)
    seen = phone.version()
    table_id = phone.table_id()
    phone.check()
    record = phone.record()
    assert record["local"]["mode"] == "scorekeeper"
    assert [a for t in record["turns"] for a in t["actions"]][:2] == [
        {"roll": [5, 5, 2, 3, 4]},
        {"roll": [5, 2, 3]},
    ]
    # the tab is closed; opened again with no signal, the game is where it was
    page.close()
    phone.page = None
    page = phone.open()
    page.wait_for_selector(f"#open-tables a[href='/t/{table_id}']")
    page.locator(f"#open-tables a[href='/t/{table_id}']").click()
    # the engine boots again in the reopened tab: on a loaded machine that is more than a default wait
    page.wait_for_selector("body[data-engine^=ready]", timeout=240_000)
    page.wait_for_selector("#keeper")
    assert phone.version() == seen
    assert re.search(r"\b15\b", page.locator("#turn-total").inner_text())  # 10, then the 5 of 5 2 3
    # reloaded at the table, the page asks for it before the engine has booted: it waits, then shows it
    page.reload()
    page.wait_for_selector("body[data-engine^=ready]", timeout=240_000)
    page.wait_for_selector("#keeper")
    assert re.search(r"\b15\b", page.locator("#turn-total").inner_text())
    phone.check()
    page.screenshot(path=str(artifact(f"local-scorekeeper-{lang}-resumed.png")), full_page=True)
    phone.offline(False)


def first_throw(phone: Phone) -> float:
    """Open the page (the CPU slowed 4×), start «Тысяча» against the bot, and wait for the first
    dice on the table (the bot's, or the player's first throw): the seconds from opening it."""
    started = time.monotonic()
    page = phone.open(throttle=4.0)
    start_thousand(phone, "bot")
    page.wait_for_selector("#board")
    for _ in range(1500):
        if page.locator("#dice .die").count():
            break
        if page.locator("body[data-my-turn=true] #throw:not([disabled])").count():
            page.locator("#throw").click()  # the player starts: their first throw
        page.wait_for_timeout(20)
    page.wait_for_selector("#dice .die")
    return time.monotonic() - started


def test_a_cached_visit_costs_nothing_on_the_wire_and_throws_within_five_seconds(
    phones: dict[str, Phone], browser: Any, host: tuple[str, Served]
) -> None:
    phone = phone_of(phones, browser, host, "ru")
    _, served = host
    mark = served.mark()
    # the better of two visits: a test machine busy with other work should not decide it
    seconds = [first_throw(phone)]
    if seconds[0] > FIRST_THROW_SECONDS:
        seconds.append(first_throw(phone))
    page = phone.page
    later = served.since(mark)
    BUDGET["first_throw_seconds_cached_4x"] = [round(s, 2) for s in seconds]
    BUDGET["engine_cached_4x"] = json.loads(page.locator("body").get_attribute("data-engine-phases") or "{}")
    BUDGET["later_visit_requests"] = later
    BUDGET["later_visit_body_bytes"] = sum(size for path, status, size in later if status != 304)
    write_budget()
    assert page.locator("body").get_attribute("data-engine") == "ready-snapshot"
    assert [(path, status) for path, status, _ in later if status != 304] == []
    assert {path for path, _, _ in later} <= {"/sw.js"}  # only the browser's check for a new build
    assert min(seconds) <= FIRST_THROW_SECONDS, (
        f"the first throw came {min(seconds):.1f} s after opening the page"
    )
    phone.check()


def test_a_new_build_is_picked_up_on_the_next_visit_and_the_saved_game_plays_on(
    phones: dict[str, Phone],
    browser: Any,
    host: tuple[str, Served],
    site: Site,
    assets_cache: None,
    tmp_path: Path,
) -> None:
    phone = phone_of(phones, browser, host, "en")
    _, served = host
    page = phone.open()
    start_thousand(phone, "bot", target=200)
    page.wait_for_selector("#board")
    for _ in range(3):
        play_out_once(phone)
    # the bots have moved, nothing is due (or, with this device's random dice, the game is over);
    # a bot's turn in the browser's engine is slow on a loaded machine
    page.wait_for_selector("body[data-my-turn=true], #result", timeout=120_000)
    table_id, seen = phone.table_id(), phone.version()
    assert page.locator("body").get_attribute("data-build") == site.build
    newer = new_build(site)
    export(newer, tmp_path / "newer")
    old_root, served.root = served.root, tmp_path / "newer"
    try:
        mark = served.mark()
        page = phone.open()  # the browser checks /sw.js: the new build installs and takes over
        took_over = f"""async () => {{
            for (let i = 0; i < 1200; i++) {{
                const kept = await caches.keys();
                if (kept.includes('kosti-{newer.build}') && !kept.includes('kosti-{site.build}')) return true;
                await new Promise((resolve) => setTimeout(resolve, 100));
            }}
            return false;
        }}"""
        assert page.evaluate(took_over)
        BUDGET["new_build_bytes"] = sum(size for _, _, size in served.since(mark))
        write_budget()
        page = phone.open(f"/t/{table_id}")  # the next visit: the new build, the game where it was
        page.wait_for_selector(f"body[data-build='{newer.build}']")
        page.wait_for_selector("#board")
        assert phone.version() == seen
        play_out(phone, thousand_move)
        page.wait_for_selector("#result")
        phone.check()
    finally:
        served.root = old_root
    # what changed was fetched, Pyodide and kosti's archive were not
    assert BUDGET["new_build_bytes"] < 1_000_000


def play_out_once(phone: Phone) -> None:
    for _ in range(200):
        if phone.status() != "playing":
            return
        if phone.my_turn():
            thousand_move(phone)
            return
        phone.page.wait_for_timeout(30)


def site_files(site: Site) -> list[str]:
    """The URLs the service worker of ``site`` keeps: every file of the build."""
    sw = site["sw.js"].data.decode()
    return list(json.loads(sw.split("const FILES = ", 1)[1].split(";\n", 1)[0]))


def artifact(name: str) -> Path:
    path = ARTIFACTS / "screens" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def write_budget() -> None:
    path = ARTIFACTS / "web-budget.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(BUDGET, indent=1, default=str), encoding="utf-8")


def new_build(site: Site) -> Site:
    """The site again with one file of the page changed: another build."""
    extra = asset("static/local/build-note.txt", f"after {site.build}".encode())
    return build(page=[*page_assets(), extra])


@contextmanager
def served_by_kosti(database: Path) -> Iterator[str]:
    """``kosti serve``'s application (online tables and the page for local play) on loopback."""
    from kosti.server.app import create_app
    from kosti.server.settings import ServerSettings

    settings = ServerSettings(database_url=f"sqlite:///{database}", bot_delay=0.02)
    with uvicorn_thread(create_app(settings)) as url:
        yield url


def test_kosti_serve_offers_the_same_play_on_this_device(
    browser: Any, assets_cache: None, tmp_path: Path
) -> None:
    pytest.importorskip("fastapi")
    with served_by_kosti(tmp_path / "kosti.sqlite3") as base:
        phone = Phone(browser, base, Served(tmp_path), "en")
        try:
            page = phone.open()
            page.wait_for_selector("body[data-where=server]")
            page.wait_for_selector("body[data-offline=ready]", timeout=240_000)
            page.locator("#device summary").click()
            page.locator("#to-device").click()  # the page plays on this device from now on
            page.wait_for_selector("body[data-where=device]")
            page.wait_for_selector("body[data-engine^=ready]", timeout=240_000)
            start_thousand(phone, "bot", target=200)
            page.wait_for_selector("#board")
            phone.offline()
            page = phone.open(f"/t/{phone.table_id()}")  # no server now: the game goes on
            page.wait_for_selector("body[data-engine^=ready]", timeout=240_000)
            page.wait_for_selector("#board")
            play_out(phone, thousand_move)
            page.wait_for_selector("#result")
            phone.check()
        finally:
            phone.close()
