"""What a simulation found: per-seat statistics, as JSON, rich tables, CSV and a PNG.

:class:`Outcome` holds a run's per-game results as arrays (from the per-game loop
or from the vectorised simulator); :func:`report` turns it into the JSON report of
``kosti simulate --json``; :func:`render` into rich renderables (tables and a
terminal histogram); :func:`write_csv` and :func:`plot` export it.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kosti.sim.runner import GameResult
from kosti.sim.stats import describe, histogram_edges, mean_interval, wilson

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

PLOT_SIZE = (11.0, 4.5)
PLOT_DPI = 100
"""The PNG is ``PLOT_SIZE × PLOT_DPI`` pixels: 1100 × 450."""


@dataclass(frozen=True)
class Outcome:
    """The per-game results of a run, by game (rows) and seat (columns)."""

    spec: str
    bots: tuple[str, ...]
    seed: int
    scores: IntArray
    """``[game, seat]`` final scores."""

    wins: BoolArray
    """``[game, seat]``: the seat shares first place."""

    turns: IntArray
    starters: IntArray
    finished: BoolArray
    game_seeds: IntArray
    """Each game's dice seed (per-game loop), or −1 where games share a generator (vectorised)."""

    events: dict[str, IntArray] = field(default_factory=dict)
    method: str = "loop"
    """``loop`` (engine and bots, game by game) or ``vector`` (NumPy, a table policy)."""

    @property
    def games(self) -> int:
        return int(self.scores.shape[0])

    @property
    def seats(self) -> int:
        return int(self.scores.shape[1])

    @classmethod
    def from_results(
        cls,
        spec: str,
        bots: Sequence[str],
        seed: int,
        results: Sequence[GameResult],
        event_names: Sequence[str],
    ) -> Outcome:
        n = len(bots)
        wins = np.zeros((len(results), n), dtype=bool)
        for g, r in enumerate(results):
            wins[g, list(r.winners)] = True
        events = {
            name: np.array([r.events[k] for r in results], dtype=np.int64)
            for k, name in enumerate(event_names)
        }
        return cls(
            spec=spec,
            bots=tuple(bots),
            seed=seed,
            scores=np.array([r.scores for r in results], dtype=np.int64).reshape(len(results), n),
            wins=wins,
            turns=np.array([r.turns for r in results], dtype=np.int64),
            starters=np.array([r.starter for r in results], dtype=np.int64),
            finished=np.array([r.finished for r in results], dtype=bool),
            game_seeds=np.array([r.seed for r in results], dtype=np.int64),
            events=events,
        )

    @classmethod
    def solitaire(cls, spec: str, bot: str, seed: int, scores: IntArray, turns: int) -> Outcome:
        """A vectorised run: one seat, every game finished after ``turns`` turns."""
        games = len(scores)
        return cls(
            spec=spec,
            bots=(bot,),
            seed=seed,
            scores=scores.reshape(games, 1),
            wins=np.ones((games, 1), dtype=bool),
            turns=np.full(games, turns, dtype=np.int64),
            starters=np.zeros(games, dtype=np.int64),
            finished=np.ones(games, dtype=bool),
            game_seeds=np.full(games, -1, dtype=np.int64),
            method="vector",
        )

    def seat_names(self) -> list[str]:
        return [f"{i + 1}:{bot}" for i, bot in enumerate(self.bots)]


def report(outcome: Outcome) -> dict[str, Any]:
    """The JSON report: per-seat score distribution and win rate (Wilson 95 %), game length, events."""
    seats = []
    for s, name in enumerate(outcome.seat_names()):
        entry: dict[str, Any] = {"seat": s + 1, "bot": outcome.bots[s], "name": name}
        entry["score"] = describe(outcome.scores[:, s]).as_dict()
        if outcome.seats > 1:
            wins = int(outcome.wins[:, s].sum())
            entry["wins"] = wins
            entry["win_rate"] = wilson(wins, outcome.games).as_dict()
        seats.append(entry)
    result: dict[str, Any] = {
        "variant": outcome.spec,
        "games": outcome.games,
        "seed": outcome.seed,
        "method": outcome.method,
        "bots": list(outcome.bots),
        "seats": seats,
        "turns": describe(outcome.turns).as_dict(),
        "unfinished": int((~outcome.finished).sum()),
    }
    if outcome.seats > 1:
        starter_won = outcome.wins[np.arange(outcome.games), outcome.starters]
        result["starter_win_rate"] = wilson(int(starter_won.sum()), outcome.games).as_dict()
        result["ties"] = int((outcome.wins.sum(axis=1) > 1).sum())
    if outcome.events:
        result["events_per_game"] = {
            name: mean_interval(values).as_dict() for name, values in outcome.events.items()
        }
    return result


