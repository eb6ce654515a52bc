"""Rule options of every family, typed, with their defaults and what they mean.

Each field is one rule option of ../RULES.md; its name is part of the public
interface (CLI, records, server API). A preset is a set of values of these
fields (:mod:`kosti.rules.presets`); a user may override any one of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kosti.errors import OptionRefusal

UPPER_CELLS: tuple[str, ...] = ("ones", "twos", "threes", "fours", "fives", "sixes")
POKER_LOWER: tuple[str, ...] = (
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "four_of_a_kind",
    "poker",
    "chance",
)
EXTENDED_LOWER: tuple[str, ...] = (
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "small_straight",
    "large_straight",
    "even",
    "odd",
    "full_house",
    "four_of_a_kind",
    "poker",
    "chance",
)
YAHTZEE_LOWER: tuple[str, ...] = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
YATZY_LOWER: tuple[str, ...] = (
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "four_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "chance",
    "yatzy",
)
"""Scandinavian Yatzy's lower cells in table order (RULES.md §1.5)."""
LOWER_CELLS: frozenset[str] = frozenset(EXTENDED_LOWER + YAHTZEE_LOWER + YATZY_LOWER)
"""Every lower cell id any sheet may use."""

ColumnKind = Literal["free", "announced", "ordered"]
"""How a column is filled (RULES.md §1.7): ``free``, any open cell the stage allows;
``announced``, after the first throw record, scratch or announce a cell («объявить»), and
throw again only towards it; ``ordered``, the cells in table order («по порядку»)."""

COLUMN_KINDS: tuple[ColumnKind, ...] = ("free", "announced", "ordered")
"""Every column kind; its position is its number in the solver's tables."""

COLUMNS: dict[str, tuple[ColumnKind, ...]] = {
    "single": ("free",),
    "fences": ("free", "announced", "ordered"),
}
"""The columns of each value of ``SheetOptions.columns``, in the order they are played."""


@dataclass(frozen=True)
class CommonOptions:
    """Options every game has."""

    first_player: Literal["rolloff", "seat"] = "rolloff"
    """Who starts: ``rolloff`` (everyone throws five dice, highest total starts, ties
    throw again among themselves) or ``seat`` (the first player listed)."""

    faces: Literal["pips", "cards"] = "pips"
    """Display only: pips 1..6, or card faces 9, 10, J, Q, K, A."""

    stake: int = 1
    """Money per point when results are settled against the average."""


@dataclass(frozen=True)
class SheetOptions(CommonOptions):
    """Score-sheet poker («покер на костях»), ``yahtzee`` and ``yatzy`` (RULES.md §1)."""

    upper: Literal["deviation", "sum"] = "deviation"
    """Upper cells: ``deviation`` scores (count − 3) × face («школа»); ``sum`` scores count × face."""

    lower: tuple[str, ...] = POKER_LOWER
    """The lower cells of the sheet, in table order."""

    lower_scoring: Literal["combination", "free", "yahtzee"] = "combination"
    """``combination``: pip sum of the dice forming the combination; ``free``: sum of all five,
    poker 50, straights 25/30; ``yahtzee``: the fixed Yahtzee values. The ``yatzy`` cell
    (five alike) scores a fixed 50 under every rule."""

    straights: Literal["exact", "runs"] = "exact"
    """``exact``: small 1-2-3-4-5, large 2-3-4-5-6; ``runs``: any run of four / of five."""

    first_throw: Literal["none", "double", "fences"] = "double"
    """Multiplier for a lower cell made on the first throw: ``double`` ×2 (not chance);
    ``fences`` pair ×1, two_pairs ×2, others ×3, chance ×1; ``none``."""

    poker_bonus: int = 50
    """Added to ``poker`` when five of a kind is recorded there, after the multiplier."""

    four_bonus: int = 0
    """Prize added to ``four_of_a_kind`` when four of a kind is recorded there («поощрительный приз»)."""

    upper_bonus: Literal["none", "nonnegative", "sign", "threshold"] = "nonnegative"
    """``nonnegative``: upper total ≥ 0 earns the bonus; ``sign``: > 0 earns it, < 0 costs the
    penalty (per column); ``threshold``: upper total ≥ ``upper_threshold`` earns it."""

    upper_bonus_points: int = 50
    """The upper bonus («премия»)."""

    upper_penalty_points: int = 20
    """The penalty of ``upper_bonus = "sign"`` for a negative upper total."""

    upper_threshold: int = 63
    """The total ``upper_bonus = "threshold"`` needs."""

    stages: Literal["sequential", "free"] = "sequential"
    """``sequential``: lower cells only once the upper section is full; ``free``: any open cell."""

    banked_throws: bool = False
    """Unused throws are banked («ограды») and spent automatically past the third throw."""

    bank_value: int = 0
    """Points each unspent banked throw is worth at the end of the game."""

    scratch: bool = False
    """A lower cell may be scratched for 0, banking throws (``poker-fences``)."""

    columns: Literal["single", "fences"] = "single"
    """``fences``: three columns played in turn: free, announced, in order."""

    extra_yahtzee_bonus: int = 0
    """Bonus for each further Yahtzee once ``yahtzee`` holds 50."""

    joker: Literal["none", "forced", "free"] = "none"
    """What a further Yahtzee may do once the ``yahtzee`` cell is recorded. ``forced``
    (the official rule): it must go to its own upper cell if open, else to any lower cell,
    full house and straights at full value, else to any upper cell. ``free`` (the rule of
    Verhoeff's 254.5896): while its upper cell is open it scores as ordinary dice anywhere;
    once that is recorded it may go to any open cell, lower cells at full value."""

    throws: int = 3
    """Throws per turn (before banked ones)."""

    def __post_init__(self) -> None:
        """Refuse, with :class:`OptionError`, options whose fields contradict each other or name
        unknown cells: however the options are made (a preset, ``variant()``, ``replace`` or a
        direct call), no broken set of them reaches an engine."""
        for cell in self.lower:
            if cell not in LOWER_CELLS:
                raise OptionRefusal("unknown_cell", name=cell)
        if len(set(self.lower)) != len(self.lower):
            raise OptionRefusal("cell_twice")
        if self.throws < 1:
            raise OptionRefusal("at_least", option="throws", n=1)
        if self.columns == "fences" and self.lower_scoring == "yahtzee":
            raise OptionRefusal("fences_yahtzee")

    @property
    def column_kinds(self) -> tuple[ColumnKind, ...]:
        """The kind of each column, in the order they are played (:data:`COLUMNS`): the one
        description of the columns that the engine and the solver both read."""
        return COLUMNS[self.columns]


