"""Small dialogs: typing in a throw of real dice (scorekeeper mode), picking a past throw to
correct, and a yes-or-no question before a move that is easy to regret."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Label

from kosti.dice import CARD_NAMES, Faces
from kosti.i18n import Catalog
from kosti.tui.saving import SavedGame

CARD_FACES: dict[str, int] = {name.lower(): face for face, name in CARD_NAMES.items()}
CARD_FACES.update({"в": 3, "д": 4, "к": 5, "т": 6})
"""Card faces typed as letters (9 10 J Q K A, or the Russian В Д К Т) read as pips."""


def parse_throw(text: str, n: int, style: str = "pips") -> Faces | None:
    """The faces typed for a throw of ``n`` dice; ``None`` if unreadable or not ``n`` of them.

    Pips: ``1 5 3 3 4`` or ``15334``. Card faces (``style="cards"``): ``9 10 J Q K A``
    (or В Д К Т), pips also accepted.
    """
    pattern = r"10|[1-6]|[jqkaвдкт9]" if style == "cards" else r"[1-6]"
    words = re.findall(pattern, text.lower())
    if "".join(words) != re.sub(r"[\s,;]+", "", text.lower()):
        return None
    # "10" is the card ten (a 2), "9" the nine (a 1): look card names up before pips
    faces = tuple(CARD_FACES[w] if w in CARD_FACES and w not in "123456" else int(w) for w in words)
    return faces if len(faces) == n else None


class DiceEntry(ModalScreen[Faces | None]):
    """Ask for the faces of ``n`` dice thrown on the real table; dismissed with them, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]

    DEFAULT_CSS = """
    DiceEntry { align: center middle; }
    DiceEntry > Vertical { width: 60; height: auto; border: thick $accent; padding: 1 2; background: $panel; }
    DiceEntry #entry-error { color: $error; height: auto; }
    DiceEntry Label { width: 100%; }
    """

    def __init__(self, n: int, name: str, t: Catalog, style: str = "pips", was: str = "") -> None:
        super().__init__()
        self.n = n
        self.style = style
        self.player = name
        self.t = t
        self.was = was
        """The throw as it stands, when one is corrected: shown, and typed in to begin with
        (selected, so that typing replaces it)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.t("entry.title", name=self.player, n=self.n))
            if self.was:
                yield Label(self.t("entry.was", dice=self.was), id="entry-was")
            yield Input(self.was, placeholder=self.t("entry.placeholder", n=self.n), id="entry")
            yield Label("", id="entry-error")
            yield Label(self.t("entry.help"), classes="muted")

    def on_mount(self) -> None:
        self.query_one("#entry", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        faces = parse_throw(event.value, self.n, self.style)
        if faces is None:
            self.query_one("#entry-error", Label).update(self.t("entry.bad", n=self.n))
            return
        self.dismiss(faces)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Confirm(ModalScreen[bool]):
    """A yes-or-no question; dismissed with ``True`` for Y (or Enter), ``False`` for N or Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", show=False),
        Binding("n,escape", "answer(False)", show=False),
    ]

    DEFAULT_CSS = """
    Confirm { align: center middle; }
    Confirm > Vertical {
        width: 64; max-width: 100%; height: auto; border: thick $warning; padding: 1 2; background: $panel;
    }
    Confirm Label { width: 100%; }  /* a long question wraps instead of running off the box */
    """

    def __init__(self, question: str, t: Catalog) -> None:
        super().__init__()
        self.question = question
        self.t = t

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question, id="question")
            yield Label(self.t("confirm.keys"), classes="muted")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ThrowPicker(ModalScreen[int | None]):
    """The throws of the game, to pick one to correct (scorekeeper mode); dismissed with its
    place in the record, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "pick", show=False),
        Binding("escape", "cancel", show=False),
    ]

    DEFAULT_CSS = """
    ThrowPicker { align: center middle; }
    ThrowPicker Label { width: 100%; }
    ThrowPicker > Vertical {
        width: 60; max-width: 100%; height: 80%; border: thick $accent; padding: 0 1; background: $panel;
    }
    ThrowPicker DataTable { height: 1fr; }
    """

    def __init__(
        self, throws: list[tuple[int, str, Faces]], t: Catalog, show: Callable[[Faces], str]
    ) -> None:
        super().__init__()
        self.throws = throws
        self.t = t
        self.show = show

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.t("edit.title"))
            yield DataTable(id="throws", cursor_type="row", zebra_stripes=True)
            yield Label(self.t("edit.help"), classes="muted")

    def on_mount(self) -> None:
        table: DataTable[str] = self.query_one("#throws", DataTable)
        table.add_columns("#", self.t("board.player"), self.t("rolloff.throw"))
        for k, (index, player, faces) in enumerate(self.throws):
            table.add_row(str(k + 1), player, self.show(faces), key=str(index))
        if self.throws:
            table.move_cursor(row=len(self.throws) - 1)
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_pick()

    def action_pick(self) -> None:
        table: DataTable[str] = self.query_one("#throws", DataTable)
        if not self.throws:
            self.dismiss(None)
            return
        self.dismiss(self.throws[table.cursor_row][0])

    def action_cancel(self) -> None:
        self.dismiss(None)


class SavedGamesPicker(ModalScreen[Path | None]):
    """The unfinished saved games, latest first; dismissed with the one picked, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "pick", show=False),
        Binding("escape", "cancel", show=False),
    ]

    DEFAULT_CSS = """
    SavedGamesPicker { align: center middle; }
    SavedGamesPicker Label { width: 100%; }
    SavedGamesPicker > Vertical {
        width: 90; max-width: 100%; height: 80%; border: thick $accent; padding: 0 1; background: $panel;
    }
    SavedGamesPicker DataTable { height: 1fr; }
    """

    def __init__(self, games: list[SavedGame], t: Catalog) -> None:
        super().__init__()
        self.games = games
        self.t = t

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.t("saved.title") if self.games else self.t("saved.none"))
            yield DataTable(id="saved", cursor_type="row", zebra_stripes=True)
            yield Label(self.t("saved.help"), classes="muted")

    def on_mount(self) -> None:
        from kosti.rules.presets import PRESETS

        table: DataTable[str] = self.query_one("#saved", DataTable)
        table.add_columns(
            self.t("saved.when"), self.t("setup.game"), self.t("setup.players"), self.t("saved.turns")
        )
        for game in self.games:
            preset = PRESETS.get(game.preset)
            name = preset.name(self.t.lang) if preset is not None else game.preset
            when = game.saved.strftime("%Y-%m-%d %H:%M")
            table.add_row(when, name, ", ".join(game.players), str(game.turns))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_pick()

    def action_pick(self) -> None:
        if not self.games:
            self.dismiss(None)
            return
        row = self.query_one("#saved", DataTable).cursor_row
        self.dismiss(self.games[row].path)

    def action_cancel(self) -> None:
        self.dismiss(None)