def _fmt(x: float, digits: int = 1) -> str:
    return f"{x:.{digits}f}"


def _mean(d: dict[str, float], digits: int = 1) -> str:
    """A mean with its symmetric interval: ``163.0 ±6.6``."""
    return f"{_fmt(d['estimate'], digits)} ±{_fmt((d['high'] - d['low']) / 2, digits)}"


def _rate(d: dict[str, float]) -> str:
    """A proportion with its (asymmetric) Wilson interval, in per cent: ``54.5 % (47.6–61.3)``."""
    return f"{d['estimate'] * 100:.1f} % ({d['low'] * 100:.1f}–{d['high'] * 100:.1f})"


def render(data: dict[str, Any], outcome: Outcome, bins: int = 16, width: int = 100) -> RenderableType:
    """The report as rich tables and a terminal histogram of the scores, for a console ``width`` wide."""
    title = f"{data['variant']}: {data['games']:,} games, seed {data['seed']} ({data['method']})"
    scores = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1))
    scores.add_column("seat", no_wrap=True)
    scores.add_column("mean ±95 %", justify="right", no_wrap=True)
    scores.add_column("sd", justify="right", no_wrap=True)
    quantiles = list(data["seats"][0]["score"]["quantiles"])
    if width < 100:
        # a narrow terminal shows the median and the 90 % range (the JSON has every quantile)
        quantiles = [q for q in quantiles if float(q) in (0.05, 0.5, 0.95)] or quantiles
    for q in quantiles:
        scores.add_column(
            "median" if float(q) == 0.5 else f"q{float(q) * 100:g}", justify="right", no_wrap=True
        )
    scores.add_column("min", justify="right", no_wrap=True)
    scores.add_column("max", justify="right", no_wrap=True)
    for seat in data["seats"]:
        s = seat["score"]
        row = [seat["name"], _mean(s["mean"]), _fmt(s["sd"])]
        row += [_fmt(s["quantiles"][q], 0) for q in quantiles]
        row += [_fmt(s["min"], 0), _fmt(s["max"], 0)]
        scores.add_row(*row)

    facts = Table(show_header=False, box=None, padding=(0, 2))
    facts.add_column(no_wrap=True)
    facts.add_column(no_wrap=True)
    if outcome.seats > 1:
        for seat in data["seats"]:
            facts.add_row(f"{seat['name']} wins", _rate(seat["win_rate"]))
        facts.add_row("the player who starts wins", _rate(data["starter_win_rate"]))
        facts.add_row("games with a shared first place", f"{data['ties']:,}")
    facts.add_row("turns per game", _mean(data["turns"]["mean"]))
    for name, interval in data.get("events_per_game", {}).items():
        facts.add_row(f"{name} per game", _mean(interval, 2))
    if data["unfinished"]:
        facts.add_row("unfinished (cut short)", Text(f"{data['unfinished']:,}", style="bold red"))
    return Group(scores, facts, Text(""), histogram(outcome, bins, width))


PALETTE = ("cyan", "magenta", "green", "yellow", "blue", "red")


