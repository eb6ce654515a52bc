"""The page in Debian's chromium (driven by Playwright), as players use it, on a phone
(390 × 844) and on a desktop (1280 × 800), in Russian and in English.

Whole games of each family (two browsers against each other, or one against a bot),
a reload in the middle, a turn that runs out of time, a rematch, the scorekeeper's
pad with undo and the edit of a past throw, and the layout of six players at 390 px.
Every page is checked for words missing from its catalog. Screenshots are kept as
test artifacts in ``test-artifacts/screens`` (``KOSTI_ARTIFACTS`` to put them elsewhere).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsers import DESKTOP, PHONE, chromium
from server_helpers import fast_settings, uvicorn_thread
from websockets.sync.client import connect

from kosti import roller
from kosti.errors import Refusal
from kosti.i18n import catalog, refusal_text
from kosti.record import Record
from kosti.roller import FairDice, fair_die
from kosti.server.app import create_app
from kosti.server.fair import rolloff, verify
from kosti.server.hub import installed_bots

pytestmark = pytest.mark.timeout(300)

pytest.importorskip("playwright.sync_api")

STATIC = Path(__file__).parents[2] / "src" / "kosti" / "server" / "static"
ARTIFACTS = Path(os.environ.get("KOSTI_ARTIFACTS", Path(__file__).parents[2] / "test-artifacts")) / "screens"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = f"sqlite:///{tmp_path_factory.mktemp('page') / 'kosti.sqlite3'}"
    # kosti's own bots, whose levels and names the catalogs know; the random one is instant
    levels = {"bot_levels": ("random",), "hint_levels": ("heuristic",), "stand_in": "random"}
    settings = fast_settings(database, min_timer=1, bot_delay=0.02, **levels)
    with uvicorn_thread(create_app(settings, bots=installed_bots)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


class Player:
    """One person's browser: a context of its own (language, screen), one page, its errors."""

    def __init__(self, browser: Any, lang: str, viewport: dict[str, int], name: str) -> None:
        self.context = browser.new_context(
            locale="ru-RU" if lang == "ru" else "en-US", viewport=viewport, reduced_motion="reduce"
        )
        self.context.add_init_script(f"localStorage.setItem('kosti.lang', '{lang}')")
        self.page = self.context.new_page()
        self.name = name
        self.lang = lang
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def sit(self, table_id: str, seat: int, token: str) -> None:
        """Hold the seat's token as the page keeps it, so that its pages open at the table seated."""
        seats = json.dumps({seat: token})
        self.context.add_init_script(f"localStorage.setItem('kosti.seats.{table_id}', '{seats}')")

    def version(self) -> str:
        return str(self.page.locator("body").get_attribute("data-version") or "")

    def wait_past(self, seen: str) -> None:
        self.page.locator(f"body[data-version]:not([data-version='{seen}'])").wait_for(timeout=15_000)

    def my_turn(self) -> bool:
        return self.page.locator("body[data-my-turn=true]").count() == 1

    def status(self) -> str:
        return str(self.page.locator("body").get_attribute("data-status") or "")

    def check_words(self) -> None:
        """Every visible word comes from a catalog: none is missing, no page error happened."""
        assert self.page.locator("body").get_attribute("data-missing") is None
        assert "⟦" not in self.page.locator("body").inner_text()
        assert not self.errors

    def shot(self, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def no_sideways_scroll(self) -> None:
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= self.page.viewport_size["width"], f"the page is {width} px wide"

    def close(self) -> None:
        self.context.close()


FAMILY = {
    "poker-classic": "sheet",
    "poker-free": "sheet",
    "poker-fences": "sheet",
    "thousand-classic": "thousand",
    "poker-showdown": "showdown",
}


def create(
    player: Player,
    preset: str,
    seats: int,
    *,
    options: dict[str, Any] | None = None,
    mode: str = "online",
    timer: int = 0,
) -> str:
    """Create a table from the home screen (play a friend, or keep the score of real dice), its
    rules changed with the controls, and sit down at it; the table's id."""
    page = player.page
    family = FAMILY[preset]
    page.goto(BASE[0] + "/")
    page.wait_for_selector(f"#friend-{family}")
    page.fill("#name", player.name)
    if seats != 2 or timer:
        page.locator("#more-settings summary").click()
        page.fill("#seats", str(seats))
        if timer:
            page.select_option("#timer", str(timer))
    if options or page.locator(f"#preset-{family}").input_value() != preset:
        page.locator(f"#rules-{family} summary").click()
        page.select_option(f"#preset-{family}", preset)
        page.wait_for_selector(f"#options-{family}[data-preset='{preset}']")
        for name, value in (options or {}).items():
            control = f"#opt-{family}-{name}"
            if isinstance(value, list):  # a set of cells: the boxes of those alone ticked
                boxes = page.locator(f"input[id^=opt-{family}-{name}-]")
                for i in range(boxes.count()):
                    box = boxes.nth(i)
                    wanted = box.get_attribute("id").rsplit("-", 1)[1] in value  # type: ignore[union-attr]
                    box.set_checked(wanted)
            elif isinstance(value, bool):
                page.locator(control).set_checked(value)
            elif page.locator(control).evaluate("e => e.tagName") == "SELECT":
                page.select_option(control, str(value))
            else:
                page.fill(control, str(value))
    page.locator(f"#{'keeper' if mode == 'scorekeeper' else 'friend'}-{family}").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#invite, #board, #join")
    return page.url.rsplit("/", 1)[1]


def add_bot(player: Player) -> None:
    seen = player.version()
    player.page.locator("button[id^=add-bot-]").first.click()
    player.wait_past(seen)


def join(player: Player, url: str) -> None:
    player.page.goto(url)
    player.page.fill("#join-name", player.name)
    player.page.locator("#join button[type=submit]").click()


BASE: list[str] = []


@pytest.fixture(autouse=True)
def _base(base_url: str) -> Iterator[None]:
    BASE[:] = [base_url]
    yield


# -- how a player plays each family (enough to finish a game, not to win it) ---------------------


def sheet_move(player: Player) -> None:
    page = player.page
    assert page.locator("#stop").count() == 0  # a score sheet has no stop key
    if page.locator("#dice .die").count() == 0:
        page.locator("#throw").click()
    elif page.locator("button.cell").count():
        page.locator("button.cell").first.click()
    else:  # nothing worth recording: scratch or take a dash
        page.locator(".other-moves button").first.click()


def thousand_move(player: Player) -> None:
    page = player.page
    total = page.locator("#turn-total")
    points = int(re.sub(r"\D", "", total.inner_text()) or 0) if total.count() else 0
    stop = page.locator("#stop:not([disabled])")
    if stop.count() and (points >= 50 or page.locator("#dice .die").count() <= 2):
        stop.click()
    else:
        page.locator("#throw").click()


def showdown_move(player: Player) -> None:
    page = player.page
    if page.locator("#dice .die").count() == 0:
        page.locator("#throw").click()
    else:
        page.locator("#stop").click()


def play_out(
    players: list[Player],
    move: Callable[[Player], None],
    moves: int = 600,
    every: Callable[[int], None] | None = None,
) -> int:
    """Play until the game is over, each player moving on their turn; the moves made."""
    made = 0
    for _ in range(moves * 4):
        if all(p.status() in ("finished", "abandoned") for p in players):
            return made
        mover = next((p for p in players if p.my_turn()), None)
        if mover is None:
            players[0].page.wait_for_timeout(30)
            continue
        seen = mover.version()
        move(mover)
        mover.wait_past(seen)
        made += 1
        if every is not None:
            every(made)
    raise AssertionError(f"the game did not end in {made} moves")


def record_of(table_id: str) -> Record:
    return Record.from_json(httpx.get(f"{BASE[0]}/api/tables/{table_id}/record").json())


# -- whole games -------------------------------------------------------------------------------


def test_poker_classic_two_browsers_with_a_reload(browser: Any) -> None:
    anna = Player(browser, "en", DESKTOP, "Anna")
    boris = Player(browser, "ru", PHONE, "Борис")
    table_id = create(anna, "poker-classic", 2)
    join(boris, anna.page.locator("#invite").input_value())
    for p in (anna, boris):
        p.page.wait_for_selector("#board")
    # each seat can be taken to another device (a table of this device has no such link)
    for p, words in ((anna, "Your seat on another device"), (boris, "Ваше место на другом устройстве")):
        assert p.page.locator("#seat-tools summary").inner_text() == words
        assert f"/t/{table_id}#seat=" in p.page.locator("#seat-link").input_value()
    reloaded: list[bool] = []

    def reload_once(made: int) -> None:
        if made == 21 and not reloaded:
            anna.page.reload()
            anna.page.wait_for_selector("#board")
            reloaded.append(True)
            anna.shot("poker-classic-desktop-en-midgame")
            boris.shot("poker-classic-phone-ru-midgame")

    play_out([anna, boris], sheet_move, every=reload_once)
    assert reloaded
    for p in (anna, boris):
        p.page.wait_for_selector("#result")
        p.check_words()
    anna.shot("poker-classic-desktop-en-end")
    boris.shot("poker-classic-phone-ru-end")
    assert (
        "Победа" in boris.page.locator("#result").inner_text()
        or "Единственного" in boris.page.locator("#result").inner_text()
    )
    verdict = verify(record_of(table_id))
    assert verdict.fair, verdict.reason
    assert (
        anna.page.locator("#server-seed").text_content() == record_of(table_id).extra["fair"]["server_seed"]
    )
    # the dice checked on the page: the seed against the commitment this browser saw, every die
    # replayed by the server
    for p, fair in ((anna, "Fair dice."), (boris, "Кости честные.")):
        p.page.locator("#fair > summary").click()
        p.page.locator("#verify").click()
        p.page.locator("#verdict").wait_for()
        assert p.page.locator("#verdict").inner_text() == fair
        assert "fingerprint promised" in p.page.locator("#verify-result").inner_text() or p is boris
    anna.close()
    boris.close()


def test_thousand_on_a_phone_against_a_bot(browser: Any) -> None:
    anna = Player(browser, "ru", PHONE, "Анна")
    table_id = create(anna, "thousand-classic", 2)
    add_bot(anna)
    anna.page.wait_for_selector("#board .lane")
    assert anna.page.locator(".lane").count() == 2
    assert "Путь к 1000" in anna.page.locator("#board").inner_text()
    shots: list[bool] = []

    def midgame(made: int) -> None:
        if not shots and anna.page.locator("#aside .group").count():
            anna.shot("thousand-classic-phone-ru-midgame")
            shots.append(True)

    play_out([anna], thousand_move, every=midgame)
    anna.page.wait_for_selector("#result")
    anna.check_words()
    anna.no_sideways_scroll()
    anna.shot("thousand-classic-phone-ru-end")
    record = record_of(table_id)
    assert verify(record).fair
    # the log says why scores changed, in Russian
    log = anna.page.locator("#log").inner_text()
    assert "записывает" in log or "набирает" in log
    anna.close()


def test_showdown_on_a_desktop_against_a_bot(browser: Any) -> None:
    anna = Player(browser, "en", DESKTOP, "Anna")
    table_id = create(anna, "poker-showdown", 2)
    add_bot(anna)
    anna.page.wait_for_selector("#board .hand-row")
    anna.page.wait_for_selector("body[data-my-turn=true]")
    seen = anna.version()
    anna.page.locator("#throw").click()
    anna.wait_past(seen)
    # the hint in the words and values of the terminal game (kosti.phrases.hint_text)
    anna.page.locator("#hint").click()
    hint = anna.page.locator("#hint-text")
    hint.wait_for()
    assert re.search(r"Best: .+ \(chance ≈ \d+%\)", hint.inner_text())
    # and what the number is, said plainly, and that it is an estimate
    assert "chance that your hand takes the bank" in hint.inner_text()
    assert "not an exact calculation" in hint.inner_text()
    play_out([anna], showdown_move)
    anna.page.wait_for_selector("#result")
    anna.check_words()
    anna.shot("poker-showdown-desktop-en-end")
    record = record_of(table_id)
    assert len(record.turns) >= 20  # ten rounds of two
    assert verify(record).fair
    anna.close()


# -- six players on a phone ----------------------------------------------------------------------


def seated_with_bots(preset: str, players: int) -> tuple[str, int, str]:
    """A table of ``preset`` with one person (Анна) and bots in the other seats, started."""
    base = BASE[0]
    table_id = httpx.post(f"{base}/api/tables", json={"variant": preset, "seats": players}).json()["id"]
    me = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": "Анна", "client_seed": "abc"}).json()
    for _ in range(players - 1):
        httpx.post(f"{base}/api/tables/{table_id}/bots", json={"level": "random", "token": me["token"]})
    return table_id, me["seat"], me["token"]


def shown_names(table_id: str, lang: str) -> dict[str, str]:
    """The name each player of a table is shown by to a reader of ``lang``, by the record's name."""
    with connect(f"{BASE[0].replace('http', 'ws', 1)}/ws/{table_id}?lang={lang}") as socket:
        seats = json.loads(socket.recv())["table"]["seats"]
    return {seat["name"]: seat["shown"] for seat in seats if seat["name"]}


def english_only_words() -> list[str]:
    """Words of the page's English catalog that its Russian one says otherwise (long enough to tell)."""
    source = (STATIC / "i18n.js").read_text(encoding="utf-8")
    blocks = {
        lang: re.search(rf"const {lang} = \{{(.*?)\n\}};", source, re.S).group(1) for lang in ("EN", "RU")
    }  # type: ignore[union-attr]
    texts = {lang: re.findall(r'"([^"{}]{6,})"', block) for lang, block in blocks.items()}
    return [text for text in texts["EN"] if text not in texts["RU"] and re.search("[a-z]{4}", text)]


@pytest.mark.parametrize("preset", ["poker-classic", "poker-fences", "thousand-classic", "poker-showdown"])
def test_six_players_fit_a_phone_in_both_languages(browser: Any, preset: str) -> None:
    table_id, seat, token = seated_with_bots(preset, 6)
    english = english_only_words()
    for lang in ("ru", "en"):
        player = Player(browser, lang, PHONE, "Анна")
        player.sit(table_id, seat, token)
        player.page.goto(f"{BASE[0]}/t/{table_id}")
        player.page.wait_for_selector("#board")
        player.page.wait_for_selector("body[data-my-turn=true]")
        if player.page.locator("#throw:not([disabled])").count():
            seen = player.version()
            player.page.locator("#throw").click()  # dice on the table for the picture
            player.wait_past(seen)
        player.page.locator("#rules > summary").click()
        player.page.wait_for_selector("#table-rules p")
        player.page.locator("#all-options > summary").click()
        player.page.wait_for_selector("#rules dl")
        player.no_sideways_scroll()
        player.check_words()
        if lang == "ru":
            shown = player.page.locator("body").inner_text()
            assert [w for w in english if w in shown] == []
            player.shot(f"{preset}-phone-ru-6-players")
        else:
            player.shot(f"{preset}-phone-en-6-players")
        player.close()


# -- a table's life --------------------------------------------------------------------------------


def test_a_turn_runs_out_and_the_player_takes_the_seat_back(browser: Any) -> None:
    base = BASE[0]
    # the lobby offers half a minute and more; a test has no half a minute to spare
    created = httpx.post(f"{base}/api/tables", json={"variant": "poker-classic", "seats": 2, "timer": 2})
    table_id = created.json()["id"]
    anna = Player(browser, "ru", PHONE, "Анна")
    boris = Player(browser, "en", DESKTOP, "Boris")
    join(anna, f"{base}/t/{table_id}")
    anna.page.wait_for_selector(".seats .tag")
    join(boris, f"{base}/t/{table_id}")
    for p in (anna, boris):
        p.page.wait_for_selector("#board")
    mover = anna if anna.my_turn() else boris
    other = boris if mover is anna else anna
    assert mover.page.locator("#clock").count() == 1
    # the time left is a bar that empties, not only a number
    first = mover.page.locator("#clock-bar").evaluate("e => e.getBoundingClientRect().width")
    mover.page.wait_for_timeout(600)
    assert mover.page.locator("#clock-bar").evaluate("e => e.getBoundingClientRect().width") < first
    assert mover.page.locator("#clock[role=timer]").count() == 1
    mover.page.wait_for_selector("#take-back", timeout=10_000)
    assert other.page.locator(".notice").count() >= 1
    mover.shot(f"timeout-{mover.lang}")
    mover.page.locator("#take-back").click()
    mover.page.wait_for_selector("#take-back", state="detached")
    mover.check_words()
    other.check_words()
    anna.close()
    boris.close()


def test_a_rematch_with_the_same_seats(browser: Any) -> None:
    anna = Player(browser, "en", DESKTOP, "Anna")
    boris = Player(browser, "ru", PHONE, "Борис")
    first_id = create(anna, "poker-showdown", 3, options={"rounds": 1})
    join(boris, anna.page.locator("#invite").input_value())
    boris.page.wait_for_selector(".seats")
    add_bot(anna)
    play_out([anna, boris], showdown_move)
    # one tap each: the rematch is made and its maker sits down; the other goes and sits down
    anna.page.locator("#rematch").click()
    anna.page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    # Boris's seat is kept for him, and says so (not «Борис empty»)
    kept = anna.page.locator(".seats li", has_text="Борис")
    kept.wait_for()
    assert "seat kept" in kept.inner_text() and "empty" not in kept.inner_text()
    boris.page.locator("#to-rematch").click()
    for p in (anna, boris):
        p.page.wait_for_selector("#board")
        assert p.page.locator("#rejoin").count() == 0
    second_id = anna.page.url.rsplit("/", 1)[1]
    assert second_id != first_id
    assert boris.page.url.endswith(second_id)
    old = httpx.get(f"{BASE[0]}/api/tables/{first_id}").json()["table"]
    new = httpx.get(f"{BASE[0]}/api/tables/{second_id}").json()["table"]
    assert [s["name"] for s in new["seats"]] == [s["name"] for s in old["seats"]]
    play_out([anna, boris], showdown_move)
    anna.check_words()
    boris.check_words()
    boris.shot("rematch-phone-ru-end")
    anna.close()
    boris.close()


def faces_on(page: Any) -> list[int]:
    """The faces of the dice on the table, sorted."""
    return sorted(
        int(face) for face in page.locator("#dice .die").evaluate_all("ds => ds.map(d => d.dataset.face)")
    )


def tap(page: Any, faces: list[int]) -> None:
    for face in faces:
        page.locator(f"#pad-{face}").click()


def test_the_scorekeeper_taps_in_throws_undoes_and_edits(browser: Any) -> None:
    anna = Player(browser, "ru", PHONE, "Анна")
    create(anna, "poker-free", 1, options={"lower": ["chance"]}, mode="scorekeeper")
    page = anna.page
    page.wait_for_selector("#keeper")
    seen = anna.version()
    tap(page, [6, 6, 3, 4, 5])
    assert page.locator("#entered .face").count() == 5
    page.locator("#record-throw").click()
    anna.wait_past(seen)
    # keep the sixes and tap in the three thrown again: one move
    page.locator("#dice .die[data-face='6']").nth(0).click()
    page.locator("#dice .die[data-face='6']").nth(1).click()
    tap(page, [1, 2, 3])
    seen = anna.version()
    page.locator("#record-throw").click()
    anna.wait_past(seen)
    assert faces_on(page) == [1, 2, 3, 6, 6]
    anna.shot("scorekeeper-phone-ru")
    # throw 1 cannot have been without sixes: the sixes were kept from it
    page.locator(".throws summary").click()
    page.locator("#edit-1").click()
    tap(page, [1, 1, 1, 1, 1])
    page.locator("#save-edit").click()
    page.wait_for_selector("#alert:not([hidden])")
    assert "следующий ход ему уже не подходит" in page.locator("#alert").inner_text()
    assert faces_on(page) == [1, 2, 3, 6, 6]
    # throw 2 was three sixes after all (the list of throws stays open)
    page.locator("#edit-2").click()
    tap(page, [6, 6, 6])
    seen = anna.version()
    page.locator("#save-edit").click()
    anna.wait_past(seen)
    assert faces_on(page) == [6] * 5
    # the log tells the throw as it is now, not as it was typed first
    log = page.locator("#log").inner_text()
    assert "Анна бросает: 6 6 6" in log and "Анна бросает: 1 2 3" not in log
    seen = anna.version()
    page.locator("#undo").click()
    anna.wait_past(seen)
    assert faces_on(page) == [3, 4, 5, 6, 6]
    # and on to the end of the game: a throw and a cell a turn
    for _ in range(20):
        if anna.status() == "finished":
            break
        if page.locator("#record-throw").count() and page.locator("#dice .die").count() == 0:
            tap(page, [5, 5, 5, 5, 5])
            button = page.locator("#record-throw")
        else:
            button = page.locator("button.cell").first
        seen = anna.version()
        button.click()
        anna.wait_past(seen)
    page.wait_for_selector("#result")
    # a win of one's own is celebrated
    assert "Вы победили!" in page.locator("#celebrate").inner_text()
    anna.shot("scorekeeper-won-phone-ru")
    anna.check_words()
    anna.close()


# -- the socket rules: a seated page says hello, a watching page pings ---------------------


@pytest.fixture
def strict_url(tmp_path: Path) -> Iterator[str]:
    """A server whose tables take no spectator beyond the first, and close one silent for 2 s."""
    database = f"sqlite:///{tmp_path / 'kosti.sqlite3'}"
    levels = {"bot_levels": ("random",), "hint_levels": ("heuristic",), "stand_in": "random"}
    settings = fast_settings(database, spectators=1, hello_timeout=2.0, idle_timeout=2.0, **levels)
    with uvicorn_thread(create_app(settings, bots=installed_bots)) as url:
        BASE[:] = [url]
        yield url


def test_a_seated_page_gets_in_at_a_crowded_table_and_a_watching_page_stays(
    browser: Any, strict_url: str
) -> None:
    anna = Player(browser, "en", DESKTOP, "Anna")
    watcher = Player(browser, "en", DESKTOP, "Vera")
    sockets: list[Any] = []
    watcher.page.on("websocket", lambda socket: sockets.append(socket))
    try:
        table_id = create(anna, "poker-classic", 2)
        watcher.page.goto(f"{strict_url}/t/{table_id}")
        watcher.page.wait_for_selector("#invite, #join")
        # the one spectator's place is taken: Anna's new socket gets in only by saying hello
        seen = anna.version()
        anna.page.reload()
        anna.page.wait_for_selector("#invite")
        # the watcher's page pings: it is not closed as silent (after 2 s), and follows the table
        anna.page.wait_for_timeout(4_000)
        watched = watcher.version()
        token = anna.page.evaluate(
            f"() => Object.values(JSON.parse(localStorage.getItem('kosti.seats.{table_id}')))[0]"
        )
        bot = {"level": "random", "token": token}
        assert httpx.post(f"{strict_url}/api/tables/{table_id}/bots", json=bot).is_success
        anna.wait_past(seen)
        watcher.wait_past(watched)
        assert anna.status() == watcher.status() == "playing"
        assert len(sockets) == 1
        anna.check_words()
    finally:
        anna.close()
        watcher.close()


# -- the page teaches the game and leaves nobody guessing ----------------------------------------


def test_the_home_screen_plays_a_bot_in_one_tap_on_a_phone(browser: Any) -> None:
    anna = Player(browser, "ru", PHONE, "Аня")
    page = anna.page
    page.goto(BASE[0] + "/")
    page.wait_for_selector("#bot-thousand")
    # every family's two ways to play are on the first screen of a phone, no form to fill
    for family in ("thousand", "sheet", "showdown"):
        for how in ("bot", "friend"):
            box = page.locator(f"#{how}-{family}").bounding_box()
            assert box is not None and box["y"] + box["height"] <= PHONE["height"], (family, how, box)
    assert page.locator("#options").count() == 0  # no name=value text to type
    anna.shot("home-phone-ru")
    page.fill("#name", "Аня")
    page.locator("#bot-thousand").click()
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#board .lane")
    # seated at once against a bot named as the page names its bots, nothing asked of her
    assert page.locator(".lane").count() == 2
    assert page.locator("#join").count() == 0
    names = page.locator(".lane .name").all_inner_texts()
    assert names[0] == "Аня" or names[1] == "Аня"
    assert "Везунчик" in names  # the only bot of its level: no seat number to puzzle over
    page.wait_for_selector("body[data-my-turn=true]")
    # the tab says whose turn it is, and its icon wears a badge
    assert page.title().startswith("● Ваш ход")
    assert (page.locator("#favicon").get_attribute("href") or "").startswith("data:image/svg+xml")
    # the keys are for a keyboard: a phone shows none
    assert page.locator(".keys").count() == 0 or not page.locator(".keys").is_visible()
    # a chime and a buzz on one's turn are there to turn on, and off until then
    page.locator("#alerts > summary").click()
    assert not page.locator("#alert-sound").is_checked()
    assert not page.locator("#alert-vibrate").is_checked()
    # the bolt and fall marks are named on the board
    legend = page.locator("#marks-legend").inner_text()
    assert "болт" in legend and "падение" in legend
    # the rules: this table's own in sentences, every option worded and explained
    page.locator("#rules > summary").click()
    page.wait_for_selector("#table-rules p")
    rules = page.locator("#table-rules").inner_text()
    for words in ("Ямы", "Бочка", "Обгон", "Самосвал", "Болты", "Открытие"):
        assert words in rules, words
    page.locator("#all-options summary").click()
    assert catalog("ru")("option_doc.barrel") in page.locator("#option-barrel").inner_text()
    assert "бочка по очкам" in page.locator("#option-barrel").inner_text()
    anna.no_sideways_scroll()
    anna.check_words()
    anna.shot("thousand-bot-phone-ru-start")
    anna.close()


def test_a_table_made_for_a_friend_seats_its_maker_and_shows_the_invite(browser: Any) -> None:
    anna = Player(browser, "en", PHONE, "Anna")
    create(anna, "thousand-classic", 2, options={"barrel": "none", "dump_at": ""})
    page = anna.page
    page.wait_for_selector("#invite")
    assert page.locator("#join").count() == 0  # no "take a seat" form at her own table
    assert "you" in page.locator(".seats").inner_text()
    table_id = page.url.rsplit("/", 1)[1]
    options = httpx.get(f"{BASE[0]}/api/tables/{table_id}").json()["table"]["options"]
    assert options == {"barrel": "none", "dump_at": None}
    anna.check_words()
    anna.no_sideways_scroll()
    anna.shot("friend-waiting-phone-en")
    anna.close()


def test_a_bust_lands_and_shows_its_loss_and_a_refused_stop_says_why(browser: Any) -> None:
    """Two players on one phone keep the score of real dice: the page says whose turn it is, a
    «хватит» refused below the opening is greyed with the server's reason, and a throw that scores
    nothing lands with what it cost, also on a watching page, which keeps it in sight a moment
    even when the next throw comes at once."""
    anna = Player(browser, "ru", PHONE, "Анна")
    table_id = create(anna, "thousand-classic", 2, mode="scorekeeper")
    page = anna.page
    page.wait_for_selector("#join")
    assert "Ещё игрок" in page.locator("#join").inner_text()
    page.fill("#join-name", "Борис")
    page.locator("#join button[type=submit]").click()
    page.wait_for_selector("#keeper")
    watcher = Player(browser, "ru", PHONE, "Вера")
    watcher.page.goto(f"{BASE[0]}/t/{table_id}")
    watcher.page.wait_for_selector("#board")
    # two seats on one phone: «Ваш ход» would say nothing
    assert page.locator("#turn").inner_text() == "Ход: Анна"
    seen = anna.version()
    tap(page, [1, 5, 3, 3, 4])
    page.locator("#record-throw").click()
    anna.wait_past(seen)
    stop = page.locator("#stop")
    assert stop.is_disabled()
    state = httpx.get(f"{BASE[0]}/api/tables/{table_id}").json()["table"]["game"]["turn_view"]
    refusal = state["stop"]["refusal"]
    why = refusal_text(Refusal(refusal["code"], **refusal["params"]), "ru")
    assert why in page.locator("#stop-why").inner_text()
    anna.shot("keeper-stop-refused-phone-ru")
    seen = anna.version()
    tap(page, [2, 3, 4])
    page.locator("#record-throw").click()
    anna.wait_past(seen)
    landed = page.locator("#landed")
    landed.wait_for()
    assert "сгорело 15" in landed.locator("#landed-title").inner_text()
    faces = landed.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.face)")
    assert sorted(int(f) for f in faces) == [2, 3, 4]
    assert page.locator("#turn").inner_text() == "Ход: Борис"
    anna.shot("keeper-bust-phone-ru")
    # Boris throws at once: the watcher still sees Anna's dice land before his
    watched = watcher.version()
    tap(page, [1, 2, 2, 3, 4])
    page.locator("#record-throw").click()
    for _ in range(200):  # the watcher hears of Boris's throw (the page's CSP forbids eval'd waits)
        if int(watcher.version()) > int(watched):
            break
        watcher.page.wait_for_timeout(10)
    assert int(watcher.version()) > int(watched)
    assert watcher.page.locator("#landed.fresh").count() == 1
    assert watcher.page.locator("#dice .die").count() == 0
    watcher.shot("watcher-bust-phone-ru")
    watcher.page.wait_for_selector("#landed", state="detached", timeout=10_000)
    assert watcher.page.locator("#dice .die").count() == 4  # the 1 set aside, four to throw on
    for p in (anna, watcher):
        p.check_words()
        p.no_sideways_scroll()
    anna.close()
    watcher.close()


