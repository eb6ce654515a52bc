"""``kosti solve``, ``kosti hint``, ``kosti report``: the exact solver on the command line."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from kosti.actions import to_json
from kosti.commands.common import LangOption, emit, fail, language, reason, refuse
from kosti.errors import KostiError
from kosti.rules.presets import variant
from kosti.solver.progress import Estimate

CAP_HELP = (
    "Banked throws the solver tracks (default: every bank the sheet can reach, exact); "
    "a smaller cap forfeits the rest and gives a lower bound."
)


PHASE_NAMES = {"compiling": "compiling the solver", "building": "finding the positions", "solving": "solving"}
"""How the bar names each phase of a solve (:mod:`kosti.solver.progress`)."""


class _Bar:
    """A rich progress bar on standard error, shown only while a solve runs: each phase of it
    (:mod:`kosti.solver.progress`: compiling, building, solving) starts again from 0 % with its
    own name and time left."""

    def __init__(self, subject: str) -> None:
        self.subject = subject
        self.name = "solving"
        self.progress: Progress | None = None
        self.task: Any = None

    def phase(self, name: str) -> None:
        """A new phase starts: the bar shows its name and starts again from 0."""
        self.name = name
        if self.progress is not None and self.task is not None:
            self.progress.reset(self.task, total=None, completed=0, description=self.description)

    @property
    def description(self) -> str:
        name = PHASE_NAMES.get(self.name, self.name)
        return f"{name} ({self.subject})" if self.subject else name

    def estimate(self, what: Estimate) -> None:
        """Say up front what a long solve will take (:class:`~kosti.solver.progress.Estimate`)."""
        took = "under a minute" if what.seconds < 60 else f"about {round(what.seconds / 60)} min"
        keeps = "Ctrl-C keeps the work done" if what.resumable else "Ctrl-C stops it"
        line = (
            f"{self.subject}: {what.positions:,} {what.unit}; {took}, {_bytes(what.memory)} of memory "
            f"and {_bytes(what.disk)} on disk, on two cores (an estimate); {keeps}"
        )
        if self.progress is not None:
            self.progress.console.print(line, soft_wrap=True, markup=False, highlight=False)
        else:
            typer.echo(line, err=True)

    def __call__(self, done: int, total: int) -> None:
        if self.progress is None:
            self.progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TaskProgressColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.progress.start()
            self.task = self.progress.add_task(self.description, total=total)
        self.progress.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _bytes(size: float) -> str:
    """``size`` bytes as a person reads them: ``1.1 GB``, ``133 MB``."""
    return f"{size / 1e9:.1f} GB" if size >= 1e9 else f"{max(1, round(size / 1e6))} MB"


INTERRUPTED = "kosti: interrupted; the work so far is saved: run the same command again to resume"


def solve(
    preset: Annotated[str, typer.Argument(help="A score-sheet or «Тысяча» preset, or a variant string.")],
    fresh: Annotated[bool, typer.Option("--fresh", help="Solve again, ignoring the cache.")] = False,
    cap: Annotated[int | None, typer.Option("--cap", help=CAP_HELP)] = None,
    players: Annotated[
        int | None, typer.Option("--players", help="Players: 1 for score sheets, 2 for «Тысяча».")
    ] = None,
    floor: Annotated[
        int | None, typer.Option("--floor", help="«Тысяча»: the lowest score tracked (default −300).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The value of optimal play, solved once and then read from the cache: the expected score of
    a solitaire sheet, or for «Тысяча» the first player's chance of winning against an optimal
    opponent (``--players 2``)."""
    bar = _Bar(preset)
    try:
        from kosti.solver import solve as run

        rules = variant(preset)
        if rules.preset.family == "thousand":
            bar.close()
            _solve_thousand(rules, players, floor, fresh, as_json)
            return
        if players not in (None, 1):
            fail(f"the score-sheet solver plays solitaire: --players 1, not {players}")
        start = time.perf_counter()
        solution = run(rules, cap=cap, fresh=fresh, progress=bar)
        seconds = time.perf_counter() - start
    except KeyboardInterrupt:
        bar.close()
        typer.echo("kosti: interrupted", err=True)
        raise typer.Exit(130) from None
    except KostiError as error:
        refuse(error)
    finally:
        bar.close()
    if as_json:
        emit({"preset": rules.spec, "expected_score": solution.expected_score, "seconds": round(seconds, 3)})
        return
    how = "from the cache" if solution.cached else f"solved in {seconds:.1f} s"
    typer.echo(f"{rules.spec}: expected score {solution.expected_score:.4f} (optimal solitaire play; {how})")
    model = solution.model
    if model.cap < model.exact_cap:
        typer.echo(f"banked throws tracked up to {model.cap} (a sheet could bank {model.exact_cap})")


