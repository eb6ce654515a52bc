"""kosti: the dice games of Russian-speaking tables.

Score-sheet «покер на костях» in its regional variants and ``yahtzee``, «Тысяча»
(dice 1000) and showdown poker dice, as a pure rules engine with explicit chance
steps::

    >>> from kosti import new_game, apply, Roll, Score
    >>> state = new_game("poker-classic", ["Anna", "Boris"])
    >>> state = apply(state, Roll((1, 6, 6, 6, 6)))
    >>> state = apply(state, Score("sixes"))
    >>> state.sheets[0].columns[0][5]
    6
"""

from kosti.actions import Action, Announce, CellAction, Hold, Roll, Score, Scratch, SetAside, Stop, Throw
from kosti.errors import IllegalActionError, KostiError, OptionError, RecordError
from kosti.events import Event
from kosti.games import apply, engine_for, legal_actions, new_game, step
from kosti.rules import PRESETS, Variant, preset, variant

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "Announce",
    "CellAction",
    "Event",
    "Hold",
    "IllegalActionError",
    "KostiError",
    "OptionError",
    "RecordError",
    "Roll",
    "Score",
    "Scratch",
    "SetAside",
    "Stop",
    "Throw",
    "Variant",
    "__version__",
    "apply",
    "engine_for",
    "legal_actions",
    "new_game",
    "preset",
    "step",
    "variant",
]
