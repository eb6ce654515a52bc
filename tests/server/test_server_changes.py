"""A socket that asks for changes (``?changes=1``) is sent what differs, and folds into the whole state."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import first_move, new_table, seat_players

from kosti.server.view import LOG_TAIL


def fold(view: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The view a ``change`` makes of ``view``, as the page makes it."""
    folded = {**view, **change["table"]}
    folded["log"] = [*view["log"], *change["log"]][-LOG_TAIL:]
    return folded


def test_changes_fold_into_the_whole_state_for_a_whole_game(client: TestClient) -> None:
    table_id = new_table(client, "poker-classic", seats=3)
    tokens = seat_players(client, table_id, ["Anna", "Boris", "Vera"])
    whole_bytes = change_bytes = 0
    with (
        client.websocket_connect(f"/ws/{table_id}") as whole,
        client.websocket_connect(f"/ws/{table_id}?changes=1") as changes,
    ):
        state = whole.receive_json()
        first = changes.receive_json()
        assert first == state  # the first message is the whole state, as for any socket
        view, version = first["table"], first["version"]
        moves = 0
        while not state["table"]["game"]["finished"]:
            game = state["table"]["game"]
            move = {"version": state["version"], "token": tokens[game["current"]]}
            whole.send_json({"type": "action", **move, "action": first_move(game)})
            text = whole.receive_text()
            whole_bytes += len(text)
            state = json.loads(text)
            text = changes.receive_text()
            change_bytes += len(text)
            change = json.loads(text)
            assert change["type"] == "change"
            assert (change["since"], change["version"]) == (version, state["version"])
            assert "seats" not in change["table"]  # nobody sat down or left: not sent again
            view, version = fold(view, change), change["version"]
            assert view == state["table"]
            moves += 1
    assert moves > LOG_TAIL  # the log was cut to its tail on both sides
    assert change_bytes * 3 < whole_bytes


def test_a_stale_move_on_a_changes_socket_gets_the_whole_state_and_changes_go_on(
    client: TestClient,
) -> None:
    table_id = new_table(client, "poker-free(lower=[chance])")
    tokens = seat_players(client, table_id, ["Anna", "Boris"])
    with client.websocket_connect(f"/ws/{table_id}?changes=1") as socket:
        state = socket.receive_json()
        game = state["table"]["game"]
        token = tokens[game["current"]]
        stale = {"type": "action", "version": state["version"] - 1, "token": token, "action": "throw"}
        socket.send_json(stale)
        assert socket.receive_json()["code"] == "stale"
        again = socket.receive_json()
        assert (again["type"], again["version"]) == ("state", state["version"])
        socket.send_json({**stale, "version": state["version"]})
        change = socket.receive_json()
        assert (change["type"], change["since"], change["version"]) == (
            "change",
            state["version"],
            state["version"] + 1,
        )
        assert [entry["version"] for entry in change["log"]] == [state["version"] + 1]
