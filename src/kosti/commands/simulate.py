"""``kosti simulate``: many games with bots, their statistics, plots, and rule comparisons."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from kosti.commands.common import emit, fail, refuse
from kosti.errors import KostiError, OptionError


def parse_assignments(items: list[str]) -> dict[str, Any]:
    """``["barrel=open", "pits=[]", "a=1,b=2"]`` → options; a value is JSON where it parses, else text.

    Commas inside brackets belong to the value (``pits=[[200,300]]``).
    """
    result: dict[str, Any] = {}
    for item in items:
        depth = 0
        start = 0
        pieces = []
        for i, ch in enumerate(item):
            depth += ch in "[{"
            depth -= ch in "]}"
            if ch == "," and depth == 0:
                pieces.append(item[start:i])
                start = i + 1
        pieces.append(item[start:])
        for piece in filter(str.strip, pieces):
            if "=" not in piece:
                raise OptionError(f"an option is written name=value, not {piece.strip()!r}")
            key, raw = (part.strip() for part in piece.split("=", 1))
            try:
                result[key] = json.loads(raw)
            except json.JSONDecodeError:
                result[key] = raw
    return result


@contextmanager
def progress_bar(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A rich progress bar on standard error, redrawn as games finish (silent when not a terminal)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    start = time.perf_counter()
    # no refresh thread (auto_refresh off): worker processes are forked while the bar is shown,
    # and a fork should not copy a thread that may hold the console's lock
    live = console.is_terminal
    with Progress(*columns, console=console, disable=not live, transient=True, auto_refresh=False) as bar:
        task = bar.add_task(label, total=total, rate="")
        done = 0

        def advance(games: int) -> None:
            nonlocal done
            done += games
            elapsed = time.perf_counter() - start
            rate = f"{done / elapsed:,.0f} games/s" if elapsed > 0 else ""
            bar.update(task, advance=games, rate=rate)
            if live:
                bar.refresh()

        yield advance


def simulate(
    preset: Annotated[str, typer.Argument(help="Preset id or canonical variant string.")],
    games: Annotated[int, typer.Option("--games", "-n", help="Games to play.")] = 1000,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="One bot per seat, comma-separated: random, heuristic, optimal, table. "
            "A roll-off picks who starts each game; -o first_player=seat starts with the first.",
        ),
    ] = "heuristic",
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Override an option: name=value (repeatable).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Master seed (random when left out).")] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", "-w", help="Processes (default: all cores).")
    ] = None,
    csv_file: Annotated[
        Path | None, typer.Option("--csv", help="Write one row per game to this CSV file.")
    ] = None,
    plot_file: Annotated[
        Path | None, typer.Option("--plot", help="Draw the score distribution to this PNG.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    compare: Annotated[
        str | None,
        typer.Option(
            "--compare", help="Compare rules: options of side A, e.g. 'barrel=open' (name=value,…)."
        ),
    ] = None,
    compare_with: Annotated[
        str | None, typer.Option("--compare-with", help="Options of side B (default: the preset as given).")
    ] = None,
    vectorised: Annotated[
        bool,
        typer.Option("--vectorised", help="Play all games at once in NumPy (solitaire sheet, --bots table)."),
    ] = False,
    bins: Annotated[int, typer.Option("--bins", help="Bins of the terminal histogram.")] = 16,
) -> None:
    """Play many games with bots and report scores, win rates and game length with 95 % intervals."""
    from rich.console import Console

    from kosti.rules.presets import variant
    from kosti.sim import run
    from kosti.sim.compare import compare as compare_runs
    from kosti.sim.compare import render_comparison
    from kosti.sim.report import plot, render, report, write_csv
    from kosti.sim.vector import default_workers

    if games < 1:
        fail("--games must be at least 1")
    if bins < 1:
        fail("--bins must be at least 1")
    if workers is not None and workers < 1:
        fail("--workers must be at least 1")
    if compare_with is not None and compare is None:
        fail("--compare-with needs --compare")
    seats = [b.strip() for b in bots.split(",") if b.strip()]
    if not seats:
        fail("--bots names one bot per seat, e.g. heuristic,random")
    master = seed if seed is not None else secrets.randbits(32)
    cores = workers or default_workers()
    try:
        overrides = parse_assignments(option or [])
        rules = variant(preset, overrides)
        sides = [rules]
        if compare is not None:
            a = variant(preset, {**overrides, **parse_assignments([compare])})
            b = variant(preset, {**overrides, **parse_assignments([compare_with or ""])})
            if a.spec == b.spec:
                fail(f"--compare and --compare-with give the same rules: {a.spec}")
            sides = [a, b]
        outcomes = []
        for side in sides:
            with progress_bar(f"{side.spec}", games) as advance:
                outcomes.append(run(side, seats, games, master, cores, vectorised, advance))
    except KostiError as error:
        refuse(error)

    # with a comparison, the files of side A and B get -a and -b before their suffix
    suffixes = ("-a", "-b") if compare is not None else ("",)
    try:
        for outcome, suffix in zip(outcomes, suffixes, strict=True):
            if csv_file:
                write_csv(outcome, csv_file.with_stem(csv_file.stem + suffix))
            if plot_file:
                plot(outcome, report(outcome), plot_file.with_stem(plot_file.stem + suffix))
    except OSError as error:
        fail(f"cannot write {error.filename}: {error.strerror}")
    console = Console()
    if compare is not None:
        comparison = compare_runs(outcomes[0], outcomes[1])
        if as_json:
            emit(comparison)
        else:
            console.print(render_comparison(comparison))
        return
    data = report(outcomes[0])
    if as_json:
        emit(data)
    else:
        console.print(render(data, outcomes[0], bins, console.width))
