"""``kosti web fetch`` and ``kosti web export DIR``: the page for play on this device, offline.

``fetch`` brings the files the page loads from elsewhere (Pyodide from the npm registry, Babel
and pytrovich from PyPI) into the user's cache, each checked against its pinned hash
(:mod:`kosti.web.pins`); ``export`` writes the whole page for local play as static files, for
any static host (:mod:`kosti.web.site`). ``kosti serve`` serves the same page beside its
online tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kosti.commands.common import fail

app = typer.Typer(
    name="web",
    help="The page for play on this device, with no server: fetch what it needs, export it as files.",
    no_args_is_help=True,
)


@app.command()
def fetch() -> None:
    """Fetch Pyodide (npm) and the wheels of Babel and pytrovich (PyPI) into the cache, each at its
    pinned version and hash; what is there already is kept."""
    from kosti.errors import KostiError
    from kosti.web.pins import PINS
    from kosti.web.pins import fetch as fetch_pin

    for pin in PINS:
        typer.echo(f"{pin.name} {pin.version} ({pin.size / 1e6:.1f} MB): {pin.why}", err=True)
        try:
            path = fetch_pin(pin)
        except KostiError as error:
            fail(str(error))
        typer.echo(str(path))


@app.command()
def export(
    directory: Annotated[Path, typer.Argument(help="Where to write the page (made if missing).")],
) -> None:
    """Write the page for play on this device as static files: put DIR at the root of any static
    host (or open it with `python -m http.server -d DIR`). After the first visit it plays with
    the network off."""
    from kosti.errors import KostiError
    from kosti.web.site import build
    from kosti.web.site import export as write

    if directory.exists() and not directory.is_dir():
        fail(f"{directory} is a file, not a directory")
    try:
        site = build()
    except KostiError as error:
        fail(str(error))
    written = write(site, directory)
    size = sum(p.stat().st_size for p in written if not p.name.endswith(".gz"))
    typer.echo(f"{len(written)} files, {size / 1e6:.1f} MB, build {site.build}: {directory}", err=True)