def _solve_thousand(rules: Any, players: int | None, floor: int | None, fresh: bool, as_json: bool) -> None:
    """``kosti solve`` for «Тысяча»: two players, each maximising their own chance of winning."""
    if players != 2:
        fail("the «Тысяча» solver plays two players: give --players 2")
    bar = _Bar(rules.spec)
    try:
        # imported here, inside the try: Ctrl-C while numba loads is an interruption like any other
        from kosti.solver.thousand.solve import peak_memory_mb
        from kosti.solver.thousand.solve import solve as run

        start = time.perf_counter()
        solution = run(rules, floor=floor, fresh=fresh, progress=bar)
        seconds = time.perf_counter() - start
    except KeyboardInterrupt:
        bar.close()
        typer.echo(INTERRUPTED, err=True)
        raise typer.Exit(130) from None
    except KostiError as error:
        bar.close()
        refuse(error)
    finally:
        bar.close()
    model = solution.model
    if as_json:
        emit(
            {
                "variant": rules.spec,
                "players": 2,
                "win_probability": solution.win_probability,
                "states": model.positions,
                "statuses": model.n,
                "floor": model.floor,
                "sweeps": solution.sweeps,
                "residual": solution.residual,
                "seconds": round(seconds, 3),
                "solve_seconds": round(solution.seconds, 3),
                "cached": solution.cached,
                "peak_memory_mb": round(peak_memory_mb(), 1),
            }
        )
        return
    how = "from the cache" if solution.cached else f"solved in {seconds:.1f} s"
    typer.echo(
        f"{rules.spec}: the first player wins with probability {solution.win_probability:.9f} "
        f"when both play optimally ({model.positions:,} positions; {how})"
    )


def _is_thousand(data: Any) -> bool:
    try:
        return isinstance(data, dict) and variant(str(data.get("variant", ""))).preset.family == "thousand"
    except KostiError:
        return False


def _thousand_position(data: Any) -> Any:
    from kosti.solver.thousand.advisor import position as parse

    return parse(data)


def _thousand_solved(state: Any) -> bool:
    """True when the exact values of this «Тысяча» game are at hand (solved before, or small
    enough to solve in seconds); a hint never starts a solve that takes many minutes (the
    heuristic ranks the decisions until then)."""
    from kosti.solver.thousand.ready import ready

    try:
        return ready(state.variant)
    except KostiError:
        return False


def _hint_thousand(state: Any, top: int, as_json: bool) -> None:
    """``kosti hint`` for «Тысяча»: each decision with the chance of winning it keeps."""
    from kosti.i18n import catalog
    from kosti.phrases import action_text, percent
    from kosti.solver.thousand.advisor import ThousandAdvisor

    if state.finished:
        fail("the game is over: there is nothing to decide")
    bar = _Bar("")
    try:
        advisor = ThousandAdvisor(progress=bar)
        advice = advisor.advise(state)
        value = float(advice[0].value or 0.0) if advice else advisor.position_value(state)
    except KostiError as error:
        bar.close()
        refuse(error)
    finally:
        bar.close()
    shown = advice if top <= 0 else advice[:top]
    player = state.players[state.current]
    if as_json:
        emit(
            {
                "variant": state.variant.spec,
                "player": player,
                "win_probability": value,
                "exact": len(state.players) == 2,
                "decisions": _advice_json(shown),
            }
        )
        return
    text = catalog()
    console = Console()
    console.print(
        text("hint.thousand_header", variant=state.variant.spec, player=player, value=percent(value, text))
    )
    if len(state.players) > 2:
        console.print(text("hint.thousand_inexact"))
    if not advice:
        console.print(text("hint.throw"))
        return
    table = Table()
    for column in ("", text("hint.decision"), text("hint.chance"), text("hint.loss")):
        table.add_column(column)
    for i, a in enumerate(shown, 1):
        loss = percent(-(a.loss or 0.0), text).replace("-", "−") if a.loss else "0"
        table.add_row(str(i), action_text(a.action, text, "pips"), percent(a.value or 0.0, text), loss)
    console.print(table)


