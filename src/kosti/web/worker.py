"""The Python side of the page's worker (``static/local/worker.js``): warm up, then host.

On the first visit of a build the worker imports kosti and plays a little of every family
(:func:`warm`) before it keeps a snapshot of Pyodide's memory; every later visit starts from
that snapshot, with everything imported and worded once already, instead of compiling
kosti's modules again. Then :func:`start` hands the device's tables (:class:`LocalHost`) the
worker's JavaScript: IndexedDB, the page's sockets, and ``crypto.getRandomValues``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kosti.bots.base import Advisor
from kosti.i18n import catalog, messages
from kosti.narrate import Narrator
from kosti.roller import SeededDice
from kosti.rules.presets import variant
from kosti.server.events import BotSeated, Start
from kosti.server.hints import Advised, hint_message
from kosti.server.planning import plan_bot_move
from kosti.server.rulebook import variant_rules
from kosti.server.table import TableSettings
from kosti.server.view import TableView
from kosti.web.host import BOT_DELAY, DeviceTable, Emit, LocalHost, Storage, device_bots

WARM_PRESETS = ("thousand-classic", "poker-classic", "poker-showdown")
"""One preset of each family, played a few moves in :func:`warm`."""


def warm(moves: int = 12) -> None:
    """Import and word what a table uses, in both languages, let the bots of each family play a
    few moves and word a hint: what a later visit would otherwise do (slowly: Pyodide compiles
    each module as it is first imported) before its first throw. Touches nothing of JavaScript,
    for the snapshot may keep no reference to it."""
    for lang in ("ru", "en"):
        messages(lang)
        catalog(lang)
    for spec in WARM_PRESETS:
        rules = variant(spec)
        table = DeviceTable("local-warm", TableSettings(rules.spec, 2, "online", hints=True), SeededDice(1))
        table.apply(BotSeated(0, "heuristic bot 1", "heuristic"))
        table.apply(BotSeated(1, "random bot 2", "random"))
        table.apply(Start((0, 1), None, ()))
        view = TableView(table)
        for _ in range(moves):
            events = plan_bot_move(table)
            if not events:
                break
            for event in events:
                table.apply(event)
        advisor = device_bots("heuristic", rules, 0)
        state = table.state
        advised = None
        decides = state is not None and table.status == "playing" and not table.engine.to_throw(state)
        if decides and state is not None and isinstance(advisor, Advisor):  # the decision they stopped at
            advised = Advised(table.version, 0, state, advisor.advise(state), False)
        for lang in ("ru", "en"):
            variant_rules(spec, lang)
            view.full(lang)
            narrator = Narrator(rules, ["Анна", "Борис"], lang)
            for entry in table.log:
                narrator.describe_all(entry.caused)
            if advised is not None:
                hint_message(rules, advised, lang)


def start(
    store: Storage, emit: Emit, random_bytes: Callable[[int], Any], bot_delay: float | None = None
) -> LocalHost:
    """The device's tables, kept in ``store``, shown through ``emit``, with dice from
    ``random_bytes`` (``crypto.getRandomValues`` of a ``Uint8Array`` of that length); a bot moves
    every ``bot_delay`` seconds (:data:`~kosti.web.host.BOT_DELAY` unless given)."""
    delay = BOT_DELAY if bot_delay is None else max(0.0, float(bot_delay))
    return LocalHost(store, emit, lambda n: random_bytes(n).to_bytes(), delay)
