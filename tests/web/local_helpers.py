"""A device's tables driven from CPython as the page drives them in the worker: a store in memory
(IndexedDB's stand-in) and the page's sockets as lists of the messages they were sent."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from typing import Any

from kosti.web.host import LocalHost


class MemoryStore:
    """The tables of a device, kept in memory as ``static/local/store.js`` keeps them in IndexedDB."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Any]] = {}
        self.clock = itertools.count()

    async def load(self, table_id: str) -> str | None:
        found = self.tables.get(table_id)
        return (
            None if found is None else json.dumps({"settings": found["settings"], "events": found["events"]})
        )

    async def append(self, table_id: str, version: int, settings: str, events: str) -> bool:
        found = self.tables.get(table_id)
        if found is None:
            if version != 0:
                return False
            found = self.tables[table_id] = {"settings": json.loads(settings), "events": [], "about": None}
        if len(found["events"]) != version:
            return False
        found["events"].extend(json.loads(events))
        found["updated"] = next(self.clock)
        return True

    async def describe(self, table_id: str, about: str) -> None:
        self.tables[table_id]["about"] = json.loads(about)

    async def list(self) -> str:
        return json.dumps(
            [
                {"id": k, "summary": (v["about"] or {}).get("summary"), "updated": v.get("updated", 0)}
                for k, v in self.tables.items()
            ]
        )


class Page:
    """One page of a device: its REST requests and its sockets, as the worker hands them over."""

    def __init__(
        self, host: LocalHost | None = None, store: MemoryStore | None = None, lang: str = "en"
    ) -> None:
        self.store = store or MemoryStore()
        self.sent: dict[str, list[dict[str, Any]]] = {}
        self.closed: set[str] = set()
        self.host = host or LocalHost(self.store, self.emit, bot_delay=0)
        self.lang = lang
        self.seats: dict[str, dict[int, str]] = {}
        self._ids = itertools.count(1)

    def emit(self, conn: str, text: str | None) -> None:
        if text is None:
            self.closed.add(conn)
        else:
            self.sent.setdefault(conn, []).append(json.loads(text))

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        answer = json.loads(
            await self.host.request(method, path, None if body is None else json.dumps(body), self.lang)
        )
        return answer["status"], answer["body"]

    async def create(self, variant: str, seats: int, name: str, **more: Any) -> str:
        status, made = await self.call(
            "POST",
            "/api/tables",
            {"variant": variant, "seats": seats, "name": name, "client_seed": "abc", **more},
        )
        assert status == 201, made
        self.seats[made["id"]] = {made["seat"]: made["token"]}
        return str(made["id"])

    async def seat_bot(self, table_id: str, level: str) -> tuple[int, Any]:
        """Seat a bot of ``level``, asked by the creator (the first seat's token): the answer."""
        return await self.call(
            "POST", f"/api/tables/{table_id}/bots", {"token": self.seats[table_id][0], "level": level}
        )

    async def join(self, table_id: str, name: str) -> None:
        status, answer = await self.call(
            "POST", f"/api/tables/{table_id}/join", {"name": name, "client_seed": "xyz"}
        )
        assert status == 200, answer
        self.seats[table_id][answer["seat"]] = answer["token"]

    async def connect(self, table_id: str) -> str:
        conn = f"c{next(self._ids)}"
        await self.host.open(conn, f"/ws/{table_id}?lang={self.lang}&changes=1")
        return conn

    def view(self, conn: str) -> dict[str, Any]:
        """The table as the page sees it now: the last state with the changes since applied."""
        view: dict[str, Any] | None = None
        for message in self.sent.get(conn, []):
            if message["type"] == "state":
                view = dict(message["table"])
                view["version"] = message["version"]
            elif message["type"] == "change" and view is not None:
                assert message["since"] == view["version"], "a change reckoned from a version not shown"
                log = [*view["log"], *message["log"]][-60:]
                view.update(message["table"])
                view["log"] = log
                view["version"] = message["version"]
        assert view is not None
        return view

    def errors(self, conn: str) -> list[dict[str, Any]]:
        return [m for m in self.sent.get(conn, []) if m["type"] == "error"]

    async def send(self, conn: str, table_id: str, message: dict[str, Any]) -> None:
        view = self.view(conn)
        game = view["game"]
        token = self.seats[table_id][game["current"]] if game and game["current"] is not None else None
        message = {"token": token, "version": view["version"], **message}
        await self.host.receive(conn, json.dumps(message))

    async def settle(self, conn: str, table_id: str, timeout: float = 60) -> dict[str, Any]:
        """Wait until the bots have moved and it is a player's turn here, or the game is over."""
        deadline = time.monotonic() + timeout
        while True:
            view = self.view(conn)
            game = view["game"]
            if game is None or game["finished"] or game["current"] in self.seats[table_id]:
                return view
            assert time.monotonic() < deadline, "the bots did not move"
            await asyncio.sleep(0.01)
