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
import queue
import threading
from dataclasses import dataclass

from kosti.server.events import StoredEvent
from kosti.server.store import Store

WRITERS = 2
"""Transactions under way at once: while one commits, the next gathers the writes arriving."""

BATCH = 256
"""Writes one transaction takes at most."""

CLOSE_WITHIN = 10.0
"""Seconds a closing committer waits for each writer to finish what it was handed."""


@dataclass
class _Write:
    table_id: str
    version: int
    events: list[StoredEvent]
    done: asyncio.Future[None]


class Committer:
    """Appends to a :class:`Store`, grouped into shared transactions.

    The writers are threads of their own, each with its database connection, that take
    the writes from a queue as they come: a write is handed over without waiting for
    the event loop, and the loop hears of a whole transaction's writes at once.
    """

    def __init__(self, store: Store, writers: int = WRITERS) -> None:
        self.store = store
        self.writers = writers
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._loop: asyncio.AbstractEventLoop | None = None

    async def append(self, table_id: str, version: int, events: list[StoredEvent]) -> None:
        """Like :meth:`Store.append` (the same errors), once the transaction holding it has committed."""
        loop = asyncio.get_running_loop()
        if not self._threads:
            self._loop = loop
            self._threads = [
                threading.Thread(target=self._write, name=f"kosti-writer-{n}", daemon=True)
                for n in range(self.writers)
            ]
            for thread in self._threads:
                thread.start()
        write = _Write(table_id, version, events, loop.create_future())
        self._queue.put(write)
        await write.done

    def _write(self) -> None:
        """A writer thread: each transaction takes every write waiting (up to :data:`BATCH`)."""
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < BATCH:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            writes = [(w.table_id, w.version, w.events) for w in batch]
            results: list[Exception | None]
            try:
                results = list(self.store.append_many(writes))
            except Exception as error:  # an unexpected failure fails each change, not the writer
                results = [error] * len(batch)
            if self._loop is not None and not self._loop.is_closed():
                self._loop.call_soon_threadsafe(_answer, batch, results)
            if stop:
                return

    async def close(self) -> None:
        """Stop the writers once the writes handed to them are done."""
        threads, self._threads = self._threads, []
        for _ in threads:
            self._queue.put(None)
        for thread in threads:  # a writer stuck on unreachable storage is left behind (a daemon)
            await asyncio.to_thread(thread.join, CLOSE_WITHIN)


def _answer(batch: list[_Write], results: list[Exception | None]) -> None:
    """Tell each change of a transaction what became of its write (in the event loop)."""
    for write, result in zip(batch, results, strict=True):
        if write.done.done():
            continue  # its change was cancelled meanwhile
        if result is None:
            write.done.set_result(None)
        else:
            write.done.set_exception(result)
