"""The tables of a device (:mod:`kosti.web.host`) in CPython, driven as the page drives them in
the browser's worker: REST requests, a table's socket, a store in memory for IndexedDB.

Every preset plays to its end; «Тысяча» against the heuristic bot; hot-seat players share one
page; the scorekeeper takes back a move and changes a past throw; a table comes back from its
stored log, and from its record; another tab's write is refused as stale; every die is the
device's. The records replay (RULES.md §5) to the scores the table shows.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from local_helpers import MemoryStore, Page

from kosti.record import Record, replay
from kosti.rules.presets import PRESETS
from kosti.show import summary
from kosti.web.host import PREFIX, LocalHost

pytestmark = [pytest.mark.asyncio, pytest.mark.timeout(300)]


def replayed_scores(record: dict[str, Any]) -> dict[str, Any]:
    """The scores ``kosti replay --json`` gives for a record (its players by name)."""
    shown = summary(replay(Record.from_json(record)))
    return {p["name"]: p["score"] for p in shown["players"]}


def table_scores(view: dict[str, Any]) -> dict[str, Any]:
    game = view["game"]
    return dict(zip(game["players"], game["scores"], strict=True))


async def thousand_turn(page: Page, conn: str, table_id: str) -> None:
    """Throw on until the turn has 50 or the dice run low, then stop (when the rules let one)."""
    turn = page.view(conn)["game"]["turn_view"]
    total = turn["turn_total"] or 0
    stop = turn["stop"]["refusal"] is None and not turn["to_throw"] and turn["dice"]
    if stop and (total >= 50 or len(turn["dice"]) <= 2):
        await page.send(conn, table_id, {"type": "action", "action": "stop"})
    else:
        await page.send(conn, table_id, {"type": "action", "action": "throw"})


async def play_out(page: Page, conn: str, table_id: str, limit: int = 2000) -> dict[str, Any]:
    """Play the page's seats (the first decision open, a throw when dice are due) to the end."""
    for _ in range(limit):
        view = await page.settle(conn, table_id)
        game = view["game"]
        if game["finished"]:
            return view
        turn = game["turn_view"]
        if view["family"] == "thousand":
            await thousand_turn(page, conn, table_id)
        elif not turn["dice"] or turn["to_throw"]:
            await page.send(conn, table_id, {"type": "action", "action": "throw"})
        else:
            scores = [d for d in turn["open"] if isinstance(d, dict) and ("score" in d or "scratch" in d)]
            choice = scores[0] if scores else turn["open"][0]
            await page.send(conn, table_id, {"type": "action", "action": choice})
        assert not page.errors(conn), page.errors(conn)[-1]
    raise AssertionError("the game did not end")


async def test_thousand_against_the_heuristic_bot_in_russian() -> None:
    page = Page(lang="ru")
    table_id = await page.create("thousand-classic(target=400,barrel=none)", 2, "Анна")
    assert table_id.startswith(PREFIX)
    status, seated = await page.seat_bot(table_id, "heuristic")
    assert status == 200 and seated["seat"] == 1
    conn = await page.connect(table_id)
    view = await play_out(page, conn, table_id)
    assert view["status"] == "finished" and view["fair"] is None  # the device's dice: no seeds
    lines = [line for entry in view["log"] for line in entry.get("lines", [])]
    assert any("бросает" in line for line in lines)
    status, record = await page.call("GET", f"/api/tables/{table_id}/record")
    assert status == 200 and "fair" not in record
    assert record["local"] == {"mode": "online", "bots": {"heuristic bot 2": "heuristic"}}
    assert replayed_scores(record) == table_scores(view)


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_every_preset_plays_to_its_end_with_bots_alone(preset: str) -> None:
    page = Page()
    status, made = await page.call("POST", "/api/tables", {"variant": preset, "seats": 2})
    assert status == 201 and "token" in made and "seat" not in made  # the creator's token seats bots
    for _ in range(2):
        status, _answer = await page.call(
            "POST", f"/api/tables/{made['id']}/bots", {"token": made["token"], "level": "random"}
        )
        assert status == 200
    page.seats[made["id"]] = {}
    conn = await page.connect(made["id"])
    view = await page.settle(conn, made["id"], timeout=120)
    assert view["game"]["finished"]
    _, record = await page.call("GET", f"/api/tables/{made['id']}/record")
    assert replayed_scores(record) == table_scores(view)


