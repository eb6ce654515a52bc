"""``kosti play``: the terminal game (Textual)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kosti.commands.common import fail, reason
from kosti.errors import KostiError, OptionRefusal


def parse_options(preset: str, options: list[str]) -> dict[str, Any]:
    """``name=value`` texts → overrides of ``preset``, read and checked as in a variant string."""
    from kosti.rules.presets import variant

    base = variant(preset).preset.id
    overrides: dict[str, Any] = {}
    for text in options:
        if "=" not in text:
            raise OptionRefusal("option_syntax", text=text)
        overrides.update(variant(f"{base}({text})").overrides())
    return overrides


def play(
    preset: Annotated[
        str | None,
        typer.Argument(
            help="Preset id or variant string (poker-free, thousand-v2(opening=100)); "
            "leave out to choose on the new-game screen."
        ),
    ] = None,
    player: Annotated[
        list[str] | None, typer.Option("--player", "-p", help="A person at the table (repeat for more).")
    ] = None,
    bot: Annotated[
        list[str] | None,
        typer.Option("--bot", "-b", help="A bot: random, heuristic or optimal (repeat for more)."),
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Override an option: name=value (repeat).")
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", help="ru or en (default: from LANG / LC_ALL).")
    ] = None,
    manual: Annotated[
        bool, typer.Option("--manual", help="Scorekeeper mode: type in the throws of real dice.")
    ] = False,
    resume: Annotated[Path | None, typer.Option("--resume", help="Continue the game of this record.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Reproducible dice (and random bots).")] = None,
    record: Annotated[
        Path | None, typer.Option("--record", help="Where to save the record (default: the user data dir).")
    ] = None,
    delay: Annotated[float, typer.Option("--delay", help="Seconds between a bot's moves.")] = 0.7,
    undo: Annotated[
        bool | None,
        typer.Option("--undo/--no-undo", help="Allow taking moves back (default: only without bots)."),
    ] = None,
) -> None:
    """Play at the terminal: score-sheet poker, «Тысяча», showdown; against people and bots.

    With a preset and players the game starts at once: kosti play poker-classic -p Anna -b heuristic.
    People sit in the order given, then the bots.
    """
    from kosti.i18n import catalog
    from kosti.record import load
    from kosti.rules.presets import variant
    from kosti.tui.app import KostiApp, PlayConfig
    from kosti.tui.session import Seat
    from kosti.tui.setup_screen import bot_name

    try:
        t = catalog(lang)
    except KostiError as error:
        fail(reason(error, "en"))
    try:
        if preset is None and option:
            raise OptionRefusal("option_needs_preset")
        if not delay >= 0:  # NaN too
            raise OptionRefusal("bad_delay", delay=delay)
        rules = variant(preset, parse_options(preset, option or [])) if preset else None
        seats = [Seat(name) for name in player or []]
        if len({s.name for s in seats}) != len(seats):
            raise OptionRefusal("shared_name")
        for level in bot or []:
            from kosti.levels import BOT_NAMES, levels_for, unavailable

            # without a preset the new-game screen opens on score sheets and checks again at the start
            game = rules if rules is not None else "sheet"
            if level not in levels_for(game):
                # the table bot is the simulator's: it does not play at the terminal
                raise unavailable(level, game) or OptionRefusal(
                    "no_such_bot", level=level, allowed=[b for b in BOT_NAMES if b in levels_for(game)]
                )
            seats.append(Seat(bot_name(level, [s.name for s in seats], t), level))
        resumed = load(resume) if resume is not None else None
        if resumed is not None:
            resumed.rules()
    except KostiError as error:
        fail(reason(error, t.lang))
    config = PlayConfig(
        lang=t.lang,
        lang_asked=lang is not None,
        preset=rules.spec if rules is not None else None,
        seats=seats,
        manual=manual,
        seed=seed,
        record=record if record is not None else resume,
        resume=resumed,
        bot_delay=delay,
        undo=undo,
    )
    path = KostiApp(config).run()
    if path is not None:
        typer.echo(t("cli.saved", path=str(path)))
        if not _finished(path):
            from kosti.tui.saving import resume_command

            typer.echo(t("cli.resume_hint", command=resume_command(path)))


def _finished(path: Path) -> bool:
    """Is the game of this record over? (A broken record counts as over: nothing to resume.)"""
    from kosti.games import engine_for
    from kosti.record import load, replay

    try:
        state = replay(load(path))
    except KostiError:
        return True
    return engine_for(state.variant).is_finished(state)
