"""Scoring one throw of «Тысяча» (RULES.md §3.1). Pure functions of the dice.

A throw of 1 to 5 dice is grouped into its highest score («кубики всегда
компонуются по максимальной очковой комбинации»): a straight (five dice only),
else three, four or five of one face, else single 1s (10 each) and 5s (5 each).
The grouping is unique: a whole of a kind always beats splitting it (four 1s are
200, three 1s and a single 1 only 110), and a straight of five beats its single
1 and 5. The scoring dice split into *units* that can only be set aside whole
(RULES.md §3.2, ``set_aside = "choice"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from kosti.dice import Faces, counts, is_submultiset, normalize
from kosti.errors import IllegalActionError, KostiError

STRAIGHTS: dict[Faces, int] = {(1, 2, 3, 4, 5): 125, (2, 3, 4, 5, 6): 250}
"""The two straights of five dice and their points («малый» and «большой стрит»)."""

KIND_MULTIPLIER: dict[int, int] = {3: 10, 4: 20, 5: 100}
"""Three, four, five of one face score face × 10, × 20, × 100 (a 1 counting as 10)."""

SINGLE_POINTS: dict[int, int] = {1: 10, 5: 5}
"""A 1 or a 5 outside any group scores on its own."""


def face_value(face: int) -> int:
    """The value a face carries in groups of a kind: the pips, except that a 1 counts as 10."""
    return 10 if face == 1 else face


def kind_points(face: int, count: int) -> int:
    """Three, four or five dice of ``face`` thrown together: three 1s 100, five 1s 1000, four 3s 60."""
    return face_value(face) * KIND_MULTIPLIER[count]


UnitKind = Literal["straight", "kind", "single"]


@dataclass(frozen=True, slots=True)
class Unit:
    """A group of scoring dice that counts only as a whole: a straight, a kind, a single 1 or 5."""

    kind: UnitKind
    faces: Faces
    points: int


@dataclass(frozen=True, slots=True)
class ThrowScore:
    """What a throw is worth: its points, its scoring dice and the units they form."""

    points: int
    scoring: Faces
    """The scoring dice, sorted (empty for a throw that scores nothing: a bust)."""

    units: tuple[Unit, ...]
    """The scoring units, largest group first, then single 1s before single 5s."""


def score_throw(dice: Sequence[int]) -> ThrowScore:
    """Score a throw of 1 to 5 dice grouped to its highest value (RULES.md §3.1).

    1,5,3,3,4 → 15 (the 1 and the 5); 1,1,1,1,5 → 205; 2,2,3,4,6 → 0.
    Raises :class:`KostiError` for a bad face or a throw of no dice or more than five.
    """
    faces = normalize(dice)
    if not 1 <= len(faces) <= 5:
        raise KostiError(f"a throw of «Тысяча» has 1 to 5 dice, not {len(faces)}")
    units: list[Unit] = []
    if faces in STRAIGHTS:
        units.append(Unit("straight", faces, STRAIGHTS[faces]))
    else:
        c = counts(faces)
        for face in range(1, 7):
            if c[face - 1] >= 3:
                units.append(Unit("kind", (face,) * c[face - 1], kind_points(face, c[face - 1])))
        for face, points in SINGLE_POINTS.items():
            if c[face - 1] < 3:
                units.extend(Unit("single", (face,), points) for _ in range(c[face - 1]))
    scoring = tuple(sorted(f for unit in units for f in unit.faces))
    return ThrowScore(sum(u.points for u in units), scoring, tuple(units))


def unions(units: Sequence[Unit]) -> dict[Faces, int]:
    """Every group the player may set aside from these units, with its points.

    A group is the union of a non-empty set of whole units (RULES.md §3.2): from
    1,1,1,1,5 the four 1s, the 5, or all five; never three of the four 1s.
    """
    result: dict[Faces, int] = {}
    for size in range(1, len(units) + 1):
        for chosen in combinations(units, size):
            faces = tuple(sorted(f for unit in chosen for f in unit.faces))
            result[faces] = sum(unit.points for unit in chosen)
    return result


def set_aside_points(dice: Sequence[int], group: Sequence[int]) -> int:
    """The points of setting aside ``group`` from the throw ``dice``.

    Raises :class:`~kosti.errors.IllegalActionError` saying why when ``group`` is empty
    (``set_aside_nothing``), is not among the dice (``not_among``), holds a die that does not
    score (``not_scoring``), or breaks a unit, part of a kind or straight (``whole_only``);
    :class:`KostiError` for a face that is not a die's.
    """
    thrown = score_throw(dice)
    wanted = normalize(group)
    if not wanted:
        raise IllegalActionError("set_aside_nothing")
    allowed = unions(thrown.units)
    if wanted in allowed:
        return allowed[wanted]
    table = normalize(dice)
    if not is_submultiset(wanted, table):
        raise IllegalActionError("not_among", faces=list(wanted), dice=list(table))
    for face in sorted(set(wanted)):
        if wanted.count(face) > thrown.scoring.count(face):
            raise IllegalActionError("not_scoring", face=face, dice=list(table))
    broken = [list(u.faces) for u in thrown.units if u.kind != "single" and u.faces[0] in wanted]
    raise IllegalActionError("whole_only", units=broken)
