"""Fixtures of the server tests: a database per test (SQLite, and PostgreSQL when it answers)
and an application with instant bots."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server tests need the 'server' extra")

from fastapi.testclient import TestClient
from server_helpers import fast_settings, first_legal_bots, postgres_database

from kosti.server.app import create_app


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    """Each storage test runs against SQLite and against PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'kosti.sqlite3'}"
    else:
        yield from postgres_database()


@pytest.fixture
def sqlite_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path / 'kosti.sqlite3'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    """A running application on SQLite with the test bots."""
    with TestClient(create_app(fast_settings(sqlite_url), bots=first_legal_bots)) as test_client:
        yield test_client