def test_a_score_sheet_explains_its_marks_and_counts_the_throws_left(browser: Any) -> None:
    anna = Player(browser, "ru", PHONE, "Анна")
    create(anna, "poker-free", 1, mode="scorekeeper")
    page = anna.page
    page.wait_for_selector("#keeper")
    seen = anna.version()
    tap(page, [3, 3, 3, 1, 2])
    page.locator("#record-throw").click()
    anna.wait_past(seen)
    assert "осталось 2 броска" in page.locator("#throws-left").inner_text()
    # a cell named as the object of «записать»: «тройку», not «тройка» (poker-free: the sum of all five)
    label = page.locator("#cell-three_of_a_kind").get_attribute("aria-label")
    assert label == "Записать тройку: +12"
    legend = page.locator("#sheet-legend").inner_text()
    assert "— (прочерк): комбинация записана без неё" in legend
    anna.check_words()
    anna.close()
    boris = Player(browser, "ru", PHONE, "Борис")
    create(boris, "poker-classic", 1, mode="scorekeeper")
    boris.page.locator("#sheet-legend li", has_text="Сначала школа").wait_for()  # once the rules have come
    legend = boris.page.locator("#sheet-legend").inner_text()
    assert "✓ — ровно три кости" in legend and "Сначала школа" in legend
    boris.close()