def _report_thousand(game: Any, final: Any, as_json: bool) -> None:
    """``kosti report`` for «Тысяча»: the chance of winning each decision gave up. A variant
    whose exact values are not at hand is refused with the command that makes them."""
    from kosti.solver.thousand.advisor import ThousandAdvisor, judge
    from kosti.solver.thousand.ready import ready, solve_command

    if not ready(final.variant):
        command = solve_command(final.variant)
        fail(f"the report needs the exact values of {final.variant.spec}: run `{command}` once")
    bar = _Bar("")
    try:
        judged = judge(game, ThousandAdvisor(progress=bar))
    except KostiError as error:
        bar.close()
        refuse(error)
    finally:
        bar.close()
    _print_report(game, final, judged, as_json, chance=True)


def _print_report(game: Any, final: Any, judged: list[Any], as_json: bool, chance: bool) -> None:
    """The report of judged decisions (:class:`kosti.solver.judging.Judged`): per player the
    decisions, those below the best and what they gave up, then each such decision. ``chance``:
    the values are chances of winning («Тысяча»; shown in %), else expected final scores."""
    from kosti.games import engine_for

    tie = 1e-9 if chance else 1e-6
    totals = engine_for(final.variant).scores(final)
    players = []
    for seat, name in enumerate(game.players):
        mine = [j for j in judged if j.player == name]
        players.append(
            {
                "name": name,
                "score": totals[seat],
                "decisions": len(mine),
                "mistakes": sum(1 for j in mine if j.loss > tie),
                "loss": sum(j.loss for j in mine),
            }
        )
    if as_json:
        extra = {"exact": len(game.players) == 2} if chance else {}
        emit(
            {
                "variant": final.variant.spec,
                "finished": bool(getattr(final, "finished", False)),
                **extra,
                "players": players,
                "decisions": [
                    {
                        "turn": j.turn,
                        "player": j.player,
                        **j.where,
                        "dice": list(j.dice),
                        "action": _action_json(j.action),
                        "best": _action_json(j.best),
                        "value": j.value,
                        "best_value": j.best_value,
                        "loss": j.loss,
                    }
                    for j in judged
                ],
            }
        )
        return
    console = Console()
    against = "optimal two-player play" if chance else "optimal solitaire play"
    console.print(f"[bold]{final.variant.spec}[/bold]: each decision against {against}")
    if chance and len(game.players) > 2:
        console.print("three or more players: judged as against the strongest opponent alone (not exact)")
    for entry in players:
        if chance:
            lost = f"chance of winning given up {100 * entry['loss']:.2f} %"
        else:
            lost = f"expected score lost {entry['loss']:.2f}"
        console.print(
            f"{entry['name']}: score {entry['score']}, {entry['decisions']} decisions, "
            f"{entry['mistakes']} below the best, {lost}"
        )
        table = Table()
        for column in ("turn", "dice", "played", "best", "loss"):
            table.add_column(column)
        for j in judged:
            if j.player == entry["name"] and j.loss > tie:
                dice = " ".join(map(str, j.dice)) or "—"
                loss = f"{100 * j.loss:.2f} %" if chance else f"{j.loss:.3f}"
                table.add_row(str(j.turn), dice, str(j.action), str(j.best), loss)
        if table.row_count:
            console.print(table)


def _advice_json(advice: list[Any]) -> list[dict[str, Any]]:
    return [
        {"action": _action_json(a.action), "text": str(a.action), "value": a.value, "loss": a.loss}
        for a in advice
    ]


def _action_json(action: Any) -> Any:
    """The record form of an action; «Тысяча»'s throw on, which has none, by its notation."""
    from kosti.actions import Throw

    return str(action) if isinstance(action, Throw) else to_json(action)


