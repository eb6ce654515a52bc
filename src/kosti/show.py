"""Rich renderings of game summaries for the terminal (plain output of the CLI)."""

from __future__ import annotations

from typing import Any

from rich.table import Table


def summary_table(summary: dict[str, Any]) -> Table:
    """A table of the players and their scores from an engine's summary."""
    title = summary.get("variant", "")
    if summary.get("finished"):
        winners = summary.get("winners") or ([summary["winner"]] if summary.get("winner") else [])
        title += " — finished" + (f", won by {', '.join(winners)}" if winners else "")
    table = Table(title=title)
    table.add_column("player")
    table.add_column("score", justify="right")
    extra = [
        k
        for k in ("opened", "bolts", "on_barrel", "banked")
        if any(k in p for p in summary.get("players", []))
    ]
    for k in extra:
        table.add_column(k, justify="right")
    for p in summary.get("players", []):
        table.add_row(p["name"], str(p["score"]), *(str(p.get(k, "")) for k in extra))
    return table
