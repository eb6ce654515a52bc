"""Rule comparisons: the same bots under two option sets, with common random numbers.

Both runs use the same master seed, so game ``i`` of each starts from the same dice
seed (roll-off, first throws, bots' seeds): the two games share their luck for as
long as their play agrees. Each statistic's difference is then the mean of the
per-game differences, with a normal 95 % interval; the pairs are independent, so the
interval is honest, and it is narrower than comparing two independent runs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from rich.table import Table

from kosti.errors import OptionError
from kosti.sim.report import Outcome
from kosti.sim.stats import paired_difference


def compare(a: Outcome, b: Outcome) -> dict[str, Any]:
    """The differences A − B of mean score per seat, game length, the first seat's win rate
    and the family's events per game, each with its 95 % interval (JSON form)."""
    if a.games != b.games or a.bots != b.bots:
        raise OptionError("a comparison needs the same games and bots on both sides")
    rows: list[tuple[str, np.ndarray, np.ndarray]] = []
    for s, name in enumerate(a.seat_names()):
        rows.append((f"mean score, seat {name}", a.scores[:, s], b.scores[:, s]))
    rows.append(("game length, turns", a.turns, b.turns))
    if a.seats > 1:
        rows.append((f"win rate, seat {a.seat_names()[0]}", a.wins[:, 0], b.wins[:, 0]))
    for name in a.events:
        if name in b.events:
            rows.append((f"{name} per game", a.events[name], b.events[name]))
    differences = []
    for statistic, x, y in rows:
        diff = paired_difference(x, y)
        differences.append(
            {
                "statistic": statistic,
                "a": float(np.mean(x)),
                "b": float(np.mean(y)),
                "difference": diff.as_dict(),
                "significant": not diff.contains(0.0),
            }
        )
    return {
        "a": a.spec,
        "b": b.spec,
        "games": a.games,
        "seed": a.seed,
        "method": a.method,
        "bots": list(a.bots),
        "unfinished": {"a": int((~a.finished).sum()), "b": int((~b.finished).sum())},
        "differences": differences,
    }


def render_comparison(data: dict[str, Any]) -> Table:
    """The comparison as a rich table; differences whose interval excludes 0 in bold."""
    table = Table(
        title=f"A = {data['a']}\nB = {data['b']}\n{data['games']:,} paired games, seed {data['seed']}",
        title_justify="left",
    )
    table.add_column("statistic")
    table.add_column("A", justify="right")
    table.add_column("B", justify="right")
    table.add_column("A − B [95 % CI]", justify="right")
    for row in data["differences"]:
        d = row["difference"]
        percent = row["statistic"].startswith("win rate")
        scale, unit = (100.0, " pp") if percent else (1.0, "")
        a, b = row["a"] * scale, row["b"] * scale
        text = f"{d['estimate'] * scale:+.2f}{unit} [{d['low'] * scale:+.2f}, {d['high'] * scale:+.2f}]"
        style = "bold" if row["significant"] else "dim"
        suffix = " %" if percent else ""
        table.add_row(row["statistic"], f"{a:.2f}{suffix}", f"{b:.2f}{suffix}", f"[{style}]{text}[/{style}]")
    return table