def hint(
    record: Annotated[
        Path | None, typer.Option("--record", help="A game record: the position after its last action.")
    ] = None,
    position: Annotated[
        str | None,
        typer.Option("--position", help='A position as JSON: {"variant": …, "sheet": {…}, "dice": […], …}.'),
    ] = None,
    top: Annotated[int, typer.Option("--top", help="How many decisions to show (0: all).")] = 10,
    cap: Annotated[int | None, typer.Option("--cap", help=CAP_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """The decisions of a position ranked by the expected final score of optimal play; a record
    that breaks a rule fails saying why, in the language of ``--lang`` (or of the locale)."""
    from kosti.position import parse_position
    from kosti.solver.advisor import SheetAdvisor

    if (record is None) == (position is None):
        fail("give a position: --record FILE or --position JSON (one of them)")
    shown_in = language(lang)
    bar = _Bar("")
    try:
        if record is not None:
            from kosti.record import load, replay

            state = replay(load(record))
        else:
            try:
                data = json.loads(position or "")
            except json.JSONDecodeError as error:
                fail(f"--position is not JSON: {error.msg}")
            state = _thousand_position(data) if _is_thousand(data) else parse_position(data)
        from kosti.games import engine_for
        from kosti.games.thousand.game import ThousandState

        if isinstance(state, ThousandState) and not state.finished and _thousand_solved(state):
            # «Тысяча»: the exact two-player values, once `kosti solve … --players 2` has made them
            bar.close()
            _hint_thousand(state, top, as_json)
            return
        from kosti.games.sheet.game import SheetState

        if engine_for(state.variant).is_finished(state):
            fail("the game is over: there is nothing to decide")
        if not isinstance(state, SheetState):
            # «Тысяча» and showdown: the heuristic bot ranks them, as H does in the game
            advice = _heuristic_advice(state)
            value = advice[0].value if advice else None
            exact = False
        else:
            advisor = SheetAdvisor(cap, progress=bar)
            advice = advisor.advise(state)
            value = advice[0].value if advice else advisor.position_value(state)
            exact = advisor.exact(state)
    except KeyboardInterrupt:
        bar.close()
        typer.echo("kosti: interrupted", err=True)
        raise typer.Exit(130) from None
    except KostiError as error:
        fail(reason(error, shown_in))
    finally:
        bar.close()
    shown = advice if top <= 0 else advice[:top]
    player = state.players[getattr(state, "current", 0)]
    if as_json:
        emit(
            {
                "variant": state.variant.spec,
                "player": player,
                "value": value,
                "exact": exact,
                "decisions": _advice_json(shown),
            }
        )
        return
    console = Console()
    if value is None or not isinstance(state, SheetState):
        console.print(f"{state.variant.spec}, {player}: decisions ranked by the heuristic bot")
    else:
        console.print(f"{state.variant.spec}, {player}: expected final score {value:.2f} with optimal play")
    if not advice:
        console.print("no decision now: the dice are to be thrown")
        return
    table = Table()
    for column in ("", "decision", "value", "loss"):
        table.add_column(column, justify="right" if column != "decision" else "left")
    for i, a in enumerate(shown, 1):
        worth = "" if a.value is None else f"{a.value:.3f}"
        table.add_row(str(i), str(a.action), worth, "" if a.loss is None else f"{a.loss:.3f}")
    console.print(table)


def _heuristic_advice(state: Any) -> list[Any]:
    """The heuristic bot's ranking of the decisions now (none while dice are to be thrown)."""
    from kosti.games import engine_for
    from kosti.levels import make_bot

    if not engine_for(state.variant).decisions(state):
        return []
    bot = make_bot("heuristic", state.variant.family)
    ranked: list[Any] = bot.advise(state)  # type: ignore[attr-defined]
    return ranked


def report(
    file: Annotated[Path, typer.Argument(help="A game record (JSON) of a score-sheet game.")],
    cap: Annotated[int | None, typer.Option("--cap", help=CAP_HELP)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """The proficiency report: every decision against the optimal one, and the expected score lost."""
    from kosti.record import load, replay
    from kosti.solver.advisor import SheetAdvisor, judge

    shown_in = language(lang)
    bar = _Bar("")
    try:
        game = load(file)
        final = replay(game)
        if final.variant.preset.family == "thousand":
            bar.close()
            _report_thousand(game, final, as_json)
            return
        judged = judge(game, SheetAdvisor(cap, progress=bar))
    except KostiError as error:
        fail(reason(error, shown_in))
    finally:
        bar.close()
    _print_report(game, final, judged, as_json, chance=False)
