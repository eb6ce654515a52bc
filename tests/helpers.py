"""What many test modules share: the in-process ``kosti`` command and a partial comparison of JSON.

``from helpers import contains, run_kosti`` works in every test module: pytest puts this
directory on ``sys.path`` for the ``conftest.py`` beside it.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from kosti.cli import main
from kosti.games.sheet.game import SheetState
from kosti.rules.presets import Variant, variant


class Run:
    """What one ``kosti`` command did: its exit code, standard output and standard error."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)


def run_kosti(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> Run:
    """Run ``kosti ARGS…`` in-process through :func:`kosti.cli.main`, the entry point of the script,
    so that usage errors and exit codes take the same path as on a terminal."""
    capsys.readouterr()  # what the test printed before is not the command's output
    monkeypatch.setattr(sys, "argv", ["kosti", *args])
    with pytest.raises(SystemExit) as exit_:
        main()
    out, err = capsys.readouterr()
    code = exit_.value.code
    # sys.exit() and sys.exit(None) mean success; any other non-number is a failure
    return Run(0 if code is None else code if isinstance(code, int) else 1, out, err)


def contains(actual: Any, expected: Any, where: str = "") -> None:
    """Fail unless everything in ``expected`` is in ``actual`` with the same value.

    Objects may have more keys than expected; lists must have the same length, item by item.
    The message names the first place that differs (``.players[1].score``).
    """
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: {actual!r} is not an object"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} is missing"
            contains(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: {actual!r} is not a list"
        assert len(actual) == len(expected), f"{where}: {len(actual)} items, not {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            contains(a, e, f"{where}[{i}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


TINY_THOUSAND = (
    "thousand-classic(target=20,barrel=none,pits=[],dump_at=null,opening=10,"
    "bolt_penalty=10,overtake_penalty=5)"
)
"""A «Тысяча» small enough for the exact two-player solver to solve in about a second."""


def thousand_position(spec: str, scores: tuple[int, int], turn_total: int, dice_left: int) -> dict[str, Any]:
    """A ``kosti hint --position`` document: Anna to move against Boris, both opened."""
    names = ("Anna", "Boris")
    return {
        "variant": spec,
        "players": [{"name": n, "score": s, "opened": True} for n, s in zip(names, scores, strict=True)],
        "turn_total": turn_total,
        "dice_left": dice_left,
    }


class Recorder:
    """A progress callback that hears the phases too."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def phase(self, name: str) -> None:
        self.calls.append(name)

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))

    def of(self, phase: str) -> list[tuple[int, int]]:
        """The reports of ``phase`` (its last run)."""
        start = len(self.calls) - 1 - self.calls[::-1].index(phase)
        reports = []
        for call in self.calls[start + 1 :]:
            if isinstance(call, str):
                break
            reports.append(call)
        return reports


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def uvicorn_thread(app: Any, **options: Any) -> Iterator[str]:
    """``app`` served by a real uvicorn on a free loopback port, in a thread; its base URL."""
    import uvicorn

    config = uvicorn.Config(
        app, host="127.0.0.1", port=free_port(), log_level="warning", ws_max_size=65536, **options
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail("uvicorn did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def random_positions(rules: Variant | str, count: int, seed: int) -> list[SheetState]:
    """``count`` decision states of a score sheet met in games of random decisions (seeded), all
    of the one variant object ``rules`` (or of the variant named so)."""
    import random

    from kosti.actions import Roll
    from kosti.games.sheet.game import SHEET

    rng = random.Random(seed)
    if isinstance(rules, str):
        rules = variant(rules)
    found: list[SheetState] = []
    while len(found) < count:
        state = SHEET.new_game(rules, ["solo"])
        while not state.finished and len(found) < count:
            if state.pending:
                state = SHEET.apply(state, Roll(tuple(rng.randint(1, 6) for _ in range(state.pending))))
                continue
            if rng.random() < 0.3:
                found.append(state)
            state = SHEET.apply(state, rng.choice(SHEET.decisions(state)))
    return found
