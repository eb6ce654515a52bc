"""A table's life: the lobby, private tables, rematch, the turn timer and its stand-in bot,
resign and leave, abandoned games, and the scorekeeper's undo and edit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import add_bot, fast_settings, first_legal_bots, new_table, seat_players, view

from kosti.actions import Roll
from kosti.record import Record
from kosti.rules.presets import PRESETS
from kosti.server.app import create_app
from kosti.server.events import TableEvent
from kosti.server.fair import verify
from kosti.server.planning import plan_abandon, plan_action, plan_bot_move, plan_edit, plan_timeout, plan_undo
from kosti.server.seating import plan_back, plan_join, plan_leave
from kosti.server.table import Refusal, Table, TableSettings

SEED = bytes(range(32))


def life_table(variant: str = "poker-free(lower=[chance])", seats: int = 2, **settings: Any) -> Table:
    online = settings.get("mode", "online") == "online"
    return Table(
        "t1", TableSettings(variant, seats, **settings), SEED if online else None, first_legal_bots, "first"
    )


def sit(t: Table, names: list[str]) -> dict[int, str]:
    tokens = {}
    for name in names:
        events, token = plan_join(t, name, "seed" + name)
        for event in events:
            t.apply(event)
        tokens[t.seat_of(token)] = token
    return tokens


def play(t: Table, events: list[TableEvent]) -> None:
    for event in events:
        t.apply(event)


# -- the lobby ---------------------------------------------------------------------------


@pytest.fixture
def life_client(sqlite_url: str) -> Iterator[TestClient]:
    settings = fast_settings(sqlite_url, stand_in="first", min_timer=1)
    with TestClient(create_app(settings, bots=first_legal_bots)) as client:
        yield client


def test_the_lobby_lists_public_tables_waiting_for_players(life_client: TestClient) -> None:
    public = new_table(life_client, "thousand-classic", 3)
    private = new_table(life_client, "thousand-classic", 3, private=True)
    full = new_table(life_client, seats=1)
    seat_players(life_client, public, ["Anna"])
    seat_players(life_client, full, ["Boris"])  # one seat: the game has started
    listed = {t["id"]: t for t in life_client.get("/api/tables?lang=ru").json()["tables"]}
    assert public in listed
    assert private not in listed
    assert full not in listed
    assert listed[public]["taken"] == 1
    assert listed[public]["seats"] == 3
    assert listed[public]["name"] == PRESETS["thousand-classic"].name("ru")


def test_the_lobby_is_read_from_storage_shared_by_every_process(sqlite_url: str) -> None:
    settings = fast_settings(sqlite_url)
    with (
        TestClient(create_app(settings, bots=first_legal_bots)) as here,
        TestClient(create_app(settings, bots=first_legal_bots)) as there,
    ):
        table_id = new_table(here, "thousand-classic", 3)
        seat_players(here, table_id, ["Anna"])
        listed = {t["id"]: t for t in there.get("/api/tables").json()["tables"]}
        assert listed[table_id]["taken"] == 1  # made and joined in the other process
        seat_players(there, table_id, ["Boris"])
        assert [t["taken"] for t in here.get("/api/tables").json()["tables"]] == [2]
        assert add_bot(there, table_id, "first").status_code == 200  # it starts
        assert here.get("/api/tables").json()["tables"] == []


def test_a_timer_shorter_than_the_servers_least_is_refused(sqlite_url: str) -> None:
    with TestClient(create_app(fast_settings(sqlite_url, min_timer=10), bots=first_legal_bots)) as client:
        short = client.post("/api/tables", json={"variant": "poker-classic", "seats": 2, "timer": 9})
        assert short.status_code == 400
        assert "10 seconds" in short.json()["detail"]
        assert client.get("/api/tables").json()["tables"] == []
        ok = client.post("/api/tables", json={"variant": "poker-classic", "seats": 2, "timer": 10})
        assert ok.status_code == 201


# -- the turn timer --------------------------------------------------------------------------


def test_a_move_not_made_in_time_goes_to_a_stand_in_until_the_player_is_back() -> None:
    t = life_table(timer=30)
    tokens = sit(t, ["Anna", "Boris"])
    first = t.current_seat()
    assert first is not None
    assert t.seat_to_time() == first
    assert plan_timeout(t, first, t.version - 1) == []  # the table has moved on since
    play(t, plan_timeout(t, first, t.version))
    assert t.seats[first] is not None and t.seats[first].away
    assert t.bot_to_move() == first  # the other player is there: the stand-in plays
    with pytest.raises(Refusal) as refused:
        plan_action(t, tokens[first], t.version, "throw")
    assert refused.value.code == "away"
    play(t, plan_bot_move(t))
    play(t, plan_back(t, tokens[first]))
    assert t.seats[first].present
    with pytest.raises(Refusal):
        plan_back(t, tokens[first])  # not away any more


def test_a_table_whose_players_are_all_away_waits_then_is_abandoned_with_its_seed_shown() -> None:
    t = life_table(timer=30)
    tokens = sit(t, ["Anna", "Boris"])
    for _ in range(2):
        seat = t.seat_to_time()
        assert seat is not None
        play(t, plan_timeout(t, seat, t.version))
        # a stand-in plays the away seat's turn while the other player is there
        while t.bot_to_move() is not None:
            play(t, plan_bot_move(t))
    assert not t.present()
    assert t.bot_to_move() is None  # nobody there: nothing moves
    assert t.fair() is not None and "server_seed" not in t.fair()
    play(t, plan_abandon(t, t.version))
    assert t.status == "abandoned"
    assert t.fair()["server_seed"] == SEED.hex()
    record = t.record()
    assert record.extra["abandoned"] is True
    verdict = verify(Record.from_json(record.to_json()))
    assert verdict.fair, verdict.reason
    with pytest.raises(Refusal):
        plan_action(t, tokens[0], t.version, "throw")


def test_a_player_who_comes_back_before_the_wait_ends_keeps_the_game() -> None:
    t = life_table(seats=1, timer=30)
    tokens = sit(t, ["Anna"])
    play(t, plan_timeout(t, 0, t.version))
    waited = t.version
    play(t, plan_back(t, tokens[0]))
    assert plan_abandon(t, waited) == []
    assert plan_abandon(t, t.version) == []  # Anna is there
    assert t.status == "playing"


def test_the_server_times_a_move_out_and_the_page_hears_of_it(life_client: TestClient) -> None:
    table_id = new_table(life_client, timer=1)
    tokens = seat_players(life_client, table_id, ["Anna", "Boris"])
    with life_client.websocket_connect(f"/ws/{table_id}?lang=ru") as socket:
        state = socket.receive_json()
        assert 0 < state["table"]["seconds_left"] <= 1
        mover = state["table"]["game"]["current"]
        deadline = time.monotonic() + 10
        while not any(s["away"] for s in state["table"]["seats"]):
            assert time.monotonic() < deadline, "the move was not timed out"
            state = socket.receive_json()
        assert state["table"]["seats"][mover]["away"]
        assert state["table"]["log"][-1]["kind"] == "timeout"
    back = life_client.post(f"/api/tables/{table_id}/back", json={"token": tokens[mover]})
    assert back.status_code == 200, back.text
    seats = life_client.get(f"/api/tables/{table_id}").json()["table"]["seats"]
    assert not seats[mover]["away"]


# -- resign and leave ------------------------------------------------------------------------


def test_leaving_before_the_start_frees_the_seat() -> None:
    t = life_table(seats=3)
    tokens = sit(t, ["Anna", "Boris"])
    play(t, plan_leave(t, tokens[1], resign=False))
    assert t.seats[1] is None
    assert t.status == "waiting"


def test_a_resigned_player_is_played_out_and_the_last_to_go_abandons_the_game() -> None:
    t = life_table()
    tokens = sit(t, ["Anna", "Boris"])
    play(t, plan_leave(t, tokens[0], resign=True))
    assert t.seats[0] is not None and t.seats[0].left and t.seats[0].resigned
    assert t.status == "playing"
    with pytest.raises(Refusal):
        plan_leave(t, tokens[0], resign=False)  # gone already
    play(t, plan_leave(t, tokens[1], resign=False))
    assert t.status == "abandoned"
    assert "server_seed" in (t.fair() or {})


def test_the_api_abandons_a_table_everyone_left_and_kosti_verify_checks_it(life_client: TestClient) -> None:
    table_id = new_table(life_client, "thousand-classic")
    tokens = seat_players(life_client, table_id, ["Anna", "Boris"])
    for seat, token in tokens.items():
        answer = life_client.post(f"/api/tables/{table_id}/leave", json={"token": token, "resign": seat == 0})
        assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "abandoned"
    record = Record.from_json(life_client.get(f"/api/tables/{table_id}/record").json())
    assert record.extra["fair"]["server_seed"]
    assert verify(record).fair


# -- rematch -----------------------------------------------------------------------------------


def test_a_rematch_keeps_the_seats_and_starts_when_the_players_sit_down_again(
    life_client: TestClient,
) -> None:
    table_id = new_table(life_client, "poker-showdown(rounds=1)", 3)
    tokens = seat_players(life_client, table_id, ["Anna", "Boris"])
    assert add_bot(life_client, table_id, "first").status_code == 200
    early = life_client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
    assert early.status_code == 400  # the game is not over
    for token in tokens.values():
        life_client.post(f"/api/tables/{table_id}/leave", json={"token": token, "resign": True})
    assert life_client.get(f"/api/tables/{table_id}").json()["table"]["status"] == "abandoned"
    first = life_client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[0]})
    assert first.status_code == 200, first.text
    again = life_client.post(f"/api/tables/{table_id}/rematch", json={"token": tokens[1]})
    assert again.json()["id"] == first.json()["id"]  # one rematch, whoever asks
    assert life_client.post(f"/api/tables/{table_id}/rematch", json={"token": "nobody"}).status_code == 403
    new_id = first.json()["id"]
    old = life_client.get(f"/api/tables/{table_id}").json()["table"]
    new = life_client.get(f"/api/tables/{new_id}").json()["table"]
    assert old["rematch"] == new_id
    assert [s["name"] for s in new["seats"]] == [s["name"] for s in old["seats"]]
    assert [s["reserved"] for s in new["seats"]] == [True, True, False]
    assert new["status"] == "waiting"
    # somebody else cannot take a kept seat
    assert life_client.post(f"/api/tables/{new_id}/join", json={"name": "Vera"}).status_code == 409
    for seat, token in tokens.items():
        answer = life_client.post(
            f"/api/tables/{new_id}/join", json={"name": "x", "client_seed": f"s{seat}", "token": token}
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["seat"] == seat
    started = life_client.get(f"/api/tables/{new_id}").json()["table"]
    assert started["status"] == "playing"
    assert sorted(started["game"]["players"]) == sorted(s["name"] for s in old["seats"])


# -- the scorekeeper ---------------------------------------------------------------------------


def keeper(variant: str = "poker-free(lower=[chance])", seats: int = 1) -> tuple[Table, dict[int, str]]:
    t = life_table(variant, seats, mode="scorekeeper")
    return t, sit(t, ["Anna", "Boris"][:seats])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_faces_of_a_real_throw_are_typed_in_for_every_preset(preset: str) -> None:
    t, tokens = keeper(preset)
    game = view(t)["game"]
    assert game["may_throw"]  # the first throw is typed in (in fences an announcement may come first)
    play(t, plan_action(t, tokens[0], t.version, {"roll": [1, 2, 3, 4, 5]}))
    assert view(t)["game"]["throws"] == [{"n": 1, "player": "Anna", "faces": [1, 2, 3, 4, 5]}]
    with pytest.raises(Refusal):
        plan_action(t, tokens[0], t.version, {"roll": [1, 2, 3, 4, 7]})


def test_undo_takes_back_the_last_action_and_only_at_a_scorekeeper_table() -> None:
    t, tokens = keeper()
    with pytest.raises(Refusal) as refused:
        plan_undo(t, tokens[0], t.version)
    assert refused.value.code == "nothing_to_undo"
    play(t, plan_action(t, tokens[0], t.version, {"roll": [6, 6, 6, 2, 1]}))
    kept = view(t)["game"]
    play(t, plan_action(t, tokens[0], t.version, [{"hold": [6, 6, 6]}, {"roll": [6, 6]}]))
    assert view(t)["game"]["turn_view"]["dice"] == [6, 6, 6, 6, 6]
    play(t, plan_undo(t, tokens[0], t.version))
    again = view(t)["game"]
    assert again["turn_view"] == kept["turn_view"]
    assert again["decisions"] == kept["decisions"]
    assert again["throws"] == kept["throws"]
    online = life_table()
    online_tokens = sit(online, ["Anna", "Boris"])
    with pytest.raises(Refusal):
        plan_undo(online, online_tokens[0], online.version)


def test_a_past_throw_is_edited_and_the_game_replayed_from_the_record() -> None:
    t, tokens = keeper("poker-classic")  # upper cells score (count − 3) × face («школа»)
    play(t, plan_action(t, tokens[0], t.version, {"roll": [2, 2, 3, 4, 5]}))
    play(t, plan_action(t, tokens[0], t.version, {"score": "twos"}))
    play(t, plan_action(t, tokens[0], t.version, {"roll": [1, 1, 1, 6, 6]}))
    assert view(t)["game"]["scores"] == [-2]  # two twos: (2 − 3) × 2
    play(t, plan_edit(t, tokens[0], t.version, 1, [2, 2, 2, 2, 5]))
    game = view(t)["game"]
    assert game["scores"] == [2]  # four twos: (4 − 3) × 2
    assert game["turn_view"]["dice"] == [1, 1, 1, 6, 6]
    assert [th["faces"] for th in game["throws"]] == [[2, 2, 2, 2, 5], [1, 1, 1, 6, 6]]
    assert t.record().turns[0].actions[0] == Roll((2, 2, 2, 2, 5))


def test_an_edit_the_later_moves_do_not_fit_is_refused_and_changes_nothing() -> None:
    t, tokens = keeper()
    play(t, plan_action(t, tokens[0], t.version, {"roll": [6, 6, 3, 4, 5]}))
    play(t, plan_action(t, tokens[0], t.version, [{"hold": [6, 6]}, {"roll": [1, 2, 3]}]))
    before = (t.version, view(t)["game"])
    with pytest.raises(Refusal) as refused:
        plan_edit(t, tokens[0], t.version, 1, [1, 2, 3, 4, 5])  # no sixes to hold then
    assert refused.value.code == "bad_edit"
    assert "throw 1" in refused.value.reason
    for wrong in ([1, 2, 3], [1, 2, 3, 4, 7]):
        with pytest.raises(Refusal):
            plan_edit(t, tokens[0], t.version, 1, wrong)  # three dice, not five; no face 7
    with pytest.raises(Refusal):
        plan_edit(t, tokens[0], t.version, 3, [1, 2, 3])  # there is no third throw
    assert (t.version, view(t)["game"]) == before


def test_undo_and_edit_over_the_socket(life_client: TestClient) -> None:
    table_id = new_table(life_client, mode="scorekeeper", seats=1)
    tokens = seat_players(life_client, table_id, ["Anna"])
    with life_client.websocket_connect(f"/ws/{table_id}") as socket:
        state = socket.receive_json()
        socket.send_json(
            {
                "type": "action",
                "version": state["version"],
                "token": tokens[0],
                "action": {"roll": [5, 5, 5, 1, 2]},
            }
        )
        state = socket.receive_json()
        socket.send_json(
            {"type": "edit", "version": state["version"], "token": tokens[0], "throw": 1, "faces": [4] * 5}
        )
        state = socket.receive_json()
        assert state["table"]["game"]["turn_view"]["dice"] == [4, 4, 4, 4, 4]
        socket.send_json({"type": "undo", "version": state["version"], "token": tokens[0]})
        state = socket.receive_json()
        assert state["table"]["game"]["turn_view"]["dice"] == []
        assert [e["kind"] for e in state["table"]["log"][-3:]] == ["action", "edit", "undo"]
