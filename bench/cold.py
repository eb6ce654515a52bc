"""The first use of kosti on a fresh install: each first command against the same command run warm.

A fresh temporary clone of this repository (``git clone``, the work tree's uncommitted changes
copied over; or the clone at the commit ``--at``, to measure a baseline) gets an environment of
its own: ``uv sync --offline --frozen --no-dev --extra server`` in it, or, where that is
impossible (no ``uv``, or a package missing from uv's cache), this interpreter with the clone's
``src`` first on the path. The first line says which. Before each cold run every cache a first
run fills (``HOME``, ``KOSTI_CACHE_DIR``, ``NUMBA_CACHE_DIR``, ``XDG_CACHE_HOME``) points at a
new empty folder; the warm run is the same command again with those caches filled. Each line
gives the wall time of both and the CPU time of the cold run (on a busy machine the wall time
stretches; the CPU time does not).

1. ``kosti hint`` on a poker-classic position: the first hint (numba compiles the solver's
   kernels, the sheet is solved, the hint is read off it);
2. one game of bots at each level, ``kosti simulate poker-classic -n 1 --bots LEVEL``: the
   scriptable counterpart of ``kosti play … -b LEVEL``, whose first bot move is nearly all of it
   when cold (the rest of the game takes well under a second);
3. the first exact «Тысяча» hint: ``kosti hint`` on a thousand-classic position (exact only
   once its values are at hand: the line says whether it was), and on a small «Тысяча» that is
   solved on demand;
4. the first poker-fences hints: at the game's first throw (its first turns ship with kosti),
   and in column II with four cells recorded (the states the column can still come to are
   solved: the most any poker-fences hint solves).

5. the first hint a ``kosti serve`` gives: a server started with empty caches, a poker-classic
   table with hints made over HTTP, one throw and a hint asked over its WebSocket; the time
   from asking to the answer (the warm line: a new server with those caches filled).

At the end the first hint once more, cold, with ``NUMBA_CACHE_DIR`` unset: how many files of
numba's cache land in the clone's source tree (none should) and how many in ``KOSTI_CACHE_DIR``.

    uv run python bench/cold.py [--rounds 1] [--at COMMIT] [--keep] [--serve-only]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from kosti.games.sheet.game import cells_of
from kosti.rules.presets import variant

HERE = Path(__file__).resolve().parent

SHEET_POSITION = {"variant": "poker-classic", "dice": [1, 2, 3, 4, 6], "throws": 1}
SMALL_THOUSAND = (
    "thousand-classic(target=20,barrel=none,pits=[],dump_at=null,"
    "opening=10,bolt_penalty=10,overtake_penalty=5)"
)
"""A «Тысяча» small enough to be solved at once, when its first hint asks for it."""


def thousand_hint(spec: str) -> list[str]:
    """``kosti hint`` on a «Тысяча» position of ``spec`` (as JSON)."""
    players = [{"name": "Anna", "score": 10, "opened": True}, {"name": "Boris", "score": 5, "opened": True}]
    position = {"variant": spec, "players": players, "turn_total": 10, "dice_left": 3}
    return ["hint", "--position", json.dumps(position), "--json"]


def bots(level: str) -> list[str]:
    return ["simulate", "poker-classic", "-n", "1", "--bots", level, "--seed", "1", "-w", "1", "--json"]


FENCES_FULL = dict.fromkeys(cells_of(variant("poker-fences").options), 0)  # type: ignore[arg-type]
"""A whole column of poker-fences, every cell recorded."""
FENCES_START = {"variant": "poker-fences", "dice": [6, 6, 6, 2, 1], "throws": 1}
"""The first throw of a poker-fences game: its first turns ship with kosti."""
FENCES_COLUMN_II = {
    "variant": "poker-fences",
    "columns": {"I": FENCES_FULL, "II": {"ones": -2, "twos": 0, "pair": 8, "poker": 0}},
    "banked": 12,
    "dice": [1, 2, 3, 4, 6],
    "throws": 1,
}
"""A column II position with the most recorded cells no shipped turn covers: the hint solves the
states the column can still come to (the most any poker-fences hint solves)."""


def fences_hint(position: dict[str, object]) -> list[str]:
    return ["hint", "--position", json.dumps(position), "--json", "--top", "1"]


COMMANDS: list[tuple[str, list[str]]] = [
    ("first poker-classic hint", ["hint", "--position", json.dumps(SHEET_POSITION), "--json", "--top", "1"]),
    *[(f"a game of the {level} bot", bots(level)) for level in ("random", "heuristic", "optimal")],
    ("thousand-classic hint", thousand_hint("thousand-classic")),
    ("small «Тысяча» hint (solved at once)", thousand_hint(SMALL_THOUSAND)),
    ("first poker-fences hint (shipped)", fences_hint(FENCES_START)),
    ("poker-fences hint, column II (4 recorded)", fences_hint(FENCES_COLUMN_II)),
]
"""Each command's label and its arguments to ``kosti``."""


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def clone(into: Path, at: str | None) -> Path:
    """A fresh clone of this repository in ``into``: with the work tree's changes, or at commit ``at``."""
    top = Path(git("rev-parse", "--show-toplevel", cwd=HERE).strip())
    target = into / "kosti"
    git("clone", "--quiet", str(top), str(target), cwd=into)
    if at is not None:
        git("-c", "advice.detachedHead=false", "checkout", "--quiet", at, cwd=target)
    else:
        changed = git("ls-files", "--modified", "--others", "--exclude-standard", "-z", cwd=top).split("\0")
        for name in filter(None, changed):
            source = top / name
            if source.is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
            elif not source.exists():
                (target / name).unlink(missing_ok=True)
    return target


