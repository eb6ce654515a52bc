"""The server seats bots and gives hints by the one check of ``kosti.levels``: an
unsolved full-size «Тысяча» gets neither an optimal seat nor exact hints; a small one both."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from helpers import TINY_THOUSAND
from server_helpers import fast_settings, view

from kosti.bots.thousand import ThousandBot
from kosti.rules.presets import variant
from kosti.server.app import create_app, installed_bots
from kosti.server.refusal import Refusal
from kosti.server.seating import plan_bot
from kosti.server.table import Table, TableSettings, token_hash
from kosti.solver.thousand.advisor import OptimalThousandBot

TINY = TINY_THOUSAND
FULL = "thousand-v2"
"""A full-size game that ships no exact values (thousand-classic ships them)."""
SMALL = (
    "thousand-classic(target=100,barrel=none,pits=[],dump_at=null,opening=10,bolt_limit=0,overtake_penalty=5,"
    "first_player=seat)"
)
"""Small enough to solve in seconds, and within the server's limits (target 100 at least)."""


def test_the_server_seats_and_hints_follow_the_one_check(sqlite_url: str) -> None:
    full = Table("full", TableSettings(FULL, 2, owner_sha256=token_hash("owner")), b"seed", installed_bots)
    assert view(full)["bot_levels"] == ["random", "heuristic"]
    with pytest.raises(Refusal, match="kosti solve thousand-v2 --players 2"):
        plan_bot(full, "owner", 1, "optimal")
    tiny = Table(
        "tiny",
        TableSettings(variant(TINY).spec, 2, owner_sha256=token_hash("owner")),
        b"seed",
        installed_bots,
    )
    assert view(tiny)["bot_levels"] == ["random", "heuristic", "optimal"]
    assert plan_bot(tiny, "owner", 1, "optimal")[0].to_json()["level"] == "optimal"
    settings = fast_settings(sqlite_url, hint_levels=("optimal", "heuristic"))
    with TestClient(create_app(settings, bots=installed_bots)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert isinstance(hub.hints.advisor(variant(FULL)), ThousandBot)
        assert isinstance(hub.hints.advisor(variant(TINY)), OptimalThousandBot)


@pytest.mark.parametrize(("lang", "words"), [("en", "chance of winning"), ("ru", "шанс на победу")])
def test_the_pages_hint_for_a_small_thousand_shows_the_chances(
    sqlite_url: str, lang: str, words: str
) -> None:
    from server_helpers import new_table, play_on, seat_players

    settings = fast_settings(sqlite_url, hint_levels=("optimal", "heuristic"))
    with TestClient(create_app(settings, bots=installed_bots)) as client:
        # the server's dice are fair: a first throw may win this small game at once (three ones
        # make its 100), leaving nobody a decision, and then another table is taken
        for _ in range(30):
            table_id = new_table(client, variant(SMALL).spec, seats=2, hints=True)
            tokens = seat_players(client, table_id, ["Anna", "Boris"])
            with client.websocket_connect(f"/ws/{table_id}?lang={lang}") as socket:
                state = socket.receive_json()
                for _ in range(50):  # throw until someone has a decision to make
                    game = state["table"]["game"]
                    if game["decisions"] or game["finished"]:
                        break
                    state = play_on(socket, tokens, state, 1)
                game = state["table"]["game"]
                if game["finished"]:
                    continue
                token = tokens[game["current"]]
                socket.send_json({"type": "hint", "version": state["version"], "token": token})
                hint = socket.receive_json()
                break
    assert hint["type"] == "hint", hint
    assert words in hint["text"] and "%" in hint["text"]
    assert all(a["chance"] for a in hint["advice"])
    assert 0.0 <= hint["advice"][0]["value"] <= 1.0
