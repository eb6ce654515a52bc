"""A real ``kosti serve`` killed with SIGKILL mid-game and started again: nothing it showed is lost."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import first_move, kosti_serve
from websockets.sync.client import connect

from kosti.record import Record
from kosti.server.fair import verify

pytestmark = pytest.mark.timeout(180)


def receive_state(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
    assert message["type"] == "state", message
    return message


def move(ws: Any, tokens: dict[int, str], state: dict[str, Any]) -> None:
    game = state["table"]["game"]
    message = {"type": "action", "version": state["version"], "token": tokens[game["current"]]}
    ws.send(json.dumps({**message, "action": first_move(game)}))


def test_a_server_killed_mid_game_goes_on_where_it_was(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'kosti.sqlite3'}"
    log = tmp_path / "serve.log"
    with kosti_serve(database, log) as (process, base):
        table_id = httpx.post(
            f"{base}/api/tables", json={"variant": "poker-free(lower=[chance])", "seats": 2}
        ).json()["id"]
        tokens = {}
        for name in ("Anna", "Boris"):
            joined = httpx.post(
                f"{base}/api/tables/{table_id}/join", json={"name": name, "client_seed": name}
            ).json()
            tokens[joined["seat"]] = joined["token"]
        with connect(f"{base.replace('http', 'ws')}/ws/{table_id}") as ws:
            state = receive_state(ws)
            for _ in range(9):
                move(ws, tokens, state)
                state = receive_state(ws)
            shown = state
            move(ws, tokens, state)  # one more in flight: written or not, never half
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
    with kosti_serve(database, log) as (_, base):
        after = httpx.get(f"{base}/api/tables/{table_id}").json()
        assert after["version"] in (shown["version"], shown["version"] + 1)
        if after["version"] == shown["version"]:
            assert after == shown
        else:
            assert after["table"]["log"][:-1] == shown["table"]["log"]
        with connect(f"{base.replace('http', 'ws')}/ws/{table_id}") as ws:
            state = receive_state(ws)
            assert state == after
            for _ in range(200):
                if state["table"]["status"] == "finished":
                    break
                move(ws, tokens, state)
                state = receive_state(ws)
        assert state["table"]["status"] == "finished"
        record = Record.from_json(httpx.get(f"{base}/api/tables/{table_id}/record").json())
    verdict = verify(record)
    assert verdict.fair, verdict.reason  # the dice went on from the nonce the log implies
