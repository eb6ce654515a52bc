"""The server's refusals are data (RULES.md §4): the socket's ``error`` and the REST answer carry
the code, its params and the reason worded in the reader's language; a refusal of the rules
keeps the engine's code and params."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_table, seat_players

from kosti.server.app import request_language


def refused(client: TestClient, variant: str, moves: list[Any], refused_move: Any) -> dict[str, Any]:
    """The error a Russian reader gets for ``refused_move`` at a scorekeeper table of one player,
    after ``moves``."""
    table_id = new_table(client, variant, seats=1, mode="scorekeeper")
    token = seat_players(client, table_id, ["Аня"])[0]
    with client.websocket_connect(f"/ws/{table_id}?lang=ru") as socket:
        state = socket.receive_json()
        for move in moves:
            socket.send_json({"type": "action", "version": state["version"], "token": token, "action": move})
            state = socket.receive_json()
            assert state["type"] == "state", state
        message = {"type": "action", "version": state["version"], "token": token, "action": refused_move}
        socket.send_json(message)
        answer: dict[str, Any] = socket.receive_json()
    assert answer["type"] == "error", answer
    return answer


@pytest.mark.parametrize(
    ("variant", "moves", "move", "code", "params", "reason"),
    [
        (
            "thousand-classic",
            [{"roll": [5, 2, 3, 3, 6]}],
            "stop",
            "stop_unopened",
            {"need": 50, "total": 5},
            "вы ещё не открылись: ход записывается от 50 (набрано 5)",
        ),
        (
            "thousand-classic(opening=0, pits=[[0, 100]])",
            [{"roll": [5, 2, 3, 3, 6]}],
            "stop",
            "stop_in_pit",
            {"low": 0, "high": 100, "score": 0, "total": 5, "reached": 5},
            "в яме 0–100: «хватит» можно сказать только от 100 (0 + 5 = 5)",
        ),
        (
            "poker-free",
            [{"roll": [1, 1, 2, 3, 4]}, {"score": "ones"}, {"roll": [1, 5, 5, 6, 6]}],
            {"score": "ones"},
            "cell_filled",
            {"cell": "ones"},
            "клетка «единицы» уже заполнена",
        ),
        (
            "poker-classic",
            [{"roll": [6, 6, 6, 2, 3]}],
            {"score": "three_of_a_kind"},
            "upper_first",
            {},
            "сначала школа: единицы … шестёрки, потом комбинации",
        ),
        (
            "poker-free",
            [{"roll": [1, 2, 3, 4, 5]}],
            {"hold": [6, 6]},
            "not_among",
            {"faces": [6, 6], "dice": [1, 2, 3, 4, 5]},
            "6 6 нет среди костей 1 2 3 4 5",
        ),
    ],
    ids=["opening", "pit", "filled", "upper_first", "not_on_the_table"],
)
def test_the_page_reads_why_in_russian(
    client: TestClient, variant: str, moves: list[Any], move: Any, code: str, params: Any, reason: str
) -> None:
    answer = refused(client, variant, moves, move)
    assert (answer["code"], answer["params"], answer["reason"]) == (code, params, reason)


def test_a_server_refusal_is_worded_in_the_sockets_language(client: TestClient) -> None:
    table_id = new_table(client, "poker-free", seats=2)
    tokens = seat_players(client, table_id, ["Anna", "Boris"])
    for lang, reason in (
        ("ru", "сейчас ходит Anna, а не Boris"),
        ("en", "it is Anna's turn, not Boris's"),
    ):
        with client.websocket_connect(f"/ws/{table_id}?lang={lang}") as socket:
            state = socket.receive_json()
            other = tokens[1 - state["table"]["game"]["current"]]
            socket.send_json(
                {"type": "action", "version": state["version"], "token": other, "action": "throw"}
            )
            answer = socket.receive_json()
        names = {0: "Anna", 1: "Boris"}
        current = state["table"]["game"]["current"]
        want = reason.replace("Anna", "@").replace("Boris", names[1 - current]).replace("@", names[current])
        assert (answer["code"], answer["reason"]) == ("not_your_turn", want)
        assert answer["params"] == {"player": names[current], "you": names[1 - current]}


def test_a_rest_refusal_is_worded_in_the_language_asked_for(client: TestClient) -> None:
    table_id = new_table(client, "poker-free", seats=2)
    path = f"/api/tables/{table_id}/join"
    body = {"name": "!!!", "client_seed": "seed"}
    english = client.post(path, json=body).json()
    assert english == {
        "detail": "a name needs at least one letter or digit that can be seen",
        "code": "bad_name",
        "params": {"why": "visible_letter"},
    }
    russian = client.post(path, json=body, headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.8"}).json()
    assert russian["detail"] == "в имени нужна хотя бы одна видимая буква или цифра"
    assert (
        client.post(path + "?lang=ru", json=body).json()["detail"]
        == "в имени нужна хотя бы одна видимая буква или цифра"
    )
    assert client.post(path, json=body, headers={"Accept-Language": "de, en;q=0.5"}).json() == english


@pytest.mark.parametrize(
    ("query", "header", "lang"),
    [
        ("", "", "en"),
        ("lang=ru", "", "ru"),
        ("lang=ru", "en", "ru"),
        ("", "ru", "ru"),
        ("", "en-GB,ru;q=0.9", "en"),
        ("", "de;q=1, ru;q=0.4, en;q=0.7", "en"),
        ("", "ru;q=0", "en"),
        ("lang=de", "fr", "en"),
    ],
)
def test_the_language_of_a_request(query: str, header: str, lang: str) -> None:
    from starlette.requests import Request

    headers = [(b"accept-language", header.encode())] if header else []
    request = Request({"type": "http", "query_string": query.encode(), "headers": headers})
    assert request_language(request) == lang
