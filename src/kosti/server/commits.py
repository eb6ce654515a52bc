"""Group commit: the writes of many tables in one transaction, each still committed before it is shown.

Every change waits for its commit, and a commit waits for the database to make it
durable (a disk flush each, milliseconds). :class:`Committer` lets the changes that
arrive while a commit is under way share the next one: a few writers each take all
the writes waiting, store them in one transaction (:meth:`~kosti.server.store.Store.append_many`)
and only then answer each change, which goes on to apply and show its events. No
write waits for a window to close: a lone change is written at once, and the
window is simply the time the commit before it takes.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

import anyio

from kosti.server.store import Store
from kosti.server.table import Event

WRITERS = 2
"""Transactions under way at once: while one commits, the next gathers the writes arriving."""

BATCH = 256
"""Writes one transaction takes at most."""


@dataclass
class _Write:
    table_id: str
    version: int
    events: list[Event]
    done: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class Committer:
    """Appends to a :class:`Store`, grouped into shared transactions."""

    def __init__(self, store: Store, writers: int = WRITERS) -> None:
        self.store = store
        self.writers = writers
        self._queue: asyncio.Queue[_Write] | None = None
        self._tasks: list[asyncio.Task[None]] = []

    async def append(self, table_id: str, version: int, events: list[Event]) -> None:
        """Like :meth:`Store.append` (the same errors), once the transaction holding it has committed."""
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._tasks = [asyncio.create_task(self._write(self._queue)) for _ in range(self.writers)]
        write = _Write(table_id, version, events)
        self._queue.put_nowait(write)
        await write.done

    async def _write(self, queue: asyncio.Queue[_Write]) -> None:
        while True:
            batch = [await queue.get()]
            while len(batch) < BATCH and not queue.empty():
                batch.append(queue.get_nowait())
            writes = [(w.table_id, w.version, w.events) for w in batch]
            results: list[Exception | None]
            try:
                results = list(await anyio.to_thread.run_sync(self.store.append_many, writes))
            except Exception as error:  # an unexpected failure fails each change, not the writer
                results = [error] * len(batch)
            for write, result in zip(batch, results, strict=True):
                if write.done.done():
                    continue  # its change was cancelled meanwhile
                if result is None:
                    write.done.set_result(None)
                else:
                    write.done.set_exception(result)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        self._queue = None