@dataclass(frozen=True)
class ThousandOptions(CommonOptions):
    """«Тысяча», dice 1000 (RULES.md §3). Classic values are the defaults."""

    target: int = 1000
    """The winning score."""

    opening: int = 50
    """The score of one turn a player must make before recording anything («открытие», «допуск»)."""

    opening_fail_penalty: int = 0
    """Points lost for every ``opening_fail_every`` failed opening turns (0 = off)."""

    opening_fail_every: int = 3
    """How many failed opening turns cost ``opening_fail_penalty``."""

    set_aside: Literal["all", "choice"] = "all"
    """``all``: every scoring die is set aside; ``choice``: the player sets aside a group."""

    hot_dice: Literal["continue", "confirm"] = "continue"
    """When all five are set aside: ``continue`` throws five again (compulsorily) and plays on;
    ``confirm`` throws five once to confirm the turn («подтверждение»)."""

    pits: tuple[tuple[int, int], ...] = ((200, 300), (600, 700))
    """Pits («ямы») as [low, high): from a score in the pit, stop only at high or above."""

    overtake_penalty: int = 50
    """Lost by each player overtaken («обгон»); 0 = off."""

    dump_at: int | None = 555
    """A score of exactly this drops to 0 («самосвал»); null = off."""

    bolt_limit: int = 3
    """Bolts («болты») that cost ``bolt_penalty``; 0 = no bolts."""

    bolt_penalty: int = 100
    """Lost at ``bolt_limit`` bolts."""

    bolts_when_restricted: bool = False
    """Give bolts also while not opened, in a pit or on a barrel."""

    barrel: Literal["none", "points", "open", "capped"] = "points"
    """The barrel rule («бочка»): ``none``; ``points``: from ``barrel_at`` the player sits on the
    barrel at exactly ``barrel_at`` and must reach the target in one turn, with
    ``barrel_attempts`` turns before they fall; ``open``: the target must be reached exactly, and
    a turn that passes it earns a dot; ``capped``: a score above ``barrel_at`` is recorded as
    ``barrel_at``, and from there the target is reached in one turn, with no limit of tries."""

    barrel_at: int = 880
    """Where the barrel stands (``points``, ``capped``)."""

    barrel_attempts: int = 3
    """Turns on a ``points`` barrel before the player falls."""

    fall_penalty: int = 100
    """Lost in a fall from the barrel (``points``) or at the dot limit (``open``)."""

    falls_limit: int | None = None
    """The fall that takes a player to 0; null = the barrel's own default (points 3, open 1)."""

    dots_limit: int = 6
    """Dots («точки») of an ``open`` barrel before the player loses and falls."""

    def __post_init__(self) -> None:
        """Refuse, with :class:`OptionError`, options that contradict each other (an empty pit,
        a barrel at or past the target, a count that can never be reached), however they are made."""
        for low, high in self.pits:
            if not low < high:
                raise OptionRefusal("pit_order", low=low, high=high)
        if self.opening < 0 or self.target <= 0:
            raise OptionRefusal("opening_target")
        if self.barrel in ("points", "capped") and not 0 < self.barrel_at < self.target:
            raise OptionRefusal("barrel_at", target=self.target)
        if self.opening_fail_every < 1:
            raise OptionRefusal("at_least", option="opening_fail_every", n=1)
        for name in ("barrel_attempts", "dots_limit", "falls_limit"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise OptionRefusal("at_least", option=name, n=1)


@dataclass(frozen=True)
class ShowdownOptions(CommonOptions):
    """Showdown poker dice (RULES.md §2)."""

    ante: int = 1
    """Paid into the bank by every player each round."""

    rounds: int = 10
    """Rounds in a match."""

    tiebreak: Literal["hand_then_total", "total"] = "hand_then_total"
    """Between equal hands: the pip sum of the hand's dice then all five, or all five only."""

    throws: int = 3
    """Throws per turn."""

    def __post_init__(self) -> None:
        """Refuse, with :class:`OptionError`, a match without rounds or throws, or a negative ante."""
        if self.rounds < 1 or self.throws < 1:
            raise OptionRefusal("at_least", option="rounds" if self.rounds < 1 else "throws", n=1)
        if self.ante < 0:
            raise OptionRefusal("negative", option="ante")


Options = SheetOptions | ThousandOptions | ShowdownOptions
