"""Dice drawn as boxes with pips or card faces, that a click holds or picks."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from kosti.dice import CARD_NAMES

PIPS: dict[int, tuple[str, str, str]] = {
    1: ("     ", "  ●  ", "     "),
    2: ("●    ", "     ", "    ●"),
    3: ("●    ", "  ●  ", "    ●"),
    4: ("●   ●", "     ", "●   ●"),
    5: ("●   ●", "  ●  ", "●   ●"),
    6: ("●   ●", "●   ●", "●   ●"),
}


@dataclass(frozen=True)
class DieLook:
    """How one die is shown: its face (``None``: no die there) and what marks it carries."""

    face: int | None
    style: str = "pips"
    marked: bool = False
    locked: bool = False
    scoring: bool = False
    stale: bool = False
    """The die of a turn that is over (drawn dim)."""

    label: str = ""
    """The word under the die («держу», «в зачёт» …)."""

    card: str = ""
    """The card the face stands for, in the player's language (``style="cards"``)."""


def face_rows(face: int, style: str, card: str = "") -> tuple[str, str, str]:
    """The three inner rows of a die, five characters each."""
    if style == "cards":
        name = card or CARD_NAMES[face]
        return (name.ljust(5), name.center(5), name.rjust(5))
    return PIPS[face]


def render_die(look: DieLook, key: int) -> Text:
    """A die as seven lines of text: the box, then the key and the label."""
    colour = _colour(look)
    text = Text()
    if look.face is None:
        rows = ("     ", "  ·  ", "     ")
        colour = "grey35"
    else:
        rows = face_rows(look.face, look.style, look.card)
    text.append("╭───────╮\n", style=colour)
    for row in rows:
        text.append("│ ", style=colour)
        text.append(row, style=colour)
        text.append(" │\n", style=colour)
    text.append("╰───────╯\n", style=colour)
    text.append(f"[{key}] ".center(9)[:9] + "\n", style="bold cyan" if look.face is not None else "grey35")
    text.append(look.label.center(9)[:9], style=colour)
    return text


def render_small_die(look: DieLook, key: int) -> Text:
    """A die in three lines for small terminals: the key in the top edge, the face as a
    numeral or card, the label (shortened) in the bottom edge."""
    colour = _colour(look)
    text = Text()
    key_style = "bold cyan" if look.face is not None else "grey35"
    text.append("╭─ ", style=colour)
    text.append(str(key), style=key_style)
    text.append(" ─╮\n", style=colour)
    if look.face is None:
        face = "·"
        colour = "grey35"
    elif look.style == "cards":
        face = look.card or CARD_NAMES[look.face]
    else:
        face = str(look.face)
    text.append("│", style=colour)
    text.append(face.center(5), style=colour if look.stale else "bold " + colour.replace("bold ", ""))
    text.append("│\n", style=colour)
    label = look.label[:5]
    text.append("╰" + label.center(5, "─") + "╯", style=colour)
    return text


def _colour(look: DieLook) -> str:
    if look.stale:
        return "grey50"
    if look.locked:
        return "bold magenta"
    if look.marked:
        return "bold yellow"
    if look.scoring:
        return "bold green"
    return "white"


class DieView(Static):
    """One die on the table; clicking it posts :class:`DieView.Clicked`."""

    class Clicked(Message):
        """The player clicked the die at ``position`` (0-based)."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    def __init__(self, position: int, id: str | None = None, small: bool = False) -> None:
        super().__init__("", id=id)
        self.position = position
        self.small = small
        """Drawn in three lines (:func:`render_small_die`), for small terminals."""
        self.look = DieLook(None)

    def show_die(self, look: DieLook) -> None:
        """Draw ``look`` (the screen calls this whenever the model changes)."""
        self.look = look
        draw = render_small_die if self.small else render_die
        self.update(draw(look, self.position + 1))

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.position))