def test_poker_fences_names_every_player_whole_and_explains_its_columns(browser: Any) -> None:
    table_id, seat, token = seated_with_bots("poker-fences", 3)
    player = Player(browser, "ru", PHONE, "Анна")
    player.sit(table_id, seat, token)
    page = player.page
    page.goto(f"{BASE[0]}/t/{table_id}")
    page.wait_for_selector("#board")
    for tab in range(3):
        page.locator(f"#sheet-of-{tab}").click()
        head = page.locator(".sheet thead .who")
        assert head.evaluate("e => e.scrollWidth <= e.clientWidth"), head.inner_text()
    heads = [page.locator(f"#sheet-of-{i} .name").inner_text() for i in range(3)]
    assert len(set(heads)) == 3 and all("…" not in h for h in heads)
    legend = page.locator("#sheet-legend").inner_text()
    assert "Столбец I:" in legend and "Столбец II:" in legend and "Столбец III:" in legend
    assert "Ограды" in page.locator("#board").inner_text()
    player.no_sideways_scroll()
    player.check_words()
    player.shot("poker-fences-phone-ru-3-players")
    player.close()


def test_the_hint_thinks_while_it_works_and_its_answer_finds_the_page_after_a_reconnect(browser: Any) -> None:
    import threading

    from websockets.sync.client import connect

    from kosti.server import hints as hints_module

    release = threading.Event()
    advise = hints_module.Hints.advise

    async def slow(self: Any, room: Any, message: Any) -> Any:
        import anyio

        await anyio.to_thread.run_sync(release.wait, 20)
        return await advise(self, room, message)

    made = {"variant": "poker-showdown", "seats": 2, "hints": True, "name": "Анна", "client_seed": "abc"}
    me = httpx.post(f"{BASE[0]}/api/tables", json=made).json()
    table_id, seat, token = me["id"], me["seat"], me["token"]
    httpx.post(f"{BASE[0]}/api/tables/{table_id}/bots", json={"level": "random", "token": token})
    anna = Player(browser, "ru", PHONE, "Анна")
    anna.sit(table_id, seat, token)
    page = anna.page
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    page.goto(f"{BASE[0]}/t/{table_id}")
    page.wait_for_selector("body[data-my-turn=true]")
    seen = anna.version()
    page.locator("#throw").click()
    anna.wait_past(seen)
    hints_module.Hints.advise = slow  # type: ignore[method-assign]
    others = []
    try:
        page.locator("#hint").click()
        page.wait_for_selector("#hint[aria-busy=true]")
        assert page.locator("#hint").inner_text() == "Думаю…" and page.locator("#hint").is_disabled()
        anna.shot("hint-thinking-phone-ru")
        # the seat's sockets beyond the allowed four close the oldest: the page's, which reconnects
        url = BASE[0].replace("http", "ws") + f"/ws/{table_id}"
        for _ in range(4):
            socket = connect(url, open_timeout=30)
            socket.recv(timeout=30)
            socket.send(json.dumps({"type": "hello", "token": token}))
            socket.recv(timeout=30)
            others.append(socket)
        for _ in range(300):  # the page's socket is closed, and it opens a new one
            if len(sockets) > 1:
                break
            page.wait_for_timeout(50)
        assert len(sockets) == 2 and sockets[0].is_closed()
        page.wait_for_timeout(500)  # its hello, and the state it is shown
        release.set()
        page.locator("#hint-text").wait_for(timeout=20_000)
    finally:
        hints_module.Hints.advise = advise  # type: ignore[method-assign]
        release.set()
        for socket in others:
            socket.close()
    assert "Лучше всего" in page.locator("#hint-text").inner_text()
    assert page.locator("#hint-note").inner_text()
    assert page.locator("#hint[aria-busy]").count() == 0
    anna.check_words()
    anna.close()


