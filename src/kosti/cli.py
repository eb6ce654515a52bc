"""The ``kosti`` command line (RULES.md §6 is its stable, scriptable part).

Every command that fails on bad input exits with status 2, a one-line reason on
standard error and nothing on standard output.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from kosti.commands import play, serve, simulate, solve, web
from kosti.commands.common import LangOption, emit, fail, language, reason, refuse
from kosti.errors import KostiError
from kosti.rules.presets import PRESETS, option_docs, variant
from kosti.show import score_report, summary, summary_table

app = typer.Typer(
    name="kosti",
    help="Dice games of Russian-speaking tables: poker on dice, «Тысяча», showdown.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.command()
def score(
    preset: Annotated[str, typer.Argument(help="Preset id or canonical variant string.")],
    dice: Annotated[list[int], typer.Argument(help="The faces of the dice.")],
    first_throw: Annotated[
        bool, typer.Option("--first-throw", help="The dice were made on the first throw.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """What these dice score: every cell of a sheet, a thousand throw, or a showdown hand."""
    try:
        rules = variant(preset)
        report = score_report(rules, dice, first_throw)
    except KostiError as error:
        refuse(error)
    if as_json:
        emit(report)
        return
    table = Table(title=f"{rules.spec}: {' '.join(map(str, dice))}")
    table.add_column("")
    table.add_column("", justify="right")
    for key, value in report.items():
        table.add_row(key, str(value))
    Console().print(table)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the final state as JSON.")] = False,
    with_events: Annotated[
        bool, typer.Option("--events", help="Add every event: why each score changed (RULES.md §5.1).")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Replay a game record and print the state after its last action; a record that breaks a
    rule fails saying where and why, in the language of ``--lang`` (or of the locale)."""
    from kosti.record import load, replay_events

    shown_in = language(lang)
    try:
        state, events = replay_events(load(file))
    except KostiError as error:
        fail(reason(error, shown_in))
    shown = summary(state)
    if as_json:
        if with_events:
            shown["events"] = [event.to_json(state.players) for event in events]
        emit(shown)
        return
    Console().print(summary_table(shown))


@app.command()
def rules(
    preset: Annotated[str | None, typer.Argument(help="A preset; all presets when left out.")] = None,
    lang: LangOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """List the presets, or show one preset's options with their values and meaning, in the
    language of ``--lang`` (or of the locale)."""
    from kosti.i18n import catalog

    lang = language(lang)
    t = catalog(lang)
    if preset is None:
        if as_json:
            emit(
                [
                    {
                        "id": p.id,
                        "family": p.family,
                        "name": p.name(lang),
                        "summary": p.summary(lang),
                    }
                    for p in PRESETS.values()
                ]
            )
            return
        table = Table(title=t("rules.presets_title"))
        for column in ("id", "name", "summary"):
            table.add_column(t(f"rules.column_{column}"))
        for p in PRESETS.values():
            table.add_row(p.id, p.name(lang), p.summary(lang))
        Console().print(table)
        return
    try:
        rules_ = variant(preset)
    except KostiError as error:
        refuse(error, lang)
    from rich.markdown import Markdown

    from kosti.i18n import rules_text

    docs = option_docs(rules_.options, lang)
    if as_json:
        emit(
            {
                "id": rules_.preset.id,
                "spec": rules_.spec,
                "name": rules_.preset.name(lang),
                "summary": rules_.preset.summary(lang),
                "rules": rules_text(rules_.preset.family, lang),
                "options": {name: {"value": value, "doc": doc} for name, value, doc in docs},
            }
        )
        return
    console = Console()
    console.print(f"[bold]{rules_.preset.name(lang)}[/bold] ({rules_.spec})")
    console.print(rules_.preset.summary(lang))
    console.print(Markdown(rules_text(rules_.preset.family, lang)))
    table = Table()
    for column in ("option", "value", "meaning"):
        table.add_column(t(f"rules.column_{column}"))
    for name, value, doc in docs:
        label = name if lang == "en" else f"{name}\n[dim]{t.option(name)}[/dim]"
        table.add_row(label, json.dumps(value, ensure_ascii=False), doc)
    console.print(table)


# the commands of the other modules, in the order `kosti --help` lists them
for command in (
    play.play,
    serve.serve,
    serve.verify,
    simulate.simulate,
    solve.solve,
    solve.hint,
    solve.report,
):
    app.command()(command)
app.add_typer(web.app)


def main() -> None:
    """Entry point of the ``kosti`` script."""
    try:
        # not standalone: Typer would print a usage error as a multi-line box, and
        # RULES.md §6 promises a one-line reason on standard error
        code = app(standalone_mode=False)
    except typer.TyperException as error:
        # a bare `kosti` has printed its help already while raising (as Typer does)
        if type(error).__name__ != "NoArgsIsHelpError":
            typer.echo(f"kosti: {' '.join(error.format_message().split())}", err=True)
        sys.exit(2)
    except typer.Abort:
        sys.exit(1)
    except KostiError as error:  # pragma: no cover - commands catch their own
        typer.echo(f"kosti: {error}", err=True)
        sys.exit(2)
    # not standalone, Typer returns the code of a `typer.Exit` (or a command's own return value)
    sys.exit(code if isinstance(code, int) and not isinstance(code, bool) else 0)


if __name__ == "__main__":
    main()
