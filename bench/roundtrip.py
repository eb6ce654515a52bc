"""Round-trip time of one action over a WebSocket to a real ``kosti serve`` on loopback.

Starts ``kosti serve`` (uvicorn) as a separate process on a free 127.0.0.1 port with a
fresh SQLite file (or ``--database URL``), seats one player at a table of poker-free
(a new table when a game ends), and then, ``--actions`` times: sends a move (a throw,
or the first cell to score) and waits for the state that carries the next version.
The server checks each move, throws the fair dice, writes to storage (committed) and
broadcasts. Prints the median, p99, mean and maximum in milliseconds.

    uv run python bench/roundtrip.py [--actions 1000] [--warmup 50] [--database URL]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(database: str, port: int, log: Path, extra: Sequence[str] = ()) -> subprocess.Popen[bytes]:
    """``kosti serve`` on ``port``, once it answers; ``extra`` options added."""
    command = [sys.executable, "-c", "from kosti.cli import main; main()", "serve"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--database", database, *extra]
    # the benchmark's clients send as fast as they can: lift the per-connection limit
    command += ["--rate", "1000000", "--burst", "1000000", "--log-level", "warning"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"kosti serve exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/server", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("kosti serve did not start in time")


def first_move(game: dict[str, Any]) -> Any:
    """A move that always ends a game: throw when dice are due, else the first cell to score."""
    if game["to_throw"] or (game["may_throw"] and not game["decisions"]):
        return "throw"
    scores = [d for d in game["decisions"] if isinstance(d, dict) and "score" in d]
    return scores[0] if scores else game["decisions"][0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def one_game(base: str, moves: int) -> list[float]:
    """Play one game of one player at a new table (at most ``moves`` moves); each move's round trip."""
    variant = "poker-free(first_player=seat)"
    table = httpx.post(f"{base}/api/tables", json={"variant": variant, "seats": 1}).json()
    joined = httpx.post(
        f"{base}/api/tables/{table['id']}/join", json={"name": "bench", "client_seed": "bench"}
    )
    token = joined.json()["token"]
    times: list[float] = []
    with connect(f"{base.replace('http', 'ws')}/ws/{table['id']}", max_size=None, compression=None) as ws:
        state = json.loads(ws.recv())
        while len(times) < moves and not state["table"]["game"]["finished"]:
            action = first_move(state["table"]["game"])
            message = json.dumps(
                {"type": "action", "version": state["version"], "token": token, "action": action}
            )
            start = time.perf_counter()
            ws.send(json.dumps(message))
            state = json.loads(ws.recv())
            times.append((time.perf_counter() - start) * 1000)
            if state["type"] != "state":
                raise SystemExit(f"refused: {state}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000, help="actions measured")
    parser.add_argument("--warmup", type=int, default=50, help="actions made before measuring")
    parser.add_argument("--database", help="SQLAlchemy URL; default: a fresh SQLite file")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        database = args.database or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        port = free_port()
        server = start_server(database, port, Path(folder) / "serve.log")
        try:
            base = f"http://127.0.0.1:{port}"
            times: list[float] = []
            while len(times) < args.actions:
                times += one_game(base, args.warmup + args.actions + 1 - len(times))
            times = times[args.warmup :]
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"database: {database.split(':', 1)[0]}; actions: {len(times)} (after {args.warmup} warm-up)")
    print(
        f"round trip ms: median {statistics.median(times):.2f}, p99 {percentile(times, 0.99):.2f}, "
        f"mean {statistics.fmean(times):.2f}, max {max(times):.2f}"
    )


if __name__ == "__main__":
    main()