# -- the dice checked by the browser itself (static/fair.js) ----------------------------------------


def rejected_first(seed: bytes, client_seed: str, count: int) -> tuple[int, int]:
    """A throw and a die (nonce, index) whose HMAC's first ``count`` bytes are all rejected (≥ 252)."""
    for nonce in range(10**6):
        for index in range(6):
            digest = hmac.new(seed, f"{client_seed}:{nonce}:{index}".encode(), hashlib.sha256).digest()
            if all(byte >= 252 for byte in digest[:count]):
                return nonce, index
    raise AssertionError("no such die")  # pragma: no cover - one in 4096 dice for two bytes


def russian(n: int, one: str, few: str, many: str) -> str:
    """``n`` and its noun in the Russian plural form for it: 21 бросок, 42 броска, 190 костей."""
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} {one}"
    return f"{n} {few if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else many}"


def fair_js(page: Any) -> str:
    """The URL of ``fair.js`` as the page loads it: beside ``app.js``, under the page's version."""
    url = str(page.locator("script[type=module]").get_attribute("src"))
    assert re.fullmatch(r"/static/v/[0-9a-f]{12}/app\.js", url)
    return url.replace("app.js", "fair.js")


def test_the_browser_recomputes_each_die_as_fair_die_does(
    browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = [bytes(range(32)), hashlib.sha256(b"kosti").digest(), b"\x00", bytes.fromhex("ff" * 48)]
    cases = [(seeds[k], "client", n, i) for k in (0, 1) for n in (0, 1, 57) for i in range(6)]
    cases += [(seeds[2], "Anna.Boris", 3, 4), (seeds[3], "a-b_c", 1_000_000, 0)]
    for count in (1, 2):  # the first byte rejected, and the first two
        cases.append((seeds[0], "rejected", *rejected_first(seeds[0], "rejected", count)))
    # every byte of a die's HMAC rejected (never seen in practice): the message goes on with ":1"
    real_new = hmac.new

    class Forced:
        @staticmethod
        def new(key: bytes, message: bytes, digestmod: Any) -> Any:
            if message == b"forced:7:2":
                return type("AllRejected", (), {"digest": lambda self: bytes([255] * 32)})()
            return real_new(key, message, digestmod)

    monkeypatch.setattr(roller, "hmac", Forced)
    forced = fair_die(seeds[1], "forced", 7, 2)
    monkeypatch.undo()
    # a record: a roll-off, then throws of 5, 3 and 2 dice, the nonces running on
    dice = FairDice(seeds[1], "Anna.Boris")
    _, throws = rolloff(["Anna", "Boris"], dice)
    turns = [
        {
            "player": "Anna",
            "actions": [{"roll": list(dice.roll(5))}, {"hold": []}, {"roll": list(dice.roll(3))}],
        }
    ]
    turns.append({"player": "Boris", "actions": [{"roll": list(dice.roll(2))}, "stop"]})
    record = {"variant": "thousand-classic", "players": ["Anna", "Boris"], "rolloff": throws, "turns": turns}
    record["fair"] = {"server_seed": seeds[1].hex(), "client_seed": "Anna.Boris"}
    player = Player(browser, "en", DESKTOP, "Anna")
    player.page.goto(BASE[0] + "/")
    player.page.wait_for_selector("#friend-sheet")
    answer = player.page.evaluate(
        """async ({ url, cases, forced, record }) => {
          const fair = await import(url);
          const dice = [];
          for (const [seed, client, nonce, index] of cases) {
            dice.push(await fair.fairDie(seed, client, nonce, index));
          }
          const sign = crypto.subtle.sign;
          const all = new Uint8Array(32).fill(255).buffer;
          crypto.subtle.sign = function (algorithm, key, data) {
            if (new TextDecoder().decode(data) === forced.message) return Promise.resolve(all);
            return sign.call(this, algorithm, key, data);
          };
          const forcedDie = await fair.fairDie(forced.seed, "forced", 7, 2);
          delete crypto.subtle.sign;
          const fairGame = await fair.checkGame(record);
          record.turns[0].actions[2].roll[1] = (record.turns[0].actions[2].roll[1] % 6) + 1;
          const tampered = await fair.checkGame(record);
          const unrevealed = await fair.checkGame({ ...record, fair: { client_seed: "x" } });
          const none = fair.faceOf(new Uint8Array(32).fill(252));
          return { dice, forcedDie, fairGame, tampered, unrevealed, none };
        }""",
        {
            "url": fair_js(player.page),
            "cases": [[seed.hex(), client, nonce, index] for seed, client, nonce, index in cases],
            "forced": {"seed": seeds[1].hex(), "message": "forced:7:2"},
            "record": record,
        },
    )
    assert answer["dice"] == [fair_die(seed, client, nonce, index) for seed, client, nonce, index in cases]
    assert answer["forcedDie"] == forced
    assert answer["none"] is None
    rolled = len(throws) + 3
    assert answer["fairGame"] == {"status": "fair", "throws": rolled, "dice": 5 * len(throws) + 10}
    bad = answer["tampered"]
    assert bad["status"] == "not_fair" and bad["throws"] == len(throws) + 2
    assert bad["mismatch"]["turn"] == 1 and bad["mismatch"]["throw"] == 2 and bad["mismatch"]["dice"] == [2]
    assert bad["mismatch"]["nonce"] == len(throws) + 1 and bad["mismatch"]["player"] == "Anna"
    assert answer["unrevealed"]["status"] == "unreadable"
    assert not player.errors
    player.close()


def test_check_the_dice_is_the_browsers_own_and_names_a_changed_die(browser: Any) -> None:
    table_id, seat, token = seated_with_bots("poker-free(lower=[chance])", 2)
    anna = Player(browser, "en", DESKTOP, "Анна")
    anna.sit(table_id, seat, token)
    page = anna.page
    page.goto(f"{BASE[0]}/t/{table_id}")
    page.wait_for_selector("#board")
    play_out([anna], sheet_move)
    page.wait_for_selector("#result")
    raw = httpx.get(f"{BASE[0]}/api/tables/{table_id}/record").json()
    verdict = verify(Record.from_json(raw))
    assert verdict.fair and raw["rolloff"], verdict.reason
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))

    def check(player: Player) -> tuple[str, str]:
        player.page.locator("#verify").click()
        player.page.locator("#verify-result[data-verdict] #verdict").wait_for()
        shown = player.page.locator("#verdict").inner_text(), player.page.locator("#verify-dice").inner_text()
        player.page.evaluate("document.getElementById('verify-result').removeAttribute('data-verdict')")
        return shown

    page.locator("#fair > summary").click()
    counted = f"This browser recomputed {verdict.throws} throws ({verdict.dice} dice) from the revealed seed"
    assert check(anna) == (
        "Fair dice.",
        f"{counted} and the players' seed: every die is the one the record shows.",
    )
    assert f"{BASE[0]}/api/tables/{table_id}/record" in asked
    # the page drawn again (a resize: a phone's address bar folding away) keeps the verdict
    page.set_viewport_size({"width": 1280, "height": 700})
    page.wait_for_timeout(400)
    assert page.locator("#verdict").inner_text() == "Fair dice."
    # the record the page is given with one die changed: the server's check (a second opinion,
    # of its own record) still says fair; the page's verdict is its own, and names the die
    turn = raw["turns"][2]
    roll = turn["actions"][0]["roll"]
    changed = json.loads(json.dumps(raw))
    changed["turns"][2]["actions"][0]["roll"][1] = roll[1] % 6 + 1
    record_url = f"{BASE[0]}/api/tables/{table_id}/record"
    page.route(record_url, lambda route: route.fulfill(json=changed))
    verdict_shown, dice_shown = check(anna)
    recorded = " ".join(map(str, changed["turns"][2]["actions"][0]["roll"]))
    before = [throw["roll"] for throw in raw["rolloff"]]
    actions = [action for played in raw["turns"][:2] for action in played["actions"]]
    before += [action["roll"] for action in actions if isinstance(action, dict) and "roll" in action]
    throws, dice = len(before) + 1, sum(map(len, before)) + len(roll)
    assert verdict_shown == "Not fair."
    assert dice_shown == (
        f"This browser recomputed {throws} throws ({dice} dice) from the seeds; "
        f"the last one does not match the record. Turn 3 ({shown_names(table_id, 'en')[turn['player']]}), "
        "throw 1: the record shows "
        f"{recorded}, the seeds give {' '.join(map(str, roll))}; die 2 differs."
    )
    assert "every move follows the rules" in page.locator("#verify-server").inner_text()
    anna.check_words()
    anna.close()
    # a watcher reading Russian, given a roll-off throw changed
    boris = Player(browser, "ru", PHONE, "Борис")
    first = raw["rolloff"][0]
    changed = json.loads(json.dumps(raw))
    changed["rolloff"][0]["roll"][0] = first["roll"][0] % 6 + 1
    boris.page.route(record_url, lambda route: route.fulfill(json=changed))
    boris.page.goto(f"{BASE[0]}/t/{table_id}")
    boris.page.locator("#fair > summary").click()
    shown = check(boris)
    assert shown[0] == "Нечестно."
    given = " ".join(map(str, changed["rolloff"][0]["roll"]))
    assert shown[1] == (
        "Этот браузер пересчитал по зёрнам 1 бросок (5 костей); последний бросок не совпадает с записью. "
        f"Жребий на первый ход, бросок 1 ({shown_names(table_id, 'ru')[first['player']]}): в записи {given}, "
        f"а зёрна дают {' '.join(map(str, first['roll']))}."
    )
    boris.page.unroute(record_url)
    shown = check(boris)
    assert shown[0] == "Кости честные."
    # Борис came after the end: his browser never saw the fingerprint promised, and says so
    seed_line = boris.page.locator("#verify-seed").inner_text()
    assert "этот браузер пришёл после первого броска" in seed_line and "был обещан до" not in seed_line
    assert shown[1] == (
        "Этот браузер сам пересчитал по раскрытому зерну и зерну игроков "
        f"{russian(verdict.throws, 'бросок', 'броска', 'бросков')} "
        f"({russian(verdict.dice, 'кость', 'кости', 'костей')}): каждая кость — ровно та, что в записи."
    )
    boris.check_words()
    boris.shot("fair-dice-checked-phone-ru")
    boris.close()


