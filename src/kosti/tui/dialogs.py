"""Small dialogs: typing in a throw of real dice (scorekeeper mode)."""

from __future__ import annotations

import re
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from kosti.dice import CARD_NAMES, Faces
from kosti.i18n import Catalog

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
    """

    def __init__(self, n: int, name: str, t: Catalog, style: str = "pips") -> None:
        super().__init__()
        self.n = n
        self.style = style
        self.player = name
        self.t = t

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.t("entry.title", name=self.player, n=self.n))
            yield Input(placeholder=self.t("entry.placeholder", n=self.n), id="entry")
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