async def test_hot_seat_players_share_one_page() -> None:
    page = Page()
    table_id = await page.create("poker-classic", 3, "Anna")
    status, _ = await page.call("GET", f"/api/tables/{table_id}")
    assert status == 200
    for name in ("Boris", "Vera"):
        await page.join(table_id, name)
    conn = await page.connect(table_id)
    view = page.view(conn)
    assert view["status"] == "playing" and len(page.seats[table_id]) == 3
    # a seat acts only in its own turn, though this page holds them all
    current = view["game"]["current"]
    other = next(seat for seat in page.seats[table_id] if seat != current)
    message = {"type": "action", "token": page.seats[table_id][other], "version": view["version"]}
    await page.host.receive(conn, json.dumps({**message, "action": "throw"}))
    assert page.errors(conn)[-1]["code"] == "not_your_turn"
    for _ in range(6):
        await page.send(conn, table_id, {"type": "action", "action": "throw"})
        turn = page.view(conn)["game"]["turn_view"]
        cell = next(d for d in turn["open"] if isinstance(d, dict) and "score" in d)
        await page.send(conn, table_id, {"type": "action", "action": cell})
    assert page.view(conn)["game"]["turn"] == 6


async def test_a_table_of_the_device_has_no_turn_timer_whatever_it_is_asked() -> None:
    # its players sit around one screen: the home screen offers no timer where the server says
    # it is this device's (home.js reads "local"), and a request that asks for one anyway, as a
    # page of an older build would, makes a table with no clock
    from kosti.web.host import server_info

    assert server_info()["local"] is True
    page = Page()
    table_id = await page.create("poker-showdown(rounds=1)", 2, "Anna", timer=30)
    await page.join(table_id, "Boris")
    conn = await page.connect(table_id)
    view = page.view(conn)
    assert view["status"] == "playing" and view["timer"] is None
    table = (await page.host.room(table_id)).table
    assert table.settings.timer is None and table.seat_to_time() is None


async def test_the_scorekeeper_takes_back_a_move_and_changes_a_past_throw() -> None:
    page = Page(lang="ru")
    table_id = await page.create("thousand-classic", 2, "Анна", mode="scorekeeper")
    await page.join(table_id, "Борис")
    conn = await page.connect(table_id)
    first = page.view(conn)["game"]["player"]
    await page.send(conn, table_id, {"type": "action", "action": {"roll": [1, 5, 2, 3, 3]}})
    await page.send(conn, table_id, {"type": "action", "action": {"roll": [1, 1, 1]}})
    assert page.view(conn)["game"]["turn_view"]["turn_total"] == 115
    await page.send(conn, table_id, {"type": "undo"})
    assert page.view(conn)["game"]["turn_view"]["turn_total"] == 15
    await page.send(conn, table_id, {"type": "edit", "throw": 1, "faces": [5, 5, 2, 3, 4]})
    view = page.view(conn)
    assert view["game"]["turn_view"]["turn_total"] == 10 and view["game"]["player"] == first
    assert [t["faces"] for t in view["game"]["throws"]] == [[5, 5, 2, 3, 4]]
    # an edit the later moves no longer fit is refused and changes nothing
    await page.send(conn, table_id, {"type": "action", "action": {"roll": [5, 2, 3]}})
    before = page.view(conn)["version"]
    await page.send(conn, table_id, {"type": "edit", "throw": 1, "faces": [2, 2, 3, 4, 6]})
    assert page.errors(conn)[-1]["code"] == "bad_edit"
    assert page.errors(conn)[-1]["reason"]  # worded in Russian, why it does not fit
    assert page.view(conn)["version"] == before
    _, record = await page.call("GET", f"/api/tables/{table_id}/record")
    assert record["local"]["mode"] == "scorekeeper"
    assert [a for t in record["turns"] for a in t["actions"]][:2] == [
        {"roll": [5, 5, 2, 3, 4]},
        {"roll": [5, 2, 3]},
    ]


