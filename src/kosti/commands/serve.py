"""``kosti serve`` (online play in the browser) and ``kosti verify`` (were the dice fair?)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kosti.commands.common import emit, fail, refuse


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (keep loopback unless you mean it).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    workers: Annotated[
        int,
        typer.Option(help="Worker processes behind the one address; more than 1 needs PostgreSQL and Redis."),
    ] = 1,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            envvar="KOSTI_DATABASE_URL",
            help="SQLAlchemy URL (sqlite:///…, postgresql://…); default: SQLite in your data directory.",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            envvar="KOSTI_REDIS_URL",
            help="Redis URL (redis://127.0.0.1:6379/0) that carries each commit to the other workers.",
        ),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before each move.")] = 0.6,
    rate: Annotated[float, typer.Option(help="WebSocket messages per second per connection.")] = 10.0,
    burst: Annotated[int, typer.Option(help="WebSocket messages a connection may send at once.")] = 20,
    allowed_origins: Annotated[
        str,
        typer.Option(help="Comma-separated origins whose pages may open a table (besides this server's)."),
    ] = "",
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated proxy addresses whose X-Forwarded-For is believed (none: no proxy)."
        ),
    ] = None,
    http_limits: Annotated[
        bool,
        typer.Option(
            help="Per-address limits on requests and live tables (--no-http-limits for load tests)."
        ),
    ] = True,
    header_timeout: Annotated[
        float,
        typer.Option(
            help="Seconds a connection has to send a request's line and headers before it is closed."
        ),
    ] = 10.0,
    log_level: Annotated[str, typer.Option(help="critical, error, warning, info or debug.")] = "info",
) -> None:
    """Serve tables for online play in the browser: open http://HOST:PORT/."""
    try:
        from kosti.server.app import create_app
        from kosti.server.run import check_cluster
        from kosti.server.run import serve as run
        from kosti.server.settings import ServerSettings
    except ImportError as error:
        fail(f"the server needs the 'server' extra (pip install 'kosti[server]'): {error}")
    if bot_delay < 0 or rate <= 0 or burst < 1:
        fail("--bot-delay must be ≥ 0, --rate > 0 and --burst ≥ 1")
    if not header_timeout > 0:
        fail(f"--header-timeout is a number of seconds above 0, not {header_timeout}")
    if log_level not in ("critical", "error", "warning", "info", "debug"):
        fail(f"--log-level is critical, error, warning, info or debug, not {log_level!r}")
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from kosti.errors import KostiError
    from kosti.server.store import Store, default_url, normalize_url

    url = database or default_url()
    settings = ServerSettings(
        database_url=url,
        redis_url=redis or None,
        bot_delay=bot_delay,
        rate=rate,
        burst=burst,
        http_limits=http_limits,
        header_timeout=header_timeout,
        allowed_origins=tuple(o.strip().rstrip("/") for o in allowed_origins.split(",") if o.strip()),
    )
    try:
        check_cluster(settings, workers)
    except KostiError as error:
        refuse(error)
    try:
        store = Store(url)  # opened and migrated before listening: a bad database fails here, in one line
    except ArgumentError:
        fail("--database is an SQLAlchemy URL such as sqlite:///games.db or postgresql://user@host/db")
    except (SQLAlchemyError, OSError) as error:
        shown = make_url(normalize_url(url)).render_as_string(hide_password=True)
        fail(f"cannot open the database {shown}: {' '.join(str(error).split())[:300]}")
    if redis:
        _check_redis(redis)
    app_ = None
    if workers == 1:
        app_ = create_app(settings, store=store)
    else:
        store.close()  # each worker opens its own
    run(settings, host, port, workers, forwarded_allow_ips, log_level, app_)


def _check_redis(url: str) -> None:
    """Fail in one line when Redis at ``url`` does not answer."""
    import redis as redis_py

    try:
        client = redis_py.Redis.from_url(url, socket_connect_timeout=3)
        client.ping()
        client.close()
    except (redis_py.RedisError, ValueError) as error:
        fail(f"cannot reach Redis at {url}: {error}")


def verify(
    file: Annotated[Path, typer.Argument(help="The record of a finished online game (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as JSON.")] = False,
) -> None:
    """Check an online game: its dice, its decisions, and that it is complete.

    Every die must follow from the revealed seeds, every decision from the rules, and the
    game must be over (or abandoned, as the server marks it). Exit 0 fair, 1 not fair or
    incomplete, 2 bad input."""
    from kosti.errors import KostiError
    from kosti.record import load
    from kosti.server.fair import verify as check

    try:
        verdict = check(load(file))
    except KostiError as error:
        refuse(error)
    if as_json:
        emit(
            {
                "fair": verdict.fair,
                "complete": verdict.complete,
                "status": verdict.status,
                "throws": verdict.throws,
                "dice": verdict.dice,
                "reason": verdict.reason,
            }
        )
    else:
        label = {"fair": "fair", "not_fair": "NOT FAIR", "incomplete": "INCOMPLETE"}[verdict.status]
        typer.echo(f"{label}: {verdict.reason}")
    if verdict.status != "fair":
        raise typer.Exit(1)
