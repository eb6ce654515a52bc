"""The roll-off for the first turn («жребий»), shown: every throw, the ties, who starts.

With live dice the roll-off is thrown before the screen opens (:func:`kosti.rolloff.starting_order`);
in scorekeeper mode the players' throws are typed in one by one and the same function
decides once nobody is tied any more.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Input, Static

from kosti.dice import Faces
from kosti.i18n import Catalog
from kosti.roller import ScriptedDice
from kosti.rolloff import RollOff, roll_off
from kosti.rules.presets import Variant
from kosti.tui.boards import quiet_table
from kosti.tui.dialogs import parse_throw
from kosti.tui.session import Seat
from kosti.tui.text import dice_text


def next_thrower(players: Sequence[str], throws: Sequence[Faces]) -> str | None:
    """Who throws next in a roll-off after ``throws`` (in order), or ``None`` when it is decided.

    Round one is everyone in seat order; each later round is those tied for the
    highest total of the round before.
    """
    contenders = list(players)
    i = 0
    while len(contenders) > 1:
        round_ = throws[i : i + len(contenders)]
        if len(round_) < len(contenders):
            return contenders[len(round_)]
        best = max(sum(f) for f in round_)
        contenders = [p for p, f in zip(contenders, round_, strict=True) if sum(f) == best]
        i += len(round_)
    return None


class RollOffScreen(Screen[None]):
    """The roll-off. Enter goes to the table once it is decided."""

    DEFAULT_CSS = """
    RollOffScreen > Vertical { padding: 1 2; }
    RollOffScreen #rolloff-title { text-style: bold; height: auto; margin-bottom: 1; }
    RollOffScreen DataTable { height: auto; max-height: 20; margin-bottom: 1; }
    RollOffScreen #rolloff-result { height: auto; text-style: bold; color: $success; }
    RollOffScreen #rolloff-error { height: auto; color: $error; }
    """

    def __init__(self, t: Catalog, rules: Variant, seats: list[Seat], result: RollOff | None) -> None:
        super().__init__()
        self.t = t
        self.rules = rules
        self.seats = seats
        self.result = result
        self.manual = result is None
        """Scorekeeper mode: the roll-off's throws are typed in."""
        self.typed: list[Faces] = []
        self._bindings.bind("enter", "begin", t("key.to_table"))

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static(self.t("rolloff.title"), id="rolloff-title")
            yield quiet_table("rolloff")
            if self.manual:
                yield Input(id="rolloff-entry")
                yield Static(id="rolloff-error")
            yield Static(id="rolloff-result")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = self.rules.preset.name(self.t.lang)
        table: DataTable[Any] = self.query_one("#rolloff", DataTable)
        for key in ("round", "player", "throw", "total"):
            table.add_column(self.t(f"rolloff.{key}"), key=key)
        self.redraw()

    def redraw(self) -> None:
        t = self.t
        style = self.rules.options.faces
        table: DataTable[Any] = self.query_one("#rolloff", DataTable)
        table.clear()
        names = [s.name for s in self.seats]
        if self.result is None:
            thrower = next_thrower(names, self.typed)
            if thrower is None:
                self.result = roll_off(names, ScriptedDice(self.typed))
            else:
                entry = self.query_one("#rolloff-entry", Input)
                entry.placeholder = t("rolloff.type", name=thrower)
                entry.focus()
        throws = self.result.throws if self.result is not None else ()
        best_by_round: dict[int, int] = {}
        for throw in throws:
            best_by_round[throw.round] = max(best_by_round.get(throw.round, 0), throw.total)
        for throw in throws:
            top = throw.total == best_by_round[throw.round]
            table.add_row(
                str(throw.round),
                Text(throw.player, style="bold yellow" if top else ""),
                dice_text(throw.faces, style, t),
                Text(str(throw.total), style="bold yellow" if top else ""),
            )
        if self.result is None:
            for k, faces in enumerate(self.typed):
                table.add_row(
                    "", next_thrower(names, self.typed[:k]) or "", dice_text(faces, style, t), str(sum(faces))
                )
        result = self.query_one("#rolloff-result", Static)
        if self.result is not None:
            result.update(Text(t("rolloff.starts", name=self.result.starter) + "  " + t("rolloff.continue")))
            # the entry has done its work; without it Enter goes to the screen again
            self.query("#rolloff-entry").remove()
            self.refresh_bindings()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        faces = parse_throw(event.value, 5, self.rules.options.faces)
        error = self.query_one("#rolloff-error", Static)
        if faces is None:
            error.update(self.t("entry.bad", n=5))
            return
        error.update("")
        event.input.value = ""
        self.typed.append(faces)
        self.redraw()

    def action_begin(self) -> None:
        from kosti.tui.app import KostiApp

        if self.result is None or not isinstance(self.app, KostiApp):
            return
        app = self.app
        app.pop_screen()
        app.begin(self.rules, self.seats, self.result)
