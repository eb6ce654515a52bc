"""The new-game screen: pick the preset, change its options, seat the players and the bots.

Each person's seat has its name in an input: a name is checked as the server checks a player's
(:func:`kosti.server.limits.normalize_name`: something visible, no invisible or control
characters, one alphabet a word, at most 24 columns) and must not look like another seat's; a
refused name says why under the players and leaves the seat's name as it was.
"""

from __future__ import annotations

import types
import typing
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, Literal

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static, Switch

from kosti.errors import KostiError, Refusal
from kosti.i18n import Catalog, refusal_text
from kosti.levels import levels_for
from kosti.rules.options import Options
from kosti.rules.presets import PRESETS, Variant, variant

# the server's own rules for a name (it needs none of the server's packages to run)
from kosti.server.limits import distinct_name
from kosti.tui.session import Seat
from kosti.tui.text import sentence

if typing.TYPE_CHECKING:
    from kosti.tui.app import PlayConfig

SMALL_WIDTH = 100
"""Narrower terminals get each option's label above its editor."""

SHOWN_KINDS = ("literal", "bool", "int", "optional_int")


def option_kind(hint: Any) -> str | None:
    """How an option is edited: ``literal`` (a select), ``bool`` (a switch), ``int`` or
    ``optional_int`` (an input; empty means off), ``None`` for lists (not offered here)."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return "literal"
    if hint is bool:
        return "bool"
    if hint is int:
        return "int"
    if origin in (types.UnionType, typing.Union) and set(typing.get_args(hint)) == {int, type(None)}:
        return "optional_int"
    return None


def editable_options(options: Options) -> list[tuple[str, str, Any, tuple[Any, ...]]]:
    """The options the screen offers: (name, kind, current value, choices of a Literal)."""
    hints = typing.get_type_hints(type(options))
    result = []
    for f in fields(options):
        kind = option_kind(hints[f.name])
        if kind is not None:
            result.append((f.name, kind, getattr(options, f.name), typing.get_args(hints[f.name])))
    return result


def bot_name(level: str, taken: list[str], t: Catalog) -> str:
    """A free name for a new bot of ``level`` («Умник», «Умник 2» …)."""
    base = t(f"bot.{level}")
    name = base
    k = 2
    while name in taken:
        name = f"{base} {k}"
        k += 1
    return name


class SetupScreen(Screen[None]):
    """Choose the game and the players; Ctrl+S (or the button) starts it."""

    DEFAULT_CSS = """
    SetupScreen #setup { height: 1fr; }
    SetupScreen #game-panel, SetupScreen #players-panel { width: 1fr; border: round $primary; padding: 0 1; }
    SetupScreen #preset-summary { color: $text-muted; height: auto; margin: 0 0 1 0; }
    SetupScreen #options { height: 1fr; }
    SetupScreen .option-row { height: 1; margin-bottom: 1; }
    SetupScreen .option-row Label { width: 30; padding: 0 1 0 0; }
    SetupScreen .option-row Switch { border: none; height: 1; padding: 0; }
    SetupScreen .option-row Select, SetupScreen .option-row Input { width: 1fr; }
    SetupScreen #players { height: auto; max-height: 9; margin-bottom: 1; }
    SetupScreen .seat-row { height: 1; }
    SetupScreen .seat-row .seat-n { width: 3; color: $text-muted; }
    SetupScreen .seat-row .seat-name { width: 1fr; }
    SetupScreen .seat-row .seat-who { width: 13; padding: 0 0 0 1; color: $text-muted; }
    SetupScreen .seat-row Button { width: 3; min-width: 3; }
    SetupScreen .add-row { height: auto; margin-bottom: 1; }
    SetupScreen #preset { margin-top: 1; }
    SetupScreen .add-row Input, SetupScreen .add-row Select { width: 1fr; }
    SetupScreen .add-row Button { width: auto; min-width: 14; }
    SetupScreen #setup-error { color: $error; height: auto; }
    SetupScreen #start-row { height: auto; align: center middle; }
    SetupScreen #start, SetupScreen #continue { margin: 0 2; }
    SetupScreen.small .option-row { layout: vertical; height: 2; }
    SetupScreen.small .option-row Label { width: 100%; }
    SetupScreen.small .option-row Select, SetupScreen.small .option-row Input { width: 100%; }
    """

    def __init__(self, t: Catalog, config: PlayConfig) -> None:
        super().__init__()
        self.t = t
        self.config = config
        chosen = variant(config.preset, config.options) if config.preset else None
        self.preset_id = chosen.preset.id if chosen else "poker-classic"
        self.initial: Variant | None = chosen
        self.seats: list[Seat] = list(config.seats) or [
            Seat(t("setup.you")),
            Seat(bot_name("heuristic", [], t), "heuristic"),
        ]
        self._bindings.bind("ctrl+s", "start", t("key.start"))
        self._bindings.bind("delete", "remove_player", t("key.remove_player"))
        self._bindings.bind("ctrl+o", "saved_games", t("key.saved_games"))
        self._bindings.bind("ctrl+q", "quit_app", t("key.quit"))
        self._generation = 0
        self._seat_generation = 0

    def compose(self) -> ComposeResult:
        t = self.t
        yield Header()
        with Horizontal(id="setup"):
            with Vertical(id="game-panel"):
                presets = [(f"{p.name(t.lang)}  ({p.id})", p.id) for p in PRESETS.values()]
                yield Select(presets, value=self.preset_id, allow_blank=False, id="preset", compact=True)
                yield Static(id="preset-summary")
                yield VerticalScroll(id="options")
            with Vertical(id="players-panel"):
                yield VerticalScroll(id="players")
                with Horizontal(classes="add-row"):
                    yield Input(placeholder=t("setup.name"), id="name", compact=True)
                    yield Button(t("setup.add_player"), id="add-player", variant="primary", compact=True)
                with Horizontal(classes="add-row"):
                    yield Select(
                        self._levels(), value="heuristic", allow_blank=False, id="level", compact=True
                    )
                    yield Button(t("setup.add_bot"), id="add-bot", compact=True)
                yield Static(id="setup-error")
        with Horizontal(id="start-row"):
            yield Button(t("setup.start"), id="start", variant="success")
            # a game left unfinished is one button away (and Ctrl+O)
            yield Button(t("setup.continue"), id="continue")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        # a small terminal: each option's label above its editor, so whole values show
        self.set_class(event.size.width < SMALL_WIDTH, "small")

    def on_mount(self) -> None:
        t = self.t
        self.set_class(self.app.size.width < SMALL_WIDTH, "small")
        self.title = "kosti"
        self.sub_title = t("setup.title")
        self.query_one("#game-panel").border_title = t("setup.game")
        self.query_one("#players-panel").border_title = t("setup.players")
        self._show_preset(self.initial)
        self._show_players()

    # -- the game ---------------------------------------------------------------

    @on(Select.Changed, "#preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.preset_id:
            self.preset_id = event.value
            self._show_preset(None)

    def _show_preset(self, chosen: Variant | None) -> None:
        t = self.t
        preset = PRESETS[self.preset_id]
        options = chosen.options if chosen is not None else preset.options
        self.query_one("#preset-summary", Static).update(preset.summary(t.lang))
        box = self.query_one("#options", VerticalScroll)
        box.remove_children()
        # ids must be fresh: the old widgets are removed asynchronously
        self._generation += 1
        rows: list[Widget] = []
        for name, kind, value, choices in editable_options(options):
            widget_id = f"opt-{self._generation}-{name}"
            editor: Widget
            if kind == "literal":
                labels = [(self._value_label(name, c), c) for c in choices]
                editor = Select(labels, value=value, allow_blank=False, id=widget_id, compact=True)
            elif kind == "bool":
                editor = Switch(value=bool(value), id=widget_id)
            else:
                editor = Input(
                    "" if value is None else str(value),
                    placeholder=t("setup.off") if kind == "optional_int" else "",
                    type="integer",
                    id=widget_id,
                    compact=True,
                )
            rows.append(Horizontal(Label(t.option(name)), editor, classes="option-row"))
        box.mount_all(rows)
        levels: Select[str] = self.query_one("#level", Select)
        levels.set_options(self._levels())
        levels.value = "heuristic"

    def _levels(self) -> list[tuple[str, str]]:
        """The bot levels offered for the chosen preset (its options are checked again at the start)."""
        return [(self.t(f"level.{level}"), level) for level in levels_for(variant(self.preset_id))]

    def _value_label(self, name: str, value: str) -> str:
        key = f"value.{name}.{value}"
        return self.t(key) if self.t.has(key) else value

    def overrides(self) -> dict[str, Any]:
        """The options as the screen shows them, where they differ from the preset."""
        preset = PRESETS[self.preset_id]
        result: dict[str, Any] = {}
        for name, kind, default, _choices in editable_options(preset.options):
            widget = self.query_one(f"#opt-{self._generation}-{name}")
            value: Any
            if isinstance(widget, Select | Switch):
                value = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if kind == "optional_int" and not text:
                    value = None
                else:
                    try:
                        value = int(text)
                    except ValueError:
                        raise KostiError(self.t("setup.bad_number", option=self.t.option(name))) from None
            else:  # pragma: no cover - every editor is one of these
                continue
            if value != default:
                result[name] = value
        return result

    # -- the players -------------------------------------------------------------

    def _show_players(self) -> None:
        """A row a seat: its number, its name (in an input for a person), who plays it, ✕."""
        t = self.t
        box = self.query_one("#players", VerticalScroll)
        box.remove_children()
        # ids must be fresh: the old rows are removed asynchronously
        self._seat_generation += 1
        rows: list[Widget] = []
        for i, seat in enumerate(self.seats):
            name: Widget
            if seat.level is None:
                name = Input(
                    seat.name,
                    placeholder=t("setup.name"),
                    id=f"seat-name-{self._seat_generation}-{i}",
                    classes="seat-name",
                    compact=True,
                )
            else:
                name = Label(Text(seat.name, style="bold"), classes="seat-name")
            who = t("setup.human") if seat.level is None else t(f"level.{seat.level}")
            remove = Button(
                "✕", id=f"seat-remove-{self._seat_generation}-{i}", variant="warning", compact=True
            )
            remove.tooltip = t("setup.remove")
            rows.append(
                Horizontal(
                    Label(f"{i + 1}", classes="seat-n"),
                    name,
                    Label(who, classes="seat-who"),
                    remove,
                    classes="seat-row",
                )
            )
        box.mount_all(rows)

    def _seat_of(self, widget: Widget) -> int | None:
        """The seat of a widget of the players' rows now shown (``None`` for an old row's)."""
        prefix, _, index = (widget.id or "").rpartition("-")
        if not prefix.endswith(f"-{self._seat_generation}") or not index.isdigit():
            return None
        return int(index) if int(index) < len(self.seats) else None

    def _error(self, key: str = "", **params: Any) -> None:
        self.query_one("#setup-error", Static).update(self.t(key, **params) if key else "")

    def _refused(self, refusal: Refusal) -> None:
        """Say why, in the player's language, under the players."""
        self.query_one("#setup-error", Static).update(sentence(refusal_text(refusal, self.t.lang)))

    def _name_for(self, text: str, seat: int | None = None) -> str:
        """``text`` as the name of ``seat`` (a new one: ``None``), or :class:`Refusal` saying why."""
        return distinct_name(text, (s.name for i, s in enumerate(self.seats) if i != seat))

    @on(Input.Changed, ".seat-name")
    def _check_name(self, event: Input.Changed) -> None:
        """While a name is typed: why it would be refused, or nothing (the seat is renamed when
        the name is left or Enter is pressed)."""
        seat = self._seat_of(event.input)
        if seat is None:
            return
        try:
            self._name_for(event.value, seat)
        except Refusal as refusal:
            self._refused(refusal)
            return
        self._error()

    @on(Input.Submitted, ".seat-name")
    @on(Input.Blurred, ".seat-name")
    def _rename(self, event: Input.Submitted | Input.Blurred) -> None:
        self._take_name(event.input)

    def _take_name(self, entry: Input) -> bool:
        """The name typed in ``entry`` becomes its seat's; refused, the seat keeps its name and
        the screen says why. Whether the seat has the name shown."""
        seat = self._seat_of(entry)
        if seat is None:
            return True
        try:
            name = self._name_for(entry.value, seat)
        except Refusal as refusal:
            self._refused(refusal)
            return False
        self.seats[seat] = replace(self.seats[seat], name=name)
        if entry.value != name:  # shown as it will be: trimmed, NFKC
            with entry.prevent(Input.Changed):
                entry.value = name
        return True

    @on(Button.Pressed, "#add-player")
    @on(Input.Submitted, "#name")
    def _add_player(self) -> None:
        entry = self.query_one("#name", Input)
        try:
            name = self._name_for(entry.value)
        except Refusal as refusal:
            self._refused(refusal)
            return
        self.seats.append(Seat(name))
        entry.value = ""
        self._error()
        self._show_players()

    @on(Button.Pressed, "#add-bot")
    def _add_bot(self) -> None:
        level = self.query_one("#level", Select).value
        if not isinstance(level, str):
            return
        self.seats.append(Seat(bot_name(level, [s.name for s in self.seats], self.t), level))
        self._error()
        self._show_players()

    @on(Button.Pressed, ".seat-row Button")
    def _remove_pressed(self, event: Button.Pressed) -> None:
        seat = self._seat_of(event.button)
        if seat is not None:
            self._remove(seat)

    def action_remove_player(self) -> None:
        """Delete: the seat whose row has the focus, else the last one seated (a name being
        typed keeps the key for itself)."""
        focused = self.focused
        seat = self._seat_of(focused) if focused is not None else None
        if seat is None and self.seats:
            seat = len(self.seats) - 1
        if seat is not None:
            self._remove(seat)

    def _remove(self, seat: int) -> None:
        del self.seats[seat]
        self._error()
        self._show_players()
        if self.seats:
            # the rows are new: the focus goes to the ✕ now in the removed one's place, so that
            # Delete again removes the next seat down, not the last one seated
            place = min(seat, len(self.seats) - 1)
            self.call_after_refresh(self._focus_remove, f"#seat-remove-{self._seat_generation}-{place}")

    def _focus_remove(self, selector: str) -> None:
        found = self.query(selector)
        if found:
            found.first().focus()

    # -- start -------------------------------------------------------------------

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        from kosti.levels import levels_for as offered
        from kosti.tui.app import KostiApp

        if not self.seats:
            self._error("setup.need_players")
            return
        for entry in self.query(".seat-name").results(Input):
            if not self._take_name(entry):
                # the name shown is not the seat's: no game starts under a name nobody sees
                entry.focus()
                return
        try:
            rules = variant(self.preset_id, self.overrides())
        except KostiError as error:
            self.query_one("#setup-error", Static).update(Text(str(error)))
            return
        levels = offered(rules)
        for seat in self.seats:
            if seat.level is not None and seat.level not in levels:
                if seat.level == "optimal" and rules.family == "thousand":
                    from kosti.solver.thousand.ready import solve_command

                    self._error("setup.optimal_unsolved", name=seat.name, command=solve_command(rules))
                else:
                    self._error("setup.level_unavailable", name=seat.name)
                return
        app = self.app
        if isinstance(app, KostiApp):
            app.pop_screen()
            app.start(rules, list(self.seats))

    @on(Button.Pressed, "#continue")
    def action_saved_games(self) -> None:
        """Pick an unfinished saved game and go on with it."""
        from kosti.tui.app import KostiApp
        from kosti.tui.dialogs import SavedGamesPicker
        from kosti.tui.saving import saved_games

        def picked(path: Path | None) -> None:
            app = self.app
            if path is not None and isinstance(app, KostiApp):
                app.pop_screen()
                app.resume(path)

        self.app.push_screen(SavedGamesPicker(saved_games(), self.t), picked)

    def action_quit_app(self) -> None:
        self.app.exit(None)