def environment(checkout: Path) -> tuple[list[str], dict[str, str], str]:
    """How to run the clone's ``kosti``: the command, extra environment and what was done."""
    uv = shutil.which("uv")
    if uv is not None:
        env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")}
        done = subprocess.run(
            [uv, "sync", "--offline", "--frozen", "--no-dev", "--extra", "server", "--quiet"],
            cwd=checkout,
            env=env,
            capture_output=True,
            text=True,
        )
        script = checkout / ".venv" / "bin" / "kosti"
        if done.returncode == 0 and script.exists():
            return [str(script)], {}, "uv sync --offline --frozen --no-dev --extra server in the clone"
        why = (done.stderr.strip().splitlines() or ["no kosti script"])[-1]
    else:
        why = "no uv on the path"
    # this interpreter's packages, the clone's kosti first on the path
    return (
        [sys.executable, "-m", "kosti"],
        {"PYTHONPATH": str(checkout / "src")},
        f"this interpreter with the clone's src first on the path (uv sync impossible: {why})",
    )


def run(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of one process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])}… failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return wall, cpu, done.stdout


def fresh_caches(root: Path, base: dict[str, str]) -> dict[str, str]:
    """The environment of a first run: every cache in a new empty folder under ``root``."""
    folder = Path(tempfile.mkdtemp(prefix="caches-", dir=root))
    env = {k: v for k, v in base.items() if not k.startswith(("KOSTI_", "NUMBA_"))}
    env |= {
        "HOME": str(folder / "home"),
        "KOSTI_CACHE_DIR": str(folder / "kosti"),
        "NUMBA_CACHE_DIR": str(folder / "numba"),
        "XDG_CACHE_HOME": str(folder / "xdg"),
    }
    (folder / "home").mkdir()
    return env


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def post(url: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        data: dict[str, object] = json.loads(answer.read())
        return data


def serve_hint(kosti: list[str], env: dict[str, str], limit: float = 600.0) -> tuple[float, str]:
    """Start ``kosti serve``, seat a player at a poker-classic table with hints, throw once and ask
    for a hint: the seconds from asking to the answer, and the hint's note (exact or not)."""
    from websockets.sync.client import connect

    port = free_port()
    server = subprocess.Popen(
        [*kosti, "serve", "--port", str(port), "--log-level", "warning"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/server", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("kosti serve did not start") from None
                time.sleep(0.2)
        made = post(
            f"{base}/api/tables",
            {
                "variant": "poker-classic",
                "seats": 1,
                "hints": True,
                "name": "Anna",
                "client_seed": "bench-cold",
            },
        )
        table, token = made["id"], made["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/{table}?lang=en", open_timeout=30) as ws:
            state = json.loads(ws.recv(timeout=30))
            ws.send(
                json.dumps({"type": "action", "version": state["version"], "token": token, "action": "throw"})
            )
            while True:
                state = json.loads(ws.recv(timeout=30))
                if state.get("type") == "state":
                    break
            start = time.perf_counter()
            ws.send(json.dumps({"type": "hint", "version": state["version"], "token": token}))
            while True:
                answer = json.loads(ws.recv(timeout=limit))
                if answer.get("type") == "hint":
                    return time.perf_counter() - start, str(answer.get("note", ""))[:40]
                if answer.get("type") == "error":
                    raise SystemExit(f"the hint was refused: {answer}")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="cold runs of each (the fastest counts)")
    parser.add_argument("--at", help="a commit to measure instead of the work tree (HEAD: the last one)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary clone and caches")
    parser.add_argument("--serve-only", action="store_true", help="time only the first kosti serve hint")
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="kosti-cold-"))
    try:
        checkout = clone(root, args.at)
        kosti, extra, how = environment(checkout)
        print(f"fresh clone of {'the work tree' if args.at is None else args.at} in {checkout}")
        print(f"environment: {how}; {os.cpu_count()} cores")
        base = {**os.environ, **extra}
        print(f"{'command':42s} {'cold':>9s} {'cpu':>8s} {'warm':>8s}  note")
        for label, command in [] if args.serve_only else COMMANDS:
            best = (float("inf"), 0.0, "")
            env = base
            for _ in range(args.rounds):
                env = fresh_caches(root, base)
                wall, cpu, out = run([*kosti, *command], env)
                if wall < best[0]:
                    best = (wall, cpu, out)
            warm, _, out = run([*kosti, *command], env)
            note = ""
            if command[0] == "hint":
                exact = json.loads(out).get("exact")
                note = {True: "exact", False: "not exact (heuristic)", None: "exact or not: not said"}[exact]
            print(f"{label:42s} {best[0]:7.2f} s {best[1]:6.2f} s {warm:6.2f} s  {note}")
        env = fresh_caches(root, base)
        cold, note = serve_hint(kosti, env)
        warm, _ = serve_hint(kosti, env)
        print(f"{'first kosti serve hint (poker-classic)':42s} {cold:7.2f} s {'':>8s} {warm:6.2f} s  {note}")
        if args.serve_only:
            return
        # where numba keeps its code when the user has not said (no NUMBA_CACHE_DIR)
        env = fresh_caches(root, base)
        del env["NUMBA_CACHE_DIR"]
        wall, cpu, _ = run([*kosti, *COMMANDS[0][1]], env)
        stray = [p for p in (checkout / "src").rglob("*") if p.suffix in (".nbi", ".nbc")]
        kept = [p for p in Path(env["KOSTI_CACHE_DIR"]).rglob("*") if p.suffix in (".nbi", ".nbc")]
        print(f"{COMMANDS[0][0] + ', no NUMBA_CACHE_DIR':42s} {wall:7.2f} s {cpu:6.2f} s")
        print(f"  numba's files in the clone's source tree: {len(stray)}, in KOSTI_CACHE_DIR: {len(kept)}")
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
