"""A table's game checked on the server as ``kosti verify`` checks a record: every die against
the seeds and every decision against the rules (:func:`kosti.server.fair.verify`), for a player
on a phone who cannot run the command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio

from kosti.server.answers import Verification
from kosti.server.fair import verify as verify_record

if TYPE_CHECKING:
    from kosti.server.hub import Hub


async def verify_table(hub: Hub, table_id: str) -> Verification:
    """The game of ``table_id`` checked, off the event loop; ``pending`` until the game is over
    and the server seed is revealed."""
    async with hub.visit(table_id) as room:
        table = room.table
        fair = table.fair() or {}
        if not table.over or "server_seed" not in fair:
            return Verification(status="pending", server_seed_sha256=fair.get("server_seed_sha256"))
        record = table.record()
    verdict = await anyio.to_thread.run_sync(verify_record, record)
    return Verification(
        status=verdict.status,
        throws=verdict.throws,
        dice=verdict.dice,
        reason=verdict.reason,
        server_seed=fair["server_seed"],
        server_seed_sha256=fair["server_seed_sha256"],
    )
