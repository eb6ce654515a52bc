"""What every command shares: how it fails and how it prints JSON (RULES.md §6).

A command that fails on bad input exits with status 2, a one-line reason on standard
error and nothing on standard output.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, NoReturn

import typer

from kosti.errors import KostiError, RecordError, Refusal

LangOption = Annotated[
    str | None,
    typer.Option("--lang", help="ru or en: the language of a refusal (default: from LANG / LC_ALL)."),
]
"""The ``--lang`` of a command that may print a refusal of the rules (RULES.md §4)."""


def fail(reason: str) -> NoReturn:
    """Exit 2 with ``reason`` on standard error, nothing on standard output."""
    typer.echo(f"kosti: {reason}", err=True)
    raise typer.Exit(2)


def refuse(error: KostiError, lang: str | None = None) -> NoReturn:
    """Exit 2 with what ``error`` says in ``lang`` (``None``: the locale's language)."""
    fail(reason(error, language(lang)))


def emit(data: Any) -> None:
    """Print ``data`` as one line of JSON (non-ASCII text as it is)."""
    typer.echo(json.dumps(data, ensure_ascii=False))


def language(lang: str | None) -> str:
    """The language asked for (``--lang``), else the locale's (as ``kosti play`` decides it);
    exit 2 for one that is neither ``ru`` nor ``en``."""
    from kosti.i18n import catalog

    if lang is not None and lang not in ("ru", "en"):
        fail(f"--lang is ru or en, not {lang!r}")
    return catalog(lang).lang


def reason(error: KostiError, lang: str) -> str:
    """What ``error`` says in ``lang``: a refusal of the rules, and a record that breaks one,
    in the catalog's words (the English ones are ``str(error)``); any other error as raised."""
    from kosti.i18n import record_error_text, refusal_text

    if isinstance(error, RecordError):
        return record_error_text(error, lang)
    if isinstance(error, Refusal):
        return refusal_text(error, lang)
    return str(error)