async def test_a_table_comes_back_from_its_stored_log_and_its_bot_plays_on() -> None:
    page = Page()
    table_id = await page.create("poker-showdown(rounds=2)", 2, "Anna")
    await page.seat_bot(table_id, "heuristic")
    conn = await page.connect(table_id)
    view = await page.settle(conn, table_id)
    await page.send(conn, table_id, {"type": "action", "action": "throw"})
    shown = page.view(conn)
    # the tab closes; a new page (a new worker) finds the game where it was
    again = Page(store=page.store)
    again.seats = page.seats
    conn = await again.connect(table_id)
    assert again.view(conn)["game"] == shown["game"] and again.view(conn)["version"] == shown["version"]
    view = await play_out(again, conn, table_id)
    assert view["game"]["finished"]
    status, missing = await again.call("GET", "/api/tables/local-nothing-here")
    assert status == 404 and missing["code"] == "not_found"


async def test_a_move_another_tab_made_first_is_refused_as_stale() -> None:
    page = Page()
    table_id = await page.create("poker-classic", 1, "Anna")
    conn = await page.connect(table_id)
    other = Page(store=page.store)
    other.seats = page.seats
    other_conn = await other.connect(table_id)
    await page.send(conn, table_id, {"type": "action", "action": "throw"})
    await other.send(other_conn, table_id, {"type": "action", "action": "throw"})
    assert other.errors(other_conn)[-1]["code"] == "stale"
    assert other.view(other_conn)["version"] == page.view(conn)["version"]  # shown as it is now
    assert len(page.store.tables[table_id]["events"]) == page.view(conn)["version"]


async def test_every_die_is_the_devices() -> None:
    drawn: list[int] = []

    def random_bytes(n: int) -> bytes:
        drawn.append(n)
        return bytes([0] * n)  # every die a 1

    page = Page()
    page.host = LocalHost(page.store, page.emit, random_bytes, bot_delay=0)
    table_id = await page.create("poker-free", 1, "Anna")
    conn = await page.connect(table_id)
    await page.send(conn, table_id, {"type": "action", "action": "throw"})
    assert page.view(conn)["game"]["turn_view"]["dice"] == [1, 1, 1, 1, 1] and sum(drawn) == 5


async def test_a_record_opens_again_as_a_table_and_plays_on() -> None:
    page = Page()
    table_id = await page.create("thousand-classic(target=300,barrel=none)", 2, "Anna")
    await page.seat_bot(table_id, "random")
    conn = await page.connect(table_id)
    for _ in range(3):
        await page.settle(conn, table_id)
        await thousand_turn(page, conn, table_id)
    view = await page.settle(conn, table_id)
    _, record = await page.call("GET", f"/api/tables/{table_id}/record")
    opened = json.loads(await page.host.open_record(json.dumps(record)))
    human = str(record["players"].index("Anna"))  # the players as they sat, in playing order
    assert set(opened) == {"id", "seats"} and list(opened["seats"]) == [human]  # the bot sits as a bot
    page.seats[opened["id"]] = {int(seat): token for seat, token in opened["seats"].items()}
    again = await page.connect(opened["id"])
    assert table_scores(page.view(again)) == table_scores(view)
    assert page.view(again)["seats"][1 - int(human)]["bot"] == "random"
    finished = await play_out(page, again, opened["id"])
    _, record = await page.call("GET", f"/api/tables/{opened['id']}/record")
    assert replayed_scores(record) == table_scores(finished)
    bad = json.loads(
        await page.host.open_record(json.dumps({**record, "turns": [{"player": "Nobody"}]}), "ru")
    )
    assert "Nobody" in bad["detail"]
    assert "detail" in json.loads(await page.host.open_record("not json"))