def histogram(outcome: Outcome, bins: int = 16, width: int = 100) -> Table:
    """The score distribution per seat as horizontal bars (share of games per bin)."""
    samples = [outcome.scores[:, s] for s in range(outcome.seats)]
    edges = histogram_edges(samples, bins)
    labels = []
    for b in range(len(edges) - 1):
        low, high = int(edges[b]), int(edges[b + 1]) - 1
        labels.append(f"{low}" if low == high else f"{low}…{high}")
    label_width = max(len(label) for label in labels)
    # each seat's column: a bar, a space and a share such as "52.5%"
    bar_width = max(4, (width - label_width - 2) // outcome.seats - 8)
    counts = [np.histogram(x, edges)[0] / max(1, len(x)) for x in samples]
    peak = max((float(c.max()) for c in counts), default=1.0) or 1.0
    table = Table(title="score distribution (share of games)", title_justify="left", box=None, padding=(0, 1))
    table.add_column("score", justify="right", no_wrap=True, min_width=label_width)
    for s, name in enumerate(outcome.seat_names()):
        table.add_column(
            name, style=PALETTE[s % len(PALETTE)], no_wrap=True, min_width=min(bar_width, len(name))
        )
    for b, label in enumerate(labels):
        cells = []
        for c in counts:
            share = float(c[b])
            bar = "█" * round(share / peak * bar_width)
            cells.append(f"{bar} {share * 100:.1f}%" if share else "")
        table.add_row(label, *cells)
    return table


def write_csv(outcome: Outcome, path: Path) -> None:
    """One row per game: index, dice seed, starter, turns, finished, then per seat score and win."""
    header = ["game", "seed", "starter", "turns", "finished"]
    header += [f"score_{i + 1}" for i in range(outcome.seats)]
    header += [f"win_{i + 1}" for i in range(outcome.seats)]
    header += list(outcome.events)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for g in range(outcome.games):
            seed = int(outcome.game_seeds[g])
            row: list[Any] = [g, seed if seed >= 0 else "", int(outcome.starters[g]) + 1]
            row += [int(outcome.turns[g]), int(outcome.finished[g])]
            row += [int(x) for x in outcome.scores[g]]
            row += [int(x) for x in outcome.wins[g]]
            row += [int(v[g]) for v in outcome.events.values()]
            writer.writerow(row)


def plot(outcome: Outcome, data: dict[str, Any], path: Path, bins: int = 40) -> None:
    """A PNG (Agg): the score distribution per seat (with means) and, with several seats, the win rates."""
    # the object-oriented API draws on the Agg canvas without pyplot's global state
    from matplotlib import rcParams
    from matplotlib.figure import Figure

    many = outcome.seats > 1
    fig = Figure(figsize=PLOT_SIZE, dpi=PLOT_DPI)
    axes = fig.subplots(1, 2 if many else 1, squeeze=False, width_ratios=[3, 1] if many else [1])
    ax = axes[0][0]
    samples = [outcome.scores[:, s] for s in range(outcome.seats)]
    # the axis shows the middle 99.8 % of every seat's scores: a rare huge game must not squash the rest
    everything = outcome.scores.ravel()
    span = (float(np.quantile(everything, 0.001)), float(np.quantile(everything, 0.999)) + 1)
    edges = histogram_edges(samples, bins, span)
    colours = rcParams["axes.prop_cycle"].by_key()["color"]
    for s, name in enumerate(outcome.seat_names()):
        colour = colours[s % len(colours)]
        weights = np.full(len(samples[s]), 100.0 / max(1, len(samples[s])))
        mean = data["seats"][s]["score"]["mean"]["estimate"]
        ax.hist(
            samples[s],
            bins=edges,
            weights=weights,
            histtype="stepfilled" if not many else "step",
            linewidth=1.8,
            alpha=0.5 if not many else 1.0,
            color=colour,
            label=f"{name}: mean {mean:.1f} (dashed)",
        )
        ax.axvline(mean, color=colour, linestyle="--", linewidth=1)
    width = edges[1] - edges[0]
    ax.set_xlim(max(edges[0], span[0] - width), min(edges[-1], span[1] + width))
    ax.set_title(f"Final scores (bins of {width:g} points)")
    ax.set_xlabel("final score")
    ax.set_ylabel("share of games, %")
    ax.legend(loc="best", fontsize="small")
    ax.grid(alpha=0.3)
    if many:
        bx = axes[0][1]
        rates = [seat["win_rate"] for seat in data["seats"]]
        est = np.array([r["estimate"] for r in rates]) * 100
        low = est - np.array([r["low"] for r in rates]) * 100
        high = np.array([r["high"] for r in rates]) * 100 - est
        positions = np.arange(outcome.seats)
        bx.bar(positions, est, color=[colours[s % len(colours)] for s in positions], alpha=0.7)
        bx.errorbar(positions, est, yerr=[low, high], fmt="none", ecolor="black", capsize=4)
        bx.set_xticks(
            positions, outcome.seat_names(), rotation=20 if outcome.seats > 2 else 0, fontsize="small"
        )
        bx.set_title("Win rate (95 % CI)")
        bx.set_xlabel("seat")
        bx.set_ylabel("games won, %")
        bx.set_ylim(0, 100)
        bx.grid(axis="y", alpha=0.3)
    fig.suptitle(f"{outcome.spec}: {outcome.games:,} games ({', '.join(outcome.bots)})")
    fig.tight_layout()
    fig.savefig(path, dpi=PLOT_DPI)