def test_a_player_says_a_phrase_and_every_page_shows_it_in_its_own_language(browser: Any) -> None:
    anna = Player(browser, "en", DESKTOP, "Anna")
    boris = Player(browser, "ru", PHONE, "Борис")
    watcher = Player(browser, "en", PHONE, "Watcher")
    create(anna, "thousand-classic", 2)
    join(boris, anna.page.locator("#invite").input_value())
    for p in (anna, boris):
        p.page.wait_for_selector("#board")
        p.page.wait_for_selector("#emotes")
    watcher.page.goto(anna.page.url)
    watcher.page.wait_for_selector("#board")
    assert watcher.page.locator("#emotes").count() == 0  # a watcher hears, but says nothing
    # on the phone, by the keyboard: the button opens the phrases, Enter says one
    page = boris.page
    page.locator("#emote-toggle").focus()
    page.keyboard.press("Enter")
    page.locator("#emote-good_luck").wait_for()
    assert page.locator("#emote-good_luck").inner_text() == "Удачи!"
    page.locator("#emote-good_luck").focus()
    page.keyboard.press("Enter")
    # by his name on every page, each in its reader's words, and in the log
    for p, said, line in (
        (boris, "Удачи!", "Борис: «Удачи!»"),
        (anna, "Good luck!", "Борис: “Good luck!”"),
        (watcher, "Good luck!", "Борис: “Good luck!”"),
    ):
        bubble = p.page.locator(".lane", has_text="Борис").locator(".emote-bubble")
        bubble.wait_for(timeout=10_000)
        assert bubble.inner_text() == said
        assert line in p.page.locator("#log-lines").inner_text()
    assert page.locator("#emotes").get_attribute("open") is None  # folded again once said
    assert page.evaluate("document.activeElement.id") == "emote-toggle"
    boris.no_sideways_scroll()
    boris.shot("emote-phone-ru")
    # a tap on the desktop: Anna answers
    anna.page.locator("#emote-toggle").click()
    anna.page.locator("#emote-thanks").click()
    bubble = page.locator(".lane", has_text="Anna").locator(".emote-bubble")
    bubble.wait_for(timeout=10_000)
    assert bubble.inner_text() == "Спасибо!"
    # the bubbles go after a few seconds; the lines stay in the log
    page.locator(".emote-bubble").first.wait_for(state="detached", timeout=10_000)
    assert page.locator(".emote-bubble").count() == 0
    assert "Anna: «Спасибо!»" in page.locator("#log-lines").inner_text()
    for p in (anna, boris, watcher):
        p.check_words()
    # the scorekeeper's pad is one phone for everyone: nobody to say anything to
    create(watcher, "poker-free", 1, mode="scorekeeper")
    watcher.page.wait_for_selector("#board")
    assert watcher.page.locator("#emotes").count() == 0
    for p in (anna, boris, watcher):
        p.close()
