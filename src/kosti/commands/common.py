"""What every command shares: how it fails and how it prints JSON (RULES.md §6).

A command that fails on bad input exits with status 2, a one-line reason on standard
error and nothing on standard output.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

import typer


def fail(reason: str) -> NoReturn:
    """Exit 2 with ``reason`` on standard error, nothing on standard output."""
    typer.echo(f"kosti: {reason}", err=True)
    raise typer.Exit(2)


def emit(data: Any) -> None:
    """Print ``data`` as one line of JSON (non-ASCII text as it is)."""
    typer.echo(json.dumps(data, ensure_ascii=False))
