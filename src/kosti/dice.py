"""Dice as multisets of faces, and the exact probabilities of throws.

A throw of ``n`` dice is represented by its sorted tuple of faces: the order in
which dice land does not matter to any rule. Five dice have 252 distinct
outcomes; :func:`outcomes` lists them with their exact probabilities.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

from kosti.errors import KostiError

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DICE = 5

Faces = tuple[int, ...]
"""A multiset of die faces as a sorted tuple."""


def is_face(value: object) -> bool:
    """Whether ``value`` is a face of a die: a whole number 1 to 6 (not a bool)."""
    return not isinstance(value, bool) and isinstance(value, int) and 1 <= value <= 6


def normalize(faces: Iterable[int], count: int | None = None) -> Faces:
    """Return ``faces`` sorted, after checking each is a face 1..6 (and the count).

    Raises :class:`KostiError` naming the first bad value.
    """
    result = []
    for face in faces:
        if not is_face(face):
            raise KostiError(f"a die shows 1 to 6, not {face!r}")
        result.append(face)
    if count is not None and len(result) != count:
        raise KostiError(f"expected {count} dice, got {len(result)}")
    return tuple(sorted(result))


def counts(faces: Iterable[int]) -> tuple[int, int, int, int, int, int]:
    """How many dice show each face: index 0 is the count of ones."""
    c = [0] * 6
    for face in faces:
        c[face - 1] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])


def is_submultiset(part: Sequence[int], whole: Sequence[int]) -> bool:
    """True when every face of ``part`` can be taken from ``whole`` (with multiplicity)."""
    need = Counter(part)
    have = Counter(whole)
    return all(have[f] >= n for f, n in need.items())


def remove(whole: Sequence[int], part: Sequence[int]) -> Faces:
    """``whole`` less the dice of ``part``; raises :class:`KostiError` if ``part`` is not in it."""
    rest = Counter(whole)
    rest.subtract(Counter(part))
    if any(n < 0 for n in rest.values()):
        raise KostiError(f"{list(part)} is not among the dice {list(whole)}")
    return tuple(sorted(rest.elements()))


@cache
def multisets(n: int) -> tuple[Faces, ...]:
    """Every distinct throw of ``n`` dice, in lexicographic order (252 for five)."""
    return tuple(combinations_with_replacement(FACES, n))


@cache
def ways(faces: Faces) -> int:
    """The number of ordered throws that give this multiset (a multinomial coefficient)."""
    result = factorial(len(faces))
    for c in counts(faces):
        result //= factorial(c)
    return result


def probability(faces: Sequence[int]) -> Fraction:
    """The exact chance that a throw of ``len(faces)`` dice shows this multiset."""
    key = tuple(sorted(faces))
    return Fraction(ways(key), 6 ** len(key))


@cache
def outcomes(n: int) -> tuple[tuple[Faces, Fraction], ...]:
    """Each distinct throw of ``n`` dice with its exact probability; they sum to 1."""
    return tuple((m, probability(m)) for m in multisets(n))


@cache
def submultisets(faces: Faces) -> tuple[Faces, ...]:
    """Every distinct sub-multiset of ``faces`` (the possible holds), sorted, from () up."""
    c = counts(faces)
    result: list[Faces] = [()]
    for face in FACES:
        extended = []
        for prefix in result:
            for k in range(1, c[face - 1] + 1):
                extended.append(prefix + (face,) * k)
        result.extend(extended)
    return tuple(sorted(set(result), key=lambda m: (len(m), m)))


def reroll(kept: Sequence[int], total: int = DICE) -> dict[Faces, Fraction]:
    """The exact distribution of the ``total`` dice after keeping ``kept`` and throwing the rest."""
    base = tuple(kept)
    result: dict[Faces, Fraction] = {}
    for thrown, p in outcomes(total - len(base)):
        key = tuple(sorted(base + thrown))
        result[key] = result.get(key, Fraction(0)) + p
    return result


CARD_NAMES: dict[int, str] = {1: "9", 2: "10", 3: "J", 4: "Q", 5: "K", 6: "A"}
"""Card faces (seed 000: «Девятки, Десятки, Валеты, Дамы, Короли, Тузы»); display only."""


def show(faces: Iterable[int], style: str = "pips") -> str:
    """Faces as text, as pips (``1 5 6``) or card faces (``9 K A``)."""
    if style == "cards":
        return " ".join(CARD_NAMES[f] for f in faces)
    return " ".join(str(f) for f in faces)
