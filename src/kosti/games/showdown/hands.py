"""Hands of showdown poker dice (RULES.md §2). Pure functions of five dice.

Hands, best first: ``poker`` (five alike, rank 6), ``four_of_a_kind`` (5),
``full_house`` (4), ``three_of_a_kind`` (3), ``two_pairs`` (2), ``pair`` (1),
``nothing`` (0). Straights do not count: 1-2-3-4-5 and 2-3-4-5-6 are ``nothing``.

Every five dice make exactly one hand, by the pattern of their counts; the dice
that form it are fixed by that pattern (the three of a full house are not "the
three of a kind", a full house is formed by all five).

``hand_sum`` is the pip sum of the dice that form the hand. For ``nothing`` no die
forms a hand, so it is 0 [choice]: between two ``nothing`` hands the key then
falls through to ``total``, the sum of all five dice, which is what RULES.md §2
asks («the highest sum of the five dice wins»).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kosti.dice import DICE, Faces, counts, normalize
from kosti.errors import KostiError

HANDS: tuple[str, ...] = (
    "nothing",
    "pair",
    "two_pairs",
    "three_of_a_kind",
    "full_house",
    "four_of_a_kind",
    "poker",
)
"""Hand ids by rank: ``HANDS[rank]``; 0 is nothing, 6 is poker."""

RANK: dict[str, int] = {name: rank for rank, name in enumerate(HANDS)}
"""The rank of each hand id."""

_PATTERNS: dict[tuple[int, ...], str] = {
    (5,): "poker",
    (4, 1): "four_of_a_kind",
    (3, 2): "full_house",
    (3, 1, 1): "three_of_a_kind",
    (2, 2, 1): "two_pairs",
    (2, 1, 1, 1): "pair",
    (1, 1, 1, 1, 1): "nothing",
}
"""The counts of the faces shown, largest first, for each hand."""

Tiebreak = Literal["hand_then_total", "total"]


@dataclass(frozen=True)
class Hand:
    """What five dice make."""

    name: str
    """The hand id (one of :data:`HANDS`)."""

    dice: Faces
    """All five dice, sorted."""

    formed_by: Faces
    """The dice that form the hand, sorted (empty for ``nothing``)."""

    @property
    def rank(self) -> int:
        """6 for poker … 1 for a pair, 0 for nothing."""
        return RANK[self.name]

    @property
    def hand_sum(self) -> int:
        """The pip sum of the dice that form the hand (0 for nothing)."""
        return sum(self.formed_by)

    @property
    def total(self) -> int:
        """The pip sum of all five dice."""
        return sum(self.dice)

    def key(self, tiebreak: Tiebreak = "hand_then_total") -> tuple[int, ...]:
        """The comparison key: the higher key is the better hand; equal keys are a tie.

        ``hand_then_total``: (rank, hand_sum, total); ``total``: (rank, total).
        """
        if tiebreak == "total":
            return (self.rank, self.total)
        return (self.rank, self.hand_sum, self.total)

    def report(self) -> dict[str, int | str]:
        """The JSON of ``kosti score poker-showdown …`` (RULES.md §6)."""
        return {"hand": self.name, "rank": self.rank, "hand_sum": self.hand_sum, "total": self.total}


def classify(dice: Sequence[int]) -> Hand:
    """The hand that five dice make; :class:`KostiError` unless they are exactly five faces 1..6."""
    if len(dice) != DICE:
        raise KostiError(f"a showdown hand is exactly {DICE} dice, not {len(dice)}")
    faces = normalize(dice)
    c = counts(faces)
    pattern = tuple(sorted((n for n in c if n), reverse=True))
    name = _PATTERNS[pattern]
    # the faces shown at least twice form the hand (all five for poker and a full house)
    formed = tuple(f for f in faces if c[f - 1] >= 2)
    return Hand(name, faces, formed)


def best_seats(hands: Sequence[Hand | None], tiebreak: Tiebreak = "hand_then_total") -> list[int]:
    """The indices of the best hands (several when their keys are equal); ``None`` entries sit out."""
    keyed = [(i, h.key(tiebreak)) for i, h in enumerate(hands) if h is not None]
    if not keyed:
        return []
    best = max(k for _, k in keyed)
    return [i for i, k in keyed if k == best]


Decider = Literal["alone", "rank", "hand_sum", "total", "tied"]


def decided_by(hands: Sequence[Hand | None], tiebreak: Tiebreak = "hand_then_total") -> Decider:
    """What settled a showdown between ``hands`` (``None`` entries sit out): the first part of
    :meth:`Hand.key` in which the best hand beats the next best one.

    ``rank``: a better hand; ``hand_sum``: equal hands, the higher sum of the dice that form
    them; ``total``: the higher sum of all five (between hands of nothing, or with
    ``tiebreak = "total"``); ``tied``: equal keys, a deciding round; ``alone``: one hand only.

        >>> decided_by([classify([6, 6, 1, 2, 3]), classify([5, 5, 5, 1, 2])])
        'rank'
        >>> decided_by([classify([6, 6, 1, 2, 3]), classify([5, 5, 4, 6, 3])])
        'hand_sum'
        >>> decided_by([classify([6, 6, 1, 2, 3]), classify([6, 6, 1, 2, 4]), None])
        'total'
        >>> decided_by([classify([1, 2, 3, 4, 6]), classify([1, 2, 3, 4, 6])])
        'tied'
    """
    keys = sorted((h.key(tiebreak) for h in hands if h is not None), reverse=True)
    if len(keys) < 2:
        return "alone"
    best, second = keys[0], keys[1]
    if best == second:
        return "tied"
    part = next(i for i, (a, b) in enumerate(zip(best, second, strict=True)) if a != b)
    if part == 0:
        return "rank"
    return "hand_sum" if part == 1 and tiebreak == "hand_then_total" else "total"
