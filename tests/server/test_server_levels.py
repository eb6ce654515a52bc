"""The server seats bots and gives hints by the one check of ``kosti.bots.levels``: an
unsolved full-size «Тысяча» gets neither an optimal seat nor exact hints; a small one both."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from server_helpers import fast_settings

from kosti.bots.thousand import ThousandBot
from kosti.rules.presets import variant
from kosti.server.app import create_app, installed_bots
from kosti.server.refusal import Refusal
from kosti.server.table import Table, TableSettings
from kosti.solver.thousand.advisor import OptimalThousandBot

TINY = (
    "thousand-classic(target=20,barrel=none,pits=[],dump_at=null,opening=10,"
    "bolt_penalty=10,overtake_penalty=5)"
)
FULL = "thousand-classic"


def test_the_server_seats_and_hints_follow_the_one_check(sqlite_url: str) -> None:
    full = Table("full", TableSettings(FULL, 2), b"seed", installed_bots)
    assert full.view()["bot_levels"] == ["random", "heuristic"]
    with pytest.raises(Refusal, match="kosti solve thousand-classic --players 2"):
        full.plan_bot(1, "optimal")
    tiny = Table("tiny", TableSettings(variant(TINY).spec, 2), b"seed", installed_bots)
    assert tiny.view()["bot_levels"] == ["random", "heuristic", "optimal"]
    assert tiny.plan_bot(1, "optimal")[0][1]["level"] == "optimal"
    settings = fast_settings(sqlite_url, hint_levels=("optimal", "heuristic"))
    with TestClient(create_app(settings, bots=installed_bots)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert isinstance(hub.advisor(variant(FULL)), ThousandBot)
        assert isinstance(hub.advisor(variant(TINY)), OptimalThousandBot)
