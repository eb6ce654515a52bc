"""``kosti serve`` (online play in the browser) and ``kosti verify`` (were the dice fair?)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kosti.cli import app, emit, fail


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (keep loopback unless you mean it).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            envvar="KOSTI_DATABASE_URL",
            help="SQLAlchemy URL (sqlite:///…, postgresql://…); default: SQLite in your data directory.",
        ),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move.")] = 0.6,
    rate: Annotated[float, typer.Option(help="WebSocket messages per second per connection.")] = 10.0,
    burst: Annotated[int, typer.Option(help="WebSocket messages a connection may send at once.")] = 20,
    log_level: Annotated[str, typer.Option(help="critical, error, warning, info or debug.")] = "info",
) -> None:
    """Serve tables for online play in the browser: open http://HOST:PORT/."""
    try:
        import uvicorn

        from kosti.server.app import ServerSettings, create_app
    except ImportError as error:
        fail(f"the server needs the 'server' extra (pip install 'kosti[server]'): {error}")
    if bot_delay < 0 or rate <= 0 or burst < 1:
        fail("--bot-delay must be ≥ 0, --rate > 0 and --burst ≥ 1")
    if log_level not in ("critical", "error", "warning", "info", "debug"):
        fail(f"--log-level is critical, error, warning, info or debug, not {log_level!r}")
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from kosti.server.store import Store, default_url, normalize_url

    url = database or default_url()
    try:
        store = Store(url)  # opened and migrated before listening: a bad database fails here, in one line
    except ArgumentError:
        fail("--database is an SQLAlchemy URL such as sqlite:///games.db or postgresql://user@host/db")
    except (SQLAlchemyError, OSError) as error:
        shown = make_url(normalize_url(url)).render_as_string(hide_password=True)
        fail(f"cannot open the database {shown}: {' '.join(str(error).split())[:300]}")
    settings = ServerSettings(database_url=url, bot_delay=bot_delay, rate=rate, burst=burst)
    # the page never sends more than a few hundred bytes; the app refuses above message_limit
    uvicorn.run(
        create_app(settings, store=store),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=16 * settings.message_limit,
    )


@app.command()
def verify(
    file: Annotated[Path, typer.Argument(help="The record of a finished online game (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Recompute every die of an online game from its revealed seeds: exit 0 fair, 1 not fair, 2 bad input."""
    from kosti.errors import KostiError
    from kosti.record import load
    from kosti.server.fair import verify as check

    try:
        verdict = check(load(file))
    except KostiError as error:
        fail(str(error))
    if as_json:
        emit({"fair": verdict.fair, "throws": verdict.throws, "dice": verdict.dice, "reason": verdict.reason})
    else:
        typer.echo(("fair: " if verdict.fair else "NOT FAIR: ") + verdict.reason)
    if not verdict.fair:
        raise typer.Exit(1)