async def test_the_rules_data_and_refusals_of_rest() -> None:
    page = Page(lang="ru")
    status, presets = await page.call("GET", "/api/presets?lang=ru")
    assert status == 200 and {p["id"] for p in presets} == set(PRESETS)
    status, rules = await page.call("GET", "/api/rules/thousand-classic(target%3D2000)?lang=en")
    assert status == 200 and rules["options"]["target"]["value"] == 2000 and rules["sentences"]
    status, words = await page.call("GET", "/api/words/ru")
    assert status == 200 and words["cell.sixes"]
    status, server = await page.call("GET", "/api/server")
    assert server["bot_levels"]["sheet"] == ["random", "heuristic"]
    status, refused = await page.call(
        "POST", "/api/tables", {"variant": "thousand-classic(target=5)", "seats": 2}
    )
    assert status == 400 and refused["code"] == "bad_variant"
    status, refused = await page.call("POST", "/api/tables", {"variant": "poker-classic", "seats": 0})
    assert status == 422 and "seats" in refused["detail"]
    table_id = await page.create("poker-classic", 2, "Анна")
    status, refused = await page.seat_bot(table_id, "optimal")
    assert status == 400 and refused["code"] == "no_bots"  # the solver does not run on a device
    status, refused = await page.call("POST", f"/api/tables/{table_id}/join", {"name": "анна"})
    assert status == 409 and refused["code"] == "name_taken" and "анна" in refused["detail"].lower()


async def test_leave_to_a_stand_in_then_a_rematch_with_the_same_seats() -> None:
    page = Page()
    table_id = await page.create("poker-showdown(rounds=1)", 2, "Anna")
    await page.join(table_id, "Boris")
    conn = await page.connect(table_id)
    boris = page.seats[table_id][1]
    status, left = await page.call("POST", f"/api/tables/{table_id}/leave", {"token": boris, "resign": True})
    assert status == 200 and left["status"] == "playing"
    del page.seats[table_id][1]  # the stand-in plays Boris's seat out
    view = await play_out(page, conn, table_id)
    assert view["seats"][1]["resigned"]
    status, rematch = await page.call(
        "POST", f"/api/tables/{table_id}/rematch", {"token": page.seats[table_id][0]}
    )
    assert status == 200 and rematch["id"].startswith(PREFIX)
    status, joined = await page.call(
        "POST", f"/api/tables/{rematch['id']}/join", {"name": "Anna", "token": page.seats[table_id][0]}
    )
    assert status == 200 and joined["seat"] == 0


async def test_a_hint_and_a_message_of_a_wrong_form() -> None:
    page = Page(lang="ru")
    table_id = await page.create("poker-classic", 1, "Анна", hints=True)
    conn = await page.connect(table_id)
    await page.send(conn, table_id, {"type": "action", "action": "throw"})
    await page.send(conn, table_id, {"type": "hint"})
    hint = page.sent[conn][-1]
    assert hint["type"] == "hint" and hint["text"] and hint["advice"]
    await page.host.receive(conn, json.dumps({"type": "action", "version": 1}))
    assert page.errors(conn)[-1]["code"] == "bad_message"
    await page.host.receive(conn, json.dumps({"type": "ping"}))
    assert page.sent[conn][-1]["type"] == "pong"
    page.host.close(conn)
    assert not page.host.rooms[table_id].sockets


async def test_a_socket_to_a_table_the_device_has_not_is_told_and_closed() -> None:
    page = Page()
    await page.host.open("c9", "/ws/local-missing?lang=en&changes=1")
    assert page.sent["c9"][-1]["code"] == "not_found" and "c9" in page.closed


async def test_the_bots_of_a_device_wait_between_moves() -> None:
    store = MemoryStore()
    page = Page(store=store)
    page.host = LocalHost(store, page.emit, bot_delay=0.05)
    _, made = await page.call("POST", "/api/tables", {"variant": "poker-showdown(rounds=1)", "seats": 2})
    for _ in range(2):
        await page.call("POST", f"/api/tables/{made['id']}/bots", {"token": made["token"], "level": "random"})
    page.seats[made["id"]] = {}
    conn = await page.connect(made["id"])
    await asyncio.sleep(0.01)
    assert not page.view(conn)["game"]["finished"]
    assert (await page.settle(conn, made["id"]))["game"]["finished"]
